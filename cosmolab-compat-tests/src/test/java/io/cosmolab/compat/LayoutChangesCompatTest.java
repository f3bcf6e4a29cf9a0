package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.ChangeFeedProcessor;
import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosBulkOperations;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemOperation;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.testkit.CosmosLab;
import io.cosmolab.testkit.CosmosLabExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What long-running clients do while the container's layout changes under them, through the Java
 * SDK (in gateway and direct mode, by the suite's executions): a change-feed processor that keeps
 * running through a split and a merge, and a bulk import that a split meets halfway.
 */
@ExtendWith(CosmosLabExtension.class)
class LayoutChangesCompatTest {

  private static Container engineSide(CosmosLab lab, String container) {
    return lab.engine().database("layout").container(container);
  }

  private static void splitAll(Container engine) {
    for (PartitionKeyRange r : engine.routing().ranges()) {
      engine.splitPartition(r.id());
    }
  }

  private static void mergeFirstTwo(Container engine) {
    List<PartitionKeyRange> ranges = engine.routing().ranges();
    engine.mergePartitions(ranges.get(0).id(), ranges.get(1).id());
  }

  @ParameterizedTest(name = "EPK-based leases: {0}")
  @ValueSource(booleans = {false, true})
  void aChangeFeedProcessor_throughASplitAndAMerge_deliversEveryDocumentOnce(
      boolean epkLeases, CosmosClient client, CosmosAsyncClient async, CosmosLab lab)
      throws InterruptedException {
    String feed = epkLeases ? "processed-epk" : "processed-pkrange";
    client.createDatabaseIfNotExists("layout");
    CosmosContainer c = Fixtures.container(client.getDatabase("layout"), feed, 2, "/pk");
    client
        .getDatabase("layout")
        .createContainerIfNotExists(new CosmosContainerProperties("leases", "/id"));
    Map<String, Integer> deliveries = new ConcurrentHashMap<>();
    ChangeFeedProcessor processor =
        ChangeFeedCompatTest.processor(
            async.getDatabase("layout"),
            feed,
            "leases",
            "layout-host",
            epkLeases,
            id -> deliveries.merge(id, 1, Integer::sum));
    List<ObjectNode> docs = Fixtures.documents(180, 31);
    Container engine = engineSide(lab, feed);
    processor.start().block(Duration.ofSeconds(30));
    try {
      Fixtures.createAll(c, docs.subList(0, 60));
      awaitDelivered(deliveries, 60);
      splitAll(engine);
      Fixtures.createAll(c, docs.subList(60, 120));
      awaitDelivered(deliveries, 120);
      mergeFirstTwo(engine);
      Fixtures.createAll(c, docs.subList(120, 180));
      awaitDelivered(deliveries, 180);
    } finally {
      processor.stop().block(Duration.ofSeconds(30));
    }
    assertThat(engine.routing().size()).isEqualTo(3);
    assertThat(deliveries.keySet())
        .containsExactlyInAnyOrderElementsOf(docs.stream().map(d -> d.get("id").asText()).toList());
    assertThat(deliveries.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey))
        .as("documents delivered more than once")
        .isEmpty();
  }

  static void awaitDelivered(Map<String, Integer> deliveries, int count)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (deliveries.size() < count && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
  }

  /**
   * A bulk import of 3,000 documents, split under it: the bulk executor meets the 410s of the gone
   * ranges, refreshes its routing and sends the rest to the children; each document is created
   * once, every operation answers 201.
   */
  @Test
  void aBulkImport_thatASplitMeetsHalfway_writesEveryDocumentOnce(
      CosmosClient client, CosmosLab lab) throws Exception {
    client.createDatabaseIfNotExists("layout");
    CosmosContainer c = Fixtures.container(client.getDatabase("layout"), "bulk", 2, "/pk");
    Container engine = engineSide(lab, "bulk");
    List<ObjectNode> docs = Fixtures.documents(3000, 32);
    List<CosmosItemOperation> ops = new ArrayList<>();
    for (ObjectNode d : docs) {
      ops.add(
          CosmosBulkOperations.getCreateItemOperation(d, new PartitionKey(d.get("pk").asText())));
    }
    ExecutorService splitter = Executors.newSingleThreadExecutor();
    try {
      Future<Long> split =
          splitter.submit(
              () -> {
                // once a fifth of the documents are in, split every partition
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (engine.documentCount() < 600 && System.nanoTime() < deadline) {
                  Thread.sleep(1);
                }
                splitAll(engine);
                return engine.documentCount();
              });
      Map<Integer, Long> statuses =
          StreamSupport.stream(c.executeBulkOperations(ops).spliterator(), false)
              .collect(
                  Collectors.groupingBy(
                      r -> r.getResponse().getStatusCode(), Collectors.counting()));
      assertThat(split.get(30, TimeUnit.SECONDS)).as("documents in at the split").isLessThan(3000L);
      assertThat(statuses).isEqualTo(Map.of(201, 3000L));
    } finally {
      splitter.shutdownNow();
    }
    assertThat(engine.routing().size()).isEqualTo(4);
    List<JsonNode> ids =
        c
            .queryItems("SELECT VALUE c.id FROM c", new CosmosQueryRequestOptions(), JsonNode.class)
            .stream()
            .toList();
    assertThat(ids).hasSize(3000).doesNotHaveDuplicates();
  }
}
