package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDiagnostics;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.testkit.CosmosLab;
import io.cosmolab.testkit.CosmosLabExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Java SDK from several threads at once (in gateway and direct mode, by the suite's executions)
 * while the container splits and merges under it: what the engine's concurrent model test holds
 * in-process (ConcurrentContainerModelTest), seen by the official client.
 *
 * <p>Writers increment counters by read, then replace with the read's etag (a 412 means another
 * writer won, and the increment is not counted), and create documents; a reader pages a query over
 * the created documents again and again; a change-feed reader follows the whole container; the
 * test's own thread splits every partition, merges two, and splits again. Nothing may reach the
 * application but the 412s and the SDK faults below: no 5xx, no other 410 or 404, no lost or
 * doubled increment, every created document in every query that started after its create, no
 * version twice in the change feed, and its last version of each document the one a read returns at
 * the end.
 *
 * <p>Three faults of the SDK itself (4.81), read in its sources, are let through, each counted,
 * bounded and only where it can arise; the service publishes the same routing maps, so its clients
 * can meet them too [I] (docs/engine.md):
 *
 * <ul>
 *   <li>a query that outlived a split and a merge may read part of the merged range twice (pinned
 *       deterministically in MergeCompatTest); so a document twice (never three times) is allowed
 *       only in a query during which, or since the start of the one before it, both landed (its
 *       pages' diagnostics need not show the 410: the SDK drops the replaced producer's);
 *   <li>a change-feed page that meets two gone ranges may surface 410/1002: its {@code
 *       PartitionKeyRangeGoneRetryPolicy} retries a gone range once per page (the SDK's own 1002
 *       for an EPK range that spans two partitions uses that retry up too); the feed then goes on
 *       from its last continuation, as an application must;
 *   <li>in direct mode, a point operation whose range is gone, and whose range in the refreshed
 *       routing map is gone too when the SDK asks for its addresses, fails with 404/0 before any
 *       replica is asked: {@code AddressResolver} concludes that the container does not exist. The
 *       operation did nothing, and the writer goes on.
 * </ul>
 */
@ExtendWith(CosmosLabExtension.class)
class ConcurrentClientsCompatTest {
  private static final int COUNTERS = 8; // few, so that writers collide (412s)
  private static final int WRITERS = 3;

  @Test
  void writersQueriesAndAFeed_whileTheContainerSplitsAndMerges_loseNothing(
      CosmosClient client, CosmosLab lab) throws Exception {
    underLoad(client, lab, "c", Duration.ofMillis(750), 1);
  }

  /**
   * The same, 12 times over and faster: 70 layout changes, 120 ms between each and the next but for
   * the two splits of a split-all (back to back), the merges between cycles bringing the container
   * back to two partitions. This is what found the SDK faults above.
   */
  @Test
  @Tag("heavy")
  void writersQueriesAndAFeed_whileTheContainerSplitsAndMergesAgainAndAgain_loseNothing(
      CosmosClient client, CosmosLab lab) throws Exception {
    underLoad(client, lab, "again", Duration.ofMillis(120), 12);
  }

  /**
   * Runs the load while {@link #changeLayout} runs {@code cycles} cycles, {@code step} from the
   * load's start to each layout change and from the last one to the load's end, then checks it.
   */
  private static void underLoad(
      CosmosClient client, CosmosLab lab, String name, Duration step, int cycles) throws Exception {
    client.createDatabaseIfNotExists("concurrent");
    CosmosContainer c = Fixtures.container(client.getDatabase("concurrent"), name, 2, "/pk");
    Container engine = lab.engine().database("concurrent").container(name);
    for (int i = 0; i < COUNTERS; i++) {
      ObjectNode counter = JsonNodeFactory.instance.objectNode();
      counter.put("id", "ctr-" + i).put("pk", "p" + i % 8).putArray("ops");
      c.createItem(counter);
    }
    Load load = new Load(c);
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 2);
    List<Future<?>> running = new ArrayList<>();
    try {
      for (int t = 0; t < WRITERS; t++) {
        int writer = t;
        running.add(pool.submit(() -> load.write(writer)));
      }
      running.add(pool.submit(load::query));
      running.add(pool.submit(load::followFeed));
      changeLayout(engine, load, step, cycles);
      Thread.sleep(step);
      load.stop = true;
      for (Future<?> f : running) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      load.stop = true; // also when a layout change failed: the threads look at nothing else
      pool.shutdownNow();
      assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }
    System.out.printf(
        "%s: %d layout changes; SDK faults let through: %d queries read a document twice, %d"
            + " change-feed pages surfaced 410/1002, %d point operations failed 404/0%n",
        name,
        load.splits.get() + load.merges.get(),
        load.readTwiceAfterSplitAndMerge.get(),
        load.feedGoneSurfaced.get(),
        load.resolutionGaveUp.get());
    assertThat(load.failures).as("what reached the application: %s", load.failures).isEmpty();
    assertThat(load.feedGoneSurfaced.get())
        .as("change-feed pages that surfaced 410/1002 (an SDK fault), at most one per change")
        .isLessThanOrEqualTo(load.splits.get() + load.merges.get());
    assertThat(load.resolutionGaveUp.get())
        .as("point operations the SDK failed 404/0 after two gone ranges (an SDK fault)")
        .isLessThanOrEqualTo(WRITERS * (load.splits.get() + load.merges.get()));
    assertThat(load.increments.get()).as("increments made").isGreaterThan(COUNTERS);
    assertThat(load.queries.get()).as("queries run to their end").isGreaterThan(1);
    assertThat(load.conflicts.get())
        .as("increments that lost to another writer (412)")
        .isPositive();
    assertThat(load.goneRetried.get())
        .as("operations the SDK retried after a gone range's 410")
        .isPositive();
    assertThat(engine.routing().size()).isEqualTo(4);

    // the feed from where it stopped: every document's last version, as a read gives it
    load.drainFeed();
    assertThat(load.failures).as("the feed's last pages: %s", load.failures).isEmpty();
    for (int i = 0; i < COUNTERS; i++) {
      String id = "ctr-" + i;
      JsonNode now = c.readItem(id, new PartitionKey("p" + i % 8), JsonNode.class).getItem();
      List<String> ops = new ArrayList<>();
      now.get("ops").forEach(op -> ops.add(op.asText()));
      assertThat(ops).as("%s's increments", id).doesNotHaveDuplicates();
      assertThat(new HashSet<>(ops))
          .as("%s: the increments the writers were told succeeded", id)
          .isEqualTo(load.succeeded.getOrDefault(id, Set.of()));
      assertThat(load.lastSeen).as("the feed saw %s", id).containsKey(id);
      assertThat(load.lastSeen.get(id).get("_etag"))
          .as("%s's last version in the feed", id)
          .isEqualTo(now.get("_etag"));
    }
    assertThat(load.lastSeen.keySet()).containsAll(load.created);
    List<String> all = load.createdIdsByQuery();
    assertThat(all).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(load.created);
  }

  /**
   * Splits both partitions, merges the two middle children (of different parents), and splits the
   * merged one again, a {@code step} apart, while the load runs; before each further cycle, merges
   * the four partitions back into two (the first pair, then the second).
   */
  private static void changeLayout(Container engine, Load load, Duration step, int cycles)
      throws InterruptedException {
    for (int cycle = 0; cycle < cycles; cycle++) {
      if (cycle > 0) {
        for (int pair = 0; pair < 2; pair++) {
          Thread.sleep(step);
          Fixtures.mergeAt(engine, pair);
          load.merges.incrementAndGet();
        }
      }
      Thread.sleep(step);
      for (var r : engine.routing().ranges()) {
        engine.splitPartition(r.id());
        load.splits.incrementAndGet();
      }
      Thread.sleep(step);
      Fixtures.mergeAt(engine, 1);
      load.merges.incrementAndGet();
      Thread.sleep(step);
      engine.splitPartition(engine.routing().ranges().get(1).id());
      load.splits.incrementAndGet();
    }
  }

  /** The load's threads and what they saw. */
  private static final class Load {
    final CosmosContainer c;
    volatile boolean stop;
    final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    final Map<String, Set<String>> succeeded = new ConcurrentHashMap<>();
    final Set<String> created = ConcurrentHashMap.newKeySet();
    final Map<String, JsonNode> lastSeen = new HashMap<>(); // the feed's thread only, then test's
    final Set<String> delivered = new HashSet<>(); // id@etag of every version the feed gave
    final AtomicInteger increments = new AtomicInteger();
    final AtomicInteger queries = new AtomicInteger();
    final AtomicInteger conflicts = new AtomicInteger();
    final AtomicInteger goneRetried = new AtomicInteger();
    final AtomicInteger splits = new AtomicInteger(); // layout changes made so far
    final AtomicInteger merges = new AtomicInteger();
    final AtomicInteger readTwiceAfterSplitAndMerge = new AtomicInteger(); // the SDK fault
    final AtomicInteger feedGoneSurfaced = new AtomicInteger(); // the second SDK fault
    final AtomicInteger resolutionGaveUp = new AtomicInteger(); // the third
    private String feedToken;

    Load(CosmosContainer c) {
      this.c = c;
    }

    private boolean running() {
      return !stop;
    }

    private void fail(String what, Throwable e) {
      failures.add(
          what
              + ": "
              + (e instanceof CosmosException ce
                  ? ce.getStatusCode() + "/" + ce.getSubStatusCode() + " " + ce.getMessage()
                  : e.toString()));
    }

    /** Counts an operation whose attempts include a 410 (the SDK retried it elsewhere). */
    private void sawGone(CosmosDiagnostics diagnostics) {
      if (diagnostics != null && diagnostics.toString().contains("\"statusCode\":410")) {
        goneRetried.incrementAndGet();
      }
    }

    /**
     * The SDK's 404 for a container it could not route to after the refreshed routing map named a
     * gone range again: no replica answered, and the address lookups (at least two) met gone
     * ranges. The refreshed map can name the same gone range once more, when another thread cached
     * a map from before its split.
     */
    private static boolean gaveUpResolving(CosmosException e) {
      String d = String.valueOf(e.getDiagnostics());
      int lookups = 0;
      for (int at = d.indexOf("$partitionKeyRangeIds=");
          at >= 0;
          at = d.indexOf("$partitionKeyRangeIds=", at + 1)) {
        lookups++;
      }
      return e.getStatusCode() == 404
          && e.getSubStatusCode() == 0
          && d.contains("\"responseStatisticsList\":[]")
          && d.contains("is gone (split or merged)")
          && lookups >= 2;
    }

    /** Read-modify-write increments with the read's etag, and a create every fourth step. */
    void write(int writer) {
      java.util.Random random = new java.util.Random(writer);
      for (int step = 0; running(); step++) {
        String op = "w" + writer + "-" + step;
        try {
          if (step % 4 == 3) {
            String id = "new-" + op;
            ObjectNode d = JsonNodeFactory.instance.objectNode();
            d.put("id", id).put("pk", "p" + step % 8);
            sawGone(c.createItem(d).getDiagnostics());
            created.add(id);
            continue;
          }
          int i = random.nextInt(COUNTERS);
          String id = "ctr-" + i;
          PartitionKey key = new PartitionKey("p" + i % 8);
          CosmosItemResponse<ObjectNode> read = c.readItem(id, key, ObjectNode.class);
          sawGone(read.getDiagnostics());
          ObjectNode d = read.getItem();
          ((ArrayNode) d.get("ops")).add(op);
          try {
            sawGone(
                c.replaceItem(
                        d, id, key, new CosmosItemRequestOptions().setIfMatchETag(read.getETag()))
                    .getDiagnostics());
            succeeded.computeIfAbsent(id, k -> ConcurrentHashMap.newKeySet()).add(op);
            increments.incrementAndGet();
          } catch (CosmosException e) {
            if (e.getStatusCode() != 412) {
              throw e;
            }
            conflicts.incrementAndGet();
          }
        } catch (CosmosException e) {
          if (gaveUpResolving(e)) {
            resolutionGaveUp.incrementAndGet();
          } else {
            fail(op, e);
          }
        } catch (RuntimeException e) {
          fail(op, e);
        }
      }
    }

    /** Queries the created documents again and again, each in small pages. */
    void query() {
      int[] sincePrevious = {splits.get(), merges.get()}; // the layout changes the SDK may not know
      while (running()) {
        int[] atStart = {splits.get(), merges.get()};
        Set<String> before = new HashSet<>(created);
        try {
          List<String> ids = createdIdsByQuery();
          Set<String> once = new HashSet<>(ids);
          if (once.size() != ids.size()) {
            if (splits.get() > sincePrevious[0]
                && merges.get() > sincePrevious[1]
                && noneThrice(ids)) {
              readTwiceAfterSplitAndMerge.incrementAndGet();
            } else {
              failures.add("a query: a document twice: " + ids);
            }
          }
          before.removeAll(once);
          if (!before.isEmpty()) {
            failures.add("a query: created before it, not returned: " + before);
          }
          queries.incrementAndGet();
        } catch (RuntimeException e) {
          fail("a query", e);
        }
        sincePrevious = atStart;
      }
    }

    /** Whether no id is in {@code ids} more than twice. */
    private static boolean noneThrice(List<String> ids) {
      Map<String, Integer> counts = new HashMap<>();
      ids.forEach(id -> counts.merge(id, 1, Integer::sum));
      return counts.values().stream().allMatch(n -> n <= 2);
    }

    List<String> createdIdsByQuery() {
      List<String> ids = new ArrayList<>();
      for (FeedResponse<JsonNode> page :
          c.queryItems(
                  "SELECT c.id FROM c WHERE STARTSWITH(c.id, 'new-')",
                  new CosmosQueryRequestOptions(),
                  JsonNode.class)
              .iterableByPage(20)) {
        page.getResults().forEach(r -> ids.add(r.get("id").asText()));
        sawGone(page.getCosmosDiagnostics());
      }
      return ids;
    }

    /** Follows the change feed of the whole container until the load ends. */
    void followFeed() {
      while (running()) {
        try {
          drainFeed();
          Thread.sleep(20);
        } catch (CosmosException e) {
          if (e.getStatusCode() == 410 && e.getSubStatusCode() == 1002) {
            feedGoneSurfaced.incrementAndGet(); // the SDK fault: go on from the last continuation
          } else {
            fail("change feed", e);
          }
        } catch (RuntimeException e) {
          fail("change feed", e);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }

    void drainFeed() {
      CosmosChangeFeedRequestOptions options =
          feedToken == null
              ? CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                  FeedRange.forFullRange())
              : CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(feedToken);
      for (FeedResponse<JsonNode> page :
          c.queryChangeFeed(options.setMaxItemCount(50), JsonNode.class).iterableByPage()) {
        for (JsonNode d : page.getResults()) {
          String id = d.get("id").asText();
          if (!delivered.add(id + "@" + d.get("_etag").asText())) {
            failures.add("change feed: a version given twice: " + id + " " + d.get("_etag"));
          }
          lastSeen.put(id, d);
        }
        feedToken = page.getContinuationToken();
        sawGone(page.getCosmosDiagnostics());
      }
    }
  }
}
