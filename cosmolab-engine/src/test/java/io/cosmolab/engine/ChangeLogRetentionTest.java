package io.cosmolab.engine;

import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.changefeed.ChangeFeedMode;
import io.cosmolab.engine.changefeed.ChangeFeedPage;
import io.cosmolab.engine.changefeed.ChangeFeedRequest;
import io.cosmolab.engine.changefeed.ChangeFeedStart;
import io.cosmolab.engine.changefeed.Retention;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.store.ContainerStore;
import io.cosmolab.engine.store.InMemoryDocumentStore;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import java.time.Duration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The change log keeps what the feeds need and no more (ChangeLogRetention). */
class ChangeLogRetentionTest {
  private final ManualClock clock = ManualClock.startingAtEpoch2026();
  private final InMemoryDocumentStore store = new InMemoryDocumentStore();
  private final Container c =
      CosmosEngine.builder()
          .clock(clock)
          .throttling(ThrottlingMode.OFF)
          .store(store)
          .changeFeedRetention(new Retention(Duration.ofMinutes(1), 1_000))
          .build()
          .createDatabase("db")
          .createContainer(
              ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                  .withThroughput(Throughput.manual(400))
                  .withPhysicalPartitions(2));

  private long records() {
    return records(store.open(c.rid()));
  }

  /** The change records {@code s} holds. */
  private static long records(ContainerStore s) {
    long n = 0;
    for (Iterator<?> it = s.changesAfter(0); it.hasNext(); it.next()) {
      n++;
    }
    return n;
  }

  private void upsert(int doc, int v) {
    c.upsert(obj("{'id':'d" + doc + "','pk':'p" + (doc % 10) + "','v':" + v + "}"));
  }

  private ChangeFeedPage allVersions(long after) {
    return c.readChangeFeed(
        ChangeFeedRequest.wholeContainer(ChangeFeedStart.continuation(after))
            .withMode(ChangeFeedMode.ALL_VERSIONS_AND_DELETES)
            .withMaxItems(100_000));
  }

  /**
   * Writes 50 documents, replaces them 2 minutes later and writes once more 2 minutes after that,
   * so the sweep after that last write passes (and prunes) the history after the LSN it returns:
   * the LSN of the first versions' last write.
   */
  private long historyPrunedAfter() {
    for (int doc = 0; doc < 50; doc++) {
      upsert(doc, 0);
    }
    long old = c.lsn();
    clock.advance(Duration.ofMinutes(2));
    for (int doc = 0; doc < 50; doc++) {
      upsert(doc, 1);
    }
    clock.advance(Duration.ofMinutes(2));
    upsert(0, 2);
    return old;
  }

  @Test
  void steadyUpsertsOnAFixedDataSet_keepTheLogBounded_byDocumentsPlusHistory() {
    long[] samples = new long[3];
    for (int round = 0; round < 30_000; round++) {
      upsert(round % 100, round);
      clock.advanceMillis(10);
      if (round == 9_999 || round == 19_999 || round == 29_999) {
        samples[round / 10_000] = records();
      }
    }
    // 100 newest versions, at most 1,000 LSNs of history, and what a 100 ms sweep lets through
    long bound = 100 + 1_000 + 10;
    for (long n : samples) {
      assertThat(n).isLessThanOrEqualTo(bound);
    }
    assertThat(samples[2]).isLessThanOrEqualTo(samples[0] + 10); // flat, not growing
  }

  @Test
  void historyWithinTheWindow_isComplete() {
    for (int doc = 0; doc < 20; doc++) {
      upsert(doc, 0);
    }
    long from = c.lsn();
    for (int v = 1; v <= 10; v++) {
      for (int doc = 0; doc < 20; doc++) {
        upsert(doc, v);
      }
      clock.advance(Duration.ofSeconds(1));
    }
    c.delete(PartitionKeyValue.of("p3"), "d3");
    assertThat(allVersions(from).items()).hasSize(201);
  }

  @Test
  void allVersionsReader_pastTheWindow_gets400_andTheLatestVersionFeedStaysComplete() {
    long old = historyPrunedAfter();
    assertThatThrownBy(() -> allVersions(old))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.getMessage()).contains("keeps PT1M of history", "LSN " + old);
            });
    ChangeFeedPage latest =
        c.readChangeFeed(
            ChangeFeedRequest.wholeContainer(ChangeFeedStart.beginning()).withMaxItems(1_000));
    Set<String> ids = new HashSet<>();
    for (ObjectNode item : latest.items()) {
      assertThat(ids.add(item.get("id").textValue())).isTrue();
    }
    assertThat(ids).hasSize(50);
    assertThat(records()).isLessThanOrEqualTo(50 + 1);
  }

  /** A store that refuses commits of drops only while {@code refuseDrops} is set (a full disk). */
  private static io.cosmolab.engine.store.DocumentStore refusingDrops(
      InMemoryDocumentStore inner, java.util.concurrent.atomic.AtomicBoolean refuseDrops) {
    return io.cosmolab.engine.testing.Intercepted.documentStore(
        inner,
        (method, args) -> {
          if (method.equals("commit")
              && refuseDrops.get()
              && args[0] instanceof java.util.List<?> writes
              && writes.stream().allMatch(w -> w instanceof ContainerStore.Write.DropChange)) {
            throw io.cosmolab.engine.error.CosmosError.INSUFFICIENT_STORAGE.exception(
                "the disk is full");
          }
        });
  }

  private CosmosEngine engineOn(io.cosmolab.engine.store.DocumentStore store) {
    return CosmosEngine.builder()
        .clock(clock)
        .throttling(ThrottlingMode.OFF)
        .store(store)
        .changeFeedRetention(new Retention(Duration.ofMinutes(1), 1_000))
        .build();
  }

  /**
   * The sweep runs on a write's way out, after its commit: when the store then refuses the drops (a
   * full disk), the write is acknowledged all the same (before, the client got a 507 for a write
   * that had committed), takes no LSN of another, and a later sweep drops the records.
   */
  @Test
  void dropsThatTheStoreRefusesAfterACommit_failNoWrite_andALaterSweepMakesThem() {
    java.util.concurrent.atomic.AtomicBoolean refuseDrops =
        new java.util.concurrent.atomic.AtomicBoolean();
    InMemoryDocumentStore inner = new InMemoryDocumentStore();
    Container d =
        engineOn(refusingDrops(inner, refuseDrops))
            .createDatabase("db")
            .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    long lastDelete = 0;
    for (int doc = 0; doc < 100; doc++) {
      d.upsert(obj("{'id':'d" + doc + "','pk':'p" + (doc % 10) + "'}"));
      lastDelete = d.delete(PartitionKeyValue.of("p" + (doc % 10)), "d" + doc).lsn();
    }
    java.util.function.LongSupplier records = () -> records(inner.open(d.rid()));
    assertThat(records.getAsLong()).isEqualTo(200);
    clock.advance(Duration.ofMinutes(2));
    refuseDrops.set(true);
    // this write's sweep finds 200 records to drop, and the store refuses them
    long first = d.upsert(obj("{'id':'kept','pk':'p1','v':1}")).lsn();
    assertThat(first).isEqualTo(lastDelete + 1);
    assertThat(records.getAsLong()).isEqualTo(201);
    assertThat(d.read(PartitionKeyValue.of("p1"), "kept").document().get("v").asInt()).isEqualTo(1);
    refuseDrops.set(false);
    clock.advance(Duration.ofSeconds(1)); // past the sweeps' 100 ms spacing
    // its LSN was not given back: the next write takes the one after it
    assertThat(d.upsert(obj("{'id':'kept','pk':'p1','v':2}")).lsn()).isEqualTo(first + 1);
    // the queued drops were made; left are the two versions of 'kept', both inside the window
    assertThat(records.getAsLong()).isEqualTo(2);
  }

  /**
   * The drops a full disk refused wait in memory; their lowest LSN goes with the marks, so after a
   * restart the sweeps look at those records again and drop them, where before they stayed until
   * the container was dropped (the horizon had passed them).
   */
  @Test
  void dropsThatTheStoreRefusedBeforeARestart_areMadeByTheSweepsAfterIt() {
    java.util.concurrent.atomic.AtomicBoolean refuseDrops =
        new java.util.concurrent.atomic.AtomicBoolean();
    InMemoryDocumentStore inner = new InMemoryDocumentStore();
    CosmosEngine first = engineOn(refusingDrops(inner, refuseDrops));
    Container d =
        first
            .createDatabase("db")
            .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    for (int doc = 0; doc < 3_000; doc++) { // more than one sweep's block of records
      d.upsert(obj("{'id':'d" + doc + "','pk':'p" + (doc % 10) + "'}"));
      d.delete(PartitionKeyValue.of("p" + (doc % 10)), "d" + doc);
    }
    d.upsert(obj("{'id':'kept','pk':'p1','v':1}"));
    clock.advance(Duration.ofMinutes(2));
    refuseDrops.set(true);
    d.upsert(obj("{'id':'kept','pk':'p1','v':2}")); // its sweep's drops are refused
    String rid = d.rid();
    assertThat(records(inner.open(rid))).isEqualTo(6_002);
    first.close();

    Container again = engineOn(inner).database("db").container("c");
    for (int i = 0; i < 10; i++) { // each write's sweep looks at one block
      clock.advance(Duration.ofSeconds(1));
      again.upsert(obj("{'id':'other','pk':'p2','v':" + i + "}"));
    }
    // left: the newest 'kept' (its older version went in the same sweep) and 'other's versions,
    // which are inside the window
    assertThat(records(inner.open(rid))).isEqualTo(1 + 10);
    assertThat(again.read(PartitionKeyValue.of("p1"), "kept").document().get("v").asInt())
        .isEqualTo(2);
  }

  @Test
  void deletesOutOfTheWindow_leaveNothingBehind() {
    for (int doc = 0; doc < 100; doc++) {
      upsert(doc, 0);
      c.delete(PartitionKeyValue.of("p" + (doc % 10)), "d" + doc);
    }
    clock.advance(Duration.ofMinutes(2));
    upsert(7, 1);
    assertThat(records()).isEqualTo(1);
    assertThat(c.documentCount()).isEqualTo(1);
  }

  @Test
  void theHorizonSurvivesARestart_soAnOldAllVersionsContinuationStillGets400() {
    long old = historyPrunedAfter();
    c.database().engine().close();
    Container restored =
        CosmosEngine.builder()
            .clock(clock)
            .throttling(ThrottlingMode.OFF)
            .store(store)
            .changeFeedRetention(new Retention(Duration.ofMinutes(1), 1_000))
            .build()
            .database("db")
            .container("c");
    assertThatThrownBy(
            () ->
                restored.readChangeFeed(
                    ChangeFeedRequest.wholeContainer(ChangeFeedStart.continuation(old))
                        .withMode(ChangeFeedMode.ALL_VERSIONS_AND_DELETES)))
        .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.status()).isEqualTo(400));
  }

  @Test
  void aContainersChangeFeedPolicy_setsItsWindow_andZeroRefusesTheAllVersionsFeed() {
    Database db = c.database();
    Container latestOnly =
        db.createContainer(
            ContainerSettings.of("latest", PartitionKeyDefinition.hash("/pk"))
                .withChangeFeedRetentionMinutes(0));
    latestOnly.upsert(obj("{'id':'a','pk':'p'}"));
    assertThatThrownBy(
            () ->
                latestOnly.readChangeFeed(
                    ChangeFeedRequest.wholeContainer(ChangeFeedStart.continuation(0))
                        .withMode(ChangeFeedMode.ALL_VERSIONS_AND_DELETES)))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.getMessage()).contains("latest-version change feed policy");
            });

    Container fiveMinutes =
        db.createContainer(
            ContainerSettings.of("five", PartitionKeyDefinition.hash("/pk"))
                .withChangeFeedRetentionMinutes(5));
    long from = fiveMinutes.lsn();
    fiveMinutes.upsert(obj("{'id':'a','pk':'p','v':0}"));
    clock.advance(Duration.ofMinutes(3)); // past the engine's 1 minute, inside the policy's 5
    fiveMinutes.upsert(obj("{'id':'a','pk':'p','v':1}"));
    fiveMinutes.upsert(obj("{'id':'a','pk':'p','v':2}"));
    assertThat(
            fiveMinutes
                .readChangeFeed(
                    ChangeFeedRequest.wholeContainer(ChangeFeedStart.continuation(from))
                        .withMode(ChangeFeedMode.ALL_VERSIONS_AND_DELETES))
                .items())
        .hasSize(3); // v0 was replaced 3 minutes ago: kept by the policy, not the engine's 1

    Container restored =
        CosmosEngine.builder().clock(clock).store(store).build().database("db").container("five");
    assertThat(restored.changeFeedRetentionMinutes()).isEqualTo(5);
  }
}
