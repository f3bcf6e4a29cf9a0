package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.time.ManualClock;
import io.cosmolab.testkit.CosmosLab;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A lab on a manual clock: the official Java SDK signs with the wall clock and is served, while
 * time to live, {@code _ts}, the all-versions feed's retention window and the alert rules' seconds
 * follow the clock the test advances, so expiry, retention and alerts are tested without sleeping.
 */
class VirtualTimeCompatTest {

  @Test
  void aLabOnAManualClock_expiresItemsWhenTheTestAdvancesTheClock() {
    ManualClock clock = ManualClock.startingAtEpoch2026();
    try (CosmosLab lab = CosmosLab.builder().clock(clock).start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      client.createDatabaseIfNotExists("virtual");
      CosmosContainerProperties props = new CosmosContainerProperties("c", "/pk");
      props.setDefaultTimeToLiveInSeconds(10);
      client.getDatabase("virtual").createContainerIfNotExists(props);
      CosmosContainer c = client.getDatabase("virtual").getContainer("c");
      ObjectNode doc = JsonNodeFactory.instance.objectNode().put("id", "a").put("pk", "p");
      ObjectNode created = c.createItem(doc, new PartitionKey("p"), null).getItem();
      assertThat(created.get("_ts").asLong()).isEqualTo(clock.instant().getEpochSecond());

      clock.advance(Duration.ofSeconds(9));
      assertThat(c.readItem("a", new PartitionKey("p"), ObjectNode.class).getStatusCode())
          .isEqualTo(200);
      clock.advance(Duration.ofSeconds(2));
      assertThatThrownBy(() -> c.readItem("a", new PartitionKey("p"), ObjectNode.class))
          .isInstanceOfSatisfying(
              CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(404));
    }
  }

  /**
   * A container whose all-versions-and-deletes feed keeps one minute of history: a reader that
   * comes back with a continuation from before the window gets the service's 400 through the SDK,
   * saying how much history is kept, while the latest-version feed still has every document.
   */
  @Test
  void anAllVersionsReader_pastItsContainersWindow_gets400_andTheLatestVersionFeedIsWhole() {
    ManualClock clock = ManualClock.startingAtEpoch2026();
    try (CosmosLab lab = CosmosLab.builder().clock(clock).start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      client.createDatabaseIfNotExists("virtual");
      CosmosContainerProperties props = new CosmosContainerProperties("window", "/pk");
      props.setChangeFeedPolicy(
          com.azure.cosmos.models.ChangeFeedPolicy.createAllVersionsAndDeletesPolicy(
              Duration.ofMinutes(1)));
      client.getDatabase("virtual").createContainerIfNotExists(props);
      CosmosContainer c = client.getDatabase("virtual").getContainer("window");
      String token =
          ChangeFeedCompatTest.drain(
              c,
              CosmosChangeFeedRequestOptions.createForProcessingFromNow(FeedRange.forFullRange())
                  .allVersionsAndDeletes(),
              new java.util.ArrayList<>());
      java.util.List<ObjectNode> docs = Fixtures.documents(20, 51);
      docs.forEach(d -> c.upsertItem(d));
      clock.advance(Duration.ofMinutes(2));
      docs.forEach(d -> c.upsertItem(d.put("n", 1000))); // the first versions leave the window
      clock.advance(Duration.ofMinutes(2));
      c.upsertItem(docs.get(0).put("n", 2000)); // a write after which the history is swept
      assertThatThrownBy(
              () ->
                  ChangeFeedCompatTest.drain(
                      c,
                      CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token),
                      new java.util.ArrayList<>()))
          .isInstanceOfSatisfying(
              CosmosException.class,
              e -> {
                assertThat(e.getStatusCode()).isEqualTo(400);
                assertThat(e.getMessage()).contains("keeps PT1M of history");
              });
      java.util.List<String> latest = new java.util.ArrayList<>();
      ChangeFeedCompatTest.drain(
          c,
          CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(FeedRange.forFullRange()),
          latest);
      assertThat(latest).containsExactlyInAnyOrderElementsOf(Fixtures.ids(docs));
    }
  }

  /**
   * The Java SDK, in this suite's connection mode, never names a range that a split or a merge
   * replaced: a client that cached two partitions, slept through both splitting and a merge, and
   * wakes 31 s later reads the partition key ranges incrementally ({@code If-None-Match}) before
   * its queries and feed reads, and so goes straight to the new ones. So the gone-range-requests
   * alert, evaluated after each of 10 seconds of point operations, queries (ORDER BY among them)
   * and change-feed reads, has nothing to count. Fails if the lab's incremental ranges feed let a
   * client keep a stale layout, or an SDK started asking for gone ranges.
   */
  @Test
  void aJavaClientThatSleptThroughSplitsAndAMerge_namesNoGoneRange_soTheAlertStaysQuiet() {
    ManualClock clock = ManualClock.startingAtEpoch2026();
    try (CosmosLab lab = CosmosLab.builder().clock(clock).start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      client.createDatabaseIfNotExists("virtual");
      CosmosContainer c = Fixtures.container(client.getDatabase("virtual"), "asleep", 2, "/pk");
      java.util.List<ObjectNode> docs = Fixtures.documents(60, 7);
      Fixtures.createAll(c, docs);
      String feed = readAll(c, docs.size()); // queries and the feed cache both ranges
      io.cosmolab.engine.Container engine = lab.engine().database("virtual").container("asleep");
      String cached = engine.routing().ranges().get(0).id();
      Fixtures.splitAll(engine);
      Fixtures.mergeAt(engine, 1); // the children of different parents
      clock.advance(Duration.ofSeconds(31));
      io.cosmolab.engine.alerts.AlertEvaluator alerts = lab.server().alerts();
      for (int second = 0; second < 10; second++) {
        for (int i = 0; i < 6; i++) {
          ObjectNode d = docs.get(second * 6 + i);
          c.readItem(
              d.get("id").asText(), new PartitionKey(d.get("pk").asText()), ObjectNode.class);
        }
        readAll(c, docs.size());
        feed =
            ChangeFeedCompatTest.drain(
                c,
                CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(feed),
                new java.util.ArrayList<>());
        clock.advance(Duration.ofSeconds(1));
        assertThat(alerts.evaluate(clock.millis()))
            .as("second %d", second)
            .noneMatch(a -> a.rule() == io.cosmolab.engine.alerts.AlertRule.GONE_RANGE_REQUESTS);
      }
      long second = clock.instant().getEpochSecond();
      java.util.List<io.cosmolab.engine.metrics.GoneRangeRequests.Asked> asked =
          engine.goneRangeRequests().asked(second - 60, second + 1, 0);
      assertThat(asked).isEmpty();
      // and not for want of counting: a request naming a range the client had cached is counted
      assertThat(engine.rangeNamed(engine.routing(), cached)).isEmpty();
      assertThat(engine.goneRangeRequests().asked(second - 60, second + 1, 0))
          .extracting(io.cosmolab.engine.metrics.GoneRangeRequests.Asked::rangeId)
          .containsExactly(cached);
    }
  }

  /**
   * A cross-partition query and an ORDER BY read every document; the change feed from the beginning
   * too. Returns the feed's continuation.
   */
  private static String readAll(CosmosContainer c, int documents) {
    assertThat(c.queryItems("SELECT c.id FROM c", null, ObjectNode.class).stream().count())
        .isEqualTo(documents);
    assertThat(
            c.queryItems("SELECT c.id, c.n FROM c ORDER BY c.n", null, ObjectNode.class).stream()
                .count())
        .isEqualTo(documents);
    java.util.List<String> changes = new java.util.ArrayList<>();
    String token =
        ChangeFeedCompatTest.drain(
            c,
            CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                FeedRange.forFullRange()),
            changes);
    assertThat(changes).hasSize(documents);
    return token;
  }
}
