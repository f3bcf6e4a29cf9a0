package io.cosmolab.engine;

import static io.cosmolab.engine.ContainerDocumentsTest.assertCosmosError;
import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import io.cosmolab.engine.cost.CostModel;
import io.cosmolab.engine.document.PatchOperation;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContainerQueryTest {
  private final ManualClock clock = ManualClock.startingAtEpoch2026();

  private Container container(int partitions) {
    return Engines.onClock(clock, ThrottlingMode.OFF)
        .createDatabase("db" + partitions)
        .createContainer(
            ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                .withThroughput(Throughput.manual(100_000))
                .withPhysicalPartitions(partitions)
                .withIndexingPolicy(
                    io.cosmolab.engine.index.IndexingPolicy.DEFAULT.withCompositeIndex(
                        new io.cosmolab.engine.index.IndexingPolicy.CompositePath("/n", true),
                        new io.cosmolab.engine.index.IndexingPolicy.CompositePath("/id", true))));
  }

  private static void seed(Container c) {
    for (int i = 0; i < 60; i++) {
      c.create(
          obj(
              "{'id':'d"
                  + i
                  + "','pk':'k"
                  + (i % 13)
                  + "','n':"
                  + (i * 7 % 23)
                  + ",'grp':'g"
                  + (i % 4)
                  + "','tags':['t"
                  + (i % 3)
                  + "','t"
                  + (i % 5)
                  + "']}"));
    }
  }

  private static List<JsonNode> all(Container c, String text) {
    return Engines.drainQuery(c, QueryRequest.of(text), 7);
  }

  @Test
  void crossPartitionQueries_giveTheSameAnswerAsOnOnePartition() {
    Container one = container(1);
    Container eight = container(8);
    seed(one);
    seed(eight);
    for (String q :
        List.of(
            "SELECT VALUE c.id FROM c ORDER BY c.n, c.id",
            "SELECT c.id, c.n FROM c ORDER BY c.n DESC, c.id DESC",
            "SELECT TOP 5 VALUE c.id FROM c ORDER BY c.id",
            "SELECT VALUE c.id FROM c ORDER BY c.id OFFSET 10 LIMIT 7",
            "SELECT DISTINCT VALUE c.grp FROM c ORDER BY c.grp",
            "SELECT VALUE COUNT(1) FROM c",
            "SELECT VALUE AVG(c.n) FROM c",
            "SELECT c.grp, COUNT(1) AS n, SUM(c.n) AS s FROM c GROUP BY c.grp",
            "SELECT COUNT(1) AS n, MAX(c.n) AS m FROM c",
            "SELECT VALUE [c.id, t] FROM c JOIN t IN c.tags WHERE t = 't1' ORDER BY c.id")) {
      List<JsonNode> a = all(one, q);
      List<JsonNode> b = all(eight, q);
      if (q.contains("GROUP BY")) {
        assertThat(b).as(q).containsExactlyInAnyOrderElementsOf(a);
      } else {
        assertThat(b).as(q).isEqualTo(a);
      }
      assertThat(a).as(q).isNotEmpty();
    }
  }

  @Test
  void fanOut_costsTheBaseOncePerPartition_andATargetedQueryPaysOnce() {
    Container ten = container(10);
    seed(ten);
    QueryPage fanOut = ten.query(QueryRequest.of("SELECT VALUE c.id FROM c WHERE c.pk = 'k1'"));
    QueryPage targeted =
        ten.query(
            QueryRequest.of("SELECT VALUE c.id FROM c WHERE c.pk = 'k1'")
                .withPartitionKey(PartitionKeyValue.of("k1")));
    assertThat(fanOut.rows()).containsExactlyInAnyOrderElementsOf(targeted.rows());
    assertThat(fanOut.metrics().partitionsTargeted()).isEqualTo(10);
    assertThat(targeted.metrics().partitionsTargeted()).isEqualTo(1);
    assertThat(fanOut.requestCharge() - targeted.requestCharge()).isGreaterThanOrEqualTo(22.5);
    assertThat(targeted.metrics().documentsLoaded()).isEqualTo(5);
  }

  @Test
  void hierarchicalPrefix_returnsExactlyThePrefixDocuments() {
    Container h =
        Engines.onClock(clock, ThrottlingMode.OFF)
            .createDatabase("h")
            .createContainer(
                ContainerSettings.of("h", PartitionKeyDefinition.hierarchical("/t", "/u", "/s"))
                    .withPhysicalPartitions(8));
    for (int i = 0; i < 40; i++) {
      h.create(
          obj("{'id':'" + i + "','t':'t" + (i % 3) + "','u':'u" + (i % 4) + "','s':'s" + i + "'}"));
    }
    QueryPage page =
        h.query(
            QueryRequest.of("SELECT VALUE c.id FROM c")
                .withPartitionKey(PartitionKeyValue.of("t1", "u2")));
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      if (i % 3 == 1 && i % 4 == 2) {
        expected.add(Integer.toString(i));
      }
    }
    assertThat(page.rows())
        .extracting(JsonNode::textValue)
        .containsExactlyInAnyOrderElementsOf(expected);
    QueryPage tenant =
        h.query(
            QueryRequest.of("SELECT VALUE COUNT(1) FROM c")
                .withPartitionKey(PartitionKeyValue.of("t0")));
    assertThat(tenant.rows()).containsExactly(IntNode.valueOf(14));
  }

  @Test
  void paging_returnsEveryRowOnce_andTheLastPageHasNoContinuation() {
    Container c = container(4);
    seed(c);
    List<JsonNode> paged = all(c, "SELECT VALUE c.id FROM c ORDER BY c.id");
    assertThat(paged).hasSize(60).doesNotHaveDuplicates();
    QueryPage whole = c.query(QueryRequest.of("SELECT VALUE c.id FROM c ORDER BY c.id"));
    assertThat(whole.continuation()).isNull();
    assertThat(whole.rows()).isEqualTo(paged);
  }

  @Test
  void continuation_fromAnotherQueryStartsOver_andAForeignTokenIs400() {
    Container c = container(2);
    seed(c);
    QueryPage first =
        c.query(QueryRequest.of("SELECT VALUE c.id FROM c ORDER BY c.id").withMaxItemCount(5));
    QueryPage other =
        c.query(
            QueryRequest.of("SELECT VALUE c.id FROM c WHERE c.n > 3 ORDER BY c.id")
                .withMaxItemCount(5)
                .withContinuation(first.continuation()));
    QueryPage otherFirst =
        c.query(
            QueryRequest.of("SELECT VALUE c.id FROM c WHERE c.n > 3 ORDER BY c.id")
                .withMaxItemCount(5));
    assertThat(other.rows()).isEqualTo(otherFirst.rows());
    assertCosmosError(
        () -> c.query(QueryRequest.of("SELECT * FROM c").withContinuation("not-a-token")),
        CosmosError.BAD_REQUEST,
        "Invalid Continuation Token");
  }

  @Test
  void perRangeQueries_partitionTheResult_andAGoneRangeIs410() {
    Container c = container(4);
    seed(c);
    List<JsonNode> union = new ArrayList<>();
    for (PartitionKeyRange r : c.routing().ranges()) {
      union.addAll(c.query(QueryRequest.of("SELECT VALUE c.id FROM c").withRangeId(r.id())).rows());
    }
    assertThat(union).hasSize(60).doesNotHaveDuplicates();
    c.splitPartition("0");
    assertCosmosError(
        () -> c.query(QueryRequest.of("SELECT * FROM c").withRangeId("0")),
        CosmosError.PARTITION_KEY_RANGE_GONE);
  }

  @Test
  void syntaxError_is400WithTheServiceCodeAndPosition() {
    Container c = container(1);
    assertCosmosError(
        () -> c.query(QueryRequest.of("SELECT * FROM c WHERE")),
        CosmosError.BAD_REQUEST,
        "SC1001",
        "offset 21");
    assertCosmosError(
        () -> c.query(QueryRequest.of("SELECT VALUE NOPE(1) FROM c")),
        CosmosError.BAD_REQUEST,
        "SC2005",
        "'NOPE'");
  }

  @Test
  void parameters_reachTheQuery() {
    Container c = container(2);
    seed(c);
    QueryPage p =
        c.query(
            QueryRequest.of("SELECT VALUE c.id FROM c WHERE c.n = @n ORDER BY c.id")
                .withParameters(Map.of("@n", IntNode.valueOf(0))));
    assertThat(p.rows()).extracting(JsonNode::textValue).containsExactly("d0", "d23", "d46");
  }

  @Test
  void conditionalPatch_fromSqlText() {
    Container c = container(1);
    c.create(obj("{'id':'a','pk':'p','status':'open','n':1}"));
    assertCosmosError(
        () ->
            c.patch(
                PartitionKeyValue.of("p"),
                "a",
                List.of(PatchOperation.set("/n", IntNode.valueOf(2))),
                c.condition("FROM c WHERE c.status = 'closed'"),
                ItemOptions.NONE),
        CosmosError.PRECONDITION_FAILED,
        "c.status = 'closed'");
    c.patch(
        PartitionKeyValue.of("p"),
        "a",
        List.of(PatchOperation.set("/n", IntNode.valueOf(2))),
        c.condition("from c where c.status = 'open'"),
        ItemOptions.NONE);
    assertThat(c.read(PartitionKeyValue.of("p"), "a").document().get("n").intValue()).isEqualTo(2);
    assertCosmosError(() -> c.condition("c.status = 'x'"), CosmosError.BAD_REQUEST, "FROM c WHERE");
  }

  @Test
  void expiredDocuments_areNotReturned() {
    Container c =
        Engines.onClock(clock, ThrottlingMode.OFF)
            .createDatabase("ttl")
            .createContainer(
                ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                    .withDefaultTimeToLive(10));
    c.create(obj("{'id':'a','pk':'p'}"));
    clock.advance(Duration.ofSeconds(11));
    assertThat(c.query(QueryRequest.of("SELECT * FROM c")).rows()).isEmpty();
  }

  @Test
  void fanOut_chargesEachPartitionForTheRowsItReturns() {
    Container ten = container(10);
    seed(ten);
    clock.advance(Duration.ofSeconds(5)); // a second of its own, apart from the seeding writes
    long second = clock.instant().getEpochSecond();
    QueryPage page = ten.query(QueryRequest.of("SELECT * FROM c WHERE c.pk = 'k1'"));
    String owner =
        ten.routing()
            .rangeFor(
                io.cosmolab.engine.partitioning.EffectivePartitionKey.of(
                    ten.partitionKey(), PartitionKeyValue.of("k1")))
            .id();
    // not the first range: charging every row to the first partition visited would fail here
    assertThat(owner).isNotEqualTo(ten.routing().ranges().get(0).id());
    double rows = 0;
    for (JsonNode row : page.rows()) {
      rows +=
          CostModel.PUBLISHED.pointRead(
              io.cosmolab.engine.document.DocumentShape.sizeOf(row), false);
    }
    double total = 0;
    for (io.cosmolab.engine.routing.PartitionKeyRange r : ten.routing().ranges()) {
      double ru =
          ten.partitionSeconds(r.id(), second, second + 1).stream()
              .mapToDouble(io.cosmolab.engine.metrics.PartitionMetrics.Second::ru)
              .sum();
      total += ru;
      // every partition pays the base; only the one holding k1 pays for its rows
      assertThat(ru)
          .as("partition %s", r.id())
          .isCloseTo(
              r.id().equals(owner) ? 2.5 + rows : 2.5, org.assertj.core.data.Offset.offset(0.2));
    }
    assertThat(total).isCloseTo(page.requestCharge(), org.assertj.core.data.Offset.offset(0.05));
  }

  @Test
  void queries_spendThePartitionBudget_andAreThrottledInEnforceMode() {
    Container c =
        Engines.onClock(clock, ThrottlingMode.ENFORCE)
            .createDatabase("t")
            .createContainer(
                ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                    .withThroughput(Throughput.manual(400))
                    .withPhysicalPartitions(1));
    c.create(obj("{'id':'a','pk':'p'}"));
    clock.advance(Duration.ofSeconds(1));
    int served = 0;
    for (int i = 0; i < 400; i++) {
      try {
        c.query(QueryRequest.of("SELECT * FROM c"));
        served++;
      } catch (io.cosmolab.engine.error.CosmosException e) {
        assertThat(e.status()).isEqualTo(429);
      }
    }
    assertThat(served).isBetween(100, 120); // ~3.5 RU each within 400 RU/s
  }

  @Test
  void rewrittenOrderByQuery_runsWithTheSdksResumePredicateInPlaceOfThePlaceholder() {
    Container c = container(4);
    seed(c);
    String rewritten =
        c.queryPlan("SELECT c.id, c.n FROM c ORDER BY c.n", Map.of())
            .get("queryInfo")
            .get("rewrittenQuery")
            .textValue();
    // on resume the SDK sends the filter "values after the last one it saw" in the placeholder
    String resumed =
        rewritten.replace(io.cosmolab.query.plan.QueryPlanner.ORDER_BY_FILTER, "c.n > 20");
    List<JsonNode> rows = all(c, resumed);
    assertThat(rows).isNotEmpty();
    for (JsonNode row : rows) {
      assertThat(row.get("orderByItems").get(0).get("item").intValue()).isGreaterThan(20);
      assertThat(row.get("payload").get("n").intValue()).isGreaterThan(20);
      assertThat(row.get("_rid").textValue()).isNotEmpty();
    }
    List<Integer> keys =
        rows.stream().map(r -> r.get("orderByItems").get(0).get("item").intValue()).toList();
    assertThat(keys).isSorted();
  }

  @Test
  void queryPlan_expressionOverAggregates_is400WithTheServicesMessageAndNoCode() {
    Container c = container(4);
    io.cosmolab.engine.error.CosmosException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            io.cosmolab.engine.error.CosmosException.class,
            () -> c.queryPlan("SELECT VALUE COUNT(1) + SUM(c.n) FROM c", Map.of()));
    assertThat(e.status()).isEqualTo(400);
    assertThat(e.getMessage())
        .isEqualTo("Compositions of aggregates and other expressions are not allowed.");
    // the raw query still runs completely on the server
    seed(c);
    assertThat(all(c, "SELECT VALUE COUNT(1) + SUM(c.n) FROM c")).hasSize(1);
  }

  @Test
  void queryPlan_orderByWithGroupBy_is400() {
    Container c = container(4);
    io.cosmolab.engine.error.CosmosException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            io.cosmolab.engine.error.CosmosException.class,
            () -> c.queryPlan("SELECT c.pk FROM c GROUP BY c.pk ORDER BY c.pk", Map.of()));
    assertThat(e.status()).isEqualTo(400);
    assertThat(e.getMessage()).contains("ORDER BY cannot be used together with GROUP BY");
  }

  @Test
  void returnedRows_areCopies() {
    Container c = container(1);
    c.create(obj("{'id':'a','pk':'p','n':1}"));
    QueryPage p = c.query(QueryRequest.of("SELECT * FROM c"));
    ((com.fasterxml.jackson.databind.node.ObjectNode) p.rows().get(0)).put("n", 99);
    assertThat(c.read(PartitionKeyValue.of("p"), "a").document().get("n").intValue()).isEqualTo(1);
  }

  @Test
  void streamingQuery_pagesThroughJoinRowsWithoutLossOrDuplicates() {
    Container c = container(3);
    seed(c);
    String text = "SELECT c.id, t FROM c JOIN t IN c.tags";
    List<JsonNode> rows = Engines.drainQuery(c, QueryRequest.of(text), 3);
    // some documents hold the same tag twice, so compare with one unpaged answer
    assertThat(rows)
        .hasSize(120)
        .containsExactlyInAnyOrderElementsOf(c.query(QueryRequest.of(text)).rows());
  }

  @Test
  void streamingQueryContinuation_resumesOnTheChildrenOfASplit() {
    Container c = container(1);
    seed(c);
    QueryRequest q = QueryRequest.of("SELECT c.id, t FROM c JOIN t IN c.tags").withRangeId("0");
    QueryPage first = c.query(q.withMaxItemCount(25));
    List<JsonNode> rows = new ArrayList<>(first.rows());
    c.splitPartition("0");
    for (PartitionKeyRange child : c.routing().ranges()) {
      String token = first.continuation();
      do {
        QueryPage page =
            c.query(q.withRangeId(child.id()).withMaxItemCount(25).withContinuation(token));
        rows.addAll(page.rows());
        token = page.continuation();
      } while (token != null);
    }
    assertThat(rows)
        .hasSize(120)
        .containsExactlyInAnyOrderElementsOf(
            c.query(QueryRequest.of("SELECT c.id, t FROM c JOIN t IN c.tags")).rows());
  }
}
