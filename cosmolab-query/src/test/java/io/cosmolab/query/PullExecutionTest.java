package io.cosmolab.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.query.exec.Executor;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The executor pulls: a consumer that stops reading stops the scan, TOP and bounded ORDER BY read
 * or hold only what they need, and work is counted as rows are made, so a filtered cross product
 * stops at the work limit instead of running through it.
 */
class PullExecutionTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Documents {"id": "d<i>", "n": i}, counting how many the query has read. */
  private static final class CountingInputs implements Iterable<Executor.Input> {
    private final int size;
    int read;

    CountingInputs(int size) {
      this.size = size;
    }

    @Override
    public Iterator<Executor.Input> iterator() {
      return new Iterator<>() {
        private int i;

        @Override
        public boolean hasNext() {
          return i < size;
        }

        @Override
        public Executor.Input next() {
          read++;
          ObjectNode d = NODES.objectNode().put("id", "d" + i).put("n", (i * 7919) % size);
          d.putArray("tags").add("a").add("b");
          return new Executor.Input(d, i++);
        }
      };
    }
  }

  private static Executor.Cursor open(String text, Iterable<Executor.Input> inputs, long wanted) {
    CompiledQuery q = CompiledQuery.compile(text, Map.of());
    return new Executor(q.parameterValues(), GoldenScriptsTest.NOW, Executor.DEFAULT_WORK_LIMIT)
        .open(q.ast(), inputs, wanted);
  }

  private static List<Executor.Output> take(Executor.Cursor cursor, int n) {
    List<Executor.Output> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Executor.Output o = cursor.next();
      if (o == null) {
        break;
      }
      out.add(o);
    }
    return out;
  }

  @Test
  void aStreamingQuery_readsOnlyTheDocumentsOfTheRowsPulled() {
    CountingInputs inputs = new CountingInputs(10_000);
    Executor.Cursor c =
        open("SELECT c.id, t FROM c JOIN t IN c.tags WHERE c.n % 2 = 0", inputs, -1);
    List<Executor.Output> rows = take(c, 11);
    assertThat(rows).hasSize(11);
    assertThat(inputs.read).isLessThan(20); // about 2 documents per 2 rows, half filtered out
    assertThat(rows.get(10).order()).isEqualTo(inputs.read - 1);
  }

  @Test
  void aCursor_saysWhatItsGroupsHold_andAStreamingOneHoldsNothing() {
    Executor.Cursor few =
        open(
            "SELECT c.n % 10 AS k, COUNT(1) AS m FROM c GROUP BY c.n % 10",
            new CountingInputs(1_000), -1);
    Executor.Cursor many =
        open("SELECT c.n AS k, COUNT(1) AS m FROM c GROUP BY c.n", new CountingInputs(1_000), -1);
    Executor.Cursor streaming = open("SELECT c.id FROM c", new CountingInputs(1_000), -1);
    assertThat(take(few, 1)).hasSize(1);
    assertThat(take(many, 1)).hasSize(1);
    assertThat(take(streaming, 500)).hasSize(500);

    assertThat(few.bytesHeld()).isPositive();
    assertThat(many.bytesHeld()).isGreaterThan(50 * few.bytesHeld());
    assertThat(streaming.bytesHeld()).isZero();
  }

  @Test
  void aQueryThatCallsAFunctionOrReadsTheClockOrDraws_dependsOnItsRun_wherever() {
    for (String text :
        List.of(
            "SELECT c.id FROM c",
            "SELECT c.k, COUNT(1) FROM c WHERE c.n > 1 GROUP BY c.k",
            "SELECT DISTINCT VALUE LOWER(c.s) FROM c")) {
      assertThat(CompiledQuery.compile(text, Map.of()).dependsOnItsRun()).as(text).isFalse();
    }
    for (String text :
        List.of(
            "SELECT VALUE udf.f(c.id) FROM c",
            "SELECT c.id FROM c WHERE c.n > 1 AND udf.g(c.n)",
            "SELECT c.k, COUNT(1) FROM c GROUP BY c.k, udf.h(c.n)",
            "SELECT c.id FROM c WHERE EXISTS (SELECT VALUE t FROM t IN c.tags WHERE udf.i(t))",
            "SELECT DISTINCT VALUE ABS(udf.j(c.n)) FROM c",
            "SELECT c.k, COUNT(1) FROM c WHERE c.exp > GetCurrentTimestamp() GROUP BY c.k",
            "SELECT DISTINCT VALUE c.n > RAND() FROM c",
            "SELECT VALUE COUNT(1) FROM c WHERE c.at < GetCurrentDateTimeStatic()")) {
      assertThat(CompiledQuery.compile(text, Map.of()).dependsOnItsRun()).as(text).isTrue();
    }
  }

  @Test
  void top_stopsTheScanAfterItsRows() {
    CountingInputs inputs = new CountingInputs(10_000);
    List<JsonNode> rows =
        CompiledQuery.compile("SELECT TOP 3 VALUE c.id FROM c", Map.of())
            .execute(inputs, GoldenScriptsTest.NOW);
    assertThat(rows).hasSize(3);
    assertThat(inputs.read).isEqualTo(3);
  }

  @Test
  void orderByForAPage_givesTheSamePrefixAsTheWholeSort() {
    for (String text :
        List.of(
            "SELECT c.id FROM c ORDER BY c.n",
            "SELECT VALUE c.id FROM c ORDER BY c.n DESC",
            "SELECT c.id, t FROM c JOIN t IN c.tags ORDER BY c.n",
            "SELECT c.id FROM c ORDER BY c.n OFFSET 5 LIMIT 20")) {
      List<Executor.Output> whole = take(open(text, new CountingInputs(500), -1), 1_000);
      List<Executor.Output> page = take(open(text, new CountingInputs(500), 12), 12);
      assertThat(page).as(text).isEqualTo(whole.subList(0, 12));
    }
  }

  @Test
  void aFilteredCrossProduct_stopsAtTheWorkLimitOfItsDocument() {
    ObjectNode doc = NODES.objectNode().put("id", "x");
    ArrayNode arr = doc.putArray("arr");
    for (int i = 0; i < 100; i++) {
      arr.add(i);
    }
    // 10^8 rows of which the filter keeps 100: nothing is held, so only the work limit stops it
    String text =
        "SELECT VALUE COUNT(1) FROM c JOIN a IN c.arr JOIN b IN c.arr JOIN x IN c.arr JOIN y IN"
            + " c.arr WHERE a = b AND x = y AND a = x";
    CompiledQuery q = CompiledQuery.compile(text, Map.of());
    Executor e = new Executor(Map.of(), GoldenScriptsTest.NOW, 1_000_000);
    assertThatThrownBy(() -> e.run(q.ast(), List.of(new Executor.Input(doc, 0))))
        .isInstanceOfSatisfying(
            QueryException.class,
            x -> {
              assertThat(x.code()).isEqualTo("SC3031");
              assertThat(x.getMessage()).contains("work limit of 1000000");
            });
    assertThat(e.work()).isEqualTo(1_000_001); // it stopped at the unit that passed the limit
  }

  @Test
  void theWorkLimit_appliesPerDocument_soALargeScanIsNotRefused() {
    CountingInputs inputs = new CountingInputs(5_000);
    CompiledQuery q =
        CompiledQuery.compile("SELECT VALUE COUNT(1) FROM c JOIN t IN c.tags", Map.of());
    // 5,000 documents × (1 + 2 rows) = 15,000 units, each document far below its 100
    Executor e = new Executor(Map.of(), GoldenScriptsTest.NOW, 100);
    assertThat(e.run(q.ast(), inputs)).containsExactly(NODES.numberNode(10_000));
    assertThat(e.work()).isEqualTo(15_000);
  }
}
