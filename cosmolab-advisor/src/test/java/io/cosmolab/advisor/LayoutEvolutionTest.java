package io.cosmolab.advisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.stats.EpkBuckets;
import io.cosmolab.advisor.workload.Operation;
import io.cosmolab.engine.throughput.Throughput;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The advisor judges a key on the layout the service would reach by the horizon: storage splits at
 * the median of the stored bytes, which under a hierarchical key can fall inside one tenant (issue
 * 18 item 8). The whale-tenant case: 5,000 orders, one tenant with 40 % of them.
 */
class LayoutEvolutionTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Candidate HIERARCHICAL = Candidate.hierarchical("/tenantId", "/userId");

  /** Orders of 300 tenants of up to 20 users, and acme with 40 % of the orders over 800 users. */
  static List<ObjectNode> orders() {
    Random random = new Random(7);
    List<ObjectNode> out = new ArrayList<>();
    String note = "x".repeat(600);
    for (int i = 0; i < 5000; i++) {
      String t;
      String u;
      if (random.nextDouble() < 0.4) {
        t = "acme";
        u = "acme-u" + random.nextInt(800);
      } else {
        t = "t" + random.nextInt(300);
        u = t + "-u" + random.nextInt(20);
      }
      out.add(
          JSON.createObjectNode()
              .put("id", "o" + i)
              .put("tenantId", t)
              .put("userId", u)
              .put("total", random.nextInt(1000))
              .put("note", note));
    }
    return out;
  }

  private static final List<Operation> PEAK =
      List.of(
          new Operation(Operation.Type.CREATE, 3000),
          new Operation(Operation.Type.READ, 20_000),
          Operation.query(
              "user orders",
              "SELECT * FROM c WHERE c.tenantId = @t AND c.userId = @u",
              1000,
              java.util.Map.of()));

  private static Advice advise(Candidate c, long documents) {
    return Advisor.analyze(
            orders().iterator(),
            List.of(c),
            new AdvisorOptions(Throughput.manual(60_000), documents, PEAK))
        .get(0);
  }

  @Test
  void aWhaleTenant_spansPhysicalPartitions_onceItsDataFillsThem_andTheKeyIsServable() {
    // 400 M orders: acme holds ~99 GB, so storage splits cut inside it, several times
    Advice a = advise(HIERARCHICAL, 400_000_000L);
    assertThat(a.peak().minimumRuPerSecond()).isNotNull(); // some throughput serves the peak
    assertThat(a.verdict()).isNotEqualTo("rejected");
    assertThat(a.reasons()).noneMatch(r -> r.startsWith("no throughput avoids 429"));
    // uneven in hash space but even in data: median splits, more partitions than 60,000 RU/s make
    assertThat(a.layout().physicalPartitions()).isGreaterThan(10);
    // the busiest partition needs far less than the whole tenant's ~20,000 RU/s
    assertThat(a.peak().busiestRuPerSecond()).isLessThan(10_000);
  }

  @Test
  void aWhaleTenantTooSmallToSplit_isNamedInNumbersThatAgree() {
    // 100 M orders: acme holds ~25 GB, under one partition's 50 GB: no storage split reaches it
    Advice a = advise(HIERARCHICAL, 100_000_000L);
    assertThat(a.peak().minimumRuPerSecond()).isNull();
    String reason =
        a.reasons().stream()
            .filter(r -> r.startsWith("no throughput avoids 429"))
            .findFirst()
            .orElseThrow();
    assertThat(reason)
        .contains("the prefix [\"acme\"] holds 24.")
        .contains("over 1 physical partition at most")
        .doesNotContain("alone needs"); // not a logical partition's failure: a prefix's
    // the quoted busiest partition is the whole prefix's demand, above the 10,000 one serves
    double quoted =
        Double.parseDouble(reason.replaceAll(".*busiest still needs ~(\\d+) RU/s.*", "$1"));
    assertThat(quoted).isGreaterThan(10_000);
    assertThat(a.verdict()).isNotEqualTo("rejected"); // the prefix is fixable, unlike a key
  }

  @Test
  void aSingleKey_neverSpansPartitions_howeverLargeItGrows() {
    Advice a = advise(Candidate.single("/tenantId"), 400_000_000L);
    assertThat(a.verdict()).isEqualTo("rejected");
    assertThat(a.peak().minimumRuPerSecond()).isNull();
  }

  @Test
  void fractionalBounds_giveEachRangeItsShareOfACutBucket() {
    double[] perBucket = new double[EpkBuckets.COUNT];
    perBucket[10] = 100;
    perBucket[11] = 50;
    double[] sums = EpkBuckets.sum(perBucket, new double[] {0, 10.25, 11.5, EpkBuckets.COUNT});
    assertThat(sums[0]).isCloseTo(25, within(1e-9));
    assertThat(sums[1]).isCloseTo(75 + 25, within(1e-9));
    assertThat(sums[2]).isCloseTo(25, within(1e-9));
  }

  @Test
  void theBucketOfAnEpk_isTheBucketOfItsLeadingBits_soLayoutBoundsMeetTheSampledBuckets() {
    io.cosmolab.advisor.stats.CandidateStats stats =
        new io.cosmolab.advisor.stats.CandidateStats(HIERARCHICAL);
    for (ObjectNode d : orders().subList(0, 500)) {
      Candidate.Key key = stats.keyOf(d);
      String epk =
          io.cosmolab.engine.partitioning.EffectivePartitionKey.of(
              HIERARCHICAL.definition(), key.value());
      assertThat(EpkBuckets.of(epk)).isEqualTo(stats.bucketOf(key));
    }
  }
}
