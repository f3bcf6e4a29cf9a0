package io.cosmolab.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.query.exec.Executor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Queries written to exhaust the stack, the heap or the CPU get a clear 400-class error, on a
 * thread with the JVM's default 1 MB server stack, instead of killing the thread that runs them.
 */
class HostileQueryTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  static List<Arguments> bombs() {
    int n = 10_000;
    return List.of(
        Arguments.of(
            "parentheses", "SELECT * FROM c WHERE " + "(".repeat(n) + "true" + ")".repeat(n)),
        Arguments.of("NOT chain", "SELECT * FROM c WHERE " + "NOT ".repeat(n) + "true"),
        Arguments.of("unary minus chain", "SELECT VALUE " + "- ".repeat(n) + "1 FROM c"),
        Arguments.of("OR chain", "SELECT * FROM c WHERE true" + " OR true".repeat(50_000)),
        Arguments.of("AND chain", "SELECT * FROM c WHERE true" + " AND true".repeat(50_000)),
        Arguments.of("addition chain", "SELECT VALUE 1" + " + 1".repeat(50_000) + " FROM c"),
        Arguments.of("property chain", "SELECT VALUE c" + ".a".repeat(50_000) + " FROM c"),
        Arguments.of("index chain", "SELECT VALUE c" + "[0]".repeat(50_000) + " FROM c"),
        Arguments.of("nested calls", "SELECT VALUE " + "ABS(".repeat(n) + "1" + ")".repeat(n)),
        Arguments.of("nested arrays", "SELECT VALUE " + "[".repeat(n) + "1" + "]".repeat(n)),
        Arguments.of("nested objects", "SELECT VALUE " + "{\"a\":".repeat(n) + "1" + "}".repeat(n)),
        Arguments.of(
            "nested subqueries",
            "SELECT VALUE " + "(SELECT VALUE ".repeat(n) + "1" + ")".repeat(n)),
        Arguments.of(
            "nested EXISTS",
            "SELECT * FROM c WHERE " + "EXISTS(SELECT VALUE ".repeat(n) + "1" + ")".repeat(n)),
        Arguments.of(
            "nested conditionals", "SELECT VALUE " + "true ? ".repeat(n) + "1" + " : 2".repeat(n)),
        Arguments.of("coalesce chain", "SELECT VALUE c.a" + " ?? c.a".repeat(50_000) + " FROM c"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bombs")
  void aQueryBuiltToExhaustTheStackIsRefusedAsTooComplex(String shape, String text) {
    Throwable thrown = onServerStack(() -> run(text, doc()));
    assertThat(thrown)
        .as(shape)
        .isInstanceOfSatisfying(
            QueryException.class,
            e -> {
              assertThat(e.code()).isIn("SC3021", "SC3022");
              assertThat(e.getMessage()).containsAnyOf("too complex", "maximum number");
            });
  }

  @Test
  void aLongChainOfAccesses_isRefusedFromItsTokens_beforeTheParserBuildsIt() {
    // the tree builder refuses these too, but only after the parser has built the whole chain
    for (String text :
        List.of(
            "SELECT VALUE c" + ".a".repeat(100_000) + " FROM c",
            "SELECT VALUE c" + "[\"a\"]".repeat(100_000) + " FROM c",
            "SELECT VALUE c" + ".a[0]".repeat(50_000) + " FROM c")) {
      assertThatThrownBy(() -> run(text, doc()))
          .isInstanceOfSatisfying(
              QueryException.class,
              e -> {
                assertThat(e.code()).isEqualTo("SC3021");
                assertThat(e.getMessage())
                    .contains("a chain of property and index accesses is longer than 512 steps");
              });
    }
    // chains at the limit's reach are still queries, and brackets of their own start anew
    assertThat(onServerStack(() -> run("SELECT VALUE c" + ".a".repeat(400) + " FROM c", doc())))
        .isNull();
    String inner = "c" + ".a".repeat(300);
    assertThat(
            onServerStack(
                () -> run("SELECT VALUE [" + inner + ", " + inner + "][0]" + " FROM c", doc())))
        .isNull();
  }

  @Test
  void queriesAtTheLimitsStillRunOnTheServersStack() {
    String nested =
        "SELECT VALUE "
            + "(".repeat(120)
            + "1"
            + ")".repeat(120)
            + " FROM c WHERE c.id = 'x'"
            + " OR c.id = 'y'".repeat(499);
    assertThat(onServerStack(() -> run(nested, doc()))).isNull();
    String subqueries =
        "SELECT VALUE " + "(SELECT VALUE ".repeat(60) + "1" + ")".repeat(60) + " FROM c";
    assertThat(onServerStack(() -> run(subqueries, doc()))).isNull();
    String chain = "SELECT VALUE 1" + " + 1".repeat(500) + " FROM c";
    assertThat(onServerStack(() -> run(chain, doc()))).isNull();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ST_DISTANCE({'type':'Point','coordinates':null}, {'type':'Point','coordinates':[1,2]})",
        "ST_DISTANCE({'type':'Polygon','coordinates':[[1]]}, {'type':'Point','coordinates':[1,2]})",
        "ST_DISTANCE({'type':'Polygon','coordinates':[[[1,2],[3]]]}, {'type':'Point','coordinates':[1,2]})",
        "ST_WITHIN({'type':'Point','coordinates':[1]}, {'type':'Polygon'})",
        "DATETIMEBIN('0001-01-01T00:00:00.0000000Z', 'dd', 7)",
        "DATETIMEADD('yyyy', 1e18, '2021-06-28T17:24:29Z')",
        "DATETIMEADD('ms', 9e18, '2021-06-28T17:24:29Z')",
        "DATETIMEDIFF('ns', '0001-01-01T00:00:00Z', '9999-12-31T00:00:00Z')",
        "TIMESTAMPTODATETIME(9e18)",
        "DATETIMEFROMPARTS(99999, 1, 1)"
      })
  void aFunctionGivenArgumentsItCannotWorkWithIsUndefinedNotAFailure(String call) {
    assertThat(run("SELECT VALUE " + call, doc())).isEmpty();
  }

  @Test
  void dateTimeBinAnswersItsDocumentedExamples() {
    assertThat(run("SELECT VALUE DATETIMEBIN('2021-06-28T17:24:29.2991234Z', 'hh')", doc()))
        .containsExactly(NODES.textNode("2021-06-28T17:00:00.0000000Z"));
    assertThat(run("SELECT VALUE DATETIMEBIN('2021-06-28T17:24:29.2991234Z', 'hh', 3)", doc()))
        .containsExactly(NODES.textNode("2021-06-28T15:00:00.0000000Z"));
    // the far ends of the range bin exactly (nanoseconds since 1970 overflow a long there)
    assertThat(run("SELECT VALUE DATETIMEBIN('9999-12-31T23:59:59.9999999Z', 'dd', 7)", doc()))
        .containsExactly(NODES.textNode("9999-12-30T00:00:00.0000000Z"));
  }

  @Test
  void aNumberLiteralPastADoublesRangeIsASyntaxErrorNotInfinity() {
    assertThatThrownBy(() -> CompiledQuery.compile("SELECT VALUE 1e400", Map.of()))
        .isInstanceOfSatisfying(
            QueryException.class,
            e -> {
              assertThat(e.code()).isEqualTo("SC1001");
              assertThat(e.getMessage()).contains("1e400 is out of range");
            });
  }

  @Test
  void moreThanFiveHundredOrsIsTheServicesLimit() {
    String text = "SELECT * FROM c WHERE c.id = '0'" + " OR c.id = 'x'".repeat(501);
    assertThatThrownBy(() -> CompiledQuery.compile(text, Map.of()))
        .isInstanceOfSatisfying(
            QueryException.class,
            e -> {
              assertThat(e.code()).isEqualTo("SC3022");
              assertThat(e.getMessage()).contains("'OR' operators. The allowed limit is 500");
            });
    // a property called "or" is no operator
    CompiledQuery.compile(
        "SELECT c.or, c.and FROM c WHERE c.or" + " AND c.and".repeat(499), Map.of());
  }

  @Test
  void aRegexThatBacktracksPerCharacterAnswersOverTwentyKilobytes() {
    ObjectNode doc = doc().put("big", "a".repeat(20_000));
    Throwable thrown =
        onServerStack(
            () -> {
              assertThat(run("SELECT VALUE REGEXMATCH(c.big, '(a|aa)*c') FROM c", doc))
                  .containsExactly(NODES.booleanNode(false));
              assertThat(run("SELECT VALUE REGEXMATCH(c.big, '^(a|aa)*$') FROM c", doc))
                  .containsExactly(NODES.booleanNode(true));
            });
    assertThat(thrown).isNull();
  }

  @Test
  void aBackreferenceRegexThatOverflowsIsA400NotADeadThread() {
    // RE2 has no backreferences, so this one runs on java.util.regex, which recurses per repetition
    ObjectNode doc = doc().put("big", "ab".repeat(20_000));
    Throwable thrown =
        onServerStack(
            () -> run("SELECT VALUE REGEXMATCH(c.big, '^(a|b)\\\\1?((a|b)\\\\3?)*$') FROM c", doc));
    if (thrown != null) {
      assertThat(thrown).isInstanceOf(QueryException.class).hasMessageContaining("too complex");
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"[[]", "[]", "[z-a]", "[a&&[^a]]", "[\\\\]", "%[", "[^]", "a[b-]", "\\\\Q"})
  void likePatternsThatAreNotRegexesAnswer(String pattern) {
    ObjectNode doc = doc().put("s", "[a&]\\Q");
    String text = "SELECT VALUE c.s LIKE '" + pattern + "' FROM c";
    assertThat(run(text, doc)).hasSize(1).allSatisfy(v -> assertThat(v.isBoolean()).isTrue());
  }

  @Test
  void likeSetsFollowSqlNotRegexSyntax() {
    ObjectNode doc = doc().put("s", "[");
    assertThat(run("SELECT VALUE c.s LIKE '[[]' FROM c", doc))
        .containsExactly(NODES.booleanNode(true));
    assertThat(run("SELECT VALUE 'b' LIKE '[z-a]' FROM c", doc))
        .containsExactly(NODES.booleanNode(false));
    assertThat(run("SELECT VALUE 'b' LIKE '[a-c]' FROM c", doc))
        .containsExactly(NODES.booleanNode(true));
    assertThat(run("SELECT VALUE 'b' LIKE '[^a-c]' FROM c", doc))
        .containsExactly(NODES.booleanNode(false));
    assertThat(run("SELECT VALUE '&' LIKE '[a&&[^a]]' FROM c", doc))
        .containsExactly(NODES.booleanNode(false));
    assertThat(run("SELECT VALUE '&]' LIKE '[a&&[^a]]' FROM c", doc))
        .containsExactly(NODES.booleanNode(true));
    assertThat(run("SELECT VALUE 'a%b' LIKE 'a!%b' ESCAPE '!' FROM c", doc))
        .containsExactly(NODES.booleanNode(true));
    assertThat(run("SELECT VALUE 'axb' LIKE 'a!%b' ESCAPE '!' FROM c", doc))
        .containsExactly(NODES.booleanNode(false));
    assertThat(run("SELECT VALUE 'abcabd' LIKE '%ab_' FROM c", doc))
        .containsExactly(NODES.booleanNode(true));
    assertThat(run("SELECT VALUE 'abc' LIKE 'a%%c' FROM c", doc))
        .containsExactly(NODES.booleanNode(true));
  }

  @Test
  void aLikeWithManyPercentSignsOverALongStringStaysLinearish() {
    ObjectNode doc = doc().put("s", "a".repeat(5_000));
    assertThat(run("SELECT VALUE c.s LIKE '%a%a%a%a%a%a%a%b' FROM c", doc))
        .containsExactly(NODES.booleanNode(false));
  }

  @Test
  void aCartesianJoinStopsAtTheWorkLimitBeforeTheHeapFills() {
    ObjectNode doc = withArray(100);
    String text =
        "SELECT VALUE COUNT(1) FROM c JOIN a IN c.arr JOIN b IN c.arr JOIN x IN c.arr JOIN y IN"
            + " c.arr";
    Runtime rt = Runtime.getRuntime();
    assertThatThrownBy(() -> run(text, doc))
        .isInstanceOfSatisfying(
            QueryException.class,
            e -> {
              assertThat(e.code()).isEqualTo("SC3031");
              // COUNT holds no rows, so the 10^8 rows stop at the work limit, not the held rows
              assertThat(e.getMessage()).contains("work limit");
            });
    System.gc();
    assertThat(rt.totalMemory() - rt.freeMemory()).isLessThan(512L << 20);
  }

  @Test
  void anAggregateHoldsItsGroupsNotItsRows_soAProductPastTheHeldRowsLimitIsCounted() {
    ObjectNode doc = withArray(1_500);
    // 2.25 million rows, more than MAX_ROWS_HELD: an aggregate folds them as they arrive
    assertThat(1_500L * 1_500).isGreaterThan(Executor.MAX_ROWS_HELD);
    assertThat(
            run(
                "SELECT COUNT(1) AS n, SUM(a) AS s, MAX(b) AS m FROM c JOIN a IN c.arr JOIN b IN"
                    + " c.arr",
                doc))
        .map(JsonNode::toString)
        .containsExactly("{\"n\":2250000,\"s\":1686375000,\"m\":1499}");
    // grouped: two groups, each folded as its rows arrive
    assertThat(
            run(
                "SELECT a % 2 AS parity, COUNT(1) AS n FROM c JOIN a IN c.arr JOIN b IN c.arr"
                    + " GROUP BY a % 2",
                doc))
        .map(JsonNode::toString)
        .containsExactlyInAnyOrder("{\"parity\":0,\"n\":1125000}", "{\"parity\":1,\"n\":1125000}");
  }

  @Test
  void aMakeListOverACartesianJoinStopsAtTheHeldRowsLimit() {
    ObjectNode doc = withArray(1_500);
    // MAKELIST's result is its values, so those count as held
    assertThatThrownBy(
            () -> run("SELECT VALUE MAKELIST(a) FROM c JOIN a IN c.arr JOIN b IN c.arr", doc))
        .isInstanceOfSatisfying(
            QueryException.class,
            e ->
                assertThat(e.getMessage())
                    .contains("more than " + Executor.MAX_ROWS_HELD + " rows"));
  }

  @Test
  void aJoinWhoseFilterKeepsFewRowsIsNotRefusedForTheSizeOfItsProduct() {
    ObjectNode doc = withArray(1_500);
    // 2.25 million pairs, more than MAX_ROWS_HELD, of which the filter keeps 1,500
    assertThat(run("SELECT VALUE COUNT(1) FROM c JOIN a IN c.arr JOIN b IN c.arr WHERE a = b", doc))
        .containsExactly(NODES.numberNode(1_500));
  }

  private static ObjectNode doc() {
    return NODES.objectNode().put("id", "x");
  }

  /** A document whose {@code arr} holds 0, 1, ... n - 1. */
  private static ObjectNode withArray(int n) {
    ObjectNode doc = doc();
    ArrayNode arr = doc.putArray("arr");
    for (int i = 0; i < n; i++) {
      arr.add(i);
    }
    return doc;
  }

  private static List<JsonNode> run(String text, ObjectNode doc) {
    return CompiledQuery.compile(text, Map.of())
        .execute(List.of(new Executor.Input(doc, 0)), GoldenScriptsTest.NOW);
  }

  /** Runs on a new thread with a 1 MB stack (a server thread's); returns what it threw, or null. */
  private static Throwable onServerStack(Runnable body) {
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread t =
        new Thread(
            null,
            () -> {
              try {
                body.run();
              } catch (Throwable e) {
                thrown.set(e);
              }
            },
            "server-stack",
            1 << 20);
    t.start();
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
    return thrown.get();
  }
}
