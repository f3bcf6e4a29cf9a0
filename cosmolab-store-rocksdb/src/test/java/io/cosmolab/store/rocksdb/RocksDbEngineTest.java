package io.cosmolab.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.batch.BatchOperation;
import io.cosmolab.engine.changefeed.ChangeFeedMode;
import io.cosmolab.engine.changefeed.ChangeFeedPage;
import io.cosmolab.engine.changefeed.ChangeFeedRequest;
import io.cosmolab.engine.changefeed.ChangeFeedStart;
import io.cosmolab.engine.document.PatchOperation;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.store.DocumentStore;
import io.cosmolab.engine.store.InMemoryDocumentStore;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine on RocksDB against the engine in memory as the oracle: the same random operations give
 * the same answers, and a RocksDB engine closed and reopened in the middle carries on as if nothing
 * happened.
 */
class RocksDbEngineTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static CosmosEngine engine(ManualClock clock, DocumentStore store) {
    return CosmosEngine.builder().clock(clock).store(store).build();
  }

  private static Container setUp(CosmosEngine e) {
    return e.createDatabase("db")
        .createContainer(
            ContainerSettings.of("c", PartitionKeyDefinition.hierarchical("/t", "/u"))
                .withThroughput(Throughput.manual(18_000)));
  }

  private static ObjectNode doc(String id, String t, String u, int n) {
    ObjectNode d = JSON.createObjectNode();
    d.put("id", id).put("t", t).put("u", u).put("n", n);
    d.putArray("tags").add("a" + (n % 3));
    return d;
  }

  /** One random step, applied identically to both containers; failures must match too. */
  private static void step(Random r, int i, Container c, List<String> log) {
    String t = "t" + r.nextInt(3);
    String u = "u" + r.nextInt(4);
    String id = "d" + r.nextInt(40);
    PartitionKeyValue key = PartitionKeyValue.of(t, u);
    int kind = r.nextInt(6);
    Supplier<Object> op =
        switch (kind) {
          case 0 -> () -> c.create(doc(id, t, u, i)).status();
          case 1 -> () -> c.upsert(doc(id, t, u, i)).status();
          case 2 -> () -> c.delete(key, id).status();
          case 3 ->
              () ->
                  c.patch(key, id, List.of(PatchOperation.increment("/n", JSON.valueToTree(1))))
                      .status();
          case 4 ->
              () ->
                  c.executeBatch(
                          key,
                          List.of(
                              new BatchOperation.Upsert(doc(id, t, u, i), null),
                              new BatchOperation.Create(doc(id + "-b" + i, t, u, i))))
                      .status();
          default -> () -> c.read(key, id).status();
        };
    try {
      log.add(kind + ":" + op.get());
    } catch (CosmosException e) {
      log.add(kind + ":" + e.status());
    }
  }

  private static List<String> state(Container c) {
    List<String> out = new ArrayList<>();
    for (JsonNode row : c.query(QueryRequest.of("SELECT * FROM c")).rows()) {
      out.add(row.toString());
    }
    out.sort(String::compareTo);
    ChangeFeedPage all =
        c.readChangeFeed(
            ChangeFeedRequest.wholeContainer(ChangeFeedStart.beginning())
                .withMode(ChangeFeedMode.LATEST_VERSION)
                .withMaxItems(10_000));
    for (ObjectNode d : all.items()) {
      out.add("feed " + d.get("id").asText() + "@" + d.get("_lsn"));
    }
    out.add("lsn " + c.lsn() + " docs " + c.documentCount() + " ranges " + c.routing());
    return out;
  }

  @Test
  void randomOperations_matchTheInMemoryEngine_acrossARestart() {
    long seed = new Random().nextLong();
    System.out.println("RocksDbEngineTest seed " + seed);
    Random r1 = new Random(seed);
    Random r2 = new Random(seed);
    ManualClock clock1 = ManualClock.startingAtEpoch2026();
    ManualClock clock2 = ManualClock.startingAtEpoch2026();
    CosmosEngine memory = engine(clock1, new InMemoryDocumentStore());
    Container oracle = setUp(memory);
    CosmosEngine disk = engine(clock2, RocksDbDocumentStore.open(dir.resolve("data")));
    Container tested = setUp(disk);
    List<String> expected = new ArrayList<>();
    List<String> actual = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      if (i == 300) {
        oracle.splitPartition(oracle.routing().ranges().get(0).id());
        tested.splitPartition(tested.routing().ranges().get(0).id());
        disk.close();
        disk = engine(clock2, RocksDbDocumentStore.open(dir.resolve("data")));
        tested = disk.database("db").container("c");
        assertThat(state(tested)).as("seed %d, after the restart", seed).isEqualTo(state(oracle));
      }
      clock1.advance(Duration.ofMillis(250));
      clock2.advance(Duration.ofMillis(250));
      step(r1, i, oracle, expected);
      step(r2, i, tested, actual);
    }
    assertThat(actual).as("seed %d", seed).isEqualTo(expected);
    assertThat(state(tested)).as("seed %d", seed).isEqualTo(state(oracle));
    disk.close();
  }

  @Test
  void usersAndPermissions_surviveARestartOnDisk_withTheirRidsAndRevisions() {
    ManualClock clock = ManualClock.startingAtEpoch2026();
    String rid;
    String scope;
    try (CosmosEngine e = engine(clock, RocksDbDocumentStore.open(dir.resolve("users")))) {
      setUp(e);
      io.cosmolab.engine.User u = e.database("db").createUser("alice");
      String first =
          u.createPermission(
                  new io.cosmolab.engine.PermissionSettings(
                      "p", "All", "dbs/db/colls/c", JSON.createArrayNode().add("t1").add("u1")))
              .rid();
      io.cosmolab.engine.Permission p =
          u.replacePermission(
              "p",
              new io.cosmolab.engine.PermissionSettings("p", "Read", "dbs/db/colls/c", null),
              null);
      assertThat(p.rid()).isEqualTo(first);
      rid = p.rid();
      scope = p.scopeText();
    }
    try (CosmosEngine e = engine(clock, RocksDbDocumentStore.open(dir.resolve("users")))) {
      io.cosmolab.engine.Permission p = e.findPermissionByRid(rid).orElseThrow();
      assertThat(p.user().id()).isEqualTo("alice");
      assertThat(p.scopeText()).isEqualTo(scope);
      assertThat(p.revision()).isEqualTo(2);
    }
  }

  @Test
  void droppingAContainer_removesItsKeysOnly() {
    ManualClock clock = ManualClock.startingAtEpoch2026();
    try (CosmosEngine e = engine(clock, RocksDbDocumentStore.open(dir.resolve("drop")))) {
      Container a = setUp(e);
      Container b =
          e.database("db")
              .createContainer(ContainerSettings.of("b", PartitionKeyDefinition.hash("/id")));
      a.create(doc("1", "t", "u", 1));
      b.create(JSON.createObjectNode().put("id", "x"));
      e.database("db").deleteContainer("c");
      assertThat(b.documentCount()).isEqualTo(1);
      assertThat(b.read(PartitionKeyValue.of("x"), "x").status()).isEqualTo(200);
    }
  }

  @Test
  void partitionLsns_surviveARestart_andGoOnFromEachPartitionsOwnNumber() {
    ManualClock clock = ManualClock.startingAtEpoch2026();
    Path data = dir.resolve("lsns");
    java.util.Map<String, Long> before = new java.util.HashMap<>();
    long feedFrom;
    try (CosmosEngine e = engine(clock, RocksDbDocumentStore.open(data))) {
      Container c = setUp(e);
      for (int i = 0; i < 30; i++) {
        c.create(doc("d" + i, "t" + i, "u", i));
      }
      c.splitPartition(c.routing().ranges().get(0).id());
      for (int i = 0; i < 30; i++) {
        c.create(doc("e" + i, "t" + i, "v", i));
      }
      c.routing().ranges().forEach(r -> before.put(r.id(), c.lsn(r.id())));
      feedFrom = c.lsn();
    }
    assertThat(before.size()).isGreaterThan(2); // split once, so at least three
    try (CosmosEngine e = engine(clock, RocksDbDocumentStore.open(data))) {
      Container c = e.database("db").container("c");
      c.routing().ranges().forEach(r -> assertThat(c.lsn(r.id())).isEqualTo(before.get(r.id())));
      var r = c.create(doc("after", "t1", "w", 0));
      assertThat(r.lsn()).isEqualTo(before.get(r.partitionKeyRangeId()) + 1);
      ChangeFeedPage page =
          c.readChangeFeed(
              new ChangeFeedRequest(
                  c.routing().require(r.partitionKeyRangeId()).range(),
                  null,
                  ChangeFeedMode.LATEST_VERSION,
                  ChangeFeedStart.continuation(feedFrom),
                  10));
      assertThat(page.items()).hasSize(1);
      assertThat(page.items().get(0).get("_lsn").longValue()).isEqualTo(r.lsn());
      assertThat(page.partitionLsn()).isEqualTo(r.lsn());
    }
  }

  @Test
  void steadyUpserts_keepTheChangeLogOnDiskBounded_acrossARestart() {
    ManualClock clock = ManualClock.startingAtEpoch2026();
    Path data = dir.resolve("retention");
    io.cosmolab.engine.changefeed.Retention retention =
        new io.cosmolab.engine.changefeed.Retention(java.time.Duration.ofMinutes(1), 500);
    for (int run = 0; run < 2; run++) {
      RocksDbDocumentStore store = RocksDbDocumentStore.open(data);
      try (CosmosEngine e =
          CosmosEngine.builder().clock(clock).store(store).changeFeedRetention(retention).build()) {
        Container c = run == 0 ? setUp(e) : e.database("db").container("c");
        for (int i = 0; i < 5_000; i++) {
          c.upsert(doc("d" + (i % 50), "t" + (i % 5), "u", i));
          clock.advanceMillis(10);
        }
        long records = 0;
        for (var it = store.open(c.rid()).changesAfter(0); it.hasNext(); it.next()) {
          records++;
        }
        // 50 newest versions, at most 500 LSNs of history, and what a 100 ms sweep lets through
        assertThat(records).as("run %d", run).isLessThanOrEqualTo(50 + 500 + 10);
        assertThat(c.documentCount()).isEqualTo(50);
      }
    }
  }

  @Test
  void documentRids_goOnAboveEveryStoredDocument_evenWhenTheSavedMarksLagBehind() {
    Path data = dir.resolve("rids");
    String rid;
    long highest = 0;
    try (CosmosEngine e = StoreEngines.on(RocksDbDocumentStore.open(data))) {
      Container c = setUp(e);
      rid = c.rid();
      for (int i = 0; i < 40; i++) {
        String docRid =
            c.create(doc("d" + i, "t" + (i % 3), "u", i)).documentView().get("_rid").asText();
        highest = Math.max(highest, io.cosmolab.engine.resource.ResourceIds.documentPart(docRid));
      }
    }
    // marks behind the documents (a store written by an older version, or a bug: blocks are saved
    // before use, so a crash leaves them ahead): the sequence then comes from the documents
    // themselves, read at start-up
    try (RocksDbDocumentStore store = RocksDbDocumentStore.open(data)) {
      io.cosmolab.engine.store.ContainerStore.Marks m = store.open(rid).marks();
      store
          .open(rid)
          .saveMarks(
              new io.cosmolab.engine.store.ContainerStore.Marks(
                  m.lsn(), 0, m.retentionHorizon(), m.rangeLsns(), m.stragglersFrom()));
    }
    try (CosmosEngine e = StoreEngines.on(RocksDbDocumentStore.open(data))) {
      Container c = e.database("db").container("c");
      String next = c.create(doc("new", "t0", "u", 0)).documentView().get("_rid").asText();
      assertThat(io.cosmolab.engine.resource.ResourceIds.documentPart(next)).isGreaterThan(highest);
    }
  }

  @Test
  void theMarks_surviveAReopen_withWhereTheRefusedDropsBegin() {
    io.cosmolab.engine.store.ContainerStore.Marks saved =
        new io.cosmolab.engine.store.ContainerStore.Marks(
            20_000, 30_000, 1_234, java.util.Map.of("0", 10_007L, "3", 10_009L), 17);
    try (RocksDbDocumentStore store = RocksDbDocumentStore.open(dir.resolve("marks"))) {
      store.open("c").saveMarks(saved);
      store
          .open("d")
          .saveMarks(
              new io.cosmolab.engine.store.ContainerStore.Marks(1, 2, 3, java.util.Map.of()));
    }
    try (RocksDbDocumentStore store = RocksDbDocumentStore.open(dir.resolve("marks"))) {
      assertThat(store.open("c").marks()).isEqualTo(saved);
      assertThat(store.open("d").marks().stragglersFrom()).isZero(); // none: not written
    }
  }

  @Test
  void scanAndScanFrom_walkInEpkThenUtf8IdOrder_andSeekToThePosition_asInMemory() {
    try (RocksDbDocumentStore store = RocksDbDocumentStore.open(dir.resolve("walks"))) {
      io.cosmolab.engine.store.ContainerStore s = store.open("c");
      io.cosmolab.engine.testing.StoreWalks.fill(s);
      io.cosmolab.engine.testing.StoreWalks.checkWalks(s);
      assertThat(s.getAll("20", List.of("b", "missing", "a")))
          .extracting(io.cosmolab.engine.store.StoredDocument::id)
          .containsExactly("b", "a");
    }
  }

  @Test
  void aScanSeesABatchWhole_thoughItReadsInChunksOf512() {
    try (RocksDbDocumentStore store = RocksDbDocumentStore.open(dir.resolve("whole"))) {
      io.cosmolab.engine.testing.StoreWalks.checkBatchSeenWhole(store.open("c"));
    }
  }

  @Test
  void theWriteAheadLog_staysNearItsBound_soARestartReplaysNoMoreThanThat() throws Exception {
    long bound = 2L << 20; // 2 MB here; RocksDatabase.MAX_TOTAL_WAL_BYTES in use
    Path data = dir.resolve("wal");
    try (RocksDbDocumentStore store = RocksDbDocumentStore.open(data, false, bound);
        CosmosEngine e = StoreEngines.on(store)) {
      Container c = setUp(e);
      String filler = "x".repeat(1_000);
      // 12,000 writes of 3,500 documents: the log records each one's body, and each change record
      // its body and the one it replaced, about 36 MB, all of it in the log without the bound
      for (int i = 0; i < 12_000; i++) {
        c.upsert(doc("d" + (i % 500), "t" + (i % 7), "u", i).put("filler", filler));
      }
      // RocksDB moves to a new log and flushes once the logs pass the bound, and deletes the old
      // logs when that flush ends, in the background: wait for it, up to 10 s
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
      long logBytes = RocksDbDocumentStore.logBytes(data);
      while (logBytes >= 3 * bound && System.nanoTime() < deadline) {
        Thread.sleep(50);
        logBytes = RocksDbDocumentStore.logBytes(data);
      }
      assertThat(logBytes).as("write-ahead log bytes").isLessThan(3 * bound);
    }
  }
}
