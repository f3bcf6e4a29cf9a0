package io.cosmolab.engine;

import static io.cosmolab.engine.ContainerDocumentsTest.assertCosmosError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A query whose rows come in document order but for its TOP or OFFSET ... LIMIT (no ORDER BY,
 * DISTINCT, GROUP BY or aggregate) pages by position, as a query without them does ({@link
 * Resume}): each page reads on from the last document the one before it read, counting the bounds
 * on, so OFFSET's rows are read once, a write between pages shifts no row, and a page may end at
 * the page time. The oracle is the same query without its bounds, whose rows in scan order the
 * bounds cut.
 */
class BoundedStreamTest {
  private static final int DOCS = 24;
  private final ManualClock clock = ManualClock.startingAtEpoch2026();
  private final Container c = seeded(Engines.container(clock, 3));

  private static Container seeded(Container c) {
    for (int i = 0; i < DOCS; i++) {
      c.create(
          Json.obj(
              "{'id':'d"
                  + i
                  + "','pk':'k"
                  + (i % 5)
                  + "','n':"
                  + (i % 7)
                  + ",'tags':['a','b','c']}")); // a JOIN makes three rows of each document
    }
    return c;
  }

  /** The rows of {@code unbounded} in one page, from {@code skip}, at most {@code take}. */
  private static List<JsonNode> cut(Container c, String unbounded, int skip, int take) {
    List<JsonNode> all = c.query(QueryRequest.of(unbounded).withMaxItemCount(10_000)).rows();
    return all.subList(Math.min(skip, all.size()), Math.min(all.size(), skip + take));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "SELECT TOP 11 c.id FROM c | SELECT c.id FROM c | 0 | 11",
        "SELECT VALUE c.id FROM c OFFSET 5 LIMIT 13 | SELECT VALUE c.id FROM c | 5 | 13",
        "SELECT c.id, t FROM c JOIN t IN c.tags OFFSET 4 LIMIT 20"
            + " | SELECT c.id, t FROM c JOIN t IN c.tags | 4 | 20",
        "SELECT TOP 7 c.id, t FROM c JOIN t IN c.tags WHERE t != 'b'"
            + " | SELECT c.id, t FROM c JOIN t IN c.tags WHERE t != 'b' | 0 | 7",
        "SELECT TOP 100 c.id FROM c WHERE c.n = 3 | SELECT c.id FROM c WHERE c.n = 3 | 0 | 100",
        "SELECT c.id FROM c OFFSET 30 LIMIT 5 | SELECT c.id FROM c | 30 | 5",
        "SELECT TOP 0 c.id FROM c | SELECT c.id FROM c | 0 | 0",
        "SELECT * FROM c OFFSET 23 LIMIT 1 | SELECT * FROM c | 23 | 1"
      })
  void thePagesOfATopOrOffsetQuery_areTheBoundsCutOfItsUnboundedRows_atEveryPageSize(
      String text, String unbounded, int skip, int take) {
    List<JsonNode> expected = cut(c, unbounded, skip, take);
    for (int pageSize : new int[] {1, 2, 3, 7, 1000}) {
      List<QueryPage> pages = Engines.pages(c, QueryRequest.of(text), pageSize);
      assertThat(rows(pages)).as("%s in pages of %d", text, pageSize).isEqualTo(expected);
      // the last page ends without a continuation once TOP or LIMIT is reached: no empty page
      // after; short of the bound, a full last page leads to an empty one, as on the service
      int full = (expected.size() + pageSize - 1) / pageSize;
      boolean emptyLast = expected.size() < take && expected.size() % pageSize == 0;
      assertThat(pages.size())
          .as("pages of %d", pageSize)
          .isEqualTo(Math.max(1, full) + (emptyLast && !expected.isEmpty() ? 1 : 0));
    }
  }

  /**
   * A full page has a continuation even when nothing follows, as on the service (its backend stops
   * at the item count), so the page after the last full one is empty; not when the page took the
   * last row a TOP or LIMIT allows, in document order or in an ORDER BY's.
   */
  @Test
  void aFullLastPage_leadsToAnEmptyPage_unlessItsTopOrLimitIsReached() {
    // 24 documents in pages of 6 and 8: 4 and 3 full pages, then an empty one
    for (String q : List.of("SELECT c.id FROM c", "SELECT c.id FROM c ORDER BY c.id")) {
      for (int size : new int[] {6, 8}) {
        List<QueryPage> pages = Engines.pages(c, QueryRequest.of(q), size);
        assertThat(pages).as("%s in pages of %d", q, size).hasSize(DOCS / size + 1);
        assertThat(pages.get(pages.size() - 1).rows()).isEmpty();
        assertThat(pages.get(pages.size() - 1).metrics().documentsLoaded()).isZero();
        assertThat(rows(pages)).hasSize(DOCS);
      }
    }
    for (String q :
        List.of(
            "SELECT TOP 12 c.id FROM c",
            "SELECT TOP 12 c.id FROM c ORDER BY c.id",
            "SELECT c.id FROM c ORDER BY c.id OFFSET 3 LIMIT 12")) {
      List<QueryPage> pages = Engines.pages(c, QueryRequest.of(q), 6);
      assertThat(pages).as(q).hasSize(2);
      assertThat(pages.get(1).continuation()).as(q).isNull();
    }
  }

  @Test
  void theBoundsMayBeParameters() {
    QueryRequest q =
        QueryRequest.of("SELECT VALUE c.id FROM c OFFSET @o LIMIT @l")
            .withParameters(Map.of("@o", IntNode.valueOf(3), "@l", IntNode.valueOf(9)));
    assertThat(Engines.drainQuery(c, q, 2)).isEqualTo(cut(c, "SELECT VALUE c.id FROM c", 3, 9));
  }

  @Test
  void aBoundThatIsNotAWholeNumber_isA400NamingIt_beforeAnyRowIsRead() {
    QueryRequest q =
        QueryRequest.of("SELECT TOP @n c.id FROM c")
            .withParameters(Map.of("@n", IntNode.valueOf(-1)));
    assertCosmosError(() -> c.query(q), CosmosError.BAD_REQUEST, "TOP");
  }

  @Test
  void aDocumentWrittenBeforeThePosition_betweenPages_shiftsNoRow() {
    String text = "SELECT VALUE c.id FROM c OFFSET 2 LIMIT 15";
    List<JsonNode> before = cut(c, "SELECT VALUE c.id FROM c", 2, 15);
    QueryPage first = c.query(QueryRequest.of(text).withMaxItemCount(6));
    String lastId = first.rows().get(first.rows().size() - 1).textValue();
    JsonNode last =
        c.query(QueryRequest.of("SELECT * FROM c WHERE c.id = '" + lastId + "'")).rows().get(0);
    // the same key, an id that sorts first: a page counted by offset would hand out a row again
    c.create(Json.obj("{'id':'a-early','pk':'" + last.get("pk").textValue() + "'}"));

    List<JsonNode> rows = new ArrayList<>(first.rows());
    rows.addAll(
        Engines.drainQuery(c, QueryRequest.of(text).withContinuation(first.continuation()), 6));

    assertThat(rows).isEqualTo(before).doesNotHaveDuplicates();
  }

  @Test
  void pagesOutOfTime_endAfterEachDocument_andReadOffsetsRowsOnce() {
    Container bounded = withPageTime(Duration.ofNanos(1));
    String text = "SELECT c.id FROM c OFFSET 10 LIMIT 5";

    List<QueryPage> cut = Engines.pages(bounded, QueryRequest.of(text), 1000);

    assertThat(rows(cut)).isEqualTo(cut(c, "SELECT c.id FROM c", 10, 5));
    assertThat(cut.size()).isGreaterThanOrEqualTo(15); // a page per document read, at least
    // the skipped rows' documents are read by the pages that skip them, once
    assertThat(cut.stream().mapToLong(p -> p.metrics().documentsLoaded()).sum()).isEqualTo(15);
  }

  @Test
  void aTopTokenOnASplitsChildren_eachCountsOn_soTogetherTheyHoldTheParentsNextRows() {
    Container one = seeded(Engines.container(clock, 1));
    String text = "SELECT TOP 10 c.id FROM c";
    PartitionKeyRange parent = one.routing().ranges().get(0);
    List<JsonNode> expected = cut(one, "SELECT c.id FROM c", 0, 10);
    QueryPage first = one.query(QueryRequest.of(text).withRangeId(parent.id()).withMaxItemCount(4));
    assertThat(first.rows()).isEqualTo(expected.subList(0, 4));

    one.splitPartition(parent.id());
    // the SDKs send the parent's token to each child, and TOP the merged rows in range order
    Set<JsonNode> merged = new LinkedHashSet<>(first.rows());
    for (PartitionKeyRange child : one.routing().ranges()) {
      List<JsonNode> rest =
          Engines.drainQuery(
              one,
              QueryRequest.of(text).withRangeId(child.id()).withContinuation(first.continuation()),
              3);
      assertThat(rest).as("child %s", child.id()).hasSizeLessThanOrEqualTo(6);
      assertThat(rest).doesNotContainAnyElementsOf(first.rows());
      merged.addAll(rest);
    }
    assertThat(new ArrayList<>(merged).subList(0, 10)).isEqualTo(expected);
  }

  private Container withPageTime(Duration pageTime) {
    return withPageTime(pageTime, 3);
  }

  private Container withPageTime(Duration pageTime, int partitions) {
    return seeded(Engines.withPageTime(clock, pageTime, partitions));
  }

  private static long loaded(List<QueryPage> pages) {
    return pages.stream().mapToLong(p -> p.metrics().documentsLoaded()).sum();
  }

  @Test
  void aTopZero_readsNoDocument_evenWhenPagesMayEndAtOnce() {
    for (Container on : List.of(c, withPageTime(Duration.ofNanos(1)))) {
      List<QueryPage> pages =
          Engines.pages(on, QueryRequest.of("SELECT TOP 0 c.id FROM c WHERE c.n + 0 = 99"), 10);
      assertThat(pages).singleElement().satisfies(p -> assertThat(p.continuation()).isNull());
      assertThat(loaded(pages)).isZero();
    }
  }

  @Test
  void anOffsetWithLimitZero_readsNothing() {
    List<QueryPage> pages =
        Engines.pages(c, QueryRequest.of("SELECT c.id FROM c OFFSET 3 LIMIT 0"), 10);
    assertThat(pages).singleElement().satisfies(p -> assertThat(p.rows()).isEmpty());
    assertThat(pages.get(0).continuation()).isNull();
    assertThat(loaded(pages)).isZero();
  }

  @Test
  void pagesOutOfTime_underAJoin_giveTheCutOnce_andReadEachDocumentOnce() {
    Container bounded = withPageTime(Duration.ofNanos(1));
    String text = "SELECT c.id, t FROM c JOIN t IN c.tags OFFSET 4 LIMIT 7"; // three rows each

    List<QueryPage> pages = Engines.pages(bounded, QueryRequest.of(text), 1000);

    assertThat(rows(pages)).isEqualTo(cut(c, "SELECT c.id, t FROM c JOIN t IN c.tags", 4, 7));
    assertThat(loaded(pages)).isEqualTo(4); // rows 0-10 are in documents 0-3
    assertThat(pages.get(pages.size() - 1).continuation()).isNull();
  }

  @Test
  void pagesCutAtFourMegabytes_countOn_withinADocumentsRowsToo() {
    Container big = Engines.container(clock, 1);
    for (int i = 0; i < 5; i++) {
      big.create(
          Json.obj(
              "{'id':'big"
                  + i
                  + "','pk':'k','tags':['a','b'],'s':'"
                  + "x".repeat(1_500_000)
                  + "'}"));
    }
    List<QueryPage> top = Engines.pages(big, QueryRequest.of("SELECT TOP 4 * FROM c"), 100);
    assertThat(top).extracting(p -> p.rows().size()).containsExactly(2, 2);
    assertThat(top.get(1).continuation()).isNull();
    assertThat(loaded(top)).isEqualTo(4);

    // the page fills within a document's two rows: the next one starts at its second
    String join = "SELECT c.id, c.s, t FROM c JOIN t IN c.tags OFFSET 1 LIMIT 5";
    List<QueryPage> joined = Engines.pages(big, QueryRequest.of(join), 100);
    assertThat(rows(joined))
        .extracting(r -> r.get("id").textValue() + "/" + r.get("t").textValue())
        .containsExactly("big0/b", "big1/a", "big1/b", "big2/a", "big2/b");
    assertThat(joined).hasSizeGreaterThan(1);
  }

  @Test
  void aTokenOfAPageStillSkippingOffsetsRows_onASplitsChild_isA400_notRowsLost() {
    Container one = withPageTime(Duration.ofNanos(1), 1);
    PartitionKeyRange parent = one.routing().ranges().get(0);
    String text = "SELECT c.id FROM c OFFSET 10 LIMIT 5";
    QueryPage first = one.query(QueryRequest.of(text).withRangeId(parent.id()));
    assertThat(first.rows()).isEmpty(); // out of time after one document, still skipping
    // on its own scope it resumes
    assertThat(
            one.query(
                QueryRequest.of(text)
                    .withRangeId(parent.id())
                    .withContinuation(first.continuation())))
        .isNotNull();

    one.splitPartition(parent.id());
    assertThat(one.routing().ranges()).hasSize(2);
    for (PartitionKeyRange child : one.routing().ranges()) {
      assertCosmosError(
          () ->
              one.query(
                  QueryRequest.of(text)
                      .withRangeId(child.id())
                      .withContinuation(first.continuation())),
          CosmosError.BAD_REQUEST,
          "OFFSET",
          "run the query again");
    }
  }

  @Test
  void anOffsetTokenFromAServerBeforeThisPaging_stillResumesByCount() {
    String text = "SELECT VALUE c.id FROM c OFFSET 2 LIMIT 9";
    QueryRequest request = QueryRequest.of(text);
    String v1 =
        Resume.afterRows(
            request,
            c.rid(),
            io.cosmolab.query.CompiledQuery.compile(text, Map.of()).ast(),
            4); // four rows returned by the page before
    List<JsonNode> rest = Engines.drainQuery(c, request.withContinuation(v1), 3);
    assertThat(rest).isEqualTo(cut(c, "SELECT VALUE c.id FROM c", 6, 5));
  }

  @Test
  void aCountInTheTokenOfAQueryWithoutBounds_isA400() {
    QueryRequest q = QueryRequest.of("SELECT c.id FROM c");
    String token = c.query(q.withMaxItemCount(2)).continuation();
    String raw =
        new String(
            java.util.Base64.getUrlDecoder().decode(token),
            java.nio.charset.StandardCharsets.UTF_8);
    String[] f = raw.split(":", 5);
    String forged = f[0] + ":" + f[1] + ":" + f[2] + ".9:" + f[3] + ":" + f[4];
    String encoded =
        java.util.Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(forged.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertCosmosError(
        () -> c.query(q.withMaxItemCount(2).withContinuation(encoded)),
        CosmosError.BAD_REQUEST,
        "Invalid Continuation Token");
  }

  private static List<JsonNode> rows(List<QueryPage> pages) {
    List<JsonNode> out = new ArrayList<>();
    pages.forEach(p -> out.addAll(p.rows()));
    return out;
  }
}
