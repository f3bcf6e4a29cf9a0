package io.cosmolab.engine;

import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.changefeed.ChangeFeedPage;
import io.cosmolab.engine.changefeed.ChangeFeedRequest;
import io.cosmolab.engine.changefeed.ChangeFeedStart;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.resource.ResourceIds;
import io.cosmolab.engine.script.ScriptKind;
import io.cosmolab.engine.store.InMemoryDocumentStore;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import org.junit.jupiter.api.Test;

/**
 * A new engine on the store of an old one is the same account: every database and container with
 * its RIDs, settings, throughput and layout, every document, and LSNs, RIDs and change-feed
 * positions that carry on. The in-memory store keeps its catalog, so it stands in for a durable
 * store here; the RocksDB store runs the same contract across real restarts.
 */
class EngineRestartTest {
  private final ManualClock clock = ManualClock.startingAtEpoch2026();

  private CosmosEngine engineOn(InMemoryDocumentStore store) {
    return CosmosEngine.builder().clock(clock).store(store).build();
  }

  @Test
  void aNewEngineOnTheSameStore_restoresTheAccountAndCarriesOn() {
    InMemoryDocumentStore store = new InMemoryDocumentStore();
    CosmosEngine before = engineOn(store);
    before.createDatabase("shared", Throughput.manual(800));
    Database db = before.createDatabase("shop");
    Container orders =
        db.createContainer(
            ContainerSettings.of("orders", PartitionKeyDefinition.hierarchical("/t", "/u"))
                .withThroughput(Throughput.manual(12_000))
                .withDefaultTimeToLive(-1));
    for (int i = 0; i < 50; i++) {
      orders.create(
          obj("{'id':'o" + i + "','t':'t" + (i % 3) + "','u':'u" + i + "','n':" + i + "}"));
    }
    orders.delete(PartitionKeyValue.of("t1", "u1"), "o1");
    orders.splitPartition(orders.routing().ranges().get(0).id());
    orders.replaceThroughput(Throughput.autoscale(40_000));
    orders
        .scripts()
        .create(ScriptKind.STORED_PROCEDURE, obj("{'id':'sp','body':'function () {}'}"));
    ChangeFeedPage seen =
        orders.readChangeFeed(ChangeFeedRequest.wholeContainer(ChangeFeedStart.beginning()));
    long lsnBefore = orders.lsn();
    before.close();

    CosmosEngine after = engineOn(store);
    Container restored = after.database("shop").container("orders");

    assertThat(after.database("shop").rid()).isEqualTo(db.rid());
    assertThat(after.database("shared").sharedThroughput()).contains(Throughput.manual(800));
    assertThat(restored.rid()).isEqualTo(orders.rid());
    assertThat(restored.routing()).isEqualTo(orders.routing());
    assertThat(restored.throughput()).contains(Throughput.autoscale(40_000));
    assertThat(restored.defaultTimeToLive()).isEqualTo(-1);
    assertThat(restored.partitionKey()).isEqualTo(orders.partitionKey());
    assertThat(restored.lsn()).isEqualTo(lsnBefore);
    assertThat(restored.documentCount()).isEqualTo(49);
    assertThat(restored.partitionStats())
        .extracting(s -> s.documents())
        .isEqualTo(orders.partitionStats().stream().map(s -> s.documents()).toList());
    assertThat(restored.scripts().read(ScriptKind.STORED_PROCEDURE, "sp").get("_rid"))
        .isEqualTo(orders.scripts().read(ScriptKind.STORED_PROCEDURE, "sp").get("_rid"));
    assertThat(restored.read(PartitionKeyValue.of("t2", "u2"), "o2").document().get("n").asInt())
        .isEqualTo(2);
    assertThat(
            restored.query(QueryRequest.of("SELECT VALUE COUNT(1) FROM c")).rows().get(0).asInt())
        .isEqualTo(49);

    // it carries on: new LSNs and RIDs above the old ones, and old continuations still work
    long oldMax =
        restored.query(QueryRequest.of("SELECT VALUE c._rid FROM c")).rows().stream()
            .mapToLong(r -> ResourceIds.documentPart(ResourceIds.decode(r.asText())))
            .max()
            .orElseThrow();
    ItemResponse next = restored.create(obj("{'id':'new','t':'t0','u':'x'}"));
    // the partition that took it numbers on from its own LSN before the restart
    assertThat(next.lsn()).isEqualTo(orders.lsn(next.partitionKeyRangeId()) + 1);
    assertThat(restored.lsn()).isEqualTo(lsnBefore + 1);

    assertThat(ResourceIds.documentPart(ResourceIds.decode(next.document().get("_rid").asText())))
        .isGreaterThan(oldMax);
    ChangeFeedPage more =
        restored.readChangeFeed(
            ChangeFeedRequest.wholeContainer(ChangeFeedStart.continuation(seen.continuation())));
    assertThat(more.items()).extracting(d -> d.get("id").asText()).containsExactly("new");
    Container other =
        after
            .database("shop")
            .createContainer(ContainerSettings.of("other", PartitionKeyDefinition.hash("/id")));
    assertThat(other.rid()).isNotEqualTo(restored.rid());
  }

  @Test
  void deletingADatabase_isRemembered() {
    InMemoryDocumentStore store = new InMemoryDocumentStore();
    CosmosEngine before = engineOn(store);
    before.createDatabase("gone");
    before.createDatabase("kept");
    before.deleteDatabase("gone");
    assertThat(engineOn(store).databases()).extracting(Database::id).containsExactly("kept");
  }

  @Test
  void afterACrash_lsnsAndRidsCarryOnAboveEverythingUsed_withoutReadingTheChangeLog() {
    CountingStore store = new CountingStore();
    CosmosEngine before = CosmosEngine.builder().clock(clock).store(store).build();
    Container c =
        before
            .createDatabase("db")
            .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    String deletedRid = null;
    for (int i = 0; i < 20; i++) {
      deletedRid = c.create(obj("{'id':'d" + i + "','pk':'p'}")).document().get("_rid").asText();
    }
    c.delete(PartitionKeyValue.of("p"), "d19"); // the highest LSN belongs to no document
    long lsnBefore = c.lsn();
    ChangeFeedPage seen =
        c.readChangeFeed(ChangeFeedRequest.wholeContainer(ChangeFeedStart.beginning()));
    store.logReads.set(0);

    // no close: the new engine finds only what a crash leaves
    Container restored =
        CosmosEngine.builder().clock(clock).store(store).build().database("db").container("c");

    assertThat(store.logReads.get()).as("change log reads at start-up").isZero();
    assertThat(restored.lsn()).isGreaterThanOrEqualTo(lsnBefore);
    ItemResponse next = restored.create(obj("{'id':'d19','pk':'p'}"));
    assertThat(next.lsn()).isGreaterThan(lsnBefore);
    assertThat(next.document().get("_rid").asText()).isNotEqualTo(deletedRid);
    ChangeFeedPage more =
        restored.readChangeFeed(
            ChangeFeedRequest.wholeContainer(ChangeFeedStart.continuation(seen.continuation())));
    assertThat(more.items()).extracting(d -> d.get("id").asText()).containsExactly("d19");
  }

  @Test
  void afterACrash_eachPartitionsLsn_carriesOnAboveWhatItUsed_theSplitsChildrenToo() {
    CountingStore store = new CountingStore();
    CosmosEngine before = CosmosEngine.builder().clock(clock).store(store).build();
    Container c =
        before
            .createDatabase("db")
            .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    for (int i = 0; i < 10; i++) {
      c.create(obj("{'id':'a" + i + "','pk':'k" + i + "'}"));
    }
    c.splitPartition(c.routing().ranges().get(0).id());
    for (int i = 0; i < 10; i++) {
      c.create(obj("{'id':'b" + i + "','pk':'k" + i + "'}"));
    }
    java.util.Map<String, Long> used = new java.util.HashMap<>();
    c.routing().ranges().forEach(r -> used.put(r.id(), c.lsn(r.id())));

    // no close: the new engine finds only what a crash leaves
    Container restored =
        CosmosEngine.builder().clock(clock).store(store).build().database("db").container("c");

    assertThat(restored.routing()).isEqualTo(c.routing());
    for (var r : restored.routing().ranges()) {
      assertThat(restored.lsn(r.id())).isGreaterThanOrEqualTo(used.get(r.id()));
    }
    ItemResponse next = restored.create(obj("{'id':'after','pk':'k1'}"));
    assertThat(next.lsn()).isGreaterThan(used.get(next.partitionKeyRangeId()));
  }

  @Test
  void deletingAContainer_savesTheCatalogAndDropsItsDataInOneWrite() {
    CountingStore store = new CountingStore();
    CosmosEngine e = CosmosEngine.builder().clock(clock).store(store).build();
    Container c =
        e.createDatabase("db")
            .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    c.create(obj("{'id':'x','pk':'p'}"));
    store.saves.clear();
    e.database("db").deleteContainer("c");
    assertThat(store.saves).containsExactly(java.util.List.of(c.rid()));
  }

  /** The in-memory store, counting change-log reads and recording what each catalog save drops. */
  private static final class CountingStore implements io.cosmolab.engine.store.DocumentStore {
    final InMemoryDocumentStore inner = new InMemoryDocumentStore();
    final java.util.concurrent.atomic.AtomicLong logReads =
        new java.util.concurrent.atomic.AtomicLong();
    final java.util.List<java.util.List<String>> saves = new java.util.ArrayList<>();

    @Override
    public io.cosmolab.engine.store.ContainerStore open(String rid) {
      return io.cosmolab.engine.testing.Intercepted.containerStore(
          inner.open(rid),
          method -> {
            if (method.equals("changesAfter")) {
              logReads.incrementAndGet();
            }
          });
    }

    @Override
    public String loadCatalog() {
      return inner.loadCatalog();
    }

    @Override
    public void saveCatalog(String catalogJson, java.util.Collection<String> dropped) {
      saves.add(java.util.List.copyOf(dropped));
      inner.saveCatalog(catalogJson, dropped);
    }
  }

  @Test
  void aStoreCommitThatFails_writesNothing_andItsLsnIsGivenBack() {
    java.util.concurrent.atomic.AtomicBoolean fail =
        new java.util.concurrent.atomic.AtomicBoolean();
    InMemoryDocumentStore inner = new InMemoryDocumentStore();
    io.cosmolab.engine.store.DocumentStore failing =
        io.cosmolab.engine.testing.Intercepted.documentStore(
            inner,
            (method, args) -> {
              if (method.equals("commit") && fail.get()) {
                throw io.cosmolab.engine.error.CosmosError.INSUFFICIENT_STORAGE.exception(
                    "the disk is full");
              }
            });
    Container c =
        CosmosEngine.builder()
            .clock(clock)
            .store(failing)
            .build()
            .createDatabase("db")
            .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    c.create(obj("{'id':'a','pk':'p'}"));
    long lsn = c.lsn();
    fail.set(true);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.create(obj("{'id':'b','pk':'p'}")))
        .isInstanceOf(io.cosmolab.engine.error.CosmosException.class);
    fail.set(false);
    assertThat(c.lsn()).isEqualTo(lsn);
    assertThat(c.documentCount()).isEqualTo(1);
    assertThat(c.create(obj("{'id':'b','pk':'p'}")).lsn()).isEqualTo(lsn + 1);
  }
}
