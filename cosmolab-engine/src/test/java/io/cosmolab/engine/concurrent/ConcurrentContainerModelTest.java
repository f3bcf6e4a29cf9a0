package io.cosmolab.engine.concurrent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.ItemOptions;
import io.cosmolab.engine.batch.BatchOperation;
import io.cosmolab.engine.batch.BatchResult;
import io.cosmolab.engine.changefeed.ChangeFeedMode;
import io.cosmolab.engine.changefeed.ChangeFeedPage;
import io.cosmolab.engine.changefeed.ChangeFeedRequest;
import io.cosmolab.engine.changefeed.ChangeFeedStart;
import io.cosmolab.engine.changefeed.Retention;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.index.IndexingPolicy;
import io.cosmolab.engine.metrics.PartitionStats;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.routing.RoutingMap;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Writers, readers, queries (indexed and scanned), a change-feed reader and splits and merges run
 * on one container at once; each writer owns its keys and keeps a map of what they should hold, so
 * the outcome is checked exactly: no 5xx or unexpected failure, no document missed, duplicated or
 * torn (a batch seen half applied), every change-feed record seen once, the usage of the partitions
 * adding up.
 *
 * <p>Each thread's operations come from the seed (printed; replay with {@code -Dcosmolab.seed=N}),
 * the interleaving from the scheduler: a failure names the seed and the check that broke, and
 * reruns with the same seed explore the same operations under other interleavings.
 */
class ConcurrentContainerModelTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final int WRITERS = 3;
  private static final int SINGLE_KEYS = 8;
  private static final int IDS_PER_KEY = 4;
  private static final int BATCH_DOCS = 5;
  private static final int STABLE_DOCS = 5;

  @Test
  void concurrentWritesReadsQueriesFeedsAndSplits_agreeWithTheModel() throws Exception {
    run(seed(), 1_500, 30);
  }

  @Tag("heavy")
  @Test
  void concurrentWorkload_long_agreesWithTheModel() throws Exception {
    long base = seed();
    for (int round = 0; round < 5; round++) {
      run(base + round, 40_000, 200);
    }
  }

  private static long seed() {
    String given = System.getProperty("cosmolab.seed");
    return given != null ? Long.parseLong(given) : System.nanoTime();
  }

  /** One owner's model: key -> the value of {@code v} the document should hold. */
  private static final class Writer {
    final int n;
    final Random random;
    final Map<String, Integer> model = new HashMap<>(); // "pk/id" -> v
    final Map<String, Integer> writes = new HashMap<>(); // "pk/id" -> writes that committed
    int batchVersion;

    Writer(int n, long seed) {
      this.n = n;
      this.random = new Random(seed);
    }

    void committed(String pk, String id, Integer v) {
      String k = pk + "/" + id;
      if (v == null) {
        model.remove(k);
      } else {
        model.put(k, v);
      }
      writes.merge(k, 1, Integer::sum);
    }
  }

  private static ObjectNode doc(String pk, String id, int v, String tag) {
    ObjectNode d = NODES.objectNode();
    d.put("id", id);
    d.put("pk", pk);
    d.put("v", v);
    if (tag != null) {
      d.put("tag", tag);
    }
    d.put("pad", "x".repeat(40));
    d.putArray("twice").add(0).add(1); // two rows under a JOIN
    return d;
  }

  private void run(long seed, int opsPerWriter, int layoutChanges) throws Exception {
    String replay = "seed " + seed + " (replay with -Dcosmolab.seed=" + seed + ")";
    System.out.println("ConcurrentContainerModelTest: " + replay);
    CosmosEngine engine =
        CosmosEngine.builder()
            .throttling(ThrottlingMode.OBSERVE)
            .changeFeedRetention(new Retention(Duration.ofDays(1), 10_000_000))
            .build();
    Container c =
        engine
            .createDatabase("db")
            .createContainer(
                ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                    .withThroughput(Throughput.manual(40_000))
                    .withPhysicalPartitions(4)
                    .withIndexingPolicy(
                        IndexingPolicy.DEFAULT
                            .withCompositeIndex(
                                new IndexingPolicy.CompositePath("/v", true),
                                new IndexingPolicy.CompositePath("/id", true))
                            .withCompositeIndex(
                                new IndexingPolicy.CompositePath("/v", false),
                                new IndexingPolicy.CompositePath("/id", false))));
    Random setup = new Random(seed);
    List<Writer> writers = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      Writer writer = new Writer(w, setup.nextLong());
      writers.add(writer);
      for (int i = 0; i < STABLE_DOCS; i++) {
        c.upsert(doc("st" + w, "q" + i, 0, "stable"));
      }
      List<BatchOperation> create = new ArrayList<>();
      for (int i = 0; i < BATCH_DOCS; i++) {
        create.add(new BatchOperation.Create(doc("b" + w, "m" + i, 0, null)));
      }
      assertThat(c.executeBatch(PartitionKeyValue.of("b" + w), create).status()).isEqualTo(200);
    }
    long feedStart = c.lsn();
    LAST_LSN.clear();
    ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    AtomicBoolean writing = new AtomicBoolean(true);
    CountDownLatch writersDone = new CountDownLatch(WRITERS);
    List<Thread> threads = new ArrayList<>();
    for (Writer w : writers) {
      threads.add(
          thread(
              "writer-" + w.n,
              failures,
              () -> {
                try {
                  for (int i = 0; i < opsPerWriter && failures.isEmpty(); i++) {
                    writeOne(c, w);
                  }
                } finally {
                  writersDone.countDown();
                }
              }));
    }
    Random readerRandom = new Random(setup.nextLong());
    threads.add(
        thread(
            "reader",
            failures,
            () -> {
              while (writing.get() && failures.isEmpty()) {
                readOne(c, readerRandom, failures);
              }
            }));
    Map<String, String> seen = new ConcurrentHashMap<>();
    long[] feedPosition = {feedStart};
    threads.add(
        thread(
            "change-feed",
            failures,
            () -> {
              while (writing.get() && failures.isEmpty()) {
                feedPosition[0] = readFeed(c, feedPosition[0], seen, failures);
              }
            }));
    Random layoutRandom = new Random(setup.nextLong());
    threads.add(
        thread(
            "layout",
            failures,
            () -> {
              for (int i = 0; i < layoutChanges && writing.get() && failures.isEmpty(); i++) {
                changeLayout(c, layoutRandom);
                Thread.sleep(1 + layoutRandom.nextInt(3));
              }
            }));
    threads.forEach(Thread::start);
    boolean finished = writersDone.await(5, TimeUnit.MINUTES);
    writing.set(false);
    for (Thread t : threads) {
      t.join(TimeUnit.MINUTES.toMillis(1));
    }
    assertThat(finished).as("writers finished in time; " + replay).isTrue();
    assertThat(failures).as(replay).isEmpty();

    // the change feed, drained: every write once, nothing else
    long position = feedPosition[0];
    for (int guard = 0; guard < 100_000; guard++) {
      long next = readFeed(c, position, seen, failures);
      if (next == position) {
        break;
      }
      position = next;
    }
    assertThat(failures).as(replay).isEmpty();
    Map<String, Integer> expectedWrites = new HashMap<>();
    Map<String, Integer> expectedDocs = new HashMap<>();
    for (Writer w : writers) {
      w.writes.forEach((k, n) -> expectedWrites.merge(k, n, Integer::sum));
      expectedDocs.putAll(w.model);
    }
    Map<String, Integer> seenWrites = new HashMap<>();
    for (String k : seen.values()) {
      seenWrites.merge(k, 1, Integer::sum);
    }
    assertThat(seenWrites)
        .as("all-versions change feed: every write once; " + replay)
        .isEqualTo(expectedWrites);

    // the documents: exactly the model (plus the stable and batch documents)
    for (Map.Entry<String, Integer> e : expectedDocs.entrySet()) {
      String[] k = e.getKey().split("/", 2);
      JsonNode d = c.read(PartitionKeyValue.of(k[0]), k[1]).documentView();
      assertThat(d.get("v").intValue()).as(e.getKey() + "; " + replay).isEqualTo(e.getValue());
    }
    long expectedCount = expectedDocs.size() + (long) WRITERS * (STABLE_DOCS + BATCH_DOCS);
    assertThat(c.documentCount()).as(replay).isEqualTo(expectedCount);
    long inPartitions = 0;
    for (PartitionStats s : c.partitionStats()) {
      inPartitions += s.documents();
    }
    assertThat(inPartitions)
        .as("usage of the partitions adds up; " + replay)
        .isEqualTo(expectedCount);
    Set<String> latest = new HashSet<>();
    ChangeFeedPage page =
        c.readChangeFeed(
            ChangeFeedRequest.wholeContainer(ChangeFeedStart.beginning()).withMaxItems(1_000_000));
    for (ObjectNode item : page.items()) {
      assertThat(latest.add(item.get("pk").textValue() + "/" + item.get("id").textValue()))
          .as("latest-version feed: each document once; " + replay)
          .isTrue();
    }
    assertThat(latest).as(replay).hasSize((int) expectedCount);
  }

  private static Thread thread(
      String name, ConcurrentLinkedQueue<String> failures, ThrowingRunnable body) {
    Thread t =
        new Thread(
            () -> {
              try {
                body.run();
              } catch (Throwable e) {
                java.io.StringWriter trace = new java.io.StringWriter();
                e.printStackTrace(new java.io.PrintWriter(trace));
                failures.add(name + ": " + trace);
              }
            },
            name);
    t.setDaemon(true);
    return t;
  }

  interface ThrowingRunnable {
    void run() throws Exception;
  }

  private static void writeOne(Container c, Writer w) {
    Random r = w.random;
    int choice = r.nextInt(20);
    if (choice == 0) {
      // a batch replaces every document of the batch partition with one version
      int v = ++w.batchVersion;
      List<BatchOperation> ops = new ArrayList<>();
      for (int i = 0; i < BATCH_DOCS; i++) {
        ops.add(new BatchOperation.Upsert(doc("b" + w.n, "m" + i, v, null), null));
      }
      BatchResult result = c.executeBatch(PartitionKeyValue.of("b" + w.n), ops);
      assertThat(result.status()).isEqualTo(200);
      for (int i = 0; i < BATCH_DOCS; i++) {
        w.writes.merge("b" + w.n + "/m" + i, 1, Integer::sum);
      }
      return;
    }
    if (choice == 1) {
      // a stable document is rewritten with the same indexed value
      String id = "q" + r.nextInt(STABLE_DOCS);
      c.upsert(doc("st" + w.n, id, r.nextInt(1000), "stable"));
      w.writes.merge("st" + w.n + "/" + id, 1, Integer::sum);
      return;
    }
    String pk = "s" + w.n + "-" + r.nextInt(SINGLE_KEYS);
    String id = "d" + r.nextInt(IDS_PER_KEY);
    int v = r.nextInt(1_000_000);
    boolean exists = w.model.containsKey(pk + "/" + id);
    PartitionKeyValue key = PartitionKeyValue.of(pk);
    switch (r.nextInt(4)) {
      case 0 -> {
        if (exists) {
          expect(() -> c.create(doc(pk, id, v, null)), CosmosError.CONFLICT);
        } else {
          c.create(doc(pk, id, v, null));
          w.committed(pk, id, v);
        }
      }
      case 1 -> {
        c.upsert(key, doc(pk, id, v, null), ItemOptions.NONE);
        w.committed(pk, id, v);
      }
      case 2 -> {
        if (exists) {
          c.replace(key, id, doc(pk, id, v, null));
          w.committed(pk, id, v);
        } else {
          expect(() -> c.replace(key, id, doc(pk, id, v, null)), CosmosError.NOT_FOUND);
        }
      }
      default -> {
        if (exists) {
          c.delete(key, id);
          w.committed(pk, id, null);
        } else {
          expect(() -> c.delete(key, id), CosmosError.NOT_FOUND);
        }
      }
    }
  }

  private static void expect(Runnable op, CosmosError error) {
    try {
      op.run();
    } catch (CosmosException e) {
      if (e.status() == error.status()) {
        return;
      }
      throw e;
    }
    throw new AssertionError("expected " + error + " but the operation succeeded");
  }

  private static void readOne(Container c, Random r, ConcurrentLinkedQueue<String> failures) {
    int w = r.nextInt(WRITERS);
    switch (r.nextInt(7)) {
      case 0 -> {
        try {
          c.read(PartitionKeyValue.of("s" + w + "-" + r.nextInt(SINGLE_KEYS)), "d" + r.nextInt(4));
        } catch (CosmosException e) {
          if (e.status() != 404) {
            throw e;
          }
        }
      }
      case 1 -> {
        // a batch is seen whole: every document of it at one version
        QueryPage page =
            c.query(
                new QueryRequest(
                    "SELECT VALUE c.v FROM c WHERE c.pk = @pk",
                    Map.of("@pk", NODES.textNode("b" + w)),
                    null,
                    null,
                    null,
                    100,
                    null));
        Set<Integer> versions = new HashSet<>();
        page.rows().forEach(v -> versions.add(v.intValue()));
        if (page.rows().size() != BATCH_DOCS || versions.size() != 1) {
          failures.add("a batch was seen torn: versions " + page.rows());
        }
      }
      case 2 -> {
        // served by the index of /tag: a rewrite with the same value never hides a document
        int n = count(c, "SELECT VALUE COUNT(1) FROM c WHERE c.tag = 'stable'");
        if (n != WRITERS * STABLE_DOCS) {
          failures.add("the index of /tag lost documents: " + n);
        }
      }
      case 3 -> {
        // an ORDER BY drained in small pages while the stable documents are rewritten: each page
        // resumes after the last row's sort key and RID, so every document comes exactly once
        List<String> rows =
            drained(
                c,
                QueryRequest.of(
                        "SELECT VALUE CONCAT(c.pk, '/', c.id) FROM c WHERE c.tag = 'stable' ORDER BY"
                            + " c.pk DESC")
                    .withMaxItemCount(1 + r.nextInt(4)));
        if (rows.size() != WRITERS * STABLE_DOCS || new HashSet<>(rows).size() != rows.size()) {
          failures.add("a paged ORDER BY returned " + rows);
        }
      }
      case 4 -> orderedPagesWhileTheirKeysMove(c, r, failures);
      case 5 -> {
        // an OFFSET ... LIMIT without ORDER BY drained in small pages while the stable documents
        // are rewritten and partitions split: each page reads on from the last document's position
        // and counts the bounds on, so the rows are the bounds' cut of the stable set, each once
        int total = WRITERS * STABLE_DOCS;
        int skip = r.nextInt(total + 2);
        int take = r.nextInt(total + 2);
        List<String> rows =
            drained(
                c,
                QueryRequest.of(
                        "SELECT VALUE CONCAT(c.pk, '/', c.id) FROM c WHERE c.tag = 'stable'"
                            + " OFFSET "
                            + skip
                            + " LIMIT "
                            + take)
                    .withMaxItemCount(1 + r.nextInt(4)));
        int expected = Math.max(0, Math.min(take, total - skip));
        if (rows.size() != expected || new HashSet<>(rows).size() != rows.size()) {
          failures.add("OFFSET " + skip + " LIMIT " + take + " of " + total + " returned " + rows);
        }
      }
      default -> {
        int n = count(c, "SELECT VALUE COUNT(1) FROM c WHERE STARTSWITH(c.pk, 'st')");
        if (n != WRITERS * STABLE_DOCS) {
          failures.add("a scan lost documents: " + n);
        }
      }
    }
  }

  /** The text rows of every page of {@code q}, following its continuations. */
  private static List<String> drained(Container c, QueryRequest q) {
    List<String> rows = new ArrayList<>();
    for (int guard = 0; guard < 1_000; guard++) {
      QueryPage page = c.query(q);
      page.rows().forEach(v -> rows.add(v.textValue()));
      if (page.continuation() == null) {
        return rows;
      }
      q = q.withContinuation(page.continuation());
    }
    throw new AssertionError("paging did not end: " + q.text());
  }

  /**
   * An ORDER BY on a value the batches rewrite, drained in small pages: documents move while it
   * runs, so across pages one may come twice or not at all (as in the service: a page resumes after
   * the last row's sort key), but each page must be one moment's: in order, no document twice, and
   * a batch's documents at one version. And no page goes back before where the one before it
   * stopped. Half of them order by the id too (a composite index's two items).
   */
  private static void orderedPagesWhileTheirKeysMove(
      Container c, Random r, ConcurrentLinkedQueue<String> failures) {
    boolean descending = r.nextBoolean();
    boolean byId = r.nextBoolean();
    boolean joined = r.nextInt(3) == 0; // each document's two rows, t = 0 then 1
    String dir = descending ? " DESC" : "";
    QueryRequest q =
        QueryRequest.of(
                (joined
                        ? "SELECT c.pk, c.id, c.v, t FROM c JOIN t IN c.twice"
                        : "SELECT c.pk, c.id, c.v FROM c")
                    + " WHERE STARTSWITH(c.pk, 'b') ORDER BY c.v"
                    + dir
                    + (byId ? ", c.id" + dir : ""))
            .withMaxItemCount(1 + r.nextInt(7));
    Integer stoppedAt = null;
    for (int guard = 0; guard < 1_000; guard++) {
      QueryPage page = c.query(q);
      Map<String, Integer> versionOf = new HashMap<>();
      Set<String> ids = new HashSet<>();
      Integer previous = stoppedAt;
      String previousId = null; // of the page's row before, when there is one
      String previousRow = null; // its pk/id/t under the JOIN
      for (JsonNode row : page.rows()) {
        String pk = row.get("pk").textValue();
        int v = row.get("v").intValue();
        if (previous != null && (descending ? v > previous : v < previous)) {
          failures.add("a page of ORDER BY c.v is out of order or went back: " + page.rows());
        }
        String id = row.get("id").textValue();
        if (byId
            && previousId != null
            && previous == v
            && (descending ? id.compareTo(previousId) > 0 : id.compareTo(previousId) < 0)) {
          failures.add("a page of ORDER BY c.v, c.id is out of order: " + page.rows());
        }
        previousId = id;
        String doc = pk + "/" + id;
        if (!ids.add(joined ? doc + "/" + row.get("t").intValue() : doc)) {
          failures.add("a page of ORDER BY c.v holds a row twice: " + page.rows());
        }
        if (joined) {
          // a document's rows follow one another: after its t = 0 comes its own t = 1, and a t = 1
          // comes right after its document's t = 0, or first on a page (the rest of one before)
          int t = row.get("t").intValue();
          boolean afterItsFirst = (doc + "/0").equals(previousRow) && t == 1;
          if (previousRow != null && (previousRow.endsWith("/0") || t == 1) && !afterItsFirst) {
            failures.add("a page of ORDER BY c.v under a JOIN splits a document: " + page.rows());
          }
          previousRow = doc + "/" + t;
        }
        Integer other = versionOf.putIfAbsent(pk, v);
        if (other != null && other != v) {
          failures.add("a page of ORDER BY c.v holds a batch torn: " + page.rows());
        }
        previous = v;
      }
      stoppedAt = previous;
      if (page.continuation() == null) {
        return;
      }
      q = q.withContinuation(page.continuation());
    }
    failures.add("a paged ORDER BY c.v did not end in 1,000 pages");
  }

  private static int count(Container c, String sql) {
    return c.query(QueryRequest.of(sql)).rows().get(0).intValue();
  }

  /** The last LSN the feed showed of each document (one feed reader at a time). */
  private static final Map<String, Long> LAST_LSN = new ConcurrentHashMap<>();

  private static long readFeed(
      Container c, long after, Map<String, String> seen, ConcurrentLinkedQueue<String> failures) {
    ChangeFeedPage page =
        c.readChangeFeed(
            ChangeFeedRequest.wholeContainer(ChangeFeedStart.continuation(after))
                .withMode(ChangeFeedMode.ALL_VERSIONS_AND_DELETES)
                .withMaxItems(50));
    for (ObjectNode item : page.items()) {
      JsonNode meta = item.get("metadata");
      long lsn = meta.get("lsn").longValue();
      JsonNode current = item.get("current");
      String key =
          meta.get("operationType").textValue().equals("delete")
              ? meta.get("partitionKey").get("pk").textValue() + "/" + meta.get("id").textValue()
              : current.get("pk").textValue() + "/" + current.get("id").textValue();
      // LSNs are per physical partition, so two documents may share one; a document's own go up,
      // across splits and merges too (children go on from their parents' numbers)
      String before = seen.put(key + "@" + lsn, key);
      if (before != null) {
        failures.add("change feed record LSN " + lsn + " of " + key + " seen twice");
      }
      Long last = LAST_LSN.put(key, lsn);
      if (last != null && last >= lsn) {
        failures.add("the LSNs of " + key + " went from " + last + " to " + lsn);
      }
    }
    return page.continuation();
  }

  private static void changeLayout(Container c, Random r) {
    RoutingMap map = c.routing();
    List<PartitionKeyRange> ranges = map.ranges();
    if (ranges.size() > 2 && (ranges.size() >= 12 || r.nextBoolean())) {
      int i = r.nextInt(ranges.size() - 1);
      c.mergePartitions(ranges.get(i).id(), ranges.get(i + 1).id());
    } else {
      c.splitPartition(ranges.get(r.nextInt(ranges.size())).id());
    }
  }
}
