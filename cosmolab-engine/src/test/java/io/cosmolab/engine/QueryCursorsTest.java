package io.cosmolab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A query whose later pages would run it again (GROUP BY, aggregates, DISTINCT without ORDER BY) is
 * kept open between its pages, and each page is exactly what running it again gives: the oracle is
 * the same data on an engine that keeps none ({@code maxKept(0)}), page by page: rows,
 * continuation, charge and documents loaded. Writes, splits, expiry of the kept query, retries,
 * eviction and a time to live make the page run the query again, with the same answer.
 */
class QueryCursorsTest {
  private static final int DOCS = 400;
  private final ManualClock clock = ManualClock.startingAtEpoch2026();
  private final Container kept = seeded(true);
  private final Container rerun = seeded(false);

  private Container seeded(boolean keeps) {
    return seeded(keeps, null);
  }

  private Container seeded(boolean keeps, Integer ttl) {
    CosmosEngine engine = Engines.onClock(clock, ThrottlingMode.OFF);
    if (!keeps) {
      engine.queryCursors().maxKept(0);
    }
    ContainerSettings settings =
        ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
            .withThroughput(Throughput.manual(40_000))
            .withPhysicalPartitions(4);
    Container c = engine.createDatabase("db").createContainer(settings);
    if (ttl != null) {
      c.setDefaultTimeToLive(ttl);
    }
    for (int i = 0; i < DOCS; i++) {
      c.create(document(i));
    }
    return c;
  }

  private static ObjectNode document(int i) {
    ObjectNode d = Json.obj("{'pk':'k" + (i % 13) + "','n':" + (i * 7 % 101) + "}");
    d.put("id", "d" + i);
    d.put("grp", "g" + (i % 60));
    d.putArray("tags").add("t" + (i % 3)).add("t" + (i % 5));
    return d;
  }

  static Stream<QueryRequest> shapes() {
    return Stream.of(
        QueryRequest.of("SELECT c.grp, COUNT(1) AS n, SUM(c.n) AS s FROM c GROUP BY c.grp"),
        QueryRequest.of("SELECT DISTINCT VALUE c.n FROM c"),
        // an index serves the filter: later pages read the documents it gave the first
        QueryRequest.of(
            "SELECT c.n, COUNT(1) AS k FROM c WHERE c.grp IN ('g1', 'g2', 'g3')" + " GROUP BY c.n"),
        QueryRequest.of("SELECT DISTINCT TOP 45 c.n FROM c"),
        QueryRequest.of("SELECT c.n, COUNT(1) AS k FROM c GROUP BY c.n OFFSET 5 LIMIT 40"),
        QueryRequest.of(
            "SELECT DISTINCT VALUE CONCAT(c.grp, t) FROM c JOIN t IN c.tags WHERE c.n > 3"),
        // scoped as the SDKs' plans send them: by range id, and by partition key
        QueryRequest.of("SELECT c.grp, MAX(c.n) AS m FROM c GROUP BY c.grp").withRangeId("1"),
        QueryRequest.of("SELECT c.n, COUNT(1) AS k FROM c GROUP BY c.n")
            .withPartitionKey(PartitionKeyValue.of("k3")));
  }

  /** The pages of {@code request} at {@code pageSize}, with what each says. */
  private static List<String> pages(Container c, QueryRequest request, int pageSize) {
    List<String> out = new ArrayList<>();
    for (QueryPage p : Engines.pages(c, request, pageSize)) {
      out.add(describe(p));
    }
    return out;
  }

  private static String describe(QueryPage p) {
    return p.rows()
        + " next="
        + p.continuation()
        + " ru="
        + p.requestCharge()
        + " loaded="
        + p.metrics().documentsLoaded()
        + " bytes="
        + p.metrics().bytesLoaded()
        + " hits="
        + p.metrics().indexHits();
  }

  /** What each partition was charged in all, by range id. */
  private static List<String> spent(Container c) {
    return c.partitionStats().stream()
        .map(p -> p.id() + "=" + Math.round(p.totalRu() * 1000) / 1000.0)
        .toList();
  }

  private long taken(Container c) {
    return c.database().engine().queryCursors().counts()[0];
  }

  @ParameterizedTest
  @MethodSource("shapes")
  void everyPage_isWhatRunningTheQueryAgainGives_andLaterPagesTakeTheKeptQuery(
      QueryRequest request) {
    List<String> expected = pages(rerun, request, 7);
    List<String> actual = pages(kept, request, 7);

    assertThat(actual).containsExactlyElementsOf(expected);
    assertThat(expected).hasSizeGreaterThan(2); // the shapes need several pages
    // and each partition was charged the same share of every page
    assertThat(spent(kept)).containsExactlyElementsOf(spent(rerun));
    assertThat(taken(kept)).isEqualTo(expected.size() - 1);
    assertThat(taken(rerun)).isZero();
    assertThat(kept.database().engine().queryCursors().size())
        .isZero(); // the last page keeps nothing
  }

  @ParameterizedTest
  @MethodSource("shapes")
  void aWriteBetweenPages_makesTheNextPageRunTheQueryAgain_withTheWriteInIt(QueryRequest request) {
    QueryRequest r = request.withMaxItemCount(7);
    QueryPage k1 = kept.query(r);
    QueryPage r1 = rerun.query(r);
    assertThat(describe(k1)).isEqualTo(describe(r1));
    // a document in every group and partition: whichever the scope, the next page sees a write
    for (int i = DOCS; i < DOCS + 60; i++) {
      ObjectNode d = document(i);
      d.put("n", 1_000 + i);
      kept.create(d.deepCopy());
      rerun.create(d);
    }
    List<String> expected = rest(rerun, r, r1);
    List<String> actual = rest(kept, r, k1);

    assertThat(actual).containsExactlyElementsOf(expected);
    long[] counts = kept.database().engine().queryCursors().counts();
    assertThat(counts[1]).isEqualTo(1); // the page after the write found its query out of date
    assertThat(counts[0]).isEqualTo(expected.size() - 1); // and its pages keep it again
  }

  /** The pages after {@code first}. */
  private static List<String> rest(Container c, QueryRequest r, QueryPage first) {
    List<String> out = new ArrayList<>();
    String token = first.continuation();
    while (token != null) {
      QueryPage p = c.query(r.withContinuation(token));
      out.add(describe(p));
      token = p.continuation();
    }
    return out;
  }

  @Test
  void aRetriedPage_runsTheQueryAgain_andGetsTheSameRows() {
    QueryRequest r = QueryRequest.of("SELECT c.grp, COUNT(1) AS n FROM c GROUP BY c.grp");
    r = r.withMaxItemCount(10);
    QueryPage first = kept.query(r);
    QueryRequest second = r.withContinuation(first.continuation());

    String once = describe(kept.query(second));
    String again = describe(kept.query(second)); // the kept query went to the first

    assertThat(again).isEqualTo(once).isEqualTo(describe(rerun.query(second)));
    assertThat(kept.database().engine().queryCursors().counts()).containsExactly(1, 1);
  }

  @Test
  void aSplitBetweenPages_makesTheNextPageRunTheQueryAgain() {
    QueryRequest r = QueryRequest.of("SELECT DISTINCT VALUE c.n FROM c").withMaxItemCount(9);
    QueryPage k1 = kept.query(r);
    QueryPage r1 = rerun.query(r);
    kept.splitPartition("0");
    rerun.splitPartition("0");

    assertThat(rest(kept, r, k1)).containsExactlyElementsOf(rest(rerun, r, r1));
    assertThat(kept.database().engine().queryCursors().counts()[1]).isEqualTo(1);
  }

  @Test
  void aQueryLeftIdleForAMinute_isDropped_andItsNextPageRunsItAgain() {
    QueryRequest r = QueryRequest.of("SELECT c.grp, COUNT(1) AS n FROM c GROUP BY c.grp");
    r = r.withMaxItemCount(10);
    QueryPage k1 = kept.query(r);
    QueryPage r1 = rerun.query(r);
    assertThat(kept.database().engine().queryCursors().size()).isEqualTo(1);

    clock.advance(Duration.ofMillis(QueryCursors.IDLE_MILLIS + 1));

    assertThat(kept.database().engine().queryCursors().size()).isZero();
    assertThat(rest(kept, r, k1)).containsExactlyElementsOf(rest(rerun, r, r1));
  }

  @Test
  void pastTheBound_theLeastRecentlyLeftQueriesGo_andTheirPagesRunThemAgain() {
    int queries = QueryCursors.MAX_KEPT + 6;
    List<QueryRequest> requests = new ArrayList<>();
    List<QueryPage> firsts = new ArrayList<>();
    for (int q = 0; q < queries; q++) {
      QueryRequest r =
          QueryRequest.of(
                  "SELECT c.grp, COUNT(1) AS n FROM c WHERE c.n >= " + q + " GROUP BY c.grp")
              .withMaxItemCount(25);
      requests.add(r);
      firsts.add(kept.query(r));
    }
    assertThat(kept.database().engine().queryCursors().size()).isEqualTo(QueryCursors.MAX_KEPT);

    for (int q = 0; q < queries; q++) {
      QueryRequest r = requests.get(q);
      assertThat(rest(kept, r, firsts.get(q))).containsExactlyElementsOf(pagesAfterFirst(r));
    }
    // the six left first were dropped; the first of them, run again, kept its query while the
    // other 63 waited, so the oldest of those (the seventh) went too
    long[] counts = kept.database().engine().queryCursors().counts();
    assertThat(counts[1]).isEqualTo(7);
  }

  private List<String> pagesAfterFirst(QueryRequest r) {
    return rest(rerun, r, rerun.query(r));
  }

  @Test
  void aContainerWithATimeToLive_keepsNoQueryOpen() {
    Container withTtl = seeded(true, 3_600);
    QueryRequest r = QueryRequest.of("SELECT DISTINCT VALUE c.n FROM c").withMaxItemCount(9);

    List<String> pages = pages(withTtl, r, 9);

    assertThat(pages).hasSizeGreaterThan(2);
    assertThat(withTtl.database().engine().queryCursors().counts()).containsExactly(0, 0);
  }

  @Test
  void aTakenQuery_asksTheNewPagesClient_whetherItHasGone() {
    // DISTINCT over a few values: its last page reads on to the end to find no more
    QueryRequest r = QueryRequest.of("SELECT DISTINCT VALUE c.grp FROM c").withMaxItemCount(55);
    String token = kept.query(r).continuation();
    String sameToken = rerun.query(r).continuation();
    assertThat(token).isEqualTo(sameToken);
    BooleanSupplier gone = () -> true;

    CosmosException k = thrown(() -> kept.query(r.withContinuation(token), gone));
    CosmosException e = thrown(() -> rerun.query(r.withContinuation(token), gone));

    assertThat(k).isNotNull();
    assertThat(k.error()).isEqualTo(e.error()).isEqualTo(CosmosError.REQUEST_ABANDONED);
    assertThat(taken(kept)).isEqualTo(1);
    // it asks at its own first document, and counts what this page read, as a run again does
    assertThat(k.getMessage()).isEqualTo(e.getMessage()).contains("after reading 0 documents");
  }

  private static CosmosException thrown(Runnable r) {
    try {
      r.run();
      return null;
    } catch (CosmosException e) {
      return e;
    }
  }

  @Test
  void anIndexingPolicyChangedBetweenPages_makesTheNextPageRunTheQueryAgain() {
    QueryRequest r =
        QueryRequest.of("SELECT DISTINCT VALUE c.grp FROM c WHERE c.n = 5").withMaxItemCount(1);
    QueryPage k1 = kept.query(r);
    QueryPage r1 = rerun.query(r);
    assertThat(describe(k1)).isEqualTo(describe(r1));
    io.cosmolab.engine.index.IndexingPolicy withoutN =
        io.cosmolab.engine.index.IndexingPolicy.fromJson(
            Json.obj(
                "{'indexingMode':'consistent','includedPaths':[{'path':'/*'}],"
                    + "'excludedPaths':[{'path':'/n/?'}]}"));
    kept.setIndexingPolicy(withoutN);
    rerun.setIndexingPolicy(withoutN);

    List<String> expected = rest(rerun, r, r1);
    assertThat(rest(kept, r, k1)).containsExactlyElementsOf(expected);
    assertThat(expected).isNotEmpty();
    assertThat(kept.database().engine().queryCursors().counts()[1]).isEqualTo(1);
  }

  @Test
  void aQueryThatReadsTheClockOrDraws_isRunAgainByEveryPage() {
    for (String text :
        List.of(
            "SELECT c.grp, COUNT(1) AS n FROM c WHERE c.n < GetCurrentTimestamp() GROUP BY c.grp",
            "SELECT DISTINCT VALUE CONCAT(c.grp, ToString(RAND() < 2)) FROM c")) {
      List<String> pages = pages(kept, QueryRequest.of(text), 7);
      assertThat(pages).as(text).hasSizeGreaterThan(2);
    }
    assertThat(kept.database().engine().queryCursors().counts()).containsExactly(0, 0);
  }

  @Test
  void twoClientsPagingOneQueryAtOnce_eachGetEveryPageAsRunAgain() throws Exception {
    QueryRequest r = QueryRequest.of("SELECT DISTINCT VALUE c.n FROM c");
    List<String> expected = pages(rerun, r, 5);
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(2);
    try {
      List<java.util.concurrent.Future<List<List<String>>>> clients = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        clients.add(
            pool.submit(
                () -> {
                  List<List<String>> runs = new ArrayList<>();
                  for (int i = 0; i < 20; i++) {
                    runs.add(pages(kept, r, 5));
                  }
                  return runs;
                }));
      }
      for (java.util.concurrent.Future<List<List<String>>> client : clients) {
        for (List<String> run : client.get(60, java.util.concurrent.TimeUnit.SECONDS)) {
          assertThat(run).containsExactlyElementsOf(expected);
        }
      }
    } finally {
      pool.shutdownNow();
    }
    long[] counts = kept.database().engine().queryCursors().counts();
    assertThat(counts[0] + counts[1]).isEqualTo(40L * (expected.size() - 1));
    assertThat(counts[0]).isPositive();
  }

  @Test
  void theRowsOfAKeptQuery_arePagedOnce_evenWhenThePageSizeChanges() {
    QueryRequest r = QueryRequest.of("SELECT c.grp, COUNT(1) AS n FROM c GROUP BY c.grp");
    QueryPage first = kept.query(r.withMaxItemCount(10));
    QueryPage second = kept.query(r.withMaxItemCount(30).withContinuation(first.continuation()));
    QueryPage rerunSecond =
        rerun.query(r.withMaxItemCount(30).withContinuation(first.continuation()));

    assertThat(describe(second)).isEqualTo(describe(rerunSecond));
    assertThat(taken(kept)).isEqualTo(1);
    List<JsonNode> all = new ArrayList<>(first.rows());
    all.addAll(second.rows());
    all.addAll(kept.query(r.withMaxItemCount(100).withContinuation(second.continuation())).rows());
    assertThat(all).hasSize(60);
  }
}
