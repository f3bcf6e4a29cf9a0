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
import io.cosmolab.engine.throughput.Throughput;
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
    Container c =
        CosmosEngine.builder()
            .clock(clock)
            .throttling(ThrottlingMode.OFF)
            .queryPageTime(pageTime)
            .build()
            .createDatabase("db")
            .createContainer(
                ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                    .withThroughput(Throughput.manual(10_000))
                    .withPhysicalPartitions(3));
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

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT VALUE COUNT(1) FROM c",
        "SELECT c.pk, COUNT(1) AS n FROM c GROUP BY c.pk",
        "SELECT DISTINCT VALUE c.n FROM c",
        "SELECT c.id FROM c ORDER BY c.tags[0]"
      })
  void shapesThatCannotResumeFromAPosition_runTheirPageToItsEnd(String text) {
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
