package io.cosmolab.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.query.plan.QueryPlanner;
import io.cosmolab.query.plan.SqlWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The plan shapes of gateway-protocol.md §7.2–7.4, field by field. */
class QueryPlannerTest {
  private static ObjectNode plan(String q) {
    return QueryPlanner.queryInfo(CompiledQuery.compile(q, Map.of("@n", IntNode.valueOf(3))));
  }

  @Test
  void orderBy_rewritesToRidItemsAndPayloadWithTheResumePlaceholder() {
    ObjectNode info = plan("SELECT * FROM c ORDER BY c.id");
    assertThat(info.get("rewrittenQuery").textValue())
        .isEqualTo(
            "SELECT c._rid, [{\"item\": c.id}] AS orderByItems, c AS payload FROM c AS c WHERE"
                + " ({documentdb-formattableorderbyquery-filter}) ORDER BY c.id ASC");
    assertThat(info.get("orderBy")).hasToString("[\"Ascending\"]");
    assertThat(info.get("orderByExpressions")).hasToString("[\"c.id\"]");
    assertThat(info.get("distinctType").textValue()).isEqualTo("None");
    assertThat(info.get("hasSelectValue").booleanValue()).isFalse();
  }

  @Test
  void offsetPlusLimit_sentToEachPartition_isCappedAtTheLargestCount() {
    // each count is valid alone; their sum would be refused by every partition (SC2061)
    assertThat(plan("SELECT * FROM c OFFSET 10 LIMIT 4294967295").get("rewrittenQuery").textValue())
        .endsWith("OFFSET 0 LIMIT 4294967295");
    assertThat(plan("SELECT * FROM c OFFSET 10 LIMIT 2147483647").get("rewrittenQuery").textValue())
        .endsWith("OFFSET 0 LIMIT 2147483657");
    CompiledQuery.compile("SELECT * FROM c OFFSET 0 LIMIT 4294967295", Map.of());
  }

  @Test
  void aCountOfADistinctSubquery_isPlannedAsADistinctCount_notASumOfPartitionCounts() {
    ObjectNode value = plan("SELECT VALUE COUNT(1) FROM (SELECT DISTINCT VALUE c.cat FROM c)");
    assertThat(value.get("dCountInfo")).hasToString("{\"dCountAlias\":\"\"}");
    assertThat(value.get("rewrittenQuery").textValue())
        .isEqualTo(
            SqlWriter.write(
                CompiledQuery.compile("SELECT DISTINCT VALUE c.cat FROM c", Map.of()).ast()));
    assertThat(value.get("distinctType").textValue()).isEqualTo("Unordered");
    assertThat(value.get("aggregates")).isEmpty();
    assertThat(value.get("hasSelectValue").booleanValue()).isTrue();
    // the same keys as every other plan's queryInfo
    assertThat(ImmutableFieldNames.of(value))
        .isEqualTo(ImmutableFieldNames.of(plan("SELECT VALUE COUNT(1) FROM c")));

    ObjectNode named = plan("SELECT COUNT(1) AS n FROM (SELECT DISTINCT c.cat, c.size FROM c) d");
    assertThat(named.get("dCountInfo")).hasToString("{\"dCountAlias\":\"n\"}");
    assertThat(named.get("hasSelectValue").booleanValue()).isFalse();

    // not a distinct count: a filter outside, or a subquery that is not DISTINCT
    assertThat(
            plan("SELECT VALUE COUNT(1) FROM (SELECT VALUE c.cat FROM c)")
                .get("dCountInfo")
                .isNull())
        .isTrue();
    assertThat(
            plan("SELECT VALUE COUNT(1) FROM (SELECT DISTINCT VALUE c.cat FROM c) x WHERE x > 1")
                .get("dCountInfo")
                .isNull())
        .isTrue();
  }

  /** The field names of a plan's queryInfo, in order. */
  private static final class ImmutableFieldNames {
    static List<String> of(JsonNode n) {
      List<String> out = new java.util.ArrayList<>();
      n.fieldNames().forEachRemaining(out::add);
      return out;
    }
  }

  @Test
  void orderBy_withProjectionFilterTopAndSeveralKeys() {
    ObjectNode info =
        plan("SELECT TOP 5 c.id, c.x AS y FROM c WHERE c.n > 1 ORDER BY c.n DESC, c.id");
    assertThat(info.get("rewrittenQuery").textValue())
        .isEqualTo(
            "SELECT TOP 5 c._rid, [{\"item\": c.n}, {\"item\": c.id}] AS orderByItems, {\"id\":"
                + " c.id, \"y\": c.x} AS payload FROM c AS c WHERE ((c.n > 1)) AND"
                + " ({documentdb-formattableorderbyquery-filter}) ORDER BY c.n DESC, c.id ASC");
    assertThat(info.get("top").intValue()).isEqualTo(5);
    assertThat(info.get("orderBy")).hasToString("[\"Descending\",\"Ascending\"]");
  }

  @Test
  void offsetLimit_withOrderBy_becomesOffsetZeroLimitSum() {
    ObjectNode info = plan("SELECT VALUE c.id FROM c ORDER BY c.id OFFSET 5 LIMIT 7");
    assertThat(info.get("rewrittenQuery").textValue())
        .endsWith("ORDER BY c.id ASC OFFSET 0 LIMIT 12");
    assertThat(info.get("offset").intValue()).isEqualTo(5);
    assertThat(info.get("limit").intValue()).isEqualTo(7);
    assertThat(info.get("hasSelectValue").booleanValue()).isTrue();
  }

  @Test
  void valueAggregates_rewriteToItemArrays_andAverageToSumAndCount() {
    ObjectNode count = plan("SELECT VALUE COUNT(1) FROM c");
    assertThat(count.get("aggregates")).hasToString("[\"Count\"]");
    assertThat(count.get("rewrittenQuery").textValue())
        .isEqualTo("SELECT VALUE [{\"item\": COUNT(1)}] FROM c AS c");
    ObjectNode avg = plan("SELECT VALUE AVG(c.x) FROM c WHERE c.y = 'a'");
    assertThat(avg.get("aggregates")).hasToString("[\"Average\"]");
    assertThat(avg.get("rewrittenQuery").textValue())
        .isEqualTo(
            "SELECT VALUE [{\"item\": {\"sum\": SUM(c.x), \"count\": COUNT(c.x)}}] FROM c AS c"
                + " WHERE (c.y = \"a\")");
  }

  @Test
  void groupBy_rewritesToGroupByItemsAndPayload_withAliasTypes() {
    ObjectNode info = plan("SELECT c.grp, COUNT(1) AS n FROM c GROUP BY c.grp");
    assertThat(info.get("groupByExpressions")).hasToString("[\"c.grp\"]");
    assertThat(info.get("groupByAliases")).hasToString("[\"grp\",\"n\"]");
    assertThat(info.get("groupByAliasToAggregateType"))
        .hasToString("{\"grp\":null,\"n\":\"Count\"}");
    assertThat(info.get("aggregates")).isEmpty();
    assertThat(info.get("rewrittenQuery").textValue())
        .isEqualTo(
            "SELECT [{\"item\": c.grp}] AS groupByItems, {\"grp\": c.grp, \"n\": {\"item\":"
                + " COUNT(1)}} AS payload FROM c AS c GROUP BY c.grp");
  }

  @Test
  void nonValueAggregate_isPlannedAsAGroupWithoutExpressions_unnamedAsDollarOne() {
    ObjectNode info = plan("SELECT COUNT(1) AS cnt, MAX(c.x) FROM c");
    assertThat(info.get("groupByAliases")).hasToString("[\"cnt\",\"$1\"]");
    assertThat(info.get("groupByAliasToAggregateType"))
        .hasToString("{\"cnt\":\"Count\",\"$1\":\"Max\"}");
    assertThat(info.get("rewrittenQuery").textValue())
        .isEqualTo(
            "SELECT {\"cnt\": {\"item\": COUNT(1)}, \"$1\": {\"item\": MAX(c.x), \"item2\":"
                + " {\"max\": MAX(c.x), \"count\": COUNT(c.x)}}} AS payload FROM c AS c");
  }

  @Test
  void distinctAndTopAlone_needNoRewrite() {
    ObjectNode distinct = plan("SELECT DISTINCT VALUE c.id FROM c");
    assertThat(distinct.get("distinctType").textValue()).isEqualTo("Unordered");
    assertThat(distinct.get("rewrittenQuery").textValue()).isEmpty();
    assertThat(
            plan("SELECT DISTINCT VALUE c.id FROM c ORDER BY c.id").get("distinctType").textValue())
        .isEqualTo("Ordered");
    ObjectNode top = plan("SELECT TOP @n * FROM c");
    assertThat(top.get("top").intValue()).isEqualTo(3); // the bound number, as the hosted gateway
    assertThat(top.get("rewrittenQuery").textValue()).isEmpty();
    assertThat(plan("SELECT c.id FROM c WHERE c.x = 1").get("rewrittenQuery").textValue())
        .isEmpty();
  }

  @Test
  void expressionsOverAggregates_areRefusedWithTheServicesMessage() {
    for (String q :
        List.of(
            "SELECT VALUE SUM(c.x) + 1 FROM c",
            "SELECT VALUE COUNT(1) + SUM(c.x) FROM c",
            "SELECT VALUE {'sum': SUM(c.x)} FROM c",
            "SELECT VALUE [SUM(c.x)] FROM c",
            "SELECT VALUE FLOOR(AVG(c.x)) FROM c",
            "SELECT c.g, ABS(AVG(c.x)) AS a FROM c GROUP BY c.g",
            "SELECT VALUE {'n': COUNT(1)} FROM c GROUP BY c.g")) {
      assertThatThrownBy(() -> plan(q))
          .as(q)
          .isInstanceOfSatisfying(QueryException.class, e -> assertThat(e.code()).isEmpty())
          .hasMessage("Compositions of aggregates and other expressions are not allowed.");
    }
  }

  @Test
  void orderByWithGroupBy_isRefusedAsTheServiceDocumentsIt() {
    assertThatThrownBy(() -> plan("SELECT c.g, COUNT(1) AS n FROM c GROUP BY c.g ORDER BY c.g"))
        .hasMessageContaining("ORDER BY cannot be used together with GROUP BY");
  }

  @Test
  void groupByWithSelectValue_isPlanned_withThePayloadAsTheValue() {
    ObjectNode keys = plan("SELECT VALUE c.age FROM c GROUP BY c.age");
    assertThat(keys.get("groupByExpressions")).hasToString("[\"c.age\"]");
    assertThat(keys.get("aggregates")).isEmpty();
    assertThat(keys.get("groupByAliases")).isEmpty();
    assertThat(keys.get("hasSelectValue").booleanValue()).isTrue();
    assertThat(keys.get("rewrittenQuery").textValue())
        .isEqualTo(
            "SELECT [{\"item\": c.age}] AS groupByItems, c.age AS payload FROM c AS c GROUP BY"
                + " c.age");
    ObjectNode avg = plan("SELECT VALUE AVG(c.age) FROM c GROUP BY c.name");
    assertThat(avg.get("aggregates")).hasToString("[\"Average\"]");
    assertThat(avg.get("rewrittenQuery").textValue())
        .isEqualTo(
            "SELECT [{\"item\": c.name}] AS groupByItems, [{\"item\": {\"sum\": SUM(c.age),"
                + " \"count\": COUNT(c.age)}}] AS payload FROM c AS c GROUP BY c.name");
    assertThat(
            plan("SELECT VALUE {\"age\": c.age} FROM c GROUP BY c.age")
                .get("rewrittenQuery")
                .textValue())
        .isEqualTo(
            "SELECT [{\"item\": c.age}] AS groupByItems, {\"age\": c.age} AS payload FROM c AS c"
                + " GROUP BY c.age");
  }

  @Test
  void valueAggregateWithOrderBy_hasNoOrderByInThePlan_andKeepsItInThePartitionQuery() {
    ObjectNode info = plan("SELECT VALUE COUNT(1) FROM c ORDER BY c.name");
    assertThat(info.get("orderBy")).isEmpty();
    assertThat(info.get("orderByExpressions")).isEmpty();
    assertThat(info.get("aggregates")).hasToString("[\"Count\"]");
    assertThat(info.get("rewrittenQuery").textValue())
        .isEqualTo("SELECT VALUE [{\"item\": COUNT(1)}] FROM c AS c ORDER BY c.name ASC");
  }

  @Test
  void makeListAndMakeSet_areValueAggregates_asTheServicePlansThem() {
    ObjectNode list = plan("SELECT VALUE MAKELIST(c.x) FROM c");
    assertThat(list.get("aggregates")).hasToString("[\"MakeList\"]");
    assertThat(list.get("rewrittenQuery").textValue())
        .isEqualTo("SELECT VALUE [{\"item\": MAKELIST(c.x)}] FROM c AS c");
    assertThat(plan("SELECT VALUE MAKESET(c.x) FROM c").get("aggregates"))
        .hasToString("[\"MakeSet\"]");
  }

  @Test
  void minAndMax_partialsCarryItemAndItem2_asTheService() {
    assertThat(plan("SELECT VALUE MIN(c.x) FROM c").get("rewrittenQuery").textValue())
        .isEqualTo(
            "SELECT VALUE [{\"item\": MIN(c.x), \"item2\": {\"min\": MIN(c.x), \"count\":"
                + " COUNT(c.x)}}] FROM c AS c");
  }

  @Test
  void distinctUnderOrderBy_isOrderedOnlyWhenTheKeysAreTheProjection() {
    // equal rows are next to each other only when the keys and the projection are the same set
    for (String ordered :
        List.of(
            "SELECT DISTINCT VALUE c.id FROM c ORDER BY c.id DESC",
            "SELECT DISTINCT c.name FROM c ORDER BY c.name ASC",
            "SELECT DISTINCT c.a, c.b AS x FROM c ORDER BY c.b, c.a")) {
      assertThat(plan(ordered).get("distinctType").textValue()).as(ordered).isEqualTo("Ordered");
    }
    // the Java SDK's DistinctQueryTests: an ORDER BY on another expression is an unordered
    // DISTINCT (the client keeps every row's hash), which it refuses to resume
    for (String unordered :
        List.of(
            "SELECT DISTINCT VALUE c.id FROM c ORDER BY c._ts DESC",
            "SELECT DISTINCT c.city FROM c ORDER BY c.age",
            "SELECT DISTINCT LEFT(c.name, 1) FROM c ORDER BY c.name",
            "SELECT DISTINCT c.a, c.b FROM c ORDER BY c.a",
            "SELECT DISTINCT * FROM c ORDER BY c.a")) {
      assertThat(plan(unordered).get("distinctType").textValue())
          .as(unordered)
          .isEqualTo("Unordered");
      assertThat(plan(unordered).get("orderBy")).as(unordered).isNotEmpty();
    }
  }

  @Test
  void distinctWithTopOrOffset_partitionQueryKeepsDistinctAndDropsTheBounds() {
    assertThat(plan("SELECT DISTINCT TOP 5 VALUE c.name FROM c").get("rewrittenQuery").textValue())
        .isEqualTo("SELECT DISTINCT VALUE c.name FROM c AS c");
    assertThat(plan("SELECT DISTINCT * FROM c OFFSET 1 LIMIT 2").get("rewrittenQuery").textValue())
        .isEqualTo("SELECT DISTINCT * FROM c AS c");
    ObjectNode ordered = plan("SELECT DISTINCT TOP 3 VALUE c.a FROM c ORDER BY c.a");
    assertThat(ordered.get("distinctType").textValue()).isEqualTo("Ordered");
    assertThat(ordered.get("top").intValue()).isEqualTo(3);
    assertThat(ordered.get("rewrittenQuery").textValue())
        .startsWith("SELECT c._rid,")
        .endsWith("ORDER BY c.a ASC");
    assertThat(
            plan("SELECT DISTINCT VALUE c.a FROM c ORDER BY c.a OFFSET 2 LIMIT 3")
                .get("rewrittenQuery")
                .textValue())
        .endsWith("ORDER BY c.a ASC");
  }

  @Test
  void sqlWriter_textReparsesToTheSameTree() {
    for (String q :
        List.of(
            "SELECT DISTINCT TOP 3 c.a, c[\"odd key\"] AS k FROM root c JOIN t IN c.tags WHERE"
                + " (c.n BETWEEN 1 AND 5 OR NOT c.b) AND c.s LIKE 'a%' ORDER BY c.a DESC",
            "SELECT VALUE {\"x\": [1, 2.5, \"s\", null, true], \"y\": -c.n ?? 0} FROM c",
            "SELECT VALUE COUNT(1) FROM c WHERE EXISTS(SELECT VALUE t FROM t IN c.tags WHERE t ="
                + " @n)",
            "SELECT c.g, AVG(c.n) AS m FROM c GROUP BY c.g OFFSET 1 LIMIT 2",
            "SELECT VALUE c.id FROM c JOIN (SELECT VALUE t FROM t IN c.tags WHERE t = 1) JOIN x"
                + " IN (SELECT VALUE [1, 2])")) {
      CompiledQuery original = CompiledQuery.compile(q, Map.of("@n", IntNode.valueOf(1)));
      String written = SqlWriter.write(original.ast());
      CompiledQuery reparsed = CompiledQuery.compile(written, Map.of("@n", IntNode.valueOf(1)));
      assertThat(reparsed.ast()).as(written).isEqualTo(original.ast());
    }
  }

  @Test
  void keyValues_findEqualityAndInOnKeyPaths() {
    CompiledQuery q =
        CompiledQuery.compile(
            "SELECT * FROM c WHERE c.t = 'acme' AND c.u IN ('a', 'b') AND c.x > 1", Map.of());
    List<List<JsonNode>> fixed =
        QueryPlanner.keyValues(q, List.of(List.of("t"), List.of("u"), List.of("x")));
    assertThat(fixed.get(0)).hasToString("[\"acme\"]");
    assertThat(fixed.get(1)).hasToString("[\"a\", \"b\"]");
    assertThat(fixed.get(2)).isNull();
  }
}
