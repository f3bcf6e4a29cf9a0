package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.ChangeFeedProcessor;
import com.azure.cosmos.ChangeFeedProcessorBuilder;
import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncDatabase;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.ChangeFeedProcessorItem;
import com.azure.cosmos.models.ChangeFeedProcessorOptions;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.testkit.CosmosLabExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The change feed through the Java SDK: pull model from every start, and the processor. */
@ExtendWith(CosmosLabExtension.class)
class ChangeFeedCompatTest {

  private static CosmosContainer fresh(CosmosClient client, String id) {
    client.createDatabaseIfNotExists("feeds");
    CosmosDatabase db = client.getDatabase("feeds");
    return Fixtures.container(db, id, 8, "/pk");
  }

  private static void write(CosmosContainer c, List<ObjectNode> docs) {
    for (ObjectNode d : docs) {
      c.upsertItem(d, new PartitionKey(d.get("pk").asText()), null);
    }
  }

  /** Drains a change feed and returns the ids seen and the last continuation. */
  static String drain(CosmosContainer c, CosmosChangeFeedRequestOptions options, List<String> ids) {
    String continuation = null;
    for (FeedResponse<JsonNode> page :
        c.queryChangeFeed(options, JsonNode.class).iterableByPage()) {
      page.getResults().forEach(d -> ids.add(d.get("id").asText()));
      continuation = page.getContinuationToken();
    }
    return continuation;
  }

  /**
   * Writes the first half of {@code docs}, reads the whole feed from the beginning in pages of 30,
   * runs {@code layoutChange} (a split, a merge), writes the second half and reads on from the
   * continuation: the ids the feed gave, in order.
   */
  static List<String> acrossALayoutChange(
      CosmosContainer c, List<ObjectNode> docs, Runnable layoutChange) {
    int half = docs.size() / 2;
    Fixtures.createAll(c, docs.subList(0, half));
    List<String> ids = new ArrayList<>();
    String token =
        drain(
            c,
            CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                    FeedRange.forFullRange())
                .setMaxItemCount(30),
            ids);
    layoutChange.run();
    Fixtures.createAll(c, docs.subList(half, docs.size()));
    drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token), ids);
    return ids;
  }

  @Test
  void pullFromBeginning_thenFromContinuation_seesEachChangeOnce(CosmosClient client) {
    CosmosContainer c = fresh(client, "beginning");
    List<ObjectNode> docs = Fixtures.documents(150, 1);
    write(c, docs.subList(0, 100));
    List<String> first = new ArrayList<>();
    String token =
        drain(
            c,
            CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                    FeedRange.forFullRange())
                .setMaxItemCount(17),
            first);
    assertThat(first).hasSize(100).doesNotHaveDuplicates();

    write(c, docs.subList(100, 150));
    List<String> second = new ArrayList<>();
    drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token), second);
    assertThat(second)
        .containsExactlyInAnyOrderElementsOf(
            docs.subList(100, 150).stream().map(d -> d.get("id").asText()).toList());
  }

  @Test
  void pullFromNow_seesOnlyLaterChanges(CosmosClient client) {
    CosmosContainer c = fresh(client, "now");
    List<ObjectNode> docs = Fixtures.documents(60, 2);
    write(c, docs.subList(0, 30));
    List<String> none = new ArrayList<>();
    String token =
        drain(
            c,
            CosmosChangeFeedRequestOptions.createForProcessingFromNow(FeedRange.forFullRange()),
            none);
    assertThat(none).isEmpty();
    write(c, docs.subList(30, 60));
    List<String> later = new ArrayList<>();
    drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token), later);
    assertThat(later).hasSize(30).doesNotHaveDuplicates();
  }

  @Test
  void perFeedRange_partitionsTheChangesExactly(CosmosClient client) {
    CosmosContainer c = fresh(client, "ranges");
    List<ObjectNode> docs = Fixtures.documents(200, 3);
    write(c, docs);
    List<FeedRange> ranges = c.getFeedRanges();
    assertThat(ranges).hasSize(8);
    List<String> all = new ArrayList<>();
    for (FeedRange r : ranges) {
      List<String> part = new ArrayList<>();
      drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(r), part);
      all.addAll(part);
    }
    assertThat(all)
        .containsExactlyInAnyOrderElementsOf(docs.stream().map(d -> d.get("id").asText()).toList());
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void processorWithLeaseContainer_deliversEveryDocument(
      boolean epkLeases, CosmosClient client, CosmosAsyncClient async) throws InterruptedException {
    String feed = epkLeases ? "processed-epk" : "processed-pkrange";
    CosmosContainer c = fresh(client, feed);
    client
        .getDatabase("feeds")
        .createContainerIfNotExists(new CosmosContainerProperties("leases", "/id"));
    Set<String> seen = ConcurrentHashMap.newKeySet();
    ChangeFeedProcessor processor =
        processor(async.getDatabase("feeds"), feed, "leases", "compat-host", epkLeases, seen::add);
    List<ObjectNode> docs = Fixtures.documents(120, 4);
    write(c, docs.subList(0, 60));
    processor.start().block(Duration.ofSeconds(30));
    try {
      write(c, docs.subList(60, 120));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (seen.size() < 120 && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
    } finally {
      processor.stop().block(Duration.ofSeconds(30));
    }
    Set<String> expected = new HashSet<>();
    docs.forEach(d -> expected.add(d.get("id").asText()));
    assertThat(seen).isEqualTo(expected);
  }

  /**
   * A processor of {@code feed} from the beginning, with short poll and lease intervals and its
   * leases in {@code leases} under the prefix {@code feed-}: EPK-based leases ({@code
   * handleLatestVersionChanges}) or partition-key-range ones ({@code handleChanges}). Each change's
   * id goes to {@code onId}.
   */
  static ChangeFeedProcessor processor(
      CosmosAsyncDatabase db,
      String feed,
      String leases,
      String host,
      boolean epkLeases,
      Consumer<String> onId) {
    ChangeFeedProcessorOptions options = quickOptions();
    options.setStartFromBeginning(true);
    options.setLeasePrefix(feed + "-");
    ChangeFeedProcessorBuilder builder =
        new ChangeFeedProcessorBuilder()
            .hostName(host)
            .feedContainer(db.getContainer(feed))
            .leaseContainer(db.getContainer(leases))
            .options(options);
    if (epkLeases) {
      builder.handleLatestVersionChanges(
          changes -> changes.forEach(ch -> onId.accept(ch.getCurrent().get("id").asText())));
    } else {
      builder.handleChanges(changes -> changes.forEach(ch -> onId.accept(ch.get("id").asText())));
    }
    return builder.buildChangeFeedProcessor();
  }

  /**
   * A processor's options for tests: polls every 100 ms, renews leases every 2 s, takes them 1 s.
   */
  private static ChangeFeedProcessorOptions quickOptions() {
    ChangeFeedProcessorOptions options = new ChangeFeedProcessorOptions();
    options.setFeedPollDelay(Duration.ofMillis(100));
    options.setLeaseRenewInterval(Duration.ofSeconds(2));
    options.setLeaseAcquireInterval(Duration.ofSeconds(1));
    return options;
  }

  /**
   * The container {@code feed} of database "feeds" on {@code partitions}, and a lease container.
   */
  private static CosmosContainer feedAndLeases(
      CosmosClient client, String feed, int partitions, String leases) {
    client.createDatabaseIfNotExists("feeds");
    Fixtures.container(client.getDatabase("feeds"), feed, partitions, "/pk");
    client
        .getDatabase("feeds")
        .createContainerIfNotExists(new CosmosContainerProperties(leases, "/id"));
    return client.getDatabase("feeds").getContainer(feed);
  }

  /**
   * The estimator of a processor with partition-key-range leases ({@code getEstimatedLag}, {@code
   * getCurrentState}) reads, per lease, one change after the lease's continuation and computes
   * {@code latest - _lsn + 1} from the page's session token and that item's {@code _lsn}: with the
   * service's per-partition LSNs that is the lease's backlog. It reported 1 per lease (issue 14
   * item 10) while the LSNs were container-wide.
   */
  @Test
  void estimator_reportsEachLeasesBacklog_thenZeroOnceCaughtUp(
      CosmosClient client, CosmosAsyncClient async) throws InterruptedException {
    String feed = "estimated";
    CosmosContainer c = feedAndLeases(client, feed, 3, "estimator-leases");
    Set<String> seen = ConcurrentHashMap.newKeySet();
    ChangeFeedProcessorOptions options = quickOptions();
    options.setStartFromBeginning(true);
    ChangeFeedProcessor processor =
        new ChangeFeedProcessorBuilder()
            .hostName("estimator-host")
            .feedContainer(async.getDatabase("feeds").getContainer(feed))
            .leaseContainer(async.getDatabase("feeds").getContainer("estimator-leases"))
            .options(options)
            .handleChanges(changes -> changes.forEach(ch -> seen.add(ch.get("id").asText())))
            .buildChangeFeedProcessor();

    // warm up: every lease has checkpointed a continuation
    List<ObjectNode> docs = Fixtures.documents(90, 11);
    write(c, docs.subList(0, 30));
    processor.start().block(Duration.ofSeconds(30));
    awaitTotalLag(processor, seen, 30, 0, false);
    processor.stop().block(Duration.ofSeconds(30));
    // stop() returns before the processor's partition loops have ended: one of them was seen to
    // poll once more and process an insert made just after it returned
    Thread.sleep(2_000);

    // 60 inserts while it is stopped, counted per physical partition by their session tokens
    java.util.Map<String, Integer> perRange = new java.util.HashMap<>();
    for (ObjectNode d : docs.subList(30, 90)) {
      String token =
          c.createItem(d, new PartitionKey(d.get("pk").asText()), null).getSessionToken();
      perRange.merge(token.substring(0, token.indexOf(':')), 1, Integer::sum);
    }
    assertThat(perRange).hasSizeGreaterThan(1);
    assertThat(seen).as("nothing processed while stopped").hasSize(30);
    java.util.Map<String, Integer> lag = processor.getEstimatedLag().block(Duration.ofSeconds(30));
    assertThat(lag.values().stream().mapToInt(Integer::intValue).sum())
        .as("estimated lag %s of inserts per range %s, %d seen", lag, perRange, seen.size())
        .isEqualTo(60);
    java.util.Map<String, Integer> stateLag = new java.util.HashMap<>();
    for (com.azure.cosmos.models.ChangeFeedProcessorState s :
        processor.getCurrentState().block(Duration.ofSeconds(30))) {
      stateLag.merge(s.getLeaseToken(), s.getEstimatedLag(), Integer::sum);
    }
    stateLag.values().removeIf(n -> n == 0);
    assertThat(stateLag).isEqualTo(perRange);

    // and it catches up
    processor.start().block(Duration.ofSeconds(30));
    try {
      awaitTotalLag(processor, seen, 90, 0, false);
    } finally {
      processor.stop().block(Duration.ofSeconds(30));
    }
    for (com.azure.cosmos.models.ChangeFeedProcessorState s :
        processor.getCurrentState().block(Duration.ofSeconds(30))) {
      assertThat(s.getEstimatedLag()).as("lease %s", s.getLeaseToken()).isZero();
    }
  }

  /** Waits until {@code count} distinct documents were delivered; fails after a minute. */
  static void awaitDelivered(Map<String, Integer> deliveries, int count)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (deliveries.size() < count) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("delivered " + deliveries.size() + " of " + count + " documents");
      }
      Thread.sleep(50);
    }
  }

  /** The ids delivered more than once. */
  static List<String> deliveredMoreThanOnce(Map<String, Integer> deliveries) {
    return deliveries.entrySet().stream()
        .filter(e -> e.getValue() > 1)
        .map(Map.Entry::getKey)
        .sorted()
        .toList();
  }

  /**
   * Waits until {@code count} documents were seen and the processor's estimated lag is {@code lag}:
   * its {@code getEstimatedLag}, or with {@code byState} the sum over {@code getCurrentState} (the
   * one EPK-based leases answer). A lag of 0 means every lease has checkpointed past them.
   */
  static void awaitTotalLag(
      ChangeFeedProcessor processor, Set<String> seen, int count, int lag, boolean byState)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    int total = -1;
    while (System.nanoTime() < deadline) {
      if (seen.size() >= count) {
        try {
          total =
              byState
                  ? processor.getCurrentState().block(Duration.ofSeconds(30)).stream()
                      .mapToInt(s -> s.getEstimatedLag())
                      .sum()
                  : processor.getEstimatedLag().block(Duration.ofSeconds(30)).values().stream()
                      .mapToInt(Integer::intValue)
                      .sum();
          if (total == lag) {
            return;
          }
        } catch (CosmosException e) {
          // After a split, the estimator of partition-key-range leases fails with the gone
          // range's 410 until the processor has replaced that range's lease by its children's
          // (the SDK does not handle it); ask again.
          if (e.getStatusCode() != 410) {
            throw e;
          }
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError(
        "seen " + seen.size() + " of " + count + " documents; estimated lag " + total);
  }

  /**
   * The change feed processor in all-versions-and-deletes mode ({@code
   * handleAllVersionsAndDeletesChanges}, EPK leases, from now: the SDK refuses a start from the
   * beginning in this mode) on 4 partitions: every create, replace and delete made once it runs is
   * delivered once, in each document's order, with the operation and the document's id, a delete
   * with its LSN after its document's last write.
   */
  @Test
  void allVersionsAndDeletesProcessor_deliversEveryOperationOnce_inEachDocumentsOrder(
      CosmosClient client, CosmosAsyncClient async) throws InterruptedException {
    String feed = "avad-processor";
    CosmosContainer c = feedAndLeases(client, feed, 4, "avad-leases");
    // every operation delivered, in the order the processor gave them: "id op lsn"
    List<String> delivered = java.util.Collections.synchronizedList(new ArrayList<>());
    // records without an id, or with a previous image (which the service gives by default none of)
    List<String> unexpected = new java.util.concurrent.CopyOnWriteArrayList<>();
    ChangeFeedProcessorOptions options = quickOptions();
    ChangeFeedProcessor processor =
        new ChangeFeedProcessorBuilder()
            .hostName("avad-host")
            .feedContainer(async.getDatabase("feeds").getContainer(feed))
            .leaseContainer(async.getDatabase("feeds").getContainer("avad-leases"))
            .options(options)
            .handleAllVersionsAndDeletesChanges(
                changes -> {
                  // nothing here may throw: the processor would deliver the batch again and again
                  for (ChangeFeedProcessorItem ch : changes) {
                    var meta = ch.getChangeFeedMetaData();
                    String id = idOrNull(ch);
                    if (id == null || ch.getPrevious() != null) {
                      unexpected.add(ch.toString());
                    }
                    delivered.add(
                        id + " " + meta.getOperationType() + " " + meta.getLogSequenceNumber());
                  }
                })
            .buildChangeFeedProcessor();
    processor.start().block(Duration.ofSeconds(30));
    try {
      // "now" is each lease's first read (a lease starts with no continuation): probe every key
      // value the documents below use (the same 13, Fixtures.documents) until each has delivered
      List<ObjectNode> probes = Fixtures.documents(32, 5);
      probes.forEach(p -> p.put("id", "probe-" + p.get("id").asText()));
      Set<String> probed = new HashSet<>();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (probed.size() < probes.size()) {
        assertThat(System.nanoTime()).as("probes delivered: %s", probed).isLessThan(deadline);
        for (ObjectNode p : probes) {
          if (!probed.contains(p.get("id").asText())) {
            c.upsertItem(p, new PartitionKey(p.get("pk").asText()), null);
          }
        }
        Thread.sleep(300);
        synchronized (delivered) {
          delivered.forEach(line -> probed.add(line.substring(0, line.indexOf(' '))));
        }
      }
      delivered.clear();

      List<ObjectNode> docs = Fixtures.documents(24, 7);
      List<String> expected = new ArrayList<>();
      for (ObjectNode d : docs) {
        c.createItem(d, new PartitionKey(d.get("pk").asText()), null);
        expected.add(d.get("id").asText() + " CREATE");
      }
      for (ObjectNode d : docs.subList(0, 8)) {
        d.put("n", 1000);
        c.replaceItem(d, d.get("id").asText(), new PartitionKey(d.get("pk").asText()), null);
        expected.add(d.get("id").asText() + " REPLACE");
      }
      for (ObjectNode d : docs.subList(4, 12)) {
        c.deleteItem(d.get("id").asText(), new PartitionKey(d.get("pk").asText()), null);
        expected.add(d.get("id").asText() + " DELETE");
      }
      deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (notProbes(delivered).size() < expected.size() && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      Thread.sleep(1_000); // a duplicate would come within a few polls
      assertThat(unexpected).as("records without an id or with a previous image").isEmpty();
      List<String> got = notProbes(delivered);
      assertThat(got.stream().map(line -> line.substring(0, line.lastIndexOf(' '))))
          .containsExactlyInAnyOrderElementsOf(expected);
      // each document's operations in the order they were made, their LSNs rising
      Map<String, List<String>> madeById = byDocument(expected);
      for (Map.Entry<String, List<String>> e : byDocument(got).entrySet()) {
        List<String> ops = e.getValue();
        List<Long> lsns =
            ops.stream().map(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).toList();
        assertThat(lsns).as("%s", ops).isSorted().doesNotHaveDuplicates();
        assertThat(ops.stream().map(l -> l.substring(0, l.lastIndexOf(' '))).toList())
            .as("the order of %s's operations", e.getKey())
            .isEqualTo(madeById.get(e.getKey()));
      }
    } finally {
      processor.stop().block(Duration.ofSeconds(30));
    }
  }

  /** Lines that begin with a document's id and a space, by id, each id's in their order. */
  private static Map<String, List<String>> byDocument(List<String> lines) {
    return lines.stream()
        .collect(
            java.util.stream.Collectors.groupingBy(
                line -> line.substring(0, line.indexOf(' ')),
                java.util.LinkedHashMap::new,
                java.util.stream.Collectors.toList()));
  }

  /**
   * What the processor delivered but the probes: one upserted twice (its first upsert not yet
   * delivered when the second went) may come again after the probing.
   */
  private static List<String> notProbes(List<String> delivered) {
    synchronized (delivered) {
      return delivered.stream().filter(line -> !line.startsWith("probe-")).toList();
    }
  }

  /**
   * The id of the document an all-versions record is about: its current image's, or for a delete
   * the metadata's. The service gives a delete no previous image (unless the container opted in)
   * and SDK 4.81's {@code ChangeFeedMetaData} has no getter for the id, so an application reads it
   * from the record's JSON.
   */
  static String idOf(ChangeFeedProcessorItem item) {
    String id = idOrNull(item);
    assertThat(id).as("a delete's metadata.id in %s", item).isNotNull();
    assertThat(item.getPrevious()).as("a previous image in %s", item).isNull();
    return id;
  }

  /** {@link #idOf}, null where the record names none; throws nothing. */
  private static String idOrNull(ChangeFeedProcessorItem item) {
    if (item.getCurrent() != null && item.getCurrent().has("id")) {
      return item.getCurrent().get("id").asText();
    }
    JsonNode id = item.toJsonNode().path("metadata").path("id");
    return id.isTextual() ? id.asText() : null;
  }

  @Test
  void allVersionsAndDeletes_reportsEveryOperation(CosmosClient client) {
    CosmosContainer c = fresh(client, "avad");
    List<String> none = new ArrayList<>();
    String token =
        drain(
            c,
            CosmosChangeFeedRequestOptions.createForProcessingFromNow(FeedRange.forFullRange())
                .allVersionsAndDeletes(),
            none);
    ObjectNode d = Fixtures.documents(1, 9).get(0);
    PartitionKey key = new PartitionKey(d.get("pk").asText());
    c.createItem(d, key, null);
    d.put("n", 1000);
    c.replaceItem(d, d.get("id").asText(), key, null);
    c.deleteItem(d.get("id").asText(), key, null);
    List<String> operations = new ArrayList<>();
    for (FeedResponse<ChangeFeedProcessorItem> page :
        c.queryChangeFeed(
                CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token),
                ChangeFeedProcessorItem.class)
            .iterableByPage()) {
      page.getResults()
          .forEach(i -> operations.add(i.getChangeFeedMetaData().getOperationType().toString()));
    }
    assertThat(operations).containsExactly("CREATE", "REPLACE", "DELETE");
  }

  @Test
  void changeFeedPolicy_isKeptAndShown_andALatestVersionPolicyRefusesAllVersions(
      CosmosClient client) {
    client.createDatabaseIfNotExists("feeds");
    CosmosDatabase db = client.getDatabase("feeds");
    CosmosContainerProperties avad = new CosmosContainerProperties("policy-avad", "/pk");
    avad.setChangeFeedPolicy(
        com.azure.cosmos.models.ChangeFeedPolicy.createAllVersionsAndDeletesPolicy(
            java.time.Duration.ofMinutes(8)));
    db.createContainerIfNotExists(avad);
    assertThat(
            db.getContainer("policy-avad")
                .read()
                .getProperties()
                .getChangeFeedPolicy()
                .getRetentionDurationForAllVersionsAndDeletesPolicy())
        .isEqualTo(java.time.Duration.ofMinutes(8));

    CosmosContainerProperties latest = new CosmosContainerProperties("policy-latest", "/pk");
    latest.setChangeFeedPolicy(
        com.azure.cosmos.models.ChangeFeedPolicy.createLatestVersionPolicy());
    db.createContainerIfNotExists(latest);
    CosmosContainer c = db.getContainer("policy-latest");
    assertThatThrownBy(
            () ->
                drain(
                    c,
                    CosmosChangeFeedRequestOptions.createForProcessingFromNow(
                            FeedRange.forFullRange())
                        .allVersionsAndDeletes(),
                    new ArrayList<>()))
        .isInstanceOfSatisfying(
            com.azure.cosmos.CosmosException.class,
            e -> assertThat(e.getStatusCode()).isEqualTo(400));
  }
}
