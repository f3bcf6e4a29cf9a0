package io.cosmolab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.index.IndexingPolicy;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A query page loads and pays only for what it needs: the pages of a query together load each
 * document once and are charged one pass, within the cost model's rounding, whatever the shape.
 */
class QueryPagingChargeTest {
  private static final int DOCS = 300;
  private static final int PARTITIONS = 4;
  private final ManualClock clock = ManualClock.startingAtEpoch2026();
  private final Container container = seeded();

  /** An empty container of {@code partitions} in a database of its own, throttling off. */
  private Container empty(String database, int partitions, IndexingPolicy policy) {
    return Engines.onClock(clock, ThrottlingMode.OFF)
        .createDatabase(database)
        .createContainer(
            ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                .withThroughput(Throughput.manual(100_000))
                .withPhysicalPartitions(partitions)
                .withIndexingPolicy(policy));
  }

  private Container seeded() {
    Container c =
        empty(
            "db",
            PARTITIONS,
            IndexingPolicy.DEFAULT.withCompositeIndex(
                new IndexingPolicy.CompositePath("/grp", true),
                new IndexingPolicy.CompositePath("/n", false)));
    String filler = "x".repeat(900); // about 1 KB per document
    for (int i = 0; i < DOCS; i++) {
      ObjectNode d = Json.obj("{'pk':'k" + (i % 37) + "','n':" + (i * 7 % 101) + "}");
      d.put("id", String.format(java.util.Locale.ROOT, "d%03d", i));
      d.put("grp", "g" + (i % 6));
      d.put("s", filler);
      d.putArray("tags").add("t" + (i % 3)).add("t" + (i % 5)).add("t" + (i % 7));
      c.create(d);
    }
    return c;
  }

  /** The pages of a query, drained at {@code pageSize}. */
  private List<QueryPage> pages(String text, int pageSize) {
    return pages(container, text, pageSize);
  }

  private static List<QueryPage> pages(Container c, String text, int pageSize) {
    return Engines.pages(c, QueryRequest.of(text), pageSize);
  }

  private static List<JsonNode> rows(List<QueryPage> pages) {
    List<JsonNode> out = new ArrayList<>();
    pages.forEach(p -> out.addAll(p.rows()));
    return out;
  }

  /** The charge beyond the per-partition base, which every page pays for each partition. */
  private static double beyondBase(List<QueryPage> pages) {
    double sum = 0;
    for (QueryPage p : pages) {
      sum += p.requestCharge() - 2.5 * p.metrics().partitionsTargeted();
    }
    return sum;
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT * FROM c",
        "SELECT c.id, t FROM c JOIN t IN c.tags",
        "SELECT c.id FROM c WHERE c.n = 17",
        "SELECT c.id FROM c WHERE c.n + 0 = 17",
        "SELECT VALUE c.id FROM c WHERE c.id >= 'd100'",
        "SELECT c.id FROM c ORDER BY c.id",
        "SELECT c.id, c.n FROM c ORDER BY c.n DESC",
        "SELECT c.id, c.grp, c.n FROM c ORDER BY c.grp, c.n DESC",
        "SELECT c.id, t FROM c JOIN t IN c.tags ORDER BY c.n",
        "SELECT TOP 40 c.id FROM c",
        "SELECT c.id FROM c OFFSET 20 LIMIT 50",
        "SELECT TOP 0 c.id FROM c",
        "SELECT TOP 40 c.id, t FROM c JOIN t IN c.tags",
        "SELECT c.id, t FROM c JOIN t IN c.tags WHERE t != 't0' OFFSET 7 LIMIT 100",
        "SELECT c.id FROM c ORDER BY c.id OFFSET 20 LIMIT 50",
        "SELECT c.grp, COUNT(1) AS n FROM c GROUP BY c.grp",
        "SELECT DISTINCT VALUE t FROM c JOIN t IN c.tags",
        "SELECT VALUE COUNT(1) FROM c"
      })
  void thePagesOfAQuery_loadEachDocumentOnce_andAreChargedOnePass(String text) {
    List<QueryPage> whole = pages(text, 100_000);
    assertThat(whole).hasSize(1);
    for (int pageSize : new int[] {1, 7, 64}) {
      List<QueryPage> paged = pages(text, pageSize);
      assertThat(rows(paged)).as("%s by %d", text, pageSize).isEqualTo(rows(whole));
      assertThat(paged.stream().mapToLong(p -> p.metrics().documentsLoaded()).sum())
          .as("documents loaded by %s in pages of %d", text, pageSize)
          .isEqualTo(whole.get(0).metrics().documentsLoaded());
      assertThat(paged.stream().mapToLong(p -> p.metrics().bytesLoaded()).sum())
          .isEqualTo(whole.get(0).metrics().bytesLoaded());
      // each page's charge per partition is rounded to 0.01 RU
      double rounding = 0.01 * PARTITIONS * (paged.size() + 1);
      assertThat(beyondBase(paged))
          .as("charges of %s in %d pages of %d", text, paged.size(), pageSize)
          .isCloseTo(beyondBase(whole), Offset.offset(rounding));
    }
  }

  @Test
  void anOrderByUnderAJoin_paysForEachDocumentOnce_notForEachOfItsRows() {
    QueryPage scan = pages("SELECT * FROM c", 100_000).get(0);
    for (int pageSize : new int[] {1, 7, 100_000}) {
      List<QueryPage> paged =
          pages("SELECT c.id, t FROM c JOIN t IN c.tags ORDER BY c.n", pageSize);
      assertThat(rows(paged)).hasSize(3 * DOCS); // three tags each
      assertThat(paged.stream().mapToLong(p -> p.metrics().documentsLoaded()).sum())
          .as("documents paid for in pages of %d", pageSize)
          .isEqualTo(DOCS);
      assertThat(paged.stream().mapToLong(p -> p.metrics().bytesLoaded()).sum())
          .isEqualTo(scan.metrics().bytesLoaded());
    }
  }

  @Test
  void anOrderByUnderAJoin_resumedByCount_paysForEachDocumentOnce() {
    // sort keys over 2 KB resume by a count of rows, not after a position (found by a review:
    // a document whose rows spanned two pages was paid on both)
    Container c = empty("long", 2, IndexingPolicy.DEFAULT);
    for (int i = 0; i < 6; i++) {
      ObjectNode d = Json.obj("{'pk':'k" + i + "','id':'d" + i + "'}");
      d.put("s", i + "x".repeat(3_000));
      d.putArray("tags").add("a").add("b").add("c");
      c.create(d);
    }
    QueryPage scan = pages(c, "SELECT * FROM c", 100).get(0);
    List<QueryPage> paged = pages(c, "SELECT c.id, t FROM c JOIN t IN c.tags ORDER BY c.s", 2);
    assertThat(rows(paged)).hasSize(18);
    assertThat(paged.stream().mapToLong(p -> p.metrics().documentsLoaded()).sum()).isEqualTo(6);
    assertThat(paged.stream().mapToLong(p -> p.metrics().bytesLoaded()).sum())
        .isEqualTo(scan.metrics().bytesLoaded());
  }

  @Test
  void aStreamingPage_loadsTheDocumentsOfItsRowsAndNoMore() {
    QueryPage first = container.query(QueryRequest.of("SELECT * FROM c").withMaxItemCount(10));
    assertThat(first.rows()).hasSize(10);
    assertThat(first.metrics().documentsLoaded()).isEqualTo(10);
    QueryPage second =
        container.query(
            QueryRequest.of("SELECT * FROM c")
                .withMaxItemCount(10)
                .withContinuation(first.continuation()));
    assertThat(second.metrics().documentsLoaded()).isEqualTo(10);
    // about 10 KB loaded and 10 reads of 1 KB on each page, not the container
    assertThat(second.requestCharge()).isLessThan(2.5 * PARTITIONS + 10 + 1);
  }

  @Test
  void aPageOfASelectiveFilter_paysForTheDocumentsItSkippedOnce() {
    // 3 of 300 documents match: the pages between them scan, and each scanned document is paid once
    List<QueryPage> paged = pages("SELECT c.id FROM c WHERE c.n + 0 = 17", 1); // no index serves it
    assertThat(rows(paged)).hasSize(3);
    assertThat(paged.stream().mapToLong(p -> p.metrics().documentsLoaded()).sum()).isEqualTo(DOCS);
  }

  @Test
  void aPositionPastAPartition_leavesThatPartitionOut() {
    List<QueryPage> paged = pages("SELECT * FROM c", 100);
    // 300 documents in 3 full pages, then the empty page the service's last full page leads to
    assertThat(paged).hasSize(4);
    assertThat(paged.get(3).rows()).isEmpty();
    assertThat(paged.get(3).continuation()).isNull();
    assertThat(paged.get(0).metrics().partitionsTargeted()).isEqualTo(PARTITIONS);
    assertThat(paged.get(2).metrics().partitionsTargeted()).isLessThan(PARTITIONS);
    // it reads nothing: it starts after the last document the page before read
    assertThat(paged.get(3).metrics().partitionsTargeted()).isEqualTo(1);
    assertThat(paged.get(3).metrics().documentsLoaded()).isZero();
  }
}
