package io.cosmolab.gateway.observe;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.alerts.AlertRules;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.gateway.auth.HostCheck;
import io.cosmolab.gateway.wire.ResourcePath;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The explorer's query runs the text as a client of the REST API would, page after page: an
 * aggregate of one partition key whose pages end at the page time returns a partial aggregate per
 * page, as the service's backend does, and the explorer says so.
 */
class ExplorerQueryTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final CosmosEngine engine =
      CosmosEngine.builder().queryPageTime(Duration.ofNanos(1)).build();
  private final ObservedProtocol observed =
      new ObservedProtocol(
          request -> WireResponse.json(200, null, Map.of()),
          new HostCheck(Set.of()),
          new Observability(engine, AlertRules.defaults(), true, e -> {}));

  @AfterEach
  void close() {
    engine.close();
  }

  private JsonNode query(String body) throws Exception {
    WireResponse r =
        observed.apply(
            new WireRequest(
                "POST",
                ResourcePath.parse("/_explorer/api/dbs/db/colls/c/query"),
                Map.of("host", "127.0.0.1:8081", "content-type", "application/json"),
                body.getBytes(StandardCharsets.UTF_8),
                "https://127.0.0.1:8081/",
                "",
                System.nanoTime(),
                true,
                WireRequest.NEVER_ABANDONED));
    assertThat(r.status()).isEqualTo(200);
    return JSON.readTree(r.body());
  }

  /** Container "c" of database "db", keyed by /pk, on one physical partition. */
  private Container containerOfOnePartition() {
    return engine
        .createDatabase("db")
        .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
  }

  @Test
  void anAggregateOfOneKeyCutAtThePageTime_showsItsPartialPages() throws Exception {
    Container c = containerOfOnePartition();
    for (int i = 0; i < 5; i++) {
      c.create(JSON.createObjectNode().put("id", "d" + i).put("pk", "a"));
    }

    JsonNode count = query("{\"query\":\"SELECT VALUE COUNT(1) FROM c\",\"partitionKey\":\"a\"}");
    assertThat(count.get("rows")).hasSize(5).allSatisfy(n -> assertThat(n.asInt()).isEqualTo(1));
    assertThat(count.get("partialAggregatePages").asInt()).isEqualTo(5);

    // without a key, on a container of one partition, and without VALUE (one group): cut too
    JsonNode named = query("{\"query\":\"SELECT COUNT(1) AS n FROM c\"}");
    assertThat(named.get("rows"))
        .hasSize(5)
        .allSatisfy(r -> assertThat(r.get("n").asInt()).isOne());
    assertThat(named.get("partialAggregatePages").asInt()).isEqualTo(5);

    JsonNode plain = query("{\"query\":\"SELECT c.id FROM c\",\"partitionKey\":\"a\"}");
    assertThat(plain.get("rows")).hasSize(5);
    assertThat(plain.get("partialAggregatePages").asInt()).isZero();
  }

  @Test
  void aDistinctWhosePagesRepeatAValue_showsEachValueOnce_asTheSdksDo() throws Exception {
    Container c = containerOfOnePartition();
    for (int i = 0; i < 6; i++) {
      c.create(JSON.createObjectNode().put("id", "d" + i).put("pk", "a").put("n", i % 2));
    }
    c.create(JSON.createObjectNode().put("id", "d6").put("pk", "a").put("n", 1.0)); // 1 again

    // every page is cut after one document (the page time): each is distinct within itself, and
    // the engine's later pages repeat 0 and 1
    JsonNode all = query("{\"query\":\"SELECT DISTINCT VALUE c.n FROM c\",\"partitionKey\":\"a\"}");
    assertThat(all.get("rows")).extracting(JsonNode::asInt).containsExactlyInAnyOrder(0, 1);
    assertThat(all.get("repeatedDistinctRows").asInt()).isEqualTo(5);

    // a DISTINCT of an aggregate: its cut pages are partial counts to add up, none left out
    JsonNode counts =
        query("{\"query\":\"SELECT DISTINCT VALUE COUNT(1) FROM c\",\"partitionKey\":\"a\"}");
    assertThat(counts.get("rows")).hasSize(7);
    assertThat(counts.get("repeatedDistinctRows").asInt()).isZero();
  }
}
