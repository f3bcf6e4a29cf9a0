package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.ChangeFeedProcessor;
import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.FeedResponse;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.testkit.CosmosLab;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an application keeps across a restart of a persistent server (RocksDB, {@code serve
 * --data-dir}), through the Java SDK (in gateway and direct mode, by the suite's executions): the
 * continuation tokens of a query and of a change feed it stored, and a change-feed processor's
 * leases. Each resumes where it stopped, on the layout a split left, and nothing comes twice: the
 * LSNs and document sequences go on from where they were, not from zero.
 */
class RestartCompatTest {
  @TempDir Path dir;

  private CosmosLab start() {
    return CosmosLab.builder().persistence(dir).start();
  }

  @Test
  void continuationsStoredBeforeARestart_resumeAfterIt_onTheLayoutASplitLeft() {
    List<ObjectNode> docs = Fixtures.documents(300, 41);
    List<String> queried = new ArrayList<>();
    List<String> fed = new ArrayList<>();
    String queryToken;
    String feedToken;
    String query = "SELECT * FROM c";
    try (CosmosLab lab = start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      client.createDatabaseIfNotExists("restart");
      CosmosContainer c = Fixtures.container(client.getDatabase("restart"), "c", 2, "/pk");
      Fixtures.createAll(c, docs.subList(0, 200));
      Container engine = lab.engine().database("restart").container("c");
      engine.splitPartition(engine.routing().ranges().get(0).id());
      FeedResponse<ObjectNode> page =
          c.queryItems(query, new CosmosQueryRequestOptions(), ObjectNode.class)
              .iterableByPage(40)
              .iterator()
              .next();
      page.getResults().forEach(d -> queried.add(d.get("id").asText()));
      queryToken = page.getContinuationToken();
      feedToken =
          ChangeFeedCompatTest.drain(
              c,
              CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                      FeedRange.forFullRange())
                  .setMaxItemCount(50),
              fed);
    }
    try (CosmosLab lab = start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      CosmosContainer c = client.getDatabase("restart").getContainer("c");
      assertThat(c.getFeedRanges()).as("the layout after the split").hasSize(3);
      for (FeedResponse<ObjectNode> page :
          c.queryItems(query, new CosmosQueryRequestOptions(), ObjectNode.class)
              .iterableByPage(queryToken, 40)) {
        page.getResults().forEach(d -> queried.add(d.get("id").asText()));
      }
      Fixtures.createAll(c, docs.subList(200, 300));
      ChangeFeedCompatTest.drain(
          c, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(feedToken), fed);
      // documents created after the restart got resource ids above those before it
      List<String> rids =
          c
              .queryItems(
                  "SELECT VALUE c._rid FROM c", new CosmosQueryRequestOptions(), String.class)
              .stream()
              .toList();
      assertThat(rids).hasSize(300).doesNotHaveDuplicates();
    }
    assertThat(queried)
        .doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(Fixtures.ids(docs.subList(0, 200)));
    assertThat(fed).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(Fixtures.ids(docs));
  }

  @Test
  void aChangeFeedProcessor_stoppedAndStartedAcrossARestart_deliversEachDocumentOnce()
      throws InterruptedException {
    List<ObjectNode> docs = Fixtures.documents(120, 42);
    Map<String, Integer> deliveries = new ConcurrentHashMap<>();
    try (CosmosLab lab = start();
        CosmosClient client = lab.clientBuilder().buildClient();
        CosmosAsyncClient async = lab.clientBuilder().buildAsyncClient()) {
      client.createDatabaseIfNotExists("restart");
      CosmosContainer c = Fixtures.container(client.getDatabase("restart"), "fed", 3, "/pk");
      client
          .getDatabase("restart")
          .createContainerIfNotExists(new CosmosContainerProperties("leases", "/id"));
      ChangeFeedProcessor processor = processor(async, deliveries);
      processor.start().block(Duration.ofSeconds(30));
      try {
        Fixtures.createAll(c, docs.subList(0, 60));
        // delivered, and every lease checkpointed past it: the processor gives no more than
        // at-least-once for a batch it was stopped before checkpointing
        ChangeFeedCompatTest.awaitTotalLag(processor, deliveries.keySet(), 60, 0, true);
      } finally {
        processor.stop().block(Duration.ofSeconds(30));
      }
    }
    try (CosmosLab lab = start();
        CosmosClient client = lab.clientBuilder().buildClient();
        CosmosAsyncClient async = lab.clientBuilder().buildAsyncClient()) {
      CosmosContainer c = client.getDatabase("restart").getContainer("fed");
      Fixtures.createAll(c, docs.subList(60, 120));
      ChangeFeedProcessor processor = processor(async, deliveries);
      processor.start().block(Duration.ofSeconds(30));
      try {
        // every lease checkpointed past everything: a redelivery would have come by then
        ChangeFeedCompatTest.awaitTotalLag(processor, deliveries.keySet(), 120, 0, true);
      } finally {
        processor.stop().block(Duration.ofSeconds(30));
      }
    }
    assertThat(deliveries.keySet()).containsExactlyInAnyOrderElementsOf(Fixtures.ids(docs));
    assertThat(ChangeFeedCompatTest.deliveredMoreThanOnce(deliveries))
        .as("documents delivered more than once")
        .isEmpty();
  }

  private static ChangeFeedProcessor processor(
      CosmosAsyncClient async, Map<String, Integer> deliveries) {
    return ChangeFeedCompatTest.processor(
        async.getDatabase("restart"),
        "fed",
        "leases",
        "restart-host",
        true,
        id -> deliveries.merge(id, 1, Integer::sum));
  }
}
