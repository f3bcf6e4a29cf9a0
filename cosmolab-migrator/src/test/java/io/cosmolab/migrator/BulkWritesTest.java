package io.cosmolab.migrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.metrics.PartitionStats;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.testkit.CosmosLab;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writes through the SDK's bulk executor: a document's changes within a page keep their order,
 * and a target partition the service throttles does not hold back the others.
 */
class BulkWritesTest {

  /**
   * With previous images (a container opted in to them) no record queries the target, so the page
   * is one step and its writes are the last per target document.
   */
  @Test
  void aPageWithSeveralChangesToOneId_appliesThemInFeedOrder_asTheLastWritePerTargetDocument(
      @TempDir Path tmp) {
    Map<String, AtomicLong> sent = severalChangesToOneIdInAPage(tmp, true);
    // applied one by one these 12 records are 14 writes; the last per target document: 7
    assertThat(sent.get("upsert")).as("x@asia, o1@us, o2@us").hasValue(3);
    assertThat(sent.get("delete")).as("x@eu, x@us, y@eu, o2@asia").hasValue(4);
  }

  /**
   * Without them (the service's default) each replace and delete first queries the target for its
   * old copies, in a step of its own after the records before it: the same end state.
   */
  @Test
  void aPageWithSeveralChangesToOneId_withoutPreviousImages_endsTheSame(@TempDir Path tmp) {
    Map<String, AtomicLong> sent = severalChangesToOneIdInAPage(tmp, false);
    // a replace's run starts a step, and a step sends one upsert per id: x 3, o1 5, y 1, o2 1
    assertThat(sent.get("upsert")).as("upserts, a step per replace").hasValue(10);
  }

  /**
   * Without previous images, a page of 250 replaces that each move an order to another region finds
   * their old copies with one query per 100 ids (three), not one per record, and leaves each order
   * once, under its new region.
   */
  @Test
  void aPageOfMovesWithoutPreviousImages_findsTheOldCopiesAHundredIdsAQuery(@TempDir Path tmp) {
    int n = 250;
    try (CosmosLab lab = CosmosLab.builder().start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      CosmosContainer source = Lab.orders(client, "bw3", "orders", n);
      MigrationSpec spec = Lab.spec(lab, "bw3", "orders", "byRegion", "/region");
      try (Migrator m = Migrator.open(spec, tmp, Lab.options())) {
        m.run(true, () -> false);
      }
      for (int i = 0; i < n; i++) { // each to the next region: its old copy must go
        source.upsertItem(Lab.order("o" + i, "t" + (i % 7), Lab.REGIONS[(i + 1) % 3], i));
      }
      Container target = lab.engine().database("bw3").container("byRegion");
      long queriesBefore = target.queryStats().totals()[0];
      try (Migrator m = Migrator.open(spec, tmp, Lab.options().withPageSize(500))) {
        MigrationState s = m.run(true, () -> false);
        assertThat(s.applied()).isEqualTo(n);
      }
      // the target's queries (each range's first page counts): one per record would be n or more
      assertThat(target.queryStats().totals()[0] - queriesBefore)
          .as("queries the target answered")
          .isLessThan(n / 10);
      assertThat(target.documentCount()).isEqualTo(n);
      CosmosContainer moved = client.getDatabase("bw3").getContainer("byRegion");
      for (int i = 0; i < n; i += 37) {
        int k = i;
        assertThat(copies(moved, "o" + k))
            .singleElement()
            .satisfies(d -> assertDoc(d, Lab.REGIONS[(k + 1) % 3], k));
      }
    }
  }

  /**
   * Copies 20 orders, then makes one page of changes several to an id (moves, a create then a
   * delete, a delete then a re-create elsewhere), applies it and checks the target's end state;
   * returns the writes sent by kind.
   */
  private static Map<String, AtomicLong> severalChangesToOneIdInAPage(
      Path tmp, boolean previousImages) {
    try (CosmosLab lab = CosmosLab.builder().changeFeedPreviousImages(previousImages).start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      CosmosContainer source = Lab.orders(client, "bw1", "orders", 20);
      MigrationSpec spec = Lab.spec(lab, "bw1", "orders", "byRegion", "/region");
      try (Migrator m = Migrator.open(spec, tmp, Lab.options())) {
        m.run(true, () -> false);
      }
      // one page of the feed: ids changed several times in a row (o1 is t1/us, o2 t2/asia)
      source.createItem(Lab.order("x", "t1", "eu", 1));
      source.upsertItem(Lab.order("x", "t1", "us", 2)); // moves x to another new key
      source.upsertItem(Lab.order("x", "t1", "asia", 3)); // and again
      source.createItem(Lab.order("y", "t2", "eu", 1));
      source.deleteItem("y", new PartitionKey("t2"), null); // created, then deleted
      for (int i = 1; i <= 5; i++) {
        source.upsertItem(Lab.order("o1", "t1", "us", 100 + i)); // five updates
      }
      source.deleteItem("o2", new PartitionKey("t2"), null); // deleted, then back elsewhere
      source.createItem(Lab.order("o2", "t2", "us", 7));
      Map<String, AtomicLong> sent = new ConcurrentHashMap<>();
      MigratorOptions o =
          Lab.options()
              .withFault(
                  step -> sent.computeIfAbsent(step, k -> new AtomicLong()).incrementAndGet());
      try (Migrator m = Migrator.open(spec, tmp, o)) {
        MigrationState s = m.run(true, () -> false);
        assertThat(s.applied()).isEqualTo(12);
        assertThat(s.deleted()).isEqualTo(2);
        assertThat(m.verify().differences()).isEmpty();
      }
      CosmosContainer target = client.getDatabase("bw1").getContainer("byRegion");
      assertThat(copies(target, "x")).singleElement().satisfies(d -> assertDoc(d, "asia", 3));
      assertThat(copies(target, "y")).isEmpty();
      assertThat(copies(target, "o1")).singleElement().satisfies(d -> assertDoc(d, "us", 105));
      assertThat(copies(target, "o2")).singleElement().satisfies(d -> assertDoc(d, "us", 7));
      return sent;
    }
  }

  @Test
  void aThrottledTargetPartition_doesNotHoldBackWritesToTheOtherPartition(@TempDir Path tmp)
      throws Exception {
    try (CosmosLab lab = CosmosLab.builder().throttling(ThrottlingMode.ENFORCE).start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      client.createDatabaseIfNotExists("hot");
      CosmosDatabase db = client.getDatabase("hot");
      // one source partition, so the feed gives the writes in the order they were made
      db.createContainer(
          new CosmosContainerProperties("orders", "/tenantId"),
          ThroughputProperties.createManualThroughput(4000));
      CosmosContainer source = db.getContainer("orders");
      // the target, made before the run (which reuses it): 400 RU/s in two partitions of 200
      db.createContainer(
          new CosmosContainerProperties("byRegion", TargetKey.parse("/region").sdkDefinition()),
          ThroughputProperties.createManualThroughput(400));
      Container t = lab.engine().database("hot").container("byRegion");
      t.splitPartition(t.routing().ranges().get(0).id());
      String hotRegion = regionIn(t, 0);
      String coldRegion = regionIn(t, 1);
      int hot = 60;
      int cold = 80;
      MigrationSpec spec = Lab.spec(lab, "hot", "orders", "byRegion", "/region");
      MigratorOptions o = MigratorOptions.of(Clock.systemUTC()).withPageSize(500); // one page
      try (Migrator m = Migrator.open(spec, tmp, o)) {
        m.run(false, () -> true); // the target, the feed's start, an empty copy
        String padding = "p".repeat(2000); // the hot writes cost more than a second's budget
        for (int i = 0; i < hot; i++) { // the hot partition's writes first in the feed
          ObjectNode d = Lab.order("h" + i, "t" + (i % 5), hotRegion, i);
          d.put("note", padding);
          source.createItem(d);
        }
        for (int i = 0; i < cold; i++) {
          source.createItem(Lab.order("c" + i, "t" + (i % 5), coldRegion, i));
        }
        // the target as it fills: {hot documents, the hot partition's 429s, cold documents}
        List<long[]> samples = new CopyOnWriteArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        Thread watcher =
            new Thread(
                () -> {
                  while (!stop.get()) {
                    List<PartitionStats> p = t.partitionStats();
                    samples.add(
                        new long[] {
                          p.get(0).documents(), p.get(0).throttled(), p.get(1).documents()
                        });
                    try {
                      Thread.sleep(5);
                    } catch (InterruptedException e) {
                      return;
                    }
                  }
                },
                "target-watcher");
        watcher.start();
        MigrationState s;
        try {
          s = m.run(true, () -> false);
        } finally {
          stop.set(true);
          watcher.join();
        }
        // the first moment the hot partition had answered 429 and was not done
        int first = -1;
        for (int i = 0; i < samples.size() && first < 0; i++) {
          if (samples.get(i)[1] > 0 && samples.get(i)[0] < hot) {
            first = i;
          }
        }
        assertThat(first).as("the hot partition was throttled before it was done").isNotNegative();
        long[] throttledAt = samples.get(first);
        long coldLater = throttledAt[2];
        for (long[] x : samples.subList(first, samples.size())) {
          if (x[0] < hot) { // the hot partition still not done
            coldLater = Math.max(coldLater, x[2]);
          }
        }
        System.out.printf(
            "hot partition throttled at %d of %d documents, the cold one then at %d of %d;"
                + " before the hot one was done the cold one reached %d; the run saw %d 429s%n",
            throttledAt[0], hot, throttledAt[2], cold, coldLater, s.throttled());
        assertThat(coldLater)
            .as("cold documents arrived while the hot partition was throttled and not done")
            .isGreaterThan(throttledAt[2]);
        List<PartitionStats> end = t.partitionStats();
        assertThat(end.get(0).documents()).isEqualTo(hot);
        assertThat(end.get(1).documents()).isEqualTo(cold);
        // every 429 the target gave, the run counted (it counts the source's too)
        assertThat(s.throttled())
            .isGreaterThanOrEqualTo(end.get(0).throttled() + end.get(1).throttled());
        assertThat(m.verify().equal()).isTrue();
      }
    }
  }

  /** A region value whose documents land in the target's {@code index}-th partition. */
  private static String regionIn(Container t, int index) {
    var range = t.routing().ranges().get(index).range();
    for (int i = 0; ; i++) {
      String r = "r" + i;
      if (range.contains(EffectivePartitionKey.of(t.partitionKey(), PartitionKeyValue.of(r)))) {
        return r;
      }
    }
  }

  private static List<ObjectNode> copies(CosmosContainer target, String id) {
    return target
        .queryItems("SELECT * FROM c WHERE c.id = '" + id + "'", null, ObjectNode.class)
        .stream()
        .toList();
  }

  private static void assertDoc(ObjectNode d, String region, int total) {
    assertThat(d.get("region").asText()).isEqualTo(region);
    assertThat(d.get("total").asInt()).isEqualTo(total);
  }
}
