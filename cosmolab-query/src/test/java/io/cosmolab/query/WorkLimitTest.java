package io.cosmolab.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.query.exec.Executor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Work per query is bounded: pathological input fails with a clear error instead of hanging. */
class WorkLimitTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Puts the array 0, 1, ... n-1 at {@code field}: what a JOIN multiplies. */
  private static void integers(ObjectNode doc, String field, int n) {
    ArrayNode xs = doc.putArray(field);
    for (int i = 0; i < n; i++) {
      xs.add(i);
    }
  }

  @Test
  void aRegularPatternThatBacktracksInJavaRunsInLinearTimeOnRe2() {
    // unbounded, java.util.regex needs about 100 s for this on 41 characters (measured on JDK 25)
    ObjectNode doc = NODES.objectNode().put("s", "a".repeat(40) + "!");
    CompiledQuery q =
        CompiledQuery.compile("SELECT VALUE REGEXMATCH(c.s, '^(.*a){12}$') FROM c", Map.of());
    assertThat(q.execute(List.of(new Executor.Input(doc, 0)), GoldenScriptsTest.NOW, 1_000_000))
        .containsExactly(NODES.booleanNode(false));
  }

  @Test
  void catastrophicRegex_stopsAtTheWorkLimit() {
    // the backreference needs a backtracking engine, so this one runs on java.util.regex
    ObjectNode doc = NODES.objectNode().put("s", "a".repeat(40) + "!");
    CompiledQuery q =
        CompiledQuery.compile("SELECT VALUE REGEXMATCH(c.s, '^(.*a){12}\\\\1$') FROM c", Map.of());
    assertThatThrownBy(
            () -> q.execute(List.of(new Executor.Input(doc, 0)), GoldenScriptsTest.NOW, 1_000_000))
        .isInstanceOfSatisfying(
            QueryException.class,
            e -> {
              assertThat(e.code()).isEqualTo("SC3031");
              assertThat(e.getMessage()).contains("work limit of 1000000");
            });
  }

  @Test
  void hugeCrossProduct_stopsAtTheWorkLimit() {
    ObjectNode doc = NODES.objectNode();
    integers(doc, "x", 1000);
    CompiledQuery q =
        CompiledQuery.compile(
            "SELECT VALUE COUNT(1) FROM c JOIN a IN c.x JOIN b IN c.x JOIN d IN c.x", Map.of());
    assertThatThrownBy(
            () -> q.execute(List.of(new Executor.Input(doc, 0)), GoldenScriptsTest.NOW, 200_000))
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("work limit");
  }

  @Test
  void aFunctionOverALongStringInEveryRowOfAJoin_stopsAtTheWorkLimit() {
    // 216,000 rows, each reading 1.5 MB: minutes when a call counted one unit whatever it read
    ObjectNode doc = NODES.objectNode().put("s", "a".repeat(1_500_000));
    integers(doc, "arr", 60);
    CompiledQuery q =
        CompiledQuery.compile(
            "SELECT VALUE COUNT(1) FROM c JOIN a IN c.arr JOIN b IN c.arr JOIN d IN c.arr"
                + " WHERE CONTAINS(c.s, 'b')",
            Map.of());
    assertThatThrownBy(() -> q.execute(List.of(new Executor.Input(doc, 0)), GoldenScriptsTest.NOW))
        .isInstanceOfSatisfying(
            QueryException.class,
            e -> {
              assertThat(e.code()).isEqualTo("SC3031");
              assertThat(e.getMessage()).contains("functions over long strings");
            });
  }

  @Test
  void oneFunctionOverTheLargestDocumentsString_staysUnderTheDefaultLimit() {
    ObjectNode doc = NODES.objectNode().put("s", "a".repeat(2_000_000) + "b");
    ArrayNode xs = doc.putArray("arr");
    for (int i = 0; i < 100; i++) {
      xs.add("x" + i);
    }
    CompiledQuery q =
        CompiledQuery.compile(
            "SELECT VALUE COUNT(1) FROM c JOIN a IN c.arr"
                + " WHERE CONTAINS(c.s, 'b') AND ARRAY_CONTAINS(c.arr, a)",
            Map.of());
    assertThat(q.execute(List.of(new Executor.Input(doc, 0)), GoldenScriptsTest.NOW))
        .containsExactly(NODES.numberNode(100));
  }

  @Test
  void aJoinOverALargeArray_checkingEachElementAgainstIt_staysUnderTheDefaultLimit() {
    // 10,000 rows, each call walking up to 10,000 elements: real work, and a legitimate query
    ObjectNode doc = NODES.objectNode();
    integers(doc, "arr", 10_000);
    CompiledQuery q =
        CompiledQuery.compile(
            "SELECT VALUE COUNT(1) FROM c JOIN t IN c.arr WHERE ARRAY_CONTAINS(c.arr, t)",
            Map.of());
    assertThat(q.execute(List.of(new Executor.Input(doc, 0)), GoldenScriptsTest.NOW))
        .containsExactly(NODES.numberNode(10_000));
  }

  @Test
  void functionsThatReadAPrefixOrNothingOfALongString_costNoMoreForItsLength() {
    // a 1 MB body beside 700 tags: each JOIN row tests the body without reading it all
    ObjectNode doc = NODES.objectNode().put("body", "abc" + "x".repeat(1_000_000));
    ArrayNode tags = doc.putArray("tags");
    for (int i = 0; i < 700; i++) {
      tags.add("t" + i);
    }
    CompiledQuery q =
        CompiledQuery.compile(
            "SELECT VALUE t FROM c JOIN t IN c.tags WHERE IS_DEFINED(c.body)"
                + " AND STARTSWITH(c.body, 'abc') AND LEFT(c.body, 3) = 'abc' AND t = 't5'",
            Map.of());
    assertThat(q.execute(List.of(new Executor.Input(doc, 0)), GoldenScriptsTest.NOW))
        .containsExactly(NODES.textNode("t5"));
  }

  static List<String> copyingAQueryBuiltToRepeat() {
    return List.of(
        // a function whose result is the whole document, in each of 3,600 rows
        "SELECT VALUE COUNT(1) FROM c JOIN a IN c.arr JOIN b IN c.arr WHERE TOSTRING(c) = 'x'",
        // the || operator copies both sides
        "SELECT VALUE COUNT(1) FROM c JOIN a IN c.arr JOIN b IN c.arr WHERE c.s || 'x' = 'x'",
        // a UDF gets its arguments as text
        "SELECT VALUE COUNT(1) FROM c JOIN a IN c.arr JOIN b IN c.arr WHERE udf.f(c.s) = 1");
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.MethodSource("copyingAQueryBuiltToRepeat")
  void copyingALongStringInEveryRowOfAJoin_stopsAtTheWorkLimit(String text) {
    ObjectNode doc = NODES.objectNode().put("s", "a".repeat(900_000));
    integers(doc, "arr", 60);
    io.cosmolab.query.exec.UserFunctions udfs = (name, args) -> NODES.numberNode(0);
    CompiledQuery q = CompiledQuery.compile(text, Map.of());
    assertThatThrownBy(
            () ->
                q.open(List.of(new Executor.Input(doc, 0)), GoldenScriptsTest.NOW, -1, udfs).next())
        .isInstanceOfSatisfying(
            QueryException.class, e -> assertThat(e.code()).isEqualTo("SC3031"));
  }

  @Test
  void ordinaryQuery_staysWellUnderTheDefaultLimit() {
    ObjectNode doc = NODES.objectNode().put("s", "abc");
    CompiledQuery q = CompiledQuery.compile("SELECT VALUE REGEXMATCH(c.s, 'b') FROM c", Map.of());
    assertThat(q.execute(List.of(new Executor.Input(doc, 0)), GoldenScriptsTest.NOW))
        .containsExactly(NODES.booleanNode(true));
  }

  @Test
  void queryOverTheLengthLimit_isRejected() {
    String longQuery = "SELECT VALUE 1 -- " + "x".repeat(600_000);
    assertThatThrownBy(() -> CompiledQuery.compile(longQuery, Map.of()))
        .isInstanceOfSatisfying(
            QueryException.class, e -> assertThat(e.getMessage()).contains("524288"));
  }

  @Test
  void parameters_mustStartWithAtAndNotRepeat() {
    assertThatThrownBy(() -> CompiledQuery.parameters(List.of(Map.entry("x", NODES.numberNode(1)))))
        .hasMessageContaining("must start with '@'");
    assertThatThrownBy(
            () ->
                CompiledQuery.parameters(
                    List.of(
                        Map.entry("@x", NODES.numberNode(1)),
                        Map.entry("@x", NODES.numberNode(2)))))
        .hasMessageContaining("more than once");
  }

  @Test
  void condition_compilesFromWhereText() {
    CompiledQuery c = CompiledQuery.condition("from c where c.n > 1");
    assertThat(c.test(NODES.objectNode().put("n", 2), GoldenScriptsTest.NOW)).isTrue();
    assertThat(c.test(NODES.objectNode().put("n", 0), GoldenScriptsTest.NOW)).isFalse();
    assertThatThrownBy(() -> CompiledQuery.condition("c.n > 1"))
        .hasMessageContaining("FROM c WHERE");
  }

  /** 200 documents, each with {@code n} = its number and {@code s} = 2,000 characters. */
  private static List<Executor.Input> wideDocuments() {
    List<Executor.Input> docs = new java.util.ArrayList<>();
    for (int i = 0; i < 200; i++) {
      ObjectNode doc = NODES.objectNode().put("n", i).put("s", "x".repeat(2_000));
      integers(doc, "x", 50);
      docs.add(new Executor.Input(doc, i));
    }
    return docs;
  }

  private static void assertHoldsTooMuch(String text) {
    CompiledQuery q = CompiledQuery.compile(text, Map.of());
    Executor small =
        new Executor(Map.of(), GoldenScriptsTest.NOW, Executor.DEFAULT_WORK_LIMIT)
            .maxBytesHeld(4 << 20);
    assertThatThrownBy(() -> small.run(q.ast(), wideDocuments()))
        .as(text)
        .isInstanceOfSatisfying(
            QueryException.class,
            e -> {
              assertThat(e.code()).isEqualTo("SC3031");
              assertThat(e.getMessage()).contains("holds more than 4 MB");
            });
  }

  @Test
  void groupsWithLargeKeys_stopAtTheBytesHeld_longBeforeTheRowsHeld() {
    // 10,000 groups (far under MAX_ROWS_HELD), each keyed by a 2 KB string: about 40 MB
    assertHoldsTooMuch(
        "SELECT COUNT(1) AS n FROM c JOIN a IN c.x"
            + " GROUP BY CONCAT(c.s, ToString(c.n), '-', ToString(a))");
    assertHoldsTooMuch("SELECT VALUE MAKELIST(CONCAT(c.s, ToString(a))) FROM c JOIN a IN c.x");
  }

  @Test
  void distinctAndSortedRowsWithLargeValues_stopAtTheBytesHeld() {
    assertHoldsTooMuch(
        "SELECT DISTINCT VALUE CONCAT(c.s, ToString(c.n), ToString(a)) FROM c JOIN a IN c.x");
    assertHoldsTooMuch(
        "SELECT VALUE x.k FROM (SELECT CONCAT(c.s, ToString(a)) AS k FROM c JOIN a IN c.x) x"
            + " ORDER BY x.k");
  }

  @Test
  void theSameQueriesOverSmallValues_runWithinTheBytesHeld() {
    CompiledQuery q =
        CompiledQuery.compile(
            "SELECT VALUE COUNT(1) FROM (SELECT DISTINCT VALUE CONCAT(ToString(c.n), '-',"
                + " ToString(a)) FROM c JOIN a IN c.x) d",
            Map.of());
    Executor small =
        new Executor(Map.of(), GoldenScriptsTest.NOW, Executor.DEFAULT_WORK_LIMIT)
            .maxBytesHeld(4 << 20);
    assertThat(small.run(q.ast(), wideDocuments())).containsExactly(NODES.numberNode(10_000));
  }
}
