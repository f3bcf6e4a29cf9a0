package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.ConnectionMode;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.implementation.ConnectionPolicy;
import com.azure.cosmos.implementation.directconnectivity.RntbdTransportClient;
import com.azure.cosmos.implementation.directconnectivity.rntbd.RntbdObjectMapper;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.testkit.CosmosLab;
import io.cosmolab.testkit.CosmosLabExtension;
import io.cosmolab.testkit.SdkDirectMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Java SDK in its default connection mode, direct: the lab's client builder no longer forces
 * gateway mode, and a point operation travels over RNTBD to the lab's direct-mode listener.
 */
@ExtendWith(CosmosLabExtension.class)
class DirectModeCompatTest {

  @Test
  void aClientInTheSdksDefaultMode_createsAndReadsOverRntbd(CosmosLab lab) {
    assertThat(lab.directPort()).isPositive();
    try (CosmosClient direct = lab.clientBuilder().directMode().buildClient()) {
      direct.createDatabaseIfNotExists("direct");
      direct.getDatabase("direct").createContainerIfNotExists("c", "/pk");
      CosmosContainer c = direct.getDatabase("direct").getContainer("c");
      ObjectNode doc = JsonNodeFactory.instance.objectNode().put("id", "a").put("pk", "p");
      CosmosItemResponse<ObjectNode> created = c.createItem(doc, new PartitionKey("p"), null);
      assertThat(created.getStatusCode()).isEqualTo(201);
      assertThat(created.getRequestCharge()).isPositive();
      CosmosItemResponse<JsonNode> read = c.readItem("a", new PartitionKey("p"), JsonNode.class);
      assertThat(read.getItem().path("pk").asText()).isEqualTo("p");
      assertThat(read.getDiagnostics().getDiagnosticsContext().getConnectionMode())
          .isEqualTo(ConnectionMode.DIRECT.toString());
      assertThat(read.getDiagnostics().toString()).contains("rntbd://");
    }
  }

  /**
   * A container deleted and re-created under the same name by another client (with another layout:
   * four partitions), while this one has the old container cached: in direct mode the old
   * container's replicas answer 410/1000 (name cache stale), in gateway mode the request naming the
   * old container's resource id gets 400/1024; either way the SDK refreshes its container cache and
   * retries, and the operations reach the new container.
   */
  @Test
  void aContainerRecreatedUnderTheSameName_isFoundAgain_byADirectClientWhoseCacheIsStale(
      CosmosLab lab) {
    recreatedUnderTheSameName(lab, lab.clientBuilder().directMode(), "\"subStatusCode\":1000");
  }

  @Test
  void aContainerRecreatedUnderTheSameName_isFoundAgain_byAGatewayClientWhoseCacheIsStale(
      CosmosLab lab) {
    recreatedUnderTheSameName(
        lab,
        lab.clientBuilder().gatewayMode(new com.azure.cosmos.GatewayConnectionConfig()),
        "\"subStatusCode\":1024");
  }

  private static void recreatedUnderTheSameName(
      CosmosLab lab, com.azure.cosmos.CosmosClientBuilder builder, String staleAnswer) {
    String db = "recreated" + (staleAnswer.contains("1000") ? "d" : "g");
    try (CosmosClient cached = builder.buildClient();
        CosmosClient other = lab.clientBuilder().buildClient()) {
      cached.createDatabaseIfNotExists(db);
      cached.getDatabase(db).createContainerIfNotExists("c", "/pk");
      CosmosContainer c = cached.getDatabase(db).getContainer("c");
      c.createItem(JsonNodeFactory.instance.objectNode().put("id", "old").put("pk", "p"));
      assertThat(c.readItem("old", new PartitionKey("p"), JsonNode.class).getStatusCode())
          .isEqualTo(200);

      other.getDatabase(db).getContainer("c").delete();
      other
          .getDatabase(db)
          .createContainer(
              new com.azure.cosmos.models.CosmosContainerProperties("c", "/pk"),
              com.azure.cosmos.models.ThroughputProperties.createManualThroughput(24_000));
      other
          .getDatabase(db)
          .getContainer("c")
          .createItem(JsonNodeFactory.instance.objectNode().put("id", "new").put("pk", "p"));

      // the stale client reaches the new container after the service's stale-cache answer
      CosmosItemResponse<JsonNode> found = c.readItem("new", new PartitionKey("p"), JsonNode.class);
      assertThat(found.getStatusCode()).isEqualTo(200);
      assertThat(found.getDiagnostics().toString()).contains(staleAnswer);
      assertThatThrownBy(() -> c.readItem("old", new PartitionKey("p"), JsonNode.class))
          .isInstanceOfSatisfying(
              CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(404));
      CosmosItemResponse<ObjectNode> written =
          c.createItem(JsonNodeFactory.instance.objectNode().put("id", "again").put("pk", "p"));
      assertThat(written.getStatusCode()).isEqualTo(201);
      assertThat(
              other
                  .getDatabase(db)
                  .getContainer("c")
                  .readItem("again", new PartitionKey("p"), JsonNode.class)
                  .getStatusCode())
          .isEqualTo(200);
    }
  }

  /**
   * Regression (issue 15): reads from several threads share the SDK's connections, so their answers
   * may leave together. The SDK's decoder cannot read two frames that arrive in one read (see
   * {@code DirectChannelHandler}): it fails the connection and retries the reads on it as 410s,
   * seconds later. With the answers flushed once per socket read, 4 threads saw 6 to 12 such reads
   * in 10 s; this runs about 3 s of them (a stress test: {@code DirectChannelHandlerTest} holds the
   * rule deterministically).
   */
  @Test
  void readsFromThreadsSharingConnections_areAnsweredOnce_neverRetriedAsGone(CosmosLab lab)
      throws Exception {
    try (CosmosClient direct = lab.clientBuilder().directMode().buildClient()) {
      direct.createDatabaseIfNotExists("direct");
      direct.getDatabase("direct").createContainerIfNotExists("shared", "/pk");
      CosmosContainer c = direct.getDatabase("direct").getContainer("shared");
      for (int i = 0; i < 100; i++) {
        c.createItem(
            JsonNodeFactory.instance.objectNode().put("id", "d" + i).put("pk", "p" + i % 10),
            new PartitionKey("p" + i % 10),
            null);
      }
      long end = System.nanoTime() + Duration.ofSeconds(3).toNanos();
      List<String> gone = Collections.synchronizedList(new ArrayList<>());
      AtomicInteger reads = new AtomicInteger();
      ExecutorService threads = Executors.newFixedThreadPool(4);
      try {
        List<Future<?>> running = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          int first = t * 25;
          running.add(
              threads.submit(
                  () -> {
                    for (int i = first; System.nanoTime() < end && i < first + 5_000; i++) {
                      int k = i % 100;
                      String diagnostics =
                          c.readItem("d" + k, new PartitionKey("p" + k % 10), JsonNode.class)
                              .getDiagnostics()
                              .toString();
                      reads.incrementAndGet();
                      if (diagnostics.contains("\"statusCode\":410")) {
                        gone.add(diagnostics);
                      }
                    }
                  }));
        }
        for (var f : running) {
          f.get();
        }
      } finally {
        threads.shutdownNow();
      }
      assertThat(reads.get()).isGreaterThan(100);
      assertThat(gone).as("reads retried after a 410, of %d", reads.get()).isEmpty();
    }
  }

  @Test
  void aMissingItem_is404WithSubStatus0_atOnce_notAStaleSessionRetried(CosmosLab lab) {
    try (CosmosClient direct = lab.clientBuilder().directMode().buildClient()) {
      direct.createDatabaseIfNotExists("direct");
      direct.getDatabase("direct").createContainerIfNotExists("missing", "/pk");
      CosmosContainer c = direct.getDatabase("direct").getContainer("missing");
      long start = System.nanoTime();
      assertThatThrownBy(() -> c.readItem("nope", new PartitionKey("p"), JsonNode.class))
          .isInstanceOfSatisfying(
              CosmosException.class,
              e -> {
                assertThat(e.getStatusCode()).isEqualTo(404);
                assertThat(e.getSubStatusCode()).as(e.getDiagnostics().toString()).isZero();
              });
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
    }
  }

  /**
   * Regression (issue 15): direct mode was ~5x slower than gateway mode because a share of requests
   * sat up to 100 ms in the SDK's event-loop queue, waiting for its idle timer (see {@code
   * SdkDirectMode}). The lab's builder now sets that timer to 1 ms; this reads the transport
   * defaults the SDK actually uses, once per JVM, after a lab's client was built.
   */
  @Test
  void aLabsDirectClient_runsTheSdksRntbdIdleTimerEveryMillisecond_not100ms(CosmosLab lab) {
    try (CosmosClient direct = lab.clientBuilder().directMode().buildClient()) {
      direct.createDatabaseIfNotExists("direct");
    }
    RntbdTransportClient.Options effective =
        new RntbdTransportClient.Options.Builder(ConnectionPolicy.getDefaultPolicy()).build();
    assertThat(effective.idleChannelTimerResolution()).isEqualTo(Duration.ofMillis(1));
  }

  /**
   * A client built with {@code openConnectionsAndInitCaches} (proactive connection management, for
   * applications that cannot pay a connection's set-up on their first requests) resolves every
   * range's replicas and opens their channels while it is built: the first read of each of the four
   * partitions looks up no address (empty {@code addressResolutionStatistics}) and finds a channel
   * open ({@code waitForConnectionInit} false), where a client built without it does both. (The
   * lab's replicas share one listener, so the SDK keeps one channel pool for all of them: the
   * channel is the first read's check, the addresses every range's.)
   */
  @Test
  void aClientThatOpensItsConnectionsWhenBuilt_readsEveryPartitionWithoutWaitingForOne(
      CosmosLab lab) {
    try (CosmosClient setup = lab.clientBuilder().buildClient()) {
      setup.createDatabaseIfNotExists("warm");
      CosmosContainer c = Fixtures.container(setup.getDatabase("warm"), "c", 4, "/pk");
      assertThat(c.getFeedRanges()).hasSize(4);
      for (int i = 0; i < 64; i++) {
        c.createItem(JsonNodeFactory.instance.objectNode().put("id", "d" + i).put("pk", "k" + i));
      }
    }
    try (CosmosClient cold = lab.clientBuilder().directMode().buildClient()) {
      assertThat(firstReadDiagnostics(cold))
          .contains("\"waitForConnectionInit\":true")
          .contains("$partitionKeyRangeIds=")
          .doesNotContain("\"addressResolutionStatistics\":{}");
    }
    try (CosmosClient warm =
        lab.clientBuilder()
            .directMode()
            .preferredRegions(List.of("South Central US")) // the lab's one region, required
            .openConnectionsAndInitCaches(
                new com.azure.cosmos.CosmosContainerProactiveInitConfigBuilder(
                        List.of(new com.azure.cosmos.models.CosmosContainerIdentity("warm", "c")))
                    .setProactiveConnectionRegionsCount(1)
                    // the most the build waits for the connections (it returns once they open)
                    .setAggressiveWarmupDuration(Duration.ofSeconds(30))
                    .build())
            .buildClient()) {
      CosmosContainer c = warm.getDatabase("warm").getContainer("c");
      java.util.Set<String> ranges = new java.util.HashSet<>();
      for (int i = 0; i < 64 && ranges.size() < 4; i++) {
        CosmosItemResponse<JsonNode> read =
            c.readItem("d" + i, new PartitionKey("k" + i), JsonNode.class);
        String diagnostics = read.getDiagnostics().toString();
        String range = rangeOf(diagnostics);
        if (ranges.add(range)) {
          assertThat(diagnostics)
              .as("the first read of range %s", range)
              .contains("\"proactiveInitCfg\":\"(containers:dbs/warm/colls/c)")
              .contains("\"addressResolutionStatistics\":{}")
              .contains("\"waitForConnectionInit\":false")
              .doesNotContain("\"waitForConnectionInit\":true");
        }
      }
      assertThat(ranges).hasSize(4);
    }
  }

  /** The diagnostics of a cold client's first read of the warm-up test's container. */
  private static String firstReadDiagnostics(CosmosClient client) {
    return client
        .getDatabase("warm")
        .getContainer("c")
        .readItem("d0", new PartitionKey("k0"), JsonNode.class)
        .getDiagnostics()
        .toString();
  }

  /** The partition key range a direct-mode read's diagnostics name. */
  private static String rangeOf(String diagnostics) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("\"partitionKeyRangeId\":\"(\\d+)\"").matcher(diagnostics);
    assertThat(m.find()).as("a range id in %s", diagnostics).isTrue();
    return m.group(1);
  }

  @Test
  void theTimerOption_keepsTheOtherTransportOptionsAUserSet_asTheSdkParsesThem() throws Exception {
    String before = System.getProperty(SdkDirectMode.PROPERTY);
    System.setProperty(SdkDirectMode.PROPERTY, "{\"maxRequestsPerChannel\":10}");
    try {
      SdkDirectMode.prepare();
      RntbdTransportClient.Options parsed =
          RntbdObjectMapper.readValue(
              System.getProperty(SdkDirectMode.PROPERTY), RntbdTransportClient.Options.class);
      assertThat(parsed.maxRequestsPerChannel()).isEqualTo(10);
      assertThat(parsed.idleChannelTimerResolution()).isEqualTo(Duration.ofMillis(1));
    } finally {
      if (before == null) {
        System.clearProperty(SdkDirectMode.PROPERTY);
      } else {
        System.setProperty(SdkDirectMode.PROPERTY, before);
      }
    }
  }

  /**
   * {@code setIndexingDirective(EXCLUDE)}, which direct mode sends as an RNTBD token and gateway
   * mode as {@code x-ms-indexing-directive}: the document is read by id, and a query that an index
   * serves does not find it (the JavaScript SDK's IndexManagement sample checks the same).
   */
  @Test
  void theExcludeIndexingDirective_keepsADocumentOutOfIndexServedQueries_inBothModes(
      CosmosLab lab) {
    inBothModes(
        lab,
        "directive",
        (direct, c) -> {
          com.azure.cosmos.models.CosmosItemRequestOptions exclude =
              new com.azure.cosmos.models.CosmosItemRequestOptions()
                  .setIndexingDirective(com.azure.cosmos.models.IndexingDirective.EXCLUDE);
          c.createItem(
              JsonNodeFactory.instance.objectNode().put("id", "hidden").put("pk", "p").put("f", 1),
              new PartitionKey("p"),
              exclude);
          c.createItem(
              JsonNodeFactory.instance.objectNode().put("id", "shown").put("pk", "p").put("f", 1));
          assertThat(
                  c
                      .queryItems(
                          "SELECT VALUE c.id FROM c WHERE c.f = 1",
                          new com.azure.cosmos.models.CosmosQueryRequestOptions(),
                          String.class)
                      .stream()
                      .toList())
              .as("direct mode: %s", direct)
              .containsExactly("shown");
          assertThat(c.readItem("hidden", new PartitionKey("p"), JsonNode.class).getStatusCode())
              .isEqualTo(200);
        });
  }

  /**
   * Runs {@code check} on a container "c" (key {@code /pk}) of a database named {@code prefix} and
   * the mode, through a client in direct mode and one in gateway mode.
   */
  private static void inBothModes(
      CosmosLab lab, String prefix, java.util.function.BiConsumer<Boolean, CosmosContainer> check) {
    for (boolean direct : new boolean[] {true, false}) {
      com.azure.cosmos.CosmosClientBuilder builder =
          direct
              ? lab.clientBuilder().directMode()
              : lab.clientBuilder().gatewayMode(new com.azure.cosmos.GatewayConnectionConfig());
      try (CosmosClient client = builder.buildClient()) {
        String db = prefix + direct;
        client.createDatabaseIfNotExists(db);
        client.getDatabase(db).createContainerIfNotExists("c", "/pk");
        check.accept(direct, client.getDatabase(db).getContainer("c"));
      }
    }
  }

  /**
   * The service keeps a number's value, not its text: a whole fraction comes back an integer (the
   * Java SDK's DistinctQueryTests store 5 and 5.000000 and read Integer 5 for both), in a point
   * read, a query and a patch.
   */
  @Test
  void wholeNumbersWrittenWithAFraction_comeBackAsIntegers_inBothModes(CosmosLab lab) {
    inBothModes(
        lab,
        "numbers",
        (direct, c) -> {
          ObjectNode doc =
              JsonNodeFactory.instance
                  .objectNode()
                  .put("id", "n")
                  .put("pk", "p")
                  .put("whole", 5.0)
                  .put("fraction", 1.5)
                  .put("exponent", 1e2);
          c.createItem(doc);
          JsonNode read =
              c.readItem("n", new com.azure.cosmos.models.PartitionKey("p"), JsonNode.class)
                  .getItem();
          assertThat(read.get("whole").isIntegralNumber()).isTrue();
          assertThat(read.get("whole").intValue()).isEqualTo(5);
          assertThat(read.get("fraction").doubleValue()).isEqualTo(1.5);
          assertThat(read.get("exponent").isIntegralNumber()).isTrue();
          assertThat(read.get("exponent").intValue()).isEqualTo(100);
          List<Object> distinct =
              c
                  .queryItems(
                      "SELECT DISTINCT VALUE c.whole FROM c",
                      new com.azure.cosmos.models.CosmosQueryRequestOptions(),
                      Object.class)
                  .stream()
                  .toList();
          assertThat(distinct).containsExactly(5);
          c.patchItem(
              "n",
              new com.azure.cosmos.models.PartitionKey("p"),
              com.azure.cosmos.models.CosmosPatchOperations.create().set("/patched", 7.0),
              JsonNode.class);
          JsonNode patched =
              c.readItem("n", new com.azure.cosmos.models.PartitionKey("p"), JsonNode.class)
                  .getItem();
          assertThat(patched.get("patched").toString()).isEqualTo("7");
        });
  }

  /**
   * A patch whose path cannot apply, or whose etag is stale, fails with the service's words, which
   * applications match (to create the missing parent and patch again; to retry an optimistic
   * write), as the Java SDK's PatchTest.itemPatchFailure does.
   */
  @Test
  void aPatchUnderAMissingParent_failsWithTheServicesMessage_inBothModes(CosmosLab lab) {
    inBothModes(
        lab,
        "patchwords",
        (direct, c) -> {
          c.createItem(JsonNodeFactory.instance.objectNode().put("id", "p1").put("pk", "p"));
          assertThatThrownBy(
                  () ->
                      c.patchItem(
                          "p1",
                          new PartitionKey("p"),
                          com.azure.cosmos.models.CosmosPatchOperations.create()
                              .add("/nonExistentParent/child", "v"),
                          JsonNode.class))
              .isInstanceOfSatisfying(
                  CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(400))
              .hasMessageContaining(
                  "Add Operation only support adding a leaf node of an existing node(array or"
                      + " object), no path found beyond: 'nonExistentParent'");
          // and a stale etag, 412 with the service's sentence
          com.azure.cosmos.models.CosmosPatchItemRequestOptions stale =
              new com.azure.cosmos.models.CosmosPatchItemRequestOptions();
          stale.setIfMatchETag("\"not-the-etag\"");
          assertThatThrownBy(
                  () ->
                      c.patchItem(
                          "p1",
                          new PartitionKey("p"),
                          com.azure.cosmos.models.CosmosPatchOperations.create().set("/n", 1),
                          stale,
                          JsonNode.class))
              .isInstanceOfSatisfying(
                  CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(412))
              .hasMessageContaining("One of the specified pre-condition is not met");
        });
  }

  /**
   * Ids with '#' and '?' (the single-table style, "ORDER#17"): the service creates them and, in
   * direct mode and through its compute gateway, reads, replaces, patches and deletes them (the
   * Java, .NET and Go SDKs' ItemIdEncoding emulator tests); the Java SDK percent-encodes them in a
   * gateway request's path.
   */
  @Test
  void idsWithHashAndQuestionMark_areCreatedAndAddressed_inBothModes(CosmosLab lab) {
    inBothModes(
        lab,
        "ids",
        (direct, c) -> {
          for (String id : List.of("ORDER#17", "Disallowed?Chars", "#", "?x=1&y=2#frag")) {
            ObjectNode doc = JsonNodeFactory.instance.objectNode().put("id", id).put("pk", "p");
            assertThat(c.createItem(doc).getStatusCode()).as(id).isEqualTo(201);
            assertThat(
                    c.readItem(id, new PartitionKey("p"), JsonNode.class)
                        .getItem()
                        .get("id")
                        .asText())
                .isEqualTo(id);
            assertThat(
                    c.replaceItem(doc.put("v", 1), id, new PartitionKey("p"), null).getStatusCode())
                .isEqualTo(200);
            assertThat(
                    c.patchItem(
                            id,
                            new PartitionKey("p"),
                            com.azure.cosmos.models.CosmosPatchOperations.create().set("/w", 2),
                            JsonNode.class)
                        .getStatusCode())
                .isEqualTo(200);
            assertThat(c.deleteItem(id, new PartitionKey("p"), null).getStatusCode())
                .isEqualTo(204);
          }
        });
  }
}
