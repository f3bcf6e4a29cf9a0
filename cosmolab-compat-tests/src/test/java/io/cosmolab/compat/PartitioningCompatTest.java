package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.ThrottlingRetryOptions;
import com.azure.cosmos.ThroughputControlGroupConfigBuilder;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PriorityLevel;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.ThroughputBuckets;
import io.cosmolab.testkit.CosmosLab;
import io.cosmolab.testkit.CosmosLabExtension;
import io.cosmolab.testkit.LabConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What partitioning does to a client, through the Java SDK: splits under a paged query and a change
 * feed, 429s from one hot partition in enforce mode, and throughput raises that split.
 */
@ExtendWith(CosmosLabExtension.class)
@LabConfig(throttling = ThrottlingMode.ENFORCE)
class PartitioningCompatTest {
  private static CosmosDatabase db;
  private static CosmosLab lab;

  @BeforeAll
  static void setUp(CosmosClient client, CosmosLab theLab) {
    lab = theLab;
    client.createDatabaseIfNotExists("partitioning");
    db = client.getDatabase("partitioning");
  }

  private static Container engineSide(String container) {
    return lab.engine().database("partitioning").container(container);
  }

  private static void load(CosmosContainer c, List<ObjectNode> docs) {
    Fixtures.createAll(c, docs);
  }

  @Test
  void splitDuringPagedQuery_sdkRecoversAndNothingIsLost() {
    // 100,000 RU/s: ten partitions with room under enforce mode for the load.
    CosmosContainer c = Fixtures.container(db, "split-query", 2, "/pk");
    c.replaceThroughput(ThroughputProperties.createManualThroughput(12_000));
    List<ObjectNode> docs = Fixtures.documents(300, 11);
    load(c, docs);
    List<String> ids = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      FeedResponse<ObjectNode> page =
          c.queryItems(
                  "SELECT * FROM c WHERE c.n >= 0",
                  new CosmosQueryRequestOptions(),
                  ObjectNode.class)
              .iterableByPage(token, 25)
              .iterator()
              .next();
      page.getResults().forEach(d -> ids.add(d.get("id").asText()));
      token = page.getContinuationToken();
      if (++pages == 2) {
        Container engine = engineSide("split-query");
        Fixtures.splitAll(engine);
      }
    } while (token != null);
    assertThat(engineSide("split-query").routing().size()).isEqualTo(4);
    assertThat(ids)
        .doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(docs.stream().map(d -> d.get("id").asText()).toList());
  }

  /**
   * A client whose caches predate a split: in direct mode it sends each point operation to the
   * replicas of the parent range, which is gone; the SDK must refresh its routing map and retry at
   * the child, never hand the application a 410. (The migrator's writer died on one in direct mode:
   * the replica answered 1002, which the SDK retries for feeds only.)
   */
  @Test
  void splitUnderPointOperations_everyKindSucceedsAtTheChildRange() {
    CosmosContainer c = Fixtures.container(db, "split-points", 2, "/pk");
    c.replaceThroughput(ThroughputProperties.createManualThroughput(12_000));
    List<ObjectNode> docs = Fixtures.documents(52, 14);
    for (ObjectNode d : docs) { // in direct mode, every range's replica addresses are now cached
      c.createItem(d);
    }
    Container engine = engineSide("split-points");
    Fixtures.splitAll(engine);
    assertThat(engine.routing().size()).isEqualTo(4);
    everyKindOfPointOperation(c, docs);
  }

  /**
   * On 52 documents of 13 keys created before a layout change: a read of all of them at once
   * (readMany, with the routing cached before the change), then one of each kind of point operation
   * on each key (so on every range after the change): read, replace, patch, create, upsert, delete
   * and a transactional batch, each answering as it should, and 52 documents after them.
   */
  static void everyKindOfPointOperation(CosmosContainer c, List<ObjectNode> docs) {
    // first, with the routing the client cached before the change: a read of all 52 at once
    List<com.azure.cosmos.models.CosmosItemIdentity> all = new ArrayList<>();
    for (ObjectNode d : docs) {
      all.add(
          new com.azure.cosmos.models.CosmosItemIdentity(
              new PartitionKey(d.get("pk").asText()), d.get("id").asText()));
    }
    assertThat(c.readMany(all, ObjectNode.class).getResults())
        .extracting(d -> d.get("id").asText())
        .containsExactlyInAnyOrderElementsOf(Fixtures.ids(docs));
    for (int i = 0; i < 13; i++) {
      ObjectNode d = docs.get(i);
      PartitionKey key = new PartitionKey(d.get("pk").asText());
      String id = d.get("id").asText();
      assertThat(c.readItem(id, key, ObjectNode.class).getStatusCode()).isEqualTo(200);
      d.put("n", 1000 + i);
      assertThat(c.replaceItem(d, id, key, new CosmosItemRequestOptions()).getStatusCode())
          .isEqualTo(200);
      assertThat(
              c.patchItem(
                      id,
                      key,
                      com.azure.cosmos.models.CosmosPatchOperations.create().increment("/n", 1),
                      ObjectNode.class)
                  .getItem()
                  .get("n")
                  .asInt())
          .isEqualTo(1001 + i);
      ObjectNode fresh = d.deepCopy().put("id", "new-" + i);
      assertThat(c.createItem(fresh).getStatusCode()).isEqualTo(201);
      assertThat(c.upsertItem(fresh).getStatusCode()).isEqualTo(200);
      assertThat(c.deleteItem(docs.get(13 + i), new CosmosItemRequestOptions()).getStatusCode())
          .isEqualTo(204);
    }
    // a transactional batch on each key: a create and a delete of what it created
    for (int i = 0; i < 13; i++) {
      PartitionKey key = new PartitionKey(docs.get(i).get("pk").asText());
      com.azure.cosmos.models.CosmosBatch batch =
          com.azure.cosmos.models.CosmosBatch.createCosmosBatch(key);
      batch.createItemOperation(docs.get(i).deepCopy().put("id", "batch-" + i));
      batch.deleteItemOperation("batch-" + i);
      assertThat(c.executeCosmosBatch(batch).isSuccessStatusCode())
          .as("batch on key %d", i)
          .isTrue();
    }
    assertThat(
            c.queryItems(
                    "SELECT VALUE COUNT(1) FROM c", new CosmosQueryRequestOptions(), Long.class)
                .iterator()
                .next())
        .isEqualTo(52);
  }

  @Test
  void splitDuringChangeFeed_sdkRecoversAndNothingIsLost() {
    CosmosContainer c = Fixtures.container(db, "split-feed", 2, "/pk");
    c.replaceThroughput(ThroughputProperties.createManualThroughput(12_000));
    List<ObjectNode> docs = Fixtures.documents(200, 12);
    Container engine = engineSide("split-feed");
    List<String> ids =
        ChangeFeedCompatTest.acrossALayoutChange(c, docs, () -> Fixtures.splitAll(engine));
    assertThat(c.getFeedRanges()).hasSize(4);
    assertThat(ids)
        .doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(docs.stream().map(d -> d.get("id").asText()).toList());
  }

  @Test
  void theSdk_cannotSwitchManualAndAutoscale_byReplaceThroughput_asTheServiceRefuses() {
    // the service changes the kind only by its migration request (portal, CLI); the SDK's
    // replaceThroughput sends a plain replace, which the service answers with a 400
    CosmosContainer c = Fixtures.container(db, "kind", 1, "/pk");
    c.replaceThroughput(ThroughputProperties.createManualThroughput(600));
    assertThatThrownBy(
            () -> c.replaceThroughput(ThroughputProperties.createAutoscaledThroughput(4000)))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.getStatusCode()).isEqualTo(400);
              assertThat(e.getMessage())
                  .contains("x-ms-cosmos-migrate-offer-to-autopilot must be supplied");
            });
    ThroughputProperties now = c.readThroughput().getProperties();
    assertThat(now.getManualThroughput()).isEqualTo(600);
    assertThat(now.getAutoscaleMaxThroughput()).isZero();
  }

  @Test
  void hotKeyInEnforceMode_sdkRetries429sAndDiagnosticsShowThem() {
    // 400 RU/s on one partition; each upsert of a 1 KB document costs about 7 RU, so a few
    // hundred in a row exhaust several seconds of budget.
    CosmosContainer c = Fixtures.container(db, "hot", 1, "/pk");
    c.replaceThroughput(ThroughputProperties.createManualThroughput(400));
    ObjectNode d = Fixtures.documents(1, 13).get(0);
    d.put("padding", "x".repeat(900));
    PartitionKey key = new PartitionKey(d.get("pk").asText());
    int retried = 0;
    String sample = null;
    for (int i = 0; i < 300 && retried < 3; i++) {
      d.put("n", i);
      var r = c.upsertItem(d, key, null);
      String diagnostics = r.getDiagnostics().toString();
      // the SDK records each retried status as [status, sub-status] in its retry context
      if (java.util.regex.Pattern.compile("\\[429,\\s*3200\\]").matcher(diagnostics).find()) {
        retried++;
        sample = diagnostics;
      }
    }
    assertThat(retried).as("writes whose diagnostics show a retried 429").isPositive();
    assertThat(sample).contains("statusAndSubStatusCodes");
    assertThat(engineSide("hot").partitionStats().get(0).throttled()).isPositive();
  }

  /** A new one-partition container at 400 RU/s holding one document, to be written hot. */
  private static ObjectNode hotDocument(String container, int seed) {
    CosmosContainer setup = Fixtures.container(db, container, 1, "/pk");
    setup.replaceThroughput(ThroughputProperties.createManualThroughput(400));
    ObjectNode d = Fixtures.documents(1, seed).get(0);
    setup.createItem(d, new PartitionKey(d.get("pk").asText()), null);
    return d;
  }

  /** A client that hands every 429 to the application instead of retrying it. */
  private static CosmosClient noRetryClient(CosmosLab lab) {
    return lab.clientBuilder()
        .throttlingRetryOptions(
            new ThrottlingRetryOptions().setMaxRetryAttemptsOnThrottledRequests(0))
        .buildClient();
  }

  @Test
  void hotKeyWithRetriesOff_applicationSees429WithRetryAfter(CosmosLab lab) {
    ObjectNode d = hotDocument("hot-no-retry", 14);
    PartitionKey key = new PartitionKey(d.get("pk").asText());
    try (CosmosClient noRetry = noRetryClient(lab)) {
      CosmosContainer c = noRetry.getDatabase("partitioning").getContainer("hot-no-retry");
      assertThatThrownBy(
              () -> {
                for (int i = 0; i < 2000; i++) {
                  d.put("n", i);
                  c.upsertItem(d, key, null);
                }
              })
          .isInstanceOfSatisfying(
              CosmosException.class,
              e -> {
                assertThat(e.getStatusCode()).isEqualTo(429);
                assertThat(e.getSubStatusCode()).isEqualTo(3200);
                assertThat(e.getRetryAfterDuration()).isGreaterThan(Duration.ZERO);
              });
    }
  }

  @Test
  void lowPriorityRequests_giveWayToHighPriority_onAContendedPartition(CosmosLab lab)
      throws InterruptedException {
    ObjectNode d = hotDocument("priority", 15);
    PartitionKey key = new PartitionKey(d.get("pk").asText());
    try (CosmosClient noRetry = noRetryClient(lab)) {
      CosmosContainer c = noRetry.getDatabase("partitioning").getContainer("priority");
      // the SDK's way to mark requests low priority: a server throughput-control group
      c.enableServerThroughputControlGroup(
          new ThroughputControlGroupConfigBuilder()
              .groupName("background")
              .priorityLevel(PriorityLevel.LOW)
              .build());
      CosmosItemRequestOptions background = new CosmosItemRequestOptions();
      background.setThroughputControlGroupName("background");
      CosmosException refused = null;
      // the budget is per second of the server's clock: retry when a slow machine lets the
      // low-priority request miss the second after the contention
      for (int attempt = 0; attempt < 3 && refused == null; attempt++) {
        long contendedSecond = -1;
        for (int i = 0; i < 2000 && contendedSecond < 0; i++) {
          try {
            d.put("n", i);
            c.upsertItem(d, key, null); // high priority: no group
          } catch (CosmosException e) {
            assertThat(e.getStatusCode()).isEqualTo(429);
            contendedSecond = System.currentTimeMillis() / 1000;
          }
        }
        assertThat(contendedSecond).as("the partition was used up").isPositive();
        Thread.sleep(Math.max(0, (contendedSecond + 1) * 1000 + 50 - System.currentTimeMillis()));
        try {
          d.put("n", -1);
          c.upsertItem(d, key, background);
          // admitted: the 429 that marked the contention came at the end of a server second and
          // this request after the window; the next attempt tries again
        } catch (CosmosException e) {
          refused = e;
        }
        Thread.sleep(2_100); // let the window pass before another attempt
      }
      assertThat(refused).as("a low-priority request during contention").isNotNull();
      assertThat(refused.getStatusCode()).isEqualTo(429);
      assertThat(refused.getMessage()).contains("low-priority");
      // the contention is over: low priority runs again
      d.put("n", -2);
      assertThat(c.upsertItem(d, key, background).getStatusCode()).isEqualTo(200);
    }
  }

  @Test
  void aThroughputBucket_capsItsGroupsRequests_with3212_whileOtherRequestsRun(CosmosLab lab) {
    ObjectNode d = hotDocument("bucket", 16);
    PartitionKey key = new PartitionKey(d.get("pk").asText());
    // 20 % of 400 RU/s for bucket 1; the service configures buckets through Resource Manager,
    // cosmolab through the offer or its engine
    engineSide("bucket")
        .replaceThroughputBuckets(
            new ThroughputBuckets(List.of(new ThroughputBuckets.Bucket(1, 20, false))));
    try (CosmosClient noRetry = noRetryClient(lab)) {
      CosmosContainer c = noRetry.getDatabase("partitioning").getContainer("bucket");
      // the SDK's way to send requests to a bucket: a server throughput-control group
      c.enableServerThroughputControlGroup(
          new ThroughputControlGroupConfigBuilder().groupName("etl").throughputBucket(1).build());
      c.enableServerThroughputControlGroup(
          new ThroughputControlGroupConfigBuilder().groupName("wrong").throughputBucket(0).build());
      CosmosItemRequestOptions etl = new CosmosItemRequestOptions();
      etl.setThroughputControlGroupName("etl");
      CosmosException refused = null;
      for (int i = 0; i < 2000 && refused == null; i++) {
        try {
          d.put("n", i);
          c.upsertItem(d, key, etl);
        } catch (CosmosException e) {
          refused = e;
        }
      }
      assertThat(refused).as("the bucket's share was used up").isNotNull();
      assertThat(refused.getStatusCode()).isEqualTo(429);
      assertThat(refused.getSubStatusCode()).isEqualTo(3212);
      assertThat(refused.getMessage()).contains("throughput bucket 1 has used its 20%");
      assertThat(refused.getRetryAfterDuration()).isPositive();
      // the partition's other 80 % serve requests outside the bucket
      d.put("n", -1);
      assertThat(c.upsertItem(d, key, null).getStatusCode()).isEqualTo(200);
      // a bucket id outside 1-5, which the SDK lets through, is refused by the server by name
      CosmosItemRequestOptions wrong = new CosmosItemRequestOptions();
      wrong.setThroughputControlGroupName("wrong");
      assertThatThrownBy(() -> c.readItem(d.get("id").asText(), key, wrong, ObjectNode.class))
          .isInstanceOfSatisfying(
              CosmosException.class,
              e -> {
                assertThat(e.getStatusCode()).isEqualTo(400);
                assertThat(e.getMessage()).contains("x-ms-cosmos-throughput-bucket");
              });
    }
  }

  @Test
  void replaceThroughputAbovePartitionCapacity_feedRangesShowNewPartitions() {
    CosmosContainer c = Fixtures.container(db, "grow", 2, "/pk");
    assertThat(c.getFeedRanges()).hasSize(2);
    assertThat(c.readThroughput().getProperties().getManualThroughput()).isEqualTo(12_000);
    load(c, Fixtures.documents(100, 15));
    c.replaceThroughput(ThroughputProperties.createManualThroughput(45_000));
    assertThat(c.readThroughput().getProperties().getManualThroughput()).isEqualTo(45_000);
    assertThat(c.getFeedRanges()).hasSize(5);
    List<JsonNode> all =
        c
            .queryItems(
                "SELECT VALUE COUNT(1) FROM c", new CosmosQueryRequestOptions(), JsonNode.class)
            .stream()
            .toList();
    assertThat(all.get(0).asInt()).isEqualTo(100);
  }
}
