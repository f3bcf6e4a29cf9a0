package io.cosmolab.advisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cosmolab.advisor.examples.Example;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each built-in scenario: the known-good key wins, and the others fail for the known reason. */
class ExamplesTest {

  private static final java.util.Map<Example, List<Advice>> RUNS =
      new java.util.EnumMap<>(Example.class);

  /** The example's advice on 20,000 documents, seed 42: run once, read by every test. */
  private static synchronized List<Advice> run(Example e) {
    return RUNS.computeIfAbsent(
        e, x -> Advisor.analyze(x.documents(20_000, 42), x.candidates(), x.options()));
  }

  private static Advice find(List<Advice> ranked, String candidate) {
    return ranked.stream().filter(a -> a.candidate().equals(candidate)).findFirst().orElseThrow();
  }

  @Test
  void ecommerce_recommendsUserId_andNamesTheHotProductAndTheClock() {
    List<Advice> r = run(Example.ECOMMERCE);
    assertThat(r.get(0).candidate()).isEqualTo("/userId");
    assertThat(r.get(0).verdict()).isEqualTo("recommended");
    assertThat(find(r, "/productId").reasons().get(0)).startsWith("hot key [\"p-bestseller\"]");
    assertThat(find(r, "/createdDate").reasons().get(0)).startsWith("time-based key");
    assertThat(find(r, "/createdDate").verdict()).isEqualTo("rejected");
    // every create of the moment goes to today's partition
    assertThat(find(r, "/createdDate").predicted429Share()).isGreaterThan(0.1);
    assertThat(find(r, "/productId").reasons())
        .anyMatch(x -> x.startsWith("cross-partition reads: order history (500/s) visit all 5"));
    assertThat(r.get(0).routing().singlePartitionReadShare()).isEqualTo(1.0);
  }

  @Test
  void ecommerce_offersAnIndexOrAViewForTheFannedOutQuery_withTheirCosts() {
    List<Advice> r = run(Example.ECOMMERCE);
    Advice product = find(r, "/productId");
    int partitions = product.layout().physicalPartitions();
    assertThat(product.routing().alternatives()).hasSize(1);
    Advice.Alternative a = product.routing().alternatives().get(0);
    assertThat(a.operation()).isEqualTo("order history");
    assertThat(a.key()).containsExactly("/userId"); // what its filter fixes
    assertThat(a.fanOutRuPerSecond()).isEqualTo(500 * 2.5 * (partitions - 1));
    // the index pays the container's writes (1,500 creates/s); the view also reads the feed
    assertThat(a.globalSecondaryIndexRuPerSecond()).isGreaterThan(1500 * 5.0);
    assertThat(a.materializedViewRuPerSecond()) // a feed read costs at least 1 RU
        .isGreaterThanOrEqualTo(a.globalSecondaryIndexRuPerSecond() + 1500);
    assertThat(product.reasons())
        .anyMatch(x -> x.startsWith("instead of the fan-out of order history (500/s"));
    // under /userId the query is single-partition: nothing to offer
    assertThat(find(r, "/userId").routing().alternatives()).isEmpty();
  }

  @Test
  void saas_prefersTheHierarchicalKey_andRejectsTenantIdPastTwentyGigabytes() {
    List<Advice> r = run(Example.SAAS);
    Advice hierarchical = find(r, "/tenantId > /userId > /sessionId");
    Advice tenant = find(r, "/tenantId");
    assertThat(hierarchical.verdict()).isEqualTo("recommended");
    assertThat(r.indexOf(hierarchical)).isLessThan(r.indexOf(tenant));
    assertThat(tenant.verdict()).isEqualTo("rejected");
    // the synthetic key cannot serve a query by tenant alone; the hierarchical prefix can
    assertThat(find(r, "/tenantId+/userId").reasons())
        .anyMatch(x -> x.startsWith("cross-partition reads: tenant dashboard (500/s)"));
    assertThat(hierarchical.routing().targetedReadShare()).isGreaterThan(0);
    assertThat(hierarchical.routing().fanOutReadShare()).isZero();
    assertThat(tenant.reasons().get(0))
        .contains("logical partition [\"tenant-0\"]")
        .contains("past the 20 GB limit");
  }

  @Test
  void iot_spreadsTheChattyDeviceByDay() {
    List<Advice> r = run(Example.IOT);
    assertThat(r.get(0).candidate()).isEqualTo("/deviceId+/day");
    assertThat(r.get(0).verdict()).isEqualTo("recommended");
    Advice device = find(r, "/deviceId");
    assertThat(device.verdict()).isEqualTo("rejected");
    assertThat(device.reasons().get(0))
        .contains("[\"dev-chatty\"]")
        .contains("past the 20 GB limit");
  }

  @Test
  void game_spreadsTheHotServerWithBuckets_atAReadMultiplier() {
    List<Advice> r = run(Example.GAME);
    assertThat(r.get(0).candidate()).isEqualTo("/serverId+bucket(20)");
    assertThat(r.get(0).reasons()).anyMatch(x -> x.contains("read multiplier ×20"));
    Advice server = find(r, "/serverId");
    // at 6,000 upserts/s the hot server alone needs more than a physical partition serves
    assertThat(server.reasons().get(0))
        .startsWith("no throughput avoids 429: [\"eu-1\"] alone needs");
    assertThat(server.reasons()).anyMatch(x -> x.startsWith("hot key [\"eu-1\"]"));
    assertThat(server.peak().minimumRuPerSecond()).isNull();
    assertThat(r.get(0).routing().fanOutRuPerSecond()).isCloseTo(300 * 2.5 * 9, within(1e-6));
  }

  @Test
  void discovery_proposesTheFixesForAHotKey() {
    List<String> found =
        Advisor.analyze(Example.IOT.documents(5000, 1), null, Example.IOT.options()).stream()
            .map(Advice::candidate)
            .toList();
    assertThat(found).contains("/deviceId", "/deviceId+bucket(10)", "/deviceId+/day");
  }

  @Test
  void predicted429Shares_areNeverNegative_soNoReportShowsMinusZero() {
    // the CLI's `advise --example saas` (100,000 documents, seed 42) printed -0% for
    // /tenantId+/userId
    for (Advice a :
        Advisor.analyze(
            Example.SAAS.documents(100_000, 42),
            Example.SAAS.candidates(),
            Example.SAAS.options())) {
      assertThat(a.predicted429Share()).as("%s", a.candidate()).isGreaterThanOrEqualTo(0);
    }
  }

  @Test
  void aKeyUniqueToEachDocument_stillHasALargestLogicalPartition_notZeroBytes() {
    // every /tenantId>/userId>/sessionId is one document: none reaches the bytes sketch
    Advice hierarchical =
        run(Example.SAAS).stream()
            .filter(a -> a.candidate().toString().contains("sessionId"))
            .findFirst()
            .orElseThrow();
    assertThat(hierarchical.largestLogicalPartitionBytes()).isPositive();
  }
}
