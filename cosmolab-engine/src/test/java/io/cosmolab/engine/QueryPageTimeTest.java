package io.cosmolab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A query page ends at the engine's page time, as the service's ends at 5 s: with the rows it has,
 * possibly none, and a continuation; following the continuations gives every row once, in order. A
 * bound of 1 ns ends every page that may end early as soon as it may: after one document past its
 * position (streaming), or after one row (an ORDER BY the index serves).
 */
class QueryPageTimeTest {
  private static final int DOCS = 120;
  private final ManualClock clock = ManualClock.startingAtEpoch2026();
  private final Container bounded = seeded(Duration.ofNanos(1));
  private final Container reference = seeded(CosmosEngine.DEFAULT_QUERY_PAGE_TIME);

  private Container seeded(Duration pageTime) {
    Container c = Engines.withPageTime(clock, pageTime, 3);
    for (int i = 0; i < DOCS; i++) {
      ObjectNode d = Json.obj("{'pk':'k" + (i % 7) + "','n':" + (i * 13 % 41) + "}");
      d.put("id", String.format(java.util.Locale.ROOT, "d%03d", i));
      d.putArray("tags").add("t" + (i % 2)).add("t" + (i % 3)).add("t" + (i % 5));
      c.create(d);
    }
    return c;
  }

  private static List<QueryPage> pages(Container c, QueryRequest request, int pageSize) {
    return Engines.pages(c, request, pageSize);
  }

  private static List<JsonNode> rows(List<QueryPage> pages) {
    List<JsonNode> out = new ArrayList<>();
    pages.forEach(p -> out.addAll(p.rows()));
    return out;
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT c.id FROM c WHERE c.n % 10 = 0",
        "SELECT c.id, t FROM c JOIN t IN c.tags WHERE t != 't0'",
        "SELECT * FROM c"
      })
  void aStreamingQuery_outOfTime_endsItsPageAfterEachDocument_andTheContinuationsGiveEveryRowOnce(
      String text) {
    for (int pageSize : new int[] {1000, 4}) {
      List<QueryPage> cut = pages(bounded, QueryRequest.of(text), pageSize);
      List<QueryPage> whole = pages(reference, QueryRequest.of(text), pageSize);

      assertThat(rows(cut)).as("page size %d", pageSize).isEqualTo(rows(whole));
      assertThat(cut.size()).isGreaterThanOrEqualTo(DOCS); // a page per document read, at least
      assertThat(cut.subList(0, cut.size() - 1))
          .allSatisfy(p -> assertThat(p.continuation()).isNotNull())
          .allSatisfy(p -> assertThat(p.rows().size()).isLessThanOrEqualTo(pageSize));
    }
  }

  @Test
  void pagesOutOfTime_loadEachDocumentOnce_notTheLastOfEachPageAgain() {
    String text = "SELECT c.id FROM c WHERE c.n % 41 = 40"; // a scan: no index serves it
    List<QueryPage> cut = pages(bounded, QueryRequest.of(text), 1000);

    assertThat(cut.size()).isGreaterThanOrEqualTo(DOCS);
    assertThat(cut.stream().mapToLong(p -> p.metrics().documentsLoaded()).sum()).isEqualTo(DOCS);
  }

  @Test
  void aPageOutOfTime_mayHaveNoRows_yetItsContinuationMovesOn() {
    String text = "SELECT c.id FROM c WHERE c.n % 41 = 40"; // a scan: no index serves it
    List<QueryPage> cut = pages(bounded, QueryRequest.of(text), 1000);

    assertThat(cut).filteredOn(p -> p.rows().isEmpty() && p.continuation() != null).isNotEmpty();
    assertThat(cut.stream().map(QueryPage::continuation).filter(java.util.Objects::nonNull))
        .doesNotHaveDuplicates();
    assertThat(rows(cut)).isEqualTo(rows(pages(reference, QueryRequest.of(text), 5))).isNotEmpty();
  }

  @Test
  void aQueryOfOneLogicalPartition_outOfTime_resumesWithinIt() {
    QueryRequest r =
        QueryRequest.of("SELECT c.id, c.n FROM c").withPartitionKey(PartitionKeyValue.of("k3"));

    List<QueryPage> cut = pages(bounded, r, 1000);

    int documents = (DOCS - 3 + 6) / 7; // i % 7 == 3
    assertThat(rows(cut)).isEqualTo(rows(pages(reference, r, 1000))).hasSize(documents);
    assertThat(cut).hasSize(documents);
  }

  @Test
  void anOrderByTheIndexServes_outOfTime_endsAfterARow_andResumesAfterIt() {
    String text = "SELECT c.id, c.n FROM c WHERE c.n >= 3 ORDER BY c.n DESC";

    List<QueryPage> cut = pages(bounded, QueryRequest.of(text), 25);
    List<QueryPage> whole = pages(reference, QueryRequest.of(text), 25);

    assertThat(rows(cut)).isEqualTo(rows(whole));
    assertThat(cut.size()).isGreaterThan(whole.size());
    assertThat(cut).allSatisfy(p -> assertThat(p.rows()).isNotEmpty());
  }

  /**
   * The pages of {@code request} over each physical partition in turn, as the SDKs' plan-driven
   * pipelines send it (a request scoped to one partition key range, which the service's backend
   * serves and may cut).
   */
  private static List<QueryPage> pagesByRange(Container c, QueryRequest request, int pageSize) {
    List<QueryPage> out = new ArrayList<>();
    for (var range : c.routing().ranges()) {
      out.addAll(pages(c, request.withRangeId(range.id()), pageSize));
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT VALUE COUNT(1) FROM c",
        "SELECT VALUE SUM(c.n) FROM c WHERE c.n > 3",
        "SELECT VALUE MAX(c.n) FROM c",
        "SELECT VALUE COUNT(1) FROM c JOIN t IN c.tags WHERE t = 't1'"
      })
  void anAggregateOfOneRange_outOfTime_returnsTheAggregatesOfWhatItRead_andThePartialsAddUp(
      String text) {
    List<QueryPage> cut = pagesByRange(bounded, QueryRequest.of(text), 1000);
    List<QueryPage> whole = pages(reference, QueryRequest.of(text), 1000);

    assertThat(whole).hasSize(1);
    assertThat(cut.size()).isGreaterThanOrEqualTo(DOCS / 2); // a partial per document read
    double combined =
        text.contains("MAX")
            ? rows(cut).stream().mapToDouble(JsonNode::asDouble).max().orElseThrow()
            : rows(cut).stream().mapToDouble(JsonNode::asDouble).sum();
    assertThat(combined).isEqualTo(whole.get(0).rows().get(0).asDouble());
    assertThat(cut.stream().map(QueryPage::continuation).filter(java.util.Objects::nonNull))
        .doesNotHaveDuplicates();
  }

  @Test
  void anAggregateOfAContainerOfOnePartition_outOfTime_isCutWithoutAScope() {
    Container one =
        CosmosEngine.builder()
            .clock(clock)
            .throttling(ThrottlingMode.OFF)
            .queryPageTime(Duration.ofNanos(1))
            .build()
            .createDatabase("db")
            .createContainer(ContainerSettings.of("one", PartitionKeyDefinition.hash("/pk")));
    for (int i = 0; i < 10; i++) {
      one.create(Json.obj("{'id':'d" + i + "','pk':'k" + (i % 3) + "'}"));
    }

    List<QueryPage> cut = pages(one, QueryRequest.of("SELECT VALUE COUNT(1) FROM c"), 1000);

    // one partition: the service's backend serves it, and cuts it
    assertThat(cut.size()).isGreaterThanOrEqualTo(10);
    assertThat(rows(cut).stream().mapToLong(JsonNode::asLong).sum()).isEqualTo(10);
  }

  @Test
  void anAggregateWhoseFilterNamesOneKey_outOfTime_isCutWithoutAScope() {
    // three partitions, and no scope: the filter confines the query to one, as the plan says
    List<QueryPage> cut =
        pages(bounded, QueryRequest.of("SELECT VALUE COUNT(1) FROM c WHERE c.pk = 'k3'"), 1000);

    int documents = (DOCS - 3 + 6) / 7; // i % 7 == 3
    assertThat(cut.size()).isGreaterThanOrEqualTo(documents);
    assertThat(rows(cut).stream().mapToLong(JsonNode::asLong).sum()).isEqualTo(documents);
  }

  @Test
  void anAggregateOfOneLogicalPartition_outOfTime_isCutToo() {
    QueryRequest r =
        QueryRequest.of("SELECT VALUE COUNT(1) FROM c")
            .withPartitionKey(PartitionKeyValue.of("k3"));

    List<QueryPage> cut = pages(bounded, r, 1000);

    int documents = (DOCS - 3 + 6) / 7; // i % 7 == 3
    assertThat(cut.size()).isGreaterThanOrEqualTo(documents);
    assertThat(rows(cut).stream().mapToLong(JsonNode::asLong).sum()).isEqualTo(documents);
  }

  @ParameterizedTest
  @ValueSource(ints = {1000, 1})
  void aGroupByOfOneRange_outOfTime_returnsTheGroupsOfWhatItRead_andMergedTheyAreTheWhole(
      int pageSize) {
    // the JOIN makes up to three groups of one document: with pages of 1, a range cut after one
    // document has more groups than its page holds, and the next pages return the rest of it
    String text =
        "SELECT t AS tag, COUNT(1) AS n, SUM(c.n) AS s FROM c JOIN t IN c.tags GROUP BY t";
    List<QueryPage> cut = pagesByRange(bounded, QueryRequest.of(text), pageSize);
    List<QueryPage> whole = pages(reference, QueryRequest.of(text), 1000);

    assertThat(merged(rows(cut))).isEqualTo(merged(rows(whole))).hasSize(5);
    assertThat(cut).allSatisfy(p -> assertThat(p.rows().size()).isLessThanOrEqualTo(pageSize));
    assertThat(rows(cut).size()).isGreaterThan(DOCS); // groups per range read, not per query
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT DISTINCT VALUE c.n % 5 FROM c",
        "SELECT DISTINCT t FROM c JOIN t IN c.tags",
        "SELECT DISTINCT c.pk, c.n % 2 AS odd FROM c"
      })
  void aDistinctOfOneRange_outOfTime_returnsTheDistinctRowsOfWhatItRead_andTogetherTheWhole(
      String text) {
    // the service "only guarantees distinct items within a request": a cut page's rows are
    // distinct among themselves, and a later page may repeat one, which the SDKs drop
    for (int pageSize : new int[] {1000, 1}) {
      List<QueryPage> cut = pagesByRange(bounded, QueryRequest.of(text), pageSize);
      List<QueryPage> whole = pages(reference, QueryRequest.of(text), 1000);

      assertThat(whole).hasSize(1);
      assertThat(cut.size()).as("a page per document read").isGreaterThanOrEqualTo(DOCS / 2);
      assertThat(cut).allSatisfy(p -> assertThat(p.rows()).doesNotHaveDuplicates());
      assertThat(new java.util.HashSet<>(rows(cut)))
          .containsExactlyInAnyOrderElementsOf(whole.get(0).rows());
      assertThat(rows(cut).size()).isGreaterThan(whole.get(0).rows().size());
    }
  }

  @Test
  void aPageThatSkipsRowsEarlierPagesReturned_isNotCut_soItGroupsAsTheyDid() {
    // an offset token, as an aggregate page that ended in time gives when it has more groups
    String text =
        "SELECT t AS tag, COUNT(1) AS n, SUM(c.n) AS s FROM c JOIN t IN c.tags GROUP BY t";
    String range = bounded.routing().ranges().get(0).id();
    QueryRequest request = QueryRequest.of(text).withRangeId(range);
    String afterTwo =
        Resume.afterRows(
            request,
            bounded.rid(),
            io.cosmolab.query.CompiledQuery.compile(text, java.util.Map.of()).ast(),
            2);

    List<QueryPage> rest = pages(bounded, request.withContinuation(afterTwo), 1000);
    // the same layout and documents, pages never cut: the range's groups over all its documents
    List<JsonNode> whole = rows(pages(reference, request, 1000));

    assertThat(whole).hasSizeGreaterThan(2);
    assertThat(rest).hasSize(1);
    assertThat(rows(rest)).isEqualTo(whole.subList(2, whole.size()));
  }

  /** The first continuation of {@code request}'s pages of one row that skips a cut range's rows. */
  private String tokenSkippingRowsOfACutRange(QueryRequest request) {
    for (QueryPage p : pages(bounded, request, 1)) {
      String token = p.continuation();
      if (token != null
          && new String(
                  java.util.Base64.getUrlDecoder().decode(token),
                  java.nio.charset.StandardCharsets.UTF_8)
              .matches("v4:[0-9a-f]+\\.[0-9a-f]+:[1-9].*")) {
        return token;
      }
    }
    throw new AssertionError("no token that skips rows of a cut range");
  }

  @Test
  void aTokenForTheRestOfACutRangesRows_isRefusedOnAnotherScope_asAfterASplit() {
    String text =
        "SELECT t AS tag, COUNT(1) AS n, SUM(c.n) AS s FROM c JOIN t IN c.tags GROUP BY t";
    List<String> ranges = bounded.routing().ranges().stream().map(r -> r.id()).toList();
    QueryRequest first = QueryRequest.of(text).withRangeId(ranges.get(0));
    // pages of one row: a range cut after a document with several tags continues its rows
    String token = tokenSkippingRowsOfACutRange(first);

    assertThat(bounded.query(first.withMaxItemCount(1).withContinuation(token)).rows()).hasSize(1);
    assertThatThrownBy(
            () ->
                bounded.query(
                    QueryRequest.of(text).withRangeId(ranges.get(1)).withContinuation(token)))
        .hasMessageContaining("the scope has changed, as in a split");
  }

  @Test
  void aDistinctTokenForTheRestOfACutRangesRows_onAnotherScope_readsOnFromTheRangesStart() {
    // a DISTINCT may repeat a value, so a split's child reads the range again instead of a 400
    String text = "SELECT DISTINCT VALUE t FROM c JOIN t IN c.tags";
    List<String> ranges = bounded.routing().ranges().stream().map(r -> r.id()).toList();
    QueryRequest first = QueryRequest.of(text).withRangeId(ranges.get(0));
    String withRows = tokenSkippingRowsOfACutRange(first);

    List<QueryPage> onAnother =
        pages(
            bounded,
            QueryRequest.of(text).withRangeId(ranges.get(1)).withContinuation(withRows),
            1000);
    assertThat(rows(onAnother)).isNotEmpty();
  }

  @Test
  void aFullPageOfAScopedDistinct_endsAtItsLastRow_soEachDocumentIsReadAndPaidForOnce() {
    // two values alternating and a third at the end: with pages of 2, a page that looked ahead
    // for the third would read to the end, and the next page all of it again
    Container one =
        CosmosEngine.builder()
            .clock(clock)
            .throttling(ThrottlingMode.OFF)
            .build()
            .createDatabase("db")
            .createContainer(ContainerSettings.of("one", PartitionKeyDefinition.hash("/pk")));
    int n = 200;
    for (int i = 0; i < n; i++) {
      String s = i == n - 1 ? "z" : i % 2 == 0 ? "x" : "y";
      one.create(
          Json.obj(
              "{'id':'"
                  + String.format(java.util.Locale.ROOT, "d%03d", i)
                  + "','pk':'a','s':'"
                  + s
                  + "'}"));
    }
    QueryRequest r =
        QueryRequest.of("SELECT DISTINCT VALUE c.s FROM c")
            .withPartitionKey(PartitionKeyValue.of("a"));

    List<QueryPage> pages = pages(one, r, 2);

    assertThat(new java.util.HashSet<>(rows(pages)))
        .extracting(JsonNode::asText)
        .containsExactlyInAnyOrder("x", "y", "z");
    assertThat(pages).allSatisfy(p -> assertThat(p.rows()).doesNotHaveDuplicates());
    assertThat(pages.stream().mapToLong(p -> p.metrics().documentsLoaded()).sum())
        .as("documents loaded over all pages")
        .isEqualTo(n);
    assertThat(pages).hasSizeLessThanOrEqualTo(n / 2 + 1);
  }

  @Test
  void aPartialToken_isRefusedForAnotherQuery() {
    String range = bounded.routing().ranges().get(0).id();
    QueryPage first =
        pages(bounded, QueryRequest.of("SELECT VALUE COUNT(1) FROM c").withRangeId(range), 10)
            .get(0);
    assertThat(first.continuation()).isNotNull();

    assertThatThrownBy(
            () ->
                bounded.query(
                    QueryRequest.of("SELECT VALUE COUNT(1) FROM c WHERE c.n > 1")
                        .withRangeId(range)
                        .withContinuation(first.continuation())))
        .hasMessageContaining("issued for a different query");
  }

  /** Groups merged by tag as a client merges partial pages: counts and sums added. */
  private static java.util.Map<String, List<Long>> merged(List<JsonNode> rows) {
    java.util.Map<String, List<Long>> out = new java.util.TreeMap<>();
    for (JsonNode r : rows) {
      out.merge(
          r.get("tag").asText(),
          List.of(r.get("n").asLong(), r.get("s").asLong()),
          (a, b) -> List.of(a.get(0) + b.get(0), a.get(1) + b.get(1)));
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT VALUE COUNT(1) FROM c",
        "SELECT c.pk, COUNT(1) AS n FROM c GROUP BY c.pk",
        "SELECT DISTINCT VALUE c.n FROM c",
        "SELECT c.id FROM c ORDER BY c.tags[0]",
        "SELECT TOP 3 c.pk, COUNT(1) AS n FROM c GROUP BY c.pk"
      })
  void shapesThatCannotResumeFromAPosition_andWholeContainerAggregates_runTheirPageToItsEnd(
      String text) {
    // a whole-container aggregate is served whole here, where the service's gateway refuses it
    // for the SDK's plan: no client would combine partial pages of it
    List<QueryPage> cut = pages(bounded, QueryRequest.of(text), 1000);
    List<QueryPage> whole = pages(reference, QueryRequest.of(text), 1000);

    assertThat(cut).hasSameSizeAs(whole);
    assertThat(rows(cut)).isEqualTo(rows(whole)).isNotEmpty();
  }

  @Test
  void aPageTimeThatIsNotPositive_isRefused() {
    assertThatThrownBy(() -> CosmosEngine.builder().queryPageTime(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("query page time must be positive");
    assertThat(CosmosEngine.builder().build().queryPageTime()).isEqualTo(Duration.ofSeconds(5));
  }
}
