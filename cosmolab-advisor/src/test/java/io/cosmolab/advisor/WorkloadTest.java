package io.cosmolab.advisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.stats.EpkBuckets;
import io.cosmolab.advisor.workload.Access;
import io.cosmolab.advisor.workload.ContainerWorkload;
import io.cosmolab.advisor.workload.Operation;
import io.cosmolab.advisor.workload.Workload;
import io.cosmolab.engine.cost.CostModel;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.throughput.Throughput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Orders of 2,000 users in 40 regions, dated in arrival order, 10 per day. */
  static List<ObjectNode> orders(int n, long seed) {
    Random r = new Random(seed);
    List<ObjectNode> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ObjectNode d = JSON.createObjectNode();
      d.put("id", "o" + i);
      d.put("userId", "u" + r.nextInt(2000));
      d.put("region", "r" + r.nextInt(40));
      d.put("status", r.nextBoolean() ? "open" : "shipped");
      d.put("createdDate", String.format(Locale.ROOT, "2026-%05d", i / 10));
      out.add(d);
    }
    return out;
  }

  private static Advice only(
      List<ObjectNode> docs, Candidate c, Throughput t, List<Operation> ops) {
    return Advisor.analyze(docs.iterator(), List.of(c), new AdvisorOptions(t, 0, ops)).get(0);
  }

  private static Advice named(List<Advice> ranked, String name) {
    return ranked.stream().filter(a -> a.candidate().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void peakWorkload_predicts429sOnTheHotTenant_andTheThroughputItWouldNeed() {
    List<Operation> peak =
        List.of(
            new Operation(Operation.Type.CREATE, 3000), new Operation(Operation.Type.READ, 10_000));
    List<Advice> ranked =
        Advisor.analyze(
            AdvisorTest.sessions(20_000, 0.2, 21).iterator(),
            List.of(Candidate.single("/tenantId"), Candidate.single("/id")),
            new AdvisorOptions(Throughput.manual(40_000), 0, peak));
    Advice id = named(ranked, "/id");
    Advice tenant = named(ranked, "/tenantId");
    assertThat(id.predicted429Share()).isZero();
    assertThat(id.peak().minimumRuPerSecond()).isLessThanOrEqualTo(40_000);
    assertThat(tenant.predicted429Share()).isGreaterThan(0.05);
    assertThat(tenant.peak().minimumRuPerSecond())
        .isGreaterThan(1.5 * id.peak().minimumRuPerSecond());
    assertThat(tenant.peak().budgetRuPerSecond()).isCloseTo(40_000 / 7.0, within(1.0));
    assertThat(tenant.reasons()).anyMatch(r -> r.contains("would get 429"));
  }

  @Test
  void queryThatFixesTheKey_isSinglePartition_andOtherKeysFanOutAt2_5RuPerPartition() {
    Operation byUser =
        Operation.query("orders of a user", "SELECT * FROM c WHERE c.userId = @u", 1000, Map.of());
    List<ObjectNode> docs = orders(5000, 1);
    Throughput t = Throughput.manual(30_000); // 5 partitions
    Advice user = only(docs, Candidate.single("/userId"), t, List.of(byUser));
    Advice region = only(docs, Candidate.single("/region"), t, List.of(byUser));
    assertThat(user.routing().singlePartitionReadShare()).isEqualTo(1.0);
    assertThat(user.routing().fanOutRuPerSecond()).isZero();
    assertThat(region.routing().fanOutReadShare()).isEqualTo(1.0);
    assertThat(region.routing().fanOutRuPerSecond()).isCloseTo(1000 * 2.5 * 4, within(1e-6));
    assertThat(region.reasons())
        .anyMatch(r -> r.contains("cross-partition reads: orders of a user (1000/s) visit all 5"));
    // every partition pays the per-partition charge of every fanned-out request
    assertThat(region.peak().ruPerSecondByPartition()).allMatch(ru -> ru >= 1000 * 2.5);
  }

  @Test
  void hierarchicalPrefixesAndInLists_areTargeted_andBucketedKeysVisitEveryBucket() {
    List<ObjectNode> docs = orders(5000, 2);
    Throughput t = Throughput.manual(30_000);
    Operation byRegion =
        Operation.query("by region", "SELECT * FROM c WHERE c.region = @r", 100, Map.of());
    Operation twoUsers =
        Operation.query(
            "two users", "SELECT * FROM c WHERE c.userId IN ('u1', 'u2')", 100, Map.of());
    Advice prefix = only(docs, Candidate.hierarchical("/region", "/userId"), t, List.of(byRegion));
    assertThat(prefix.routing().targetedReadShare()).isEqualTo(1.0);
    Advice in = only(docs, Candidate.single("/userId"), t, List.of(twoUsers));
    assertThat(in.routing().targetedReadShare()).isEqualTo(1.0);
    assertThat(in.routing().fanOutRuPerSecond()).isCloseTo(100 * 2.5, within(1e-6));
    Operation byUser =
        Operation.query("by user", "SELECT * FROM c WHERE c.userId = @u", 100, Map.of());
    Advice bucketed = only(docs, Candidate.bucketed("/userId", 8), t, List.of(byUser));
    assertThat(bucketed.routing().readMultiplier()).isEqualTo(8);
    assertThat(bucketed.routing().fanOutRuPerSecond()).isCloseTo(100 * 2.5 * 4, within(1e-6));
  }

  @Test
  void zipfAccess_matchesExactComputation_whenTheSampleHoldsEveryDocument() {
    List<ObjectNode> docs = orders(4000, 3); // fewer than the reservoir: the model is exact
    double s = 1.3;
    Operation reads =
        new Operation(
            null,
            Operation.Type.READ,
            10_000,
            new Access("/userId", Access.Distribution.ZIPF, s, null, null, null, null),
            null,
            null,
            null,
            null,
            null);
    Candidate user = Candidate.single("/userId");
    Advice a = only(docs, user, Throughput.manual(24_000), List.of(reads));

    // the oracle: rank users by documents (ties by name), weigh rank r by r^-s, place by EPK
    Map<String, Integer> counts = new HashMap<>();
    docs.forEach(d -> counts.merge(d.get("userId").asText(), 1, Integer::sum));
    List<String> ranked = new ArrayList<>(counts.keySet());
    ranked.sort(
        java.util.Comparator.comparing((String v) -> counts.get(v))
            .reversed()
            .thenComparing(java.util.Comparator.naturalOrder()));
    double h = 0;
    for (int r = 1; r <= ranked.size(); r++) {
      h += Math.pow(r, -s);
    }
    int[] bounds = new int[5]; // 4 even partitions: 1,024 buckets each
    for (int p = 0; p <= 4; p++) {
      bounds[p] = p * EpkBuckets.COUNT / 4;
    }
    double[] share = new double[4];
    for (int r = 0; r < ranked.size(); r++) {
      int b =
          EpkBuckets.of(
              EffectivePartitionKey.of(user.definition(), PartitionKeyValue.of(ranked.get(r))));
      for (int p = 0; p < 4; p++) {
        if (b >= bounds[p] && b < bounds[p + 1]) {
          share[p] += Math.pow(r + 1, -s) / h;
        }
      }
    }
    double unit = CostModel.PUBLISHED.pointRead(100, false);
    for (int p = 0; p < 4; p++) {
      assertThat(a.peak().ruPerSecondByPartition().get(p))
          .isCloseTo(10_000 * unit * share[p], within(0.5));
    }
    assertThat(a.topByRu().get(0).key()).isEqualTo("[\"" + ranked.get(0) + "\"]");
    // Zipf requests over evenly stored users: RU is far more concentrated than storage
    assertThat(a.peak().gini()).isGreaterThan(a.storage().gini() + 0.3);
    assertThat(a.peak().lorenz()).hasSize(21).last().extracting(Advice.Point::share).isEqualTo(1.0);
  }

  @Test
  void aLiteralKeyInTheFilter_sendsEveryRequestToOnePartition() {
    List<ObjectNode> docs = orders(5000, 4);
    Operation open =
        Operation.query("open orders", "SELECT * FROM c WHERE c.status = 'open'", 2000, Map.of());
    Advice status =
        only(docs, Candidate.single("/status"), Throughput.manual(30_000), List.of(open));
    long busy = status.peak().ruPerSecondByPartition().stream().filter(ru -> ru > 0).count();
    assertThat(busy).isEqualTo(1);
    assertThat(status.topByRu().get(0).key()).isEqualTo("[\"open\"]");
    assertThat(status.topByRu().get(0).share()).isCloseTo(1.0, within(1e-9));
  }

  @Test
  void writesWithoutTheKey_updatesThatChangeIt_andPointReadsWithoutIt_areNamed() {
    List<ObjectNode> docs = orders(3000, 5);
    List<Operation> ops =
        List.of(
            new Operation(
                "checkout",
                Operation.Type.CREATE,
                50,
                null,
                List.of("/id", "/userId"),
                null,
                null,
                null,
                null),
            new Operation(
                "ship", Operation.Type.PATCH, 80, null, null, List.of("/status"), null, null, null),
            new Operation(
                "track", Operation.Type.READ, 300, null, List.of("/id"), null, null, null, null));
    Throughput t = Throughput.manual(12_000);
    Advice region = only(docs, Candidate.single("/region"), t, ops);
    assertThat(region.routing().keylessWritesPerSecond()).isEqualTo(50);
    assertThat(region.reasons())
        .anyMatch(r -> r.startsWith("writes that cannot supply the key: checkout (50/s)"));
    Advice status = only(docs, Candidate.single("/status"), t, ops);
    assertThat(status.routing().keyChangingUpdatesPerSecond()).isEqualTo(80);
    assertThat(status.reasons()).anyMatch(r -> r.contains("ship (80/s) change /status"));
    assertThat(status.routing().fanOutReadShare()).isEqualTo(1.0); // track lacks the key
    assertThat(status.reasons()).anyMatch(r -> r.contains("track (300/s) must first query all 2"));
    Advice id = only(docs, Candidate.single("/id"), t, ops);
    assertThat(id.routing().keylessWritesPerSecond()).isZero();
    assertThat(id.routing().keyChangingUpdatesPerSecond()).isZero();
    assertThat(id.routing().singlePartitionReadShare()).isEqualTo(1.0);
  }

  @Test
  void growthToTheHorizon_projectsTheLargestLogicalPartition() {
    List<ObjectNode> docs = AdvisorTest.sessions(10_000, 0.3, 6);
    AdvisorOptions grows =
        new AdvisorOptions(
            Throughput.manual(10_000), false, 100_000_000, 1_000_000, 365, List.of());
    Advice a =
        Advisor.analyze(docs.iterator(), List.of(Candidate.single("/tenantId")), grows).get(0);
    assertThat(a.storage().documentsNow()).isEqualTo(100_000_000);
    assertThat(a.storage().documentsAtHorizon()).isEqualTo(465_000_000);
    assertThat((double) a.storage().largestLogicalPartitionAtHorizonBytes())
        .isCloseTo(a.storage().largestLogicalPartitionNowBytes() * 4.65, within(10.0));
    assertThat(a.storage().largestLogicalPartitionNowBytes()).isLessThan(20L << 30);
    assertThat(a.largestLogicalPartitionBytes()).isGreaterThan(20L << 30);
    assertThat(a.reasons().get(0)).contains("at the horizon, past the 20 GB limit");
  }

  @Test
  void findTheMinimum_givesTheLeastThroughputWithout429s() {
    List<ObjectNode> docs = AdvisorTest.sessions(20_000, 0.15, 7);
    List<Operation> peak = List.of(new Operation(Operation.Type.READ, 30_000));
    AdvisorOptions minimum = new AdvisorOptions(Throughput.manual(400), true, 0, 0, 0, peak);
    List<Advice> ranked =
        Advisor.analyze(
            docs.iterator(),
            List.of(Candidate.single("/tenantId"), Candidate.single("/id")),
            minimum);
    for (Advice a : ranked) {
      double least = a.peak().minimumRuPerSecond();
      int partitions = a.layout().physicalPartitions();
      assertThat(a.layout().throughputRuPerSecond()).isEqualTo(least);
      assertThat(a.predicted429Share()).isZero();
      // tight: 100 RU/s less on the same partitions would leave the busiest over its budget
      assertThat((least - 100) / partitions).isLessThan(a.peak().busiestRuPerSecond());
      assertThat(a.peak().busiestRuPerSecond()).isLessThanOrEqualTo(10_000);
    }
    Advice tenant = named(ranked, "/tenantId");
    assertThat(tenant.reasons()).anyMatch(r -> r.startsWith("costs more: needs"));
    assertThat(ranked.get(0).candidate()).isEqualTo("/id");
  }

  @Test
  void aKeyHotterThanOnePhysicalPartition_cannotBeFixedByThroughput() {
    List<ObjectNode> docs = AdvisorTest.sessions(10_000, 0.5, 8);
    Advice a =
        only(
            docs,
            Candidate.single("/tenantId"),
            Throughput.manual(60_000),
            List.of(new Operation(Operation.Type.READ, 40_000)));
    assertThat(a.peak().minimumRuPerSecond()).isNull();
    assertThat(a.reasons().get(0)).startsWith("no throughput avoids 429: [\"vip\"] alone needs");
    assertThat(a.verdict()).isEqualTo("rejected");
  }

  @Test
  void aTimeBasedKey_sendsEveryCreateToThePartitionOfItsNewestValue() {
    List<ObjectNode> docs = orders(5000, 9);
    Advice date =
        only(
            docs,
            Candidate.single("/createdDate"),
            Throughput.manual(30_000),
            List.of(new Operation(Operation.Type.CREATE, 1000)));
    double total =
        date.peak().ruPerSecondByPartition().stream().mapToDouble(Double::doubleValue).sum();
    assertThat(date.peak().busiestRuPerSecond()).isEqualTo(total);
  }

  @Test
  void joinsFromAnotherContainer_areCrossPartitionUnlessTheKeyIsTheJoinedField(@TempDir Path dir)
      throws IOException {
    Path f = dir.resolve("w.yaml");
    Files.writeString(
        f,
        """
        containers:
          - name: orders
            throughput: 12000
            operations:
              - { type: create, rate: 100 }
            joins:
              - { container: customers, match: /userId = /id, rate: 400 }
          - name: customers
            throughput: 12000
        """);
    Workload w = Workload.read(f);
    ContainerWorkload customers = w.container("customers");
    AdvisorOptions options = AdvisorOptions.of(customers, w.containers(), Throughput.manual(400));
    List<ObjectNode> docs = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      ObjectNode c = JSON.createObjectNode();
      c.put("id", "u" + i);
      c.put("country", "c" + (i % 30));
      docs.add(c);
    }
    List<Advice> ranked =
        Advisor.analyze(
            docs.iterator(),
            List.of(Candidate.single("/id"), Candidate.single("/country")),
            options);
    assertThat(named(ranked, "/country").reasons())
        .anyMatch(
            r ->
                r.startsWith(
                    "joins are cross-partition with this key: lookups from orders on /userId ="
                        + " /id (400/s) visit every partition (2 at this throughput)"));
    assertThat(named(ranked, "/id").routing().singlePartitionReadShare()).isEqualTo(1.0);
  }

  @Test
  void workloadFile_isRead(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("w.yaml");
    Files.writeString(
        f,
        """
        throughput: minimum
        documents: 1000000
        growthPerDay: 5000
        horizonMonths: 12
        operations:
          - type: create
            rate: 200
            knows: [/id, /userId]
          - type: Read
            rate: 5000
            access: { by: /userId, distribution: zipf, s: 1.1 }
          - name: history
            type: query
            rate: 300
            sql: SELECT * FROM c WHERE c.userId = @user ORDER BY c.createdDate DESC
            parameters:
              "@user": { distribution: hot, share: 0.5, values: [u1] }
            rows: 20
        """);
    ContainerWorkload w = Workload.read(f).containers().get(0);
    assertThat(w.findMinimum()).isTrue();
    assertThat(w.throughputOrNull()).isNull();
    assertThat(w.documents()).isEqualTo(1_000_000L);
    assertThat(w.horizonDays()).isCloseTo(365.25, within(1e-9));
    assertThat(w.operations()).hasSize(3);
    assertThat(w.operations().get(1).access().distribution()).isEqualTo(Access.Distribution.ZIPF);
    assertThat(w.operations().get(2).parameters().get("@user").values())
        .containsExactly(TextNode.valueOf("u1"));
    assertThat(w.operations().get(2).label(2)).isEqualTo("history");
    assertThat(w.operations().get(0).label(0)).isEqualTo("create #1");
  }

  @Test
  void theWorkloadInTheDocs_isValid(@TempDir Path dir) throws IOException {
    String doc = Files.readString(Path.of("..", "docs", "advisor.md"));
    int start = doc.indexOf("```yaml\n") + "```yaml\n".length();
    Path f = dir.resolve("shop.yaml");
    Files.writeString(f, doc.substring(start, doc.indexOf("```", start)));
    Workload w = Workload.read(f);
    assertThat(w.containers())
        .extracting(ContainerWorkload::name)
        .containsExactly("orders", "customers");
    assertThat(w.container("customers").operationsWith(w.containers()))
        .anyMatch(op -> op.label(0).equals("join from orders on /customerId = /id"));
  }

  @Test
  void invalidWorkloadFiles_nameTheLineAndTheField(@TempDir Path dir) throws IOException {
    Path unknown = dir.resolve("unknown.yaml");
    Files.writeString(unknown, "throughput: 400\nthroughtput: 500\n");
    assertThatThrownBy(() -> Workload.read(unknown))
        .hasMessageContaining("unknown.yaml, line 2")
        .hasMessageContaining("throughtput");
    Path negative = dir.resolve("negative.yaml");
    Files.writeString(negative, "operations:\n  - type: read\n    rate: -5\n");
    assertThatThrownBy(() -> Workload.read(negative))
        .hasMessageContaining("negative.yaml, line")
        .hasMessageContaining("operations[0]")
        .hasMessageContaining("rate of a read must be positive");
    Path type = dir.resolve("type.yaml");
    Files.writeString(type, "operations:\n  - type: scan\n    rate: 5\n");
    assertThatThrownBy(() -> Workload.read(type))
        .hasMessageContaining("type.yaml, line 2")
        .hasMessageContaining("'scan' is not one of");
    Path sql = dir.resolve("sql.yaml");
    Files.writeString(
        sql,
        "operations:\n  - type: read\n    rate: 5\n  - type: query\n    rate: 5\n    sql: SELEC * FROM c\n");
    assertThatThrownBy(() -> Workload.read(sql))
        .hasMessageContaining("sql.yaml, line")
        .hasMessageContaining("operations[1]")
        .hasMessageContaining("not a valid query");
    Path zipf = dir.resolve("zipf.yaml");
    Files.writeString(
        zipf, "operations:\n  - type: read\n    rate: 5\n    access: { distribution: zipf }\n");
    assertThatThrownBy(() -> Workload.read(zipf))
        .hasMessageContaining("operations[0]")
        .hasMessageContaining("needs by");
    Path hot = dir.resolve("hot.yaml");
    Files.writeString(
        hot,
        "operations:\n  - type: read\n    rate: 5\n    access: { by: /a, distribution: hot, top: 0.1 }\n");
    assertThatThrownBy(() -> Workload.read(hot)).hasMessageContaining("needs share");
    Path join = dir.resolve("join.yaml");
    Files.writeString(
        join, "containers:\n  - name: a\n    joins: [{ container: b, match: /x = /y, rate: 1 }]\n");
    assertThatThrownBy(() -> Workload.read(join))
        .hasMessageContaining("joins b, which is not in the file");
    Path key = dir.resolve("key.yaml");
    Files.writeString(key, "throughput: 400\ncandidates: [/tenantId, tenantId*x]\n");
    assertThatThrownBy(() -> Workload.read(key))
        .hasMessageContaining("key.yaml, line 2")
        .hasMessageContaining("candidate key 'tenantId*x' is not");
    Path both = dir.resolve("both.yaml");
    Files.writeString(both, "throughput: 400\ncontainers:\n  - name: a\n");
    assertThatThrownBy(() -> Workload.read(both)).hasMessageContaining("not both");
  }
}
