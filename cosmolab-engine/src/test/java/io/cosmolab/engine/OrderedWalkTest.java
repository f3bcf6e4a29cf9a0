package io.cosmolab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.batch.BatchOperation;
import io.cosmolab.engine.index.ContainerIndex;
import io.cosmolab.engine.index.IndexingPolicy;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.resource.ResourceIds;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import io.cosmolab.query.CompiledQuery;
import io.cosmolab.query.exec.Executor;
import io.cosmolab.query.exec.Values;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * An ORDER BY of one indexed path reads the index in sort order ({@link OrderedWalk}): its pages
 * are the model's order of the documents (values across types, ties by RID), each page loads what
 * its rows need rather than the container, and a page sees a batch whole or not at all.
 */
class OrderedWalkTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** A value of every kind ORDER BY orders, with ties: missing, null, booleans, numbers, ... */
  private static void randomValue(ObjectNode doc, Random random) {
    switch (random.nextInt(9)) {
      case 0 -> {} // undefined
      case 1 -> doc.putNull("v");
      case 2 -> doc.put("v", random.nextBoolean());
      case 3 -> doc.put("v", random.nextInt(5));
      case 4 -> doc.put("v", random.nextInt(5) + 0.5);
      case 5 -> doc.put("v", "s" + random.nextInt(5));
      case 6 -> doc.putArray("v").add(random.nextInt(3));
      case 7 -> doc.putObject("v").put("x", random.nextInt(3));
      default -> doc.putObject("w").put("v", 1); // v undefined, another property there
    }
  }

  /**
   * 120 documents with a random {@code v} of every kind, {@code n} below {@code nValues} (sometimes
   * none, with {@code sometimesNoN}) and 0 to 3 {@code tags}, then 40 of them rewritten, so that
   * RIDs and values no longer follow creation order; returns what is stored.
   */
  private static List<JsonNode> fill(
      Container c, Random random, int nValues, boolean sometimesNoN) {
    for (int i = 0; i < 160; i++) {
      boolean rewrite = i >= 120;
      ObjectNode doc =
          NODES
              .objectNode()
              .put("id", "d" + (rewrite ? random.nextInt(120) : i))
              .put("pk", rewrite ? "moved" : "k" + random.nextInt(6));
      if (rewrite || !sometimesNoN || random.nextInt(8) != 0) {
        doc.put("n", random.nextInt(nValues));
      }
      randomValue(doc, random);
      var tags = doc.putArray("tags"); // 0 to 3 rows under a JOIN
      for (int t = random.nextInt(4); t > 0; t--) {
        tags.add("t" + random.nextInt(3));
      }
      c.upsert(doc);
    }
    return Engines.drainQuery(c, QueryRequest.of("SELECT * FROM c"), 1000);
  }

  /**
   * A walk of {@code paths} (the first one's index, from the start or from {@code position}), the
   * ids it loads added to {@code loaded} (unless null); with {@code positionRead}, the position's
   * document is handed on again (JOINs).
   */
  private static OrderedWalk newWalk(
      Container c,
      List<List<String>> paths,
      List<Boolean> ascending,
      Executor.After position,
      List<String> loaded,
      int wholeRunLimit,
      boolean positionRead) {
    return new OrderedWalk(
        c.reads()
            .ordered(
                paths.get(0),
                ascending.get(0),
                position == null,
                position == null ? null : position.keys().get(0)),
        paths,
        ascending,
        ref -> true,
        (epk, ids) -> {
          if (loaded != null) {
            loaded.addAll(ids);
          }
          return c.reads().byIds(epk, ids, 0);
        },
        position,
        wholeRunLimit,
        positionRead);
  }

  /** The oracle: the executor sorting every stored document at once (ties by RID part). */
  private static List<JsonNode> sortedAtOnce(String text, List<JsonNode> stored) {
    return CompiledQuery.compile(text, java.util.Map.of())
        .execute(
            stored.stream()
                .map(d -> new Executor.Input(d, ResourceIds.documentPart(d.get("_rid").asText())))
                .toList(),
            Instant.EPOCH);
  }

  @Test
  void pages_areTheModelsOrder_forEveryKindOfValue_inBothDirections_withFiltersAndTop() {
    for (long seed = 1; seed <= 6; seed++) {
      Random random = new Random(seed);
      Container c = Engines.container(ManualClock.startingAtEpoch2026(), seed % 2 == 0 ? 4 : 1);
      List<JsonNode> stored = fill(c, random, 10, false);
      for (boolean ascending : new boolean[] {true, false}) {
        String dir = ascending ? "" : " DESC";
        check(c, stored, "SELECT VALUE c.id FROM c ORDER BY c.v" + dir, ascending, d -> true, -1);
        check(
            c,
            stored,
            "SELECT VALUE c.id FROM c WHERE c.n > 3 ORDER BY c.v" + dir,
            ascending,
            d -> d.get("n").asInt() > 3,
            -1);
        check(
            c,
            stored,
            "SELECT VALUE c.id FROM c WHERE c.pk = 'k2' ORDER BY c.v" + dir,
            ascending,
            d -> d.get("pk").asText().equals("k2"),
            -1);
        check(
            c,
            stored,
            "SELECT TOP 17 VALUE c.id FROM c ORDER BY c.v" + dir,
            ascending,
            d -> true,
            17);
      }
    }
  }

  /** A container with composite indexes on (v, n) in all four directions' pairs. */
  private static Container withCompositeIndexes(int partitions) {
    IndexingPolicy policy = IndexingPolicy.DEFAULT;
    for (boolean vUp : new boolean[] {true, false}) {
      for (boolean nUp : new boolean[] {true, false}) {
        policy =
            policy.withCompositeIndex(
                new IndexingPolicy.CompositePath("/v", vUp),
                new IndexingPolicy.CompositePath("/n", nUp));
      }
    }
    return Engines.onClock(ManualClock.startingAtEpoch2026(), ThrottlingMode.OFF)
        .createDatabase("db")
        .createContainer(
            ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                .withThroughput(Throughput.manual(400))
                .withPhysicalPartitions(partitions)
                .withIndexingPolicy(policy));
  }

  @Test
  void pagesOfSeveralItemsOrUnderJoins_areTheExecutorsOrder_inEveryDirection_withFiltersAndTop() {
    for (long seed = 1; seed <= 4; seed++) {
      Random random = new Random(seed);
      Container c = withCompositeIndexes(seed % 2 == 0 ? 4 : 1);
      List<JsonNode> stored = fill(c, random, 4, true); // ties on both items
      for (String dirs : new String[] {"", " DESC", ", c.n DESC", " DESC, c.n"}) {
        String orderBy =
            dirs.startsWith(",") || dirs.startsWith(" DESC,")
                ? " ORDER BY c.v" + dirs
                : " ORDER BY c.v" + dirs + ", c.n" + dirs;
        String oneItem = orderBy.substring(0, orderBy.indexOf(','));
        for (String text :
            List.of(
                "SELECT VALUE c.id FROM c" + orderBy,
                "SELECT VALUE c.id FROM c WHERE c.n > 1" + orderBy,
                "SELECT TOP 17 VALUE c.id FROM c" + orderBy,
                // a JOIN's rows share their document's keys; a page may end among them
                "SELECT c.id, t FROM c JOIN t IN c.tags" + oneItem,
                "SELECT c.id, t FROM c JOIN t IN c.tags WHERE t != 't1'" + orderBy,
                "SELECT TOP 17 c.id, t FROM c JOIN t IN c.tags" + oneItem)) {
          List<JsonNode> expected = sortedAtOnce(text, stored);
          for (int pageSize : new int[] {1, 3, 50}) {
            assertThat(Engines.drainQuery(c, QueryRequest.of(text), pageSize))
                .as("%s in pages of %d (seed %d)", text, pageSize, seed)
                .isEqualTo(expected);
          }
        }
      }
    }
  }

  @Test
  void pagesUnderAFromPath_walkItsPath_inTheExecutorsOrder_andLoadWhatTheirRowsNeed() {
    for (long seed = 1; seed <= 3; seed++) {
      Random random = new Random(seed);
      Container c = Engines.container(ManualClock.startingAtEpoch2026(), seed == 2 ? 1 : 4);
      for (int i = 0; i < 400; i++) {
        ObjectNode doc = NODES.objectNode().put("id", "d" + i).put("pk", "k" + random.nextInt(6));
        switch (random.nextInt(8)) {
          case 0 -> {} // no a: no row
          case 1 -> doc.put("a", i); // a scalar: a row whose a.v is undefined
          case 2 -> doc.putArray("a").add(i); // an array: the same
          default -> {
            ObjectNode a = doc.putObject("a").put("id", "d" + i).put("n", random.nextInt(4));
            randomValue(a, random);
            var tags = a.putArray("tags"); // 0 to 2 rows under a JOIN
            for (int t = random.nextInt(3); t > 0; t--) {
              tags.add("t" + random.nextInt(3));
            }
          }
        }
        c.create(doc);
      }
      List<JsonNode> stored = Engines.drainQuery(c, QueryRequest.of("SELECT * FROM c"), 1000);
      for (String text :
          List.of(
              "SELECT VALUE a.id FROM c.a a ORDER BY a.v",
              "SELECT VALUE a.id FROM c.a a ORDER BY a.v DESC",
              "SELECT VALUE a.id FROM c.a a WHERE a.n > 1 ORDER BY a.v",
              "SELECT TOP 17 VALUE a.id FROM c.a a ORDER BY a.v DESC",
              "SELECT VALUE a.id FROM c.a ORDER BY a.v", // no alias: the path's last name
              "SELECT a.id, t FROM c.a a JOIN t IN a.tags ORDER BY a.v DESC")) {
        List<JsonNode> expected = sortedAtOnce(text, stored);
        for (int pageSize : new int[] {1, 7, 500}) {
          assertThat(Engines.drainQuery(c, QueryRequest.of(text), pageSize))
              .as("%s in pages of %d (seed %d)", text, pageSize, seed)
              .isEqualTo(expected);
        }
      }
      // a page walks /a/v: it loads the documents of its rows (and the next one's), not all 400
      QueryPage first =
          c.query(
              QueryRequest.of("SELECT VALUE a.id FROM c.a a ORDER BY a.v DESC")
                  .withMaxItemCount(10));
      assertThat(first.rows()).hasSize(10);
      assertThat(first.metrics().documentsLoaded()).as("seed %d", seed).isLessThanOrEqualTo(12);
    }
  }

  @Test
  void aPageOfSeveralItems_loadsTheRunsItsRowsReach_andPaysForItsRows() {
    Container c = withCompositeIndexes(4);
    for (int i = 0; i < 2000; i++) {
      c.create(
          NODES
              .objectNode()
              .put("id", "d" + i)
              .put("pk", "k" + (i % 50))
              .put("v", i / 2) // runs of two documents
              .put("n", i % 7));
    }
    QueryRequest q = QueryRequest.of("SELECT c.id, c.v, c.n FROM c ORDER BY c.v DESC, c.n DESC");
    QueryPage first = c.query(q.withMaxItemCount(10));
    assertThat(first.rows()).extracting(r -> r.get("v").asInt()).startsWith(999, 999, 998);
    assertThat(first.rows().get(0).get("n").asInt())
        .isGreaterThan(first.rows().get(1).get("n").asInt());
    assertThat(first.metrics().documentsLoaded()).isEqualTo(10); // paid: its rows' documents
    QueryPage second = c.query(q.withMaxItemCount(10).withContinuation(first.continuation()));
    assertThat(second.rows()).extracting(r -> r.get("v").asInt()).startsWith(994);
    // what the walk itself loads: the runs of the rows it hands on (6 runs of 2 for 11 rows)
    List<String> loaded = new ArrayList<>();
    OrderedWalk walk =
        newWalk(
            c,
            List.of(List.of("v"), List.of("n")),
            List.of(false, false),
            null,
            loaded,
            Integer.MAX_VALUE,
            false);
    for (int i = 0; i < 11; i++) {
      walk.next();
    }
    assertThat(loaded).hasSize(12);
  }

  /** 3,000 documents with a composite index on (v, n): v as given by position, n random. */
  private static Container threeThousand(long seed, java.util.function.IntFunction<String> v) {
    Container c = withCompositeIndexes(4);
    Random random = new Random(seed);
    for (int i = 0; i < 3000; i++) {
      c.create(
          NODES
              .objectNode()
              .put("id", "d" + i)
              .put("pk", "k" + (i % 50))
              .put("v", v.apply(i))
              .put("n", random.nextInt(100)));
    }
    return c;
  }

  @Test
  void aFirstItemWithFewValues_isScannedInstead_ofLoadingItsRunsWhole_inTheSameOrder() {
    // runs of 1,500: over 1,024
    Container c = threeThousand(3, i -> i % 2 == 0 ? "open" : "closed");
    String text = "SELECT VALUE c.id FROM c ORDER BY c.v DESC, c.n";
    List<JsonNode> stored = Engines.drainQuery(c, QueryRequest.of("SELECT * FROM c"), 5000);
    assertThat(Engines.drainQuery(c, QueryRequest.of(text), 700))
        .isEqualTo(sortedAtOnce(text, stored));
    // the walk itself refuses such a run before it hands anything on
    OrderedWalk walk =
        newWalk(
            c, List.of(List.of("v"), List.of("n")), List.of(false, true), null, null, 1024, false);
    assertThatThrownBy(walk::hasNext).isInstanceOf(OrderedWalk.RunTooLarge.class);
  }

  @Test
  void aLaterRunTooLargeToLoadWhole_sendsThatPageToTheScan_inTheSameOrder() {
    // a first run of 10, then one of 2,990: a page that reaches the second is scanned, so no
    // page holds a run of most of the container in memory
    Container c = threeThousand(5, i -> i % 300 == 0 ? "a" : "b");
    String text = "SELECT VALUE c.id FROM c ORDER BY c.v, c.n";
    List<JsonNode> stored = Engines.drainQuery(c, QueryRequest.of("SELECT * FROM c"), 5000);
    for (int pageSize : new int[] {7, 700}) {
      assertThat(Engines.drainQuery(c, QueryRequest.of(text), pageSize))
          .as("pages of %d", pageSize)
          .isEqualTo(sortedAtOnce(text, stored));
    }
    // the walk hands on the first run, then refuses the second
    OrderedWalk walk =
        newWalk(
            c, List.of(List.of("v"), List.of("n")), List.of(true, true), null, null, 1024, false);
    for (int i = 0; i < 10; i++) {
      assertThat(walk.next().body().get("v").asText()).isEqualTo("a");
    }
    assertThatThrownBy(walk::hasNext).isInstanceOf(OrderedWalk.RunTooLarge.class);
  }

  private static void check(
      Container c,
      List<JsonNode> stored,
      String text,
      boolean ascending,
      Predicate<JsonNode> where,
      int top) {
    Comparator<JsonNode> order =
        Comparator.<JsonNode, JsonNode>comparing(
                d -> ContainerIndex.valueAt(d, List.of("v")), Values.ORDER)
            .thenComparingLong(d -> ResourceIds.documentPart(d.get("_rid").asText()));
    List<JsonNode> expected =
        stored.stream()
            .filter(where)
            .sorted(ascending ? order : order.reversed())
            .limit(top < 0 ? Long.MAX_VALUE : top)
            .map(d -> d.get("id"))
            .toList();
    for (int pageSize : new int[] {1, 3, 50}) {
      assertThat(Engines.drainQuery(c, QueryRequest.of(text), pageSize))
          .as("%s in pages of %d", text, pageSize)
          .isEqualTo(expected);
    }
  }

  @Test
  void aPage_loadsTheDocumentsOfItsRows_notTheContainer() {
    Container c = Engines.container(ManualClock.startingAtEpoch2026(), 4);
    for (int i = 0; i < 2000; i++) {
      c.create(NODES.objectNode().put("id", "d" + i).put("pk", "k" + (i % 50)).put("n", i));
    }
    QueryRequest q = QueryRequest.of("SELECT c.id, c.n FROM c ORDER BY c.n DESC");
    QueryPage first = c.query(q.withMaxItemCount(10));
    assertThat(first.rows()).extracting(r -> r.get("n").asInt()).startsWith(1999, 1998);
    // the documents of the page's 10 rows, not 2,000 (the one after them is the next page's)
    assertThat(first.metrics().documentsLoaded()).isEqualTo(10);
    QueryPage second = c.query(q.withMaxItemCount(10).withContinuation(first.continuation()));
    assertThat(second.rows()).extracting(r -> r.get("n").asInt()).startsWith(1989);
    assertThat(second.metrics().documentsLoaded()).isLessThanOrEqualTo(12);
  }

  /** 3,000 documents with a status of two values; 300 moved between them afterwards. */
  private static Container fewValues() {
    Container c = Engines.container(ManualClock.startingAtEpoch2026(), 4);
    for (int i = 0; i < 3000; i++) {
      c.create(
          NODES
              .objectNode()
              .put("id", "d" + i)
              .put("pk", "k" + (i % 50))
              .put("status", i % 3 == 0 ? "closed" : "open"));
    }
    // a new version keeps its RID, so the RIDs of a run are not contiguous
    Random random = new Random(7);
    for (int i = 0; i < 300; i++) {
      int n = random.nextInt(3000);
      c.upsert(
          NODES
              .objectNode()
              .put("id", "d" + n)
              .put("pk", "k" + (n % 50))
              .put("status", random.nextBoolean() ? "closed" : "open"));
    }
    return c;
  }

  @Test
  void aKeyWithFewValues_pagesResumeInsideARun_inTheModelsOrder() {
    Container c = fewValues();
    List<JsonNode> stored = Engines.drainQuery(c, QueryRequest.of("SELECT * FROM c"), 5000);
    Comparator<JsonNode> order =
        Comparator.<JsonNode, String>comparing(d -> d.get("status").asText())
            .thenComparingLong(d -> ResourceIds.documentPart(d.get("_rid").asText()));
    for (boolean ascending : new boolean[] {true, false}) {
      List<JsonNode> expected =
          stored.stream()
              .sorted(ascending ? order : order.reversed())
              .map(d -> d.get("id"))
              .toList();
      // about 2,000 'open' documents: a run longer than a page of 1,500 and the largest chunk
      for (int pageSize : new int[] {7, 100, 1500}) {
        String text = "SELECT VALUE c.id FROM c ORDER BY c.status" + (ascending ? "" : " DESC");
        assertThat(Engines.drainQuery(c, QueryRequest.of(text), pageSize))
            .as("%s in pages of %d", text, pageSize)
            .isEqualTo(expected);
      }
    }
  }

  @Test
  void aKeyWithFewValues_loadsAboutTheDocumentsAPageNeeds_notItsWholeRun() {
    Container c = fewValues();
    c.query(QueryRequest.of("SELECT VALUE c.id FROM c ORDER BY c.status")); // builds the index
    for (boolean ascending : new boolean[] {true, false}) {
      List<String> loaded = new ArrayList<>();
      OrderedWalk walk =
          newWalk(
              c,
              List.of(List.of("status")),
              List.of(ascending),
              null,
              loaded,
              Integer.MAX_VALUE,
              false);
      for (int i = 0; i < 101; i++) {
        walk.next();
      }
      // the chunks of 16, 32 and 64 that hold a page of 100 and the row after it, not the run's
      // 1,000 or 2,000 documents
      assertThat(loaded).as("ascending %s", ascending).hasSize(16 + 32 + 64);
    }
  }

  @Test
  void pagesThatWalkAndPagesThatScan_whileWritesRun_areChargedAtMostOnePassTogether()
      throws Exception {
    Container c = Engines.container(ManualClock.startingAtEpoch2026(), 2);
    long pass = 0;
    for (int i = 0; i < 400; i++) {
      pass +=
          c.create(NODES.objectNode().put("id", "d" + i).put("pk", "k" + (i % 9)).put("n", i))
              .document()
              .toString()
              .length();
    }
    ObjectNode same = c.read(PartitionKeyValue.of("k0"), "d0").document();
    AtomicBoolean stop = new AtomicBoolean();
    Thread writer =
        new Thread(
            () -> {
              // rewrites one document as it is: no row moves, but every write breaks quiet
              while (!stop.get()) {
                c.upsert(same.deepCopy());
              }
            });
    writer.start();
    try {
      for (int round = 0; round < 5; round++) {
        long loaded = 0;
        int rows = 0;
        QueryRequest q = QueryRequest.of("SELECT c.id FROM c ORDER BY c.n DESC");
        String token = null;
        do {
          QueryRequest r = q.withMaxItemCount(20);
          QueryPage page = c.query(token == null ? r : r.withContinuation(token));
          loaded += page.metrics().bytesLoaded();
          rows += page.rows().size();
          token = page.continuation();
        } while (token != null);
        assertThat(rows).isEqualTo(400);
        assertThat(loaded).as("round %d", round).isLessThanOrEqualTo(pass * 11 / 10);
      }
    } finally {
      stop.set(true);
      writer.join(30_000);
    }
  }

  @Test
  void pagesOfOnePartition_walk_whileAnotherPartitionIsWritten() throws Exception {
    Container c = Engines.container(ManualClock.startingAtEpoch2026(), 2);
    String here = "k0";
    String there = null;
    for (int i = 1; there == null; i++) {
      if (!c.routing()
          .rangeFor(epk(c, "k" + i))
          .id()
          .equals(c.routing().rangeFor(epk(c, here)).id())) {
        there = "k" + i;
      }
    }
    for (int i = 0; i < 300; i++) {
      c.create(NODES.objectNode().put("id", "d" + i).put("pk", here).put("n", i));
    }
    String elsewhere = there;
    AtomicBoolean stop = new AtomicBoolean();
    Thread writer =
        new Thread(
            () -> {
              for (int i = 0; !stop.get(); i++) {
                c.upsert(NODES.objectNode().put("id", "w" + i % 50).put("pk", elsewhere));
              }
            });
    writer.start();
    try {
      // a walk pays for the documents its filter rejected between its rows; a scanned page of a
      // walkable query pays for its rows' documents only (10): so more than 10 says it walked
      QueryRequest q =
          QueryRequest.of("SELECT c.id FROM c WHERE c.n % 2 = 0 ORDER BY c.n")
              .withPartitionKey(PartitionKeyValue.of(here));
      for (int round = 0; round < 20; round++) {
        QueryPage page = c.query(q.withMaxItemCount(10));
        assertThat(page.rows()).hasSize(10);
        assertThat(page.metrics().documentsLoaded()).as("round %d", round).isEqualTo(19);
      }
    } finally {
      stop.set(true);
      writer.join(30_000);
    }
  }

  private static String epk(Container c, String key) {
    return io.cosmolab.engine.partitioning.EffectivePartitionKey.of(
        c.partitionKey(), PartitionKeyValue.of(key));
  }

  @Test
  void pagesOfOnePartition_walk_whileItIsWritten_afterWhatTheyRead() throws Exception {
    Container c = Engines.container(ManualClock.startingAtEpoch2026(), 1);
    for (int i = 0; i < 300; i++) {
      c.create(NODES.objectNode().put("id", "d" + i).put("pk", "k" + i % 7).put("n", i));
    }
    AtomicBoolean stop = new AtomicBoolean();
    java.util.concurrent.atomic.AtomicLong writes = new java.util.concurrent.atomic.AtomicLong();
    Thread writer =
        new Thread(
            () -> {
              // the same partition, a write every 0.1 ms or so (a page takes longer), far after
              // the first pages in the order
              for (int i = 0; !stop.get(); i++) {
                c.upsert(
                    NODES.objectNode().put("id", "w" + i % 50).put("pk", "w").put("n", 1000 + i));
                writes.incrementAndGet();
                try {
                  Thread.sleep(0, 100_000);
                } catch (InterruptedException e) {
                  return;
                }
              }
            });
    writer.start();
    try {
      // a walk pays for the documents its filter rejected between its rows (19 for 10 rows); a
      // scanned page of a walkable query pays for its rows' documents only (10)
      QueryRequest q =
          QueryRequest.of("SELECT c.id FROM c WHERE c.n % 2 = 0 ORDER BY c.n").withMaxItemCount(10);
      c.query(q); // builds the index
      // pages are quick: on a busy machine 20 of them can pass before the writer's thread runs at
      // all, so they start once it writes, and go on (10 s at most) until it wrote among them
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
      while (writes.get() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      int walked = 0;
      int rounds = 0;
      long before = writes.get();
      while (rounds < 20 || (writes.get() < before + 5 && System.nanoTime() < deadline)) {
        QueryPage page = c.query(q);
        assertThat(page.rows())
            .extracting(r -> r.get("id").asText())
            .containsExactly("d0", "d2", "d4", "d6", "d8", "d10", "d12", "d14", "d16", "d18");
        walked += page.metrics().documentsLoaded() == 19 ? 1 : 0;
        rounds++;
      }
      assertThat(writes.get()).as("the writer wrote meanwhile").isGreaterThan(before);
      // a page also scans when a write holds the partition past the mark's wait: most pages
      // walk, not all need to (before the change-log check, none did)
      assertThat(walked).as("pages that walked, of %d", rounds).isGreaterThanOrEqualTo(rounds / 2);
    } finally {
      stop.set(true);
      writer.join(30_000);
    }
  }

  @Test
  void underJoins_aWalkHandsOnThePositionsDocumentAgain_forItsRowsLeft_inBothDirections() {
    Container c = hundredByN();
    for (boolean ascending : new boolean[] {true, false}) {
      for (boolean positionRead : new boolean[] {true, false}) {
        ObjectNode d50 = c.read(PartitionKeyValue.of("k"), "d50").document();
        OrderedWalk walk =
            newWalk(
                c,
                List.of(List.of("n")),
                List.of(ascending),
                new Executor.After(
                    List.of(NODES.numberNode(50)),
                    ResourceIds.documentPart(d50.get("_rid").asText()),
                    1, // among its rows: the second
                    0),
                null,
                Integer.MAX_VALUE,
                positionRead);
        int next = ascending ? 51 : 49;
        assertThat(walk.next().body().get("n").asInt())
            .as("ascending %s, read again %s", ascending, positionRead)
            .isEqualTo(positionRead ? 50 : next);
        if (positionRead) {
          assertThat(walk.next().body().get("n").asInt()).isEqualTo(next);
        }
      }
    }
  }

  @Test
  void aWriteWhereThePageRead_sendsItToTheScan_oneElsewhereInTheOrder_doesNot() {
    Container c = hundredByN();
    java.util.function.IntFunction<ObjectNode> at =
        n -> c.read(PartitionKeyValue.of("k"), "d" + n).document();
    java.util.function.BiFunction<Integer, ObjectNode, ObjectNode> moved =
        (n, body) -> body.deepCopy().put("n", n);
    // a page that resumed after n = 19 and handed on n = 20 to 30
    OrderedWalk page = walk(c, 19, at.apply(19));
    for (int i = 20; i <= 30; i++) {
      assertThat(page.next().body().get("n").asInt()).isEqualTo(i);
    }
    // where it read: a document changed, one deleted, one moved in or out
    assertThat(page.untouchedBy(List.of(change(moved.apply(25, at.apply(25)), at.apply(25)))))
        .isFalse();
    assertThat(page.untouchedBy(List.of(change(null, at.apply(30))))).isFalse();
    assertThat(page.untouchedBy(List.of(change(moved.apply(22, at.apply(70)), at.apply(70)))))
        .isFalse();
    assertThat(page.untouchedBy(List.of(change(moved.apply(80, at.apply(21)), at.apply(21)))))
        .isFalse();
    // (one created there, which the walk did not hand on, leaves the page as it was before it)
    ObjectNode created = moved.apply(26, at.apply(99)).put("id", "new");
    created.put("_rid", ResourceIds.encode(ResourceIds.document(new byte[8], 1_000_000)));
    assertThat(page.untouchedBy(List.of(change(created, null)))).isTrue();
    // elsewhere: before the position (an earlier page's) or after the last document handed on
    assertThat(page.untouchedBy(List.of(change(moved.apply(5, at.apply(10)), at.apply(10)))))
        .isTrue();
    assertThat(page.untouchedBy(List.of(change(moved.apply(19, at.apply(19)), at.apply(19)))))
        .isTrue();
    assertThat(page.untouchedBy(List.of(change(moved.apply(95, at.apply(50)), at.apply(50)))))
        .isTrue();
    assertThat(page.untouchedBy(List.of(change(null, at.apply(31))))).isTrue();
    // a walk that ran out read everything after its position
    OrderedWalk last = walk(c, 89, at.apply(89));
    while (last.hasNext()) {
      last.next();
    }
    assertThat(last.untouchedBy(List.of(change(moved.apply(5000, at.apply(3)), at.apply(3)))))
        .isFalse();
    assertThat(last.untouchedBy(List.of(change(moved.apply(7, at.apply(3)), at.apply(3)))))
        .isTrue();
  }

  @Test
  void aDocumentDeletedAndCreatedAgainDuringAWalk_comesOnceInItsNewPlace_notOutOfOrder() {
    Container c = Engines.container(ManualClock.startingAtEpoch2026(), 1);
    for (int i = 0; i < 2000; i++) {
      c.create(NODES.objectNode().put("id", "d" + i).put("pk", "k").put("status", "open"));
    }
    c.query(QueryRequest.of("SELECT * FROM c ORDER BY c.status")); // builds the index
    OrderedWalk walk =
        newWalk(c, List.of(List.of("status")), List.of(true), null, null, Integer.MAX_VALUE, false);
    List<JsonNode> seen = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      seen.add(walk.next().body());
    }
    // the walk took the first 1,024 RIDs and loaded 48; d60 is taken, not yet loaded
    c.delete(PartitionKeyValue.of("k"), "d60");
    c.create(NODES.objectNode().put("id", "d60").put("pk", "k").put("status", "open"));
    walk.forEachRemaining(d -> seen.add(d.body()));
    List<Long> rids =
        seen.stream().map(d -> ResourceIds.documentPart(d.get("_rid").asText())).toList();
    assertThat(rids).as("ascending by RID").isSorted().doesNotHaveDuplicates();
    assertThat(seen.stream().filter(d -> d.get("id").asText().equals("d60"))).hasSize(1);
    assertThat(seen).hasSize(2000);
  }

  @Test
  void writesSinceAMark_areThoseOfItsPartitions_afterIt_orUnknownAfterASplit() {
    Container c = Engines.container(ManualClock.startingAtEpoch2026(), 2);
    PartitionKeyRange mine = c.routing().rangeFor(epk(c, "k0"));
    List<String> here = new ArrayList<>();
    List<String> there = new ArrayList<>();
    for (int i = 0; here.size() < 3 || there.size() < 2; i++) {
      (c.routing().rangeFor(epk(c, "k" + i)).id().equals(mine.id()) ? here : there).add("k" + i);
    }
    c.create(NODES.objectNode().put("id", "before").put("pk", here.get(0)));
    List<PartitionKeyRange> targets = List.of(mine);
    WalkMarks.QuietMark mark = c.walkMarks().mark(targets);
    assertThat(c.walkMarks().writesSince(mark, targets, EpkRange.FULL)).isEmpty();
    for (String k : here.subList(0, 3)) {
      c.create(NODES.objectNode().put("id", "in-" + k).put("pk", k));
    }
    for (String k : there.subList(0, 2)) {
      c.create(NODES.objectNode().put("id", "out-" + k).put("pk", k));
    }
    c.delete(PartitionKeyValue.of(here.get(0)), "before");
    assertThat(c.walkMarks().writesSince(mark, targets, EpkRange.FULL))
        .extracting(io.cosmolab.engine.store.ChangeRecord::id)
        .containsExactly("in-" + here.get(0), "in-" + here.get(1), "in-" + here.get(2), "before");
    EpkRange oneKey = new EpkRange(epk(c, here.get(1)), epk(c, here.get(1)) + "00");
    assertThat(c.walkMarks().writesSince(mark, targets, oneKey))
        .as("in one logical partition's scope")
        .extracting(io.cosmolab.engine.store.ChangeRecord::id)
        .containsExactly("in-" + here.get(1));
    c.splitPartition(mine.id());
    assertThat(c.walkMarks().writesSince(mark, targets, EpkRange.FULL))
        .as("after a split")
        .isNull();
  }

  /** One physical partition; documents d0..d1999 in logical partition "k", ts 0..1999. */
  private static Container twoThousandTimestamps() {
    Container c = Engines.container(ManualClock.startingAtEpoch2026(), 1);
    for (int i = 0; i < 2_000; i++) {
      c.create(NODES.objectNode().put("id", "d" + i).put("pk", "k").put("ts", i));
    }
    return c;
  }

  @Test
  void aPageOfOneLogicalPartition_walks_whileAnotherOneIsRewrittenWhereItReads() throws Exception {
    Container c = twoThousandTimestamps();
    for (int i = 0; i < 50; i++) { // another customer's documents, among the newest of "k"
      c.create(NODES.objectNode().put("id", "o" + i).put("pk", "other").put("ts", 1_960 + i % 40));
    }
    QueryRequest q =
        QueryRequest.of("SELECT c.id, c.ts FROM c WHERE c.ts % 2 = 0 ORDER BY c.ts DESC")
            .withPartitionKey(PartitionKeyValue.of("k"))
            .withMaxItemCount(20);
    c.query(q); // builds the index
    AtomicBoolean stop = new AtomicBoolean();
    Thread rewriter =
        new Thread(
            () -> {
              Random r = new Random(7);
              while (!stop.get()) { // changes, not creations, where the page reads
                c.upsert(
                    NODES
                        .objectNode()
                        .put("id", "o" + r.nextInt(50))
                        .put("pk", "other")
                        .put("ts", 1_960 + r.nextInt(40)));
                Thread.onSpinWait();
              }
            });
    rewriter.start();
    try {
      int walked = 0;
      for (int round = 0; round < 20; round++) {
        QueryPage page = c.query(q);
        List<Integer> ts = new ArrayList<>();
        page.rows().forEach(row -> ts.add(row.get("ts").asInt()));
        assertThat(ts).hasSize(20);
        for (int i = 0; i < ts.size(); i++) {
          assertThat(ts.get(i)).isEqualTo(1_998 - 2 * i); // only "k"'s, the newest even ones
        }
        // a walk pays for the odd documents between its rows too; a scanned page, its rows only
        walked += page.metrics().documentsLoaded() > 20 ? 1 : 0;
      }
      // before writes were read in the page's scope only, every page here went to the scan
      assertThat(walked).as("pages that walked, of 20").isGreaterThanOrEqualTo(10);
    } finally {
      stop.set(true);
      rewriter.join(30_000);
    }
  }

  /** A walk of c.n ascending from the row with {@code n} and {@code body}. */
  private static OrderedWalk walk(Container c, int n, ObjectNode body) {
    JsonNode key = NODES.numberNode(n);
    return newWalk(
        c,
        List.of(List.of("n")),
        List.of(true),
        new io.cosmolab.query.exec.Executor.After(
            List.of(key), ResourceIds.documentPart(body.get("_rid").asText()), 0, 0),
        null,
        Integer.MAX_VALUE,
        false);
  }

  /** d0 to d99 with n = 0 to 99, in one logical partition, the index of /n built. */
  private static Container hundredByN() {
    Container c = Engines.container(ManualClock.startingAtEpoch2026(), 1);
    for (int i = 0; i < 100; i++) {
      c.create(NODES.objectNode().put("id", "d" + i).put("pk", "k").put("n", i));
    }
    c.query(QueryRequest.of("SELECT * FROM c ORDER BY c.n")); // builds the index
    return c;
  }

  /** A write that replaced {@code previous} (null: created) by {@code current} (null: deleted). */
  private static io.cosmolab.engine.store.ChangeRecord change(
      ObjectNode current, ObjectNode previous) {
    return change(current, previous, 1);
  }

  /**
   * {@link #change(ObjectNode, ObjectNode)} at change-log position {@code lsn}, a transaction of
   * its own (its partition's LSN is {@code lsn} too).
   */
  private static io.cosmolab.engine.store.ChangeRecord change(
      ObjectNode current, ObjectNode previous, long lsn) {
    return change(current, previous, lsn, 0, lsn);
  }

  /** {@link #change(ObjectNode, ObjectNode, long)} at a time and an LSN in its partition. */
  private static io.cosmolab.engine.store.ChangeRecord change(
      ObjectNode current, ObjectNode previous, long lsn, long time, long rangeLsn) {
    ObjectNode any = current != null ? current : previous;
    return new io.cosmolab.engine.store.ChangeRecord(
        lsn,
        time,
        current == null
            ? io.cosmolab.engine.store.ChangeRecord.Operation.DELETE
            : io.cosmolab.engine.store.ChangeRecord.Operation.REPLACE,
        "epk",
        any.get("id").asText(),
        PartitionKeyValue.of("k"),
        current,
        previous,
        0,
        100,
        false,
        rangeLsn);
  }

  @Test
  void creationsWhereThePageRead_letItStand_whenWhatItHandedOnAreTheOldestOfThem() {
    Container c = hundredByN();
    // two documents created before the walk passed their place: it hands them on
    ObjectNode seenA =
        c.create(NODES.objectNode().put("id", "a").put("pk", "k").put("n", 22)).document();
    ObjectNode seenB =
        c.create(NODES.objectNode().put("id", "b").put("pk", "k").put("n", 27)).document();
    OrderedWalk page = walk(c, 19, c.read(PartitionKeyValue.of("k"), "d19").document());
    List<String> ids = new java.util.ArrayList<>();
    for (int i = 0; i < 13; i++) {
      ids.add(page.next().body().get("id").asText());
    }
    assertThat(ids).contains("a", "b").endsWith("d30");
    // one created at n = 25 that it did not hand on (created after the walk passed, say)
    ObjectNode missed = seenA.deepCopy().put("id", "m").put("n", 25);
    missed.put("_rid", ResourceIds.encode(ResourceIds.document(new byte[8], 1_000_000)));
    // handed on the oldest creations, missed the newest: the page is the moment between them
    assertThat(page.untouchedBy(List.of(change(seenA, null, 5), change(seenB, null, 6)))).isTrue();
    assertThat(
            page.untouchedBy(
                List.of(change(seenA, null, 5), change(seenB, null, 6), change(missed, null, 7))))
        .isTrue();
    // missed one older than one it handed on: no moment held those two so
    assertThat(
            page.untouchedBy(
                List.of(change(seenA, null, 5), change(missed, null, 6), change(seenB, null, 7))))
        .isFalse();
    // a creation is still judged with the changes: one change where it read fails the page
    ObjectNode at24 = c.read(PartitionKeyValue.of("k"), "d24").document();
    assertThat(
            page.untouchedBy(
                List.of(
                    change(seenA, null, 5),
                    change(at24.deepCopy().put("v", 1), at24, 6),
                    change(missed, null, 7))))
        .isFalse();
    // one transaction (a batch: one logical partition, one LSN in the partition) is seen whole or
    // not at all: a page with one of its creations and not another fails
    assertThat(
            page.untouchedBy(
                List.of(change(seenA, null, 5, 100, 7), change(missed, null, 6, 100, 7))))
        .isFalse();
    assertThat(
            page.untouchedBy(
                List.of(change(seenA, null, 5, 100, 7), change(missed, null, 6, 101, 8))))
        .isTrue();
    // creations after the last document handed on are a later page's
    ObjectNode later = missed.deepCopy().put("n", 60);
    assertThat(
            page.untouchedBy(
                List.of(change(later, null, 5), change(seenA, null, 6), change(seenB, null, 7))))
        .isTrue();
  }

  @Test
  void theFirstPageOfTheNewestFirst_walks_whileNewerDocumentsAreAppended() throws Exception {
    Container c = twoThousandTimestamps();
    QueryRequest q =
        QueryRequest.of("SELECT c.id, c.ts FROM c WHERE c.ts % 2 = 0 ORDER BY c.ts DESC")
            .withMaxItemCount(20);
    c.query(q); // builds the index
    java.util.concurrent.atomic.AtomicInteger next =
        new java.util.concurrent.atomic.AtomicInteger(2_000);
    AtomicBoolean stop = new AtomicBoolean();
    Thread appender =
        new Thread(
            () -> {
              while (!stop.get()) {
                int ts = next.getAndIncrement();
                c.create(NODES.objectNode().put("id", "d" + ts).put("pk", "k").put("ts", ts));
                Thread.onSpinWait();
              }
            });
    appender.start();
    try {
      int walked = 0;
      for (int round = 0; round < 20; round++) {
        QueryPage page = c.query(q);
        List<Integer> ts = new java.util.ArrayList<>();
        page.rows().forEach(r -> ts.add(r.get("ts").asInt()));
        // the newest 20 even ones at one moment: no gap, the first at most the newest created yet
        assertThat(ts).hasSize(20);
        for (int i = 1; i < ts.size(); i++) {
          assertThat(ts.get(i)).isEqualTo(ts.get(i - 1) - 2);
        }
        assertThat(ts.get(0)).isLessThan(next.get());
        // a walk pays for the odd documents between its rows too (39 or 40 for 20 rows); a scanned
        // page of a walkable query pays for its rows' documents only (20)
        walked += page.metrics().documentsLoaded() > 20 ? 1 : 0;
      }
      assertThat(walked).as("pages that walked, of 20").isGreaterThanOrEqualTo(10);
    } finally {
      stop.set(true);
      appender.join(30_000);
    }
  }

  @Test
  void aPage_seesABatchWholeOrNotAtAll_thoughItsDocumentsSitInRunsFarApart() throws Exception {
    Container c = Engines.container(ManualClock.startingAtEpoch2026(), 1);
    for (int i = 0; i < 200; i++) {
      c.create(NODES.objectNode().put("id", "x" + i).put("pk", "x").put("v", i * 10 + 5));
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    Thread writer =
        new Thread(
            () -> {
              try {
                // a and b always carry the same generation, at values far apart in the order
                for (int gen = 0; gen < 400 && !stop.get(); gen++) {
                  List<BatchOperation> both = new ArrayList<>();
                  both.add(pair("a", gen, gen % 100 * 10));
                  both.add(pair("b", gen, 1999 - gen % 100 * 10));
                  c.executeBatch(PartitionKeyValue.of("x"), both);
                }
              } catch (Throwable t) {
                failed.set(t);
              }
            });
    c.executeBatch(PartitionKeyValue.of("x"), List.of(pair("a", -1, 0), pair("b", -1, 1999)));
    writer.start();
    try {
      int pages = 0;
      while (writer.isAlive() || pages < 20) {
        QueryPage page =
            c.query(
                QueryRequest.of("SELECT c.id, c.gen FROM c ORDER BY c.v").withMaxItemCount(500));
        JsonNode a = null;
        JsonNode b = null;
        for (JsonNode row : page.rows()) {
          if (row.get("id").asText().equals("a")) {
            a = row;
          } else if (row.get("id").asText().equals("b")) {
            b = row;
          }
        }
        assertThat(a).as("a is in the page").isNotNull();
        assertThat(b).as("b is in the page").isNotNull();
        assertThat(a.get("gen")).as("one batch's a and b").isEqualTo(b.get("gen"));
        pages++;
      }
    } finally {
      stop.set(true);
      writer.join(30_000);
    }
    assertThat(failed.get()).isNull();
  }

  private static BatchOperation pair(String id, int gen, int v) {
    return new BatchOperation.Upsert(
        NODES.objectNode().put("id", id).put("pk", "x").put("gen", gen).put("v", v), null);
  }
}
