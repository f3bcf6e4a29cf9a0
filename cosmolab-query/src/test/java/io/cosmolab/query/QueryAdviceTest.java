package io.cosmolab.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The query advisor's rules (the Java SDK's {@code query_advice_rules.json}), one query per case:
 * what meets each rule, what only looks like it does, and several rules at once.
 */
class QueryAdviceTest {
  private static List<String> advice(String text) {
    Map<String, JsonNode> params =
        Map.of("@ci", BooleanNode.TRUE, "@cs", BooleanNode.FALSE, "@s", BooleanNode.TRUE);
    return QueryAdvice.of(CompiledQuery.compile(text, params));
  }

  @ParameterizedTest(name = "{0} -> [{1}]")
  @CsvSource(
      delimiter = '|',
      value = {
        // nothing to advise
        "SELECT * FROM c|",
        "SELECT * FROM c WHERE c.name = 'test' AND c.n > 3|",
        "SELECT c.name, COUNT(1) AS n FROM c GROUP BY c.name|",
        "SELECT c.a['b'][0] AS x FROM c GROUP BY c.a['b'][0]|",
        "SELECT * FROM c WHERE STARTSWITH(c.name, 'a')|",
        "SELECT * FROM c WHERE STARTSWITH(c.name, 'a', false)|",
        "SELECT * FROM c WHERE ARRAY_CONTAINS(c.tags, 'a')|",
        "SELECT * FROM c WHERE ARRAY_CONTAINS(c.tags, {'a': 1}, @cs)|",
        "SELECT DISTINCT VALUE c.grp FROM c|",
        "SELECT VALUE LOWER(c.name) FROM c|",
        // the clock outside WHERE is a value of the query, not a filter that cannot use an index
        "SELECT GetCurrentDateTime() AS now FROM c|",
        "SELECT * FROM c WHERE c.at > GetCurrentDateTimeStatic()|",
        // GROUP BY over the clock or RAND is not deterministic: no computed property holds it
        "SELECT COUNT(1) AS n FROM c GROUP BY c.a + RAND()|",
        // one rule each
        "SELECT * FROM c WHERE ARRAY_CONTAINS(c.tags, {'a': 1}, true)|QA1000",
        "SELECT * FROM c WHERE ARRAY_CONTAINS(c.tags, {'a': 1}, @ci)|QA1000",
        "SELECT DISTINCT VALUE c.id FROM c JOIN t IN c.tags WHERE t = 'x'|QA1001",
        "SELECT * FROM c WHERE CONTAINS(c.name, 'test')|QA1002",
        "SELECT VALUE CONTAINS(c.name, 'test') FROM c|QA1002",
        "SELECT * FROM c WHERE STARTSWITH(c.name, 'a', true)|QA1003",
        "SELECT * FROM c WHERE StringEquals(c.name, 'a', @s)|QA1003",
        "SELECT * FROM c WHERE ENDSWITH(c.name, 'a', true)|QA1004",
        "SELECT LOWER(c.name) AS n, COUNT(1) AS k FROM c GROUP BY LOWER(c.name)|QA1005",
        "SELECT * FROM c WHERE LOWER(c.name) = 'x'|QA1006",
        "SELECT * FROM c WHERE 'X' != UPPER(c.name)|QA1006",
        "SELECT * FROM c WHERE UPPER(c.name) IN ('A', 'B')|QA1006",
        "SELECT * FROM c WHERE LOWER(c.name) BETWEEN 'a' AND 'c'|QA1006",
        "SELECT * FROM c WHERE STARTSWITH(UPPER(c.name), 'A')|QA1006",
        "SELECT * FROM c WHERE c.timestamp > GetCurrentDateTime()|QA1007",
        "SELECT * FROM c WHERE c.ticks < GetCurrentTicks() - 10|QA1008",
        "SELECT * FROM c WHERE c.ts > GetCurrentTimestamp()|QA1009",
        // subqueries count, and their WHERE is a WHERE
        "SELECT * FROM c WHERE EXISTS(SELECT VALUE t FROM t IN c.tags WHERE CONTAINS(t, 'x'))|QA1002",
        "SELECT VALUE ARRAY(SELECT VALUE t FROM t IN c.ev WHERE t.at < GetCurrentTicks()) FROM c|QA1008",
        "SELECT VALUE COUNT(1) FROM (SELECT DISTINCT VALUE c.id FROM c JOIN t IN c.tags)|QA1001",
        // several at once, in id order, each once
        "SELECT * FROM c WHERE CONTAINS(LOWER(c.name), 'a') AND CONTAINS(c.b, 'b')|QA1002 QA1006",
        "SELECT * FROM c WHERE ENDSWITH(c.n, 'z', true) AND c.at > GetCurrentTimestamp()|QA1004 QA1009",
      })
  void aQuery_meetsTheRulesItsTextNames(String text, String expected) {
    List<String> ids = expected == null ? List.of() : List.of(expected.split(" "));
    assertThat(advice(text)).isEqualTo(ids);
  }
}
