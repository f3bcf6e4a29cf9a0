package io.cosmolab.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cosmolab.query.exec.Executor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Aggregates folded as rows arrive give what a whole group gives. */
class AggregateFoldingTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static List<JsonNode> run(String text, String doc) throws Exception {
    return CompiledQuery.compile(text, Map.of())
        .execute(List.of(new Executor.Input(MAPPER.readTree(doc), 0)), GoldenScriptsTest.NOW);
  }

  @Test
  void makeSet_keepsOneOfValuesThatAreEqual_zeroAndMinusZeroIncluded() throws Exception {
    // -0.0 equals 0 (deepEquals), so it must hash alike, or the set keeps both
    assertThat(
            run(
                "SELECT VALUE MAKESET(v) FROM c JOIN v IN c.a",
                "{\"a\": [0, -0.0, 1, 1.0, [0], [-0.0], {\"x\": 0}, {\"x\": -0.0}]}"))
        .map(JsonNode::toString)
        .containsExactly("[0,1,[0],{\"x\":0}]");
  }

  @Test
  void everyAggregate_overTheSameRows_asTheWholeGroupWould() throws Exception {
    String doc = "{\"a\": [3, 1, \"x\", 2, null, true, 1]}";
    assertThat(
            run(
                "SELECT COUNT(v) AS n, MIN(v) AS lo, MAX(v) AS hi, MAKELIST(v) AS all FROM c JOIN v"
                    + " IN c.a",
                doc))
        .map(JsonNode::toString)
        .containsExactly("{\"n\":7,\"lo\":null,\"hi\":\"x\",\"all\":[3,1,\"x\",2,null,true,1]}");
    // a non-number makes SUM and AVG undefined; over numbers only they are defined
    assertThat(run("SELECT SUM(v) AS s, AVG(v) AS m FROM c JOIN v IN c.a", doc))
        .map(JsonNode::toString)
        .containsExactly("{}");
    assertThat(run("SELECT SUM(v) AS s, AVG(v) AS m FROM c JOIN v IN c.a WHERE IS_NUMBER(v)", doc))
        .map(JsonNode::toString)
        .containsExactly("{\"s\":7,\"m\":1.75}");
  }
}
