package io.cosmolab.migrator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.testkit.CosmosLab;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The preflight: what would stop a migration, found before anything is written. */
class PlanTest {
  private static CosmosLab lab;
  private static CosmosClient client;

  @BeforeAll
  static void start() {
    lab = CosmosLab.builder().start();
    client = lab.clientBuilder().buildClient();
    CosmosContainer c = Lab.orders(client, "shop", "orders", 60);
    // the same id under two tenants: one document each in the source, one slot under /region
    c.createItem(Lab.order("dup", "t1", "eu", 1));
    c.createItem(Lab.order("dup", "t2", "eu", 2));
    ObjectNode noRegion = Lab.order("nr1", "t3", "eu", 3);
    noRegion.remove("region");
    c.createItem(noRegion);
    ObjectNode objectRegion = Lab.order("nr2", "t3", "eu", 4);
    objectRegion.putObject("region").put("name", "eu");
    c.createItem(objectRegion);
  }

  @AfterAll
  static void stop() {
    client.close();
    lab.close();
  }

  @Test
  void plan_findsDocumentsLackingTheNewKey_andIdsThatWouldCollide() {
    try (Migrator m =
        Migrator.open(
            Lab.spec(lab, "shop", "orders", "orders2", "/region").withMaxRu(1000),
            Path.of("unused"),
            Lab.options())) {
      Plan p = m.plan();
      assertThat(p.documents()).isEqualTo(64);
      assertThat(p.missing()).isEqualTo(2);
      assertThat(p.missingIds()).containsExactlyInAnyOrder("nr1", "nr2");
      assertThat(p.collisions()).containsExactly(new Plan.Collision("[\"eu\"]", "dup", 2));
      assertThat(p.logicalPartitions()).isEqualTo(3);
      assertThat(p.largestPartitionBytes()).isPositive().isLessThan(Plan.LOGICAL_PARTITION_LIMIT);
      assertThat(p.copyRequestUnits()).isGreaterThan(64 * 5.0);
      assertThat(p.copySeconds()).isEqualTo(p.copyRequestUnits() / 1000);
      assertThat(p.blocking(OnMissing.FAIL)).hasSize(2);
      assertThat(p.blocking(OnMissing.SKIP)).hasSize(1).allMatch(s -> s.contains("collide"));
    }
  }

  @Test
  void plan_asksTheAdvisorAboutTheNewKey_atTheTargetsThroughput() {
    try (Migrator m =
        Migrator.open(
            Lab.spec(lab, "shop", "orders", "orders5", "/region"),
            Path.of("unused"),
            Lab.options())) {
      Plan.Advice a = m.plan().advice();
      // the source's 12,000 RU/s manual: two physical partitions at creation (6,000 each)
      assertThat(a.throughputKind()).isEqualTo("manual");
      assertThat(a.throughputRuPerSecond()).isEqualTo(12_000);
      assertThat(a.physicalPartitions()).isEqualTo(2);
      // three regions cannot spread over anything: the advisor says so in numbers
      assertThat(a.verdict()).isNotEqualTo("recommended");
      assertThat(a.reasons()).anyMatch(r -> r.startsWith("only ~3 distinct values"));
    }
  }

  @Test
  void aSyntheticKey_hasNoCollisionWhereTheTenantIsPartOfIt() {
    try (Migrator m =
        Migrator.open(
            Lab.spec(lab, "shop", "orders", "orders3", "/tenantId+/region"),
            Path.of("unused"),
            Lab.options())) {
      Plan p = m.plan();
      assertThat(p.collisions()).isEmpty();
      assertThat(p.missing()).isEqualTo(2);
      assertThat(p.blocking(OnMissing.defaultValue("none"))).isEmpty();
    }
  }

  @Test
  void run_refusesOnBlockingFindings_andWritesNothing(@TempDir Path tmp) {
    try (Migrator m =
        Migrator.open(Lab.spec(lab, "shop", "orders", "orders4", "/region"), tmp, Lab.options())) {
      assertThatThrownBy(() -> m.run(true, () -> false))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("lack a path")
          .hasMessageContaining("collide");
    }
    assertThat(tmp.resolve("state.json")).doesNotExist();
    assertThat(client.getDatabase("shop").readAllContainers().stream().map(c -> c.getId()))
        .doesNotContain("orders4");
  }

  /** The source's busiest second: creates and point reads, spread like the documents. */
  private static Path workload(Path dir, int creates, int reads) throws java.io.IOException {
    return java.nio.file.Files.writeString(
        dir.resolve("workload.yaml"),
        String.join(
            "\n",
            "name: orders",
            "operations:",
            "  - { type: create, rate: " + creates + " }",
            "  - { type: read, rate: " + reads + " }",
            ""));
  }

  @Test
  void plan_withAWorkload_findsTheLeastThroughputThatServesItsPeak_underTheNewKey(@TempDir Path tmp)
      throws Exception {
    PlanWorkload w = PlanWorkload.read(workload(tmp, 1_000, 20_000), null, "orders");
    try (Migrator m =
        Migrator.open(
            Lab.spec(lab, "shop", "orders", "orders6", "/region+/userId"),
            Path.of("unused"),
            Lab.options())) {
      Plan.Advice a = m.plan(w).advice();
      Plan.Peak peak = a.peak();
      assertThat(peak.workload()).isEqualTo("orders");
      assertThat(peak.minimumSearched()).isTrue();
      // ~1,000 creates at ~6-7 RU and 20,000 reads at 1 RU: more than one partition's 10,000
      assertThat(peak.minimumRuPerSecond()).isNotNull().isGreaterThan(10_000);
      assertThat(a.throughputRuPerSecond()).isEqualTo(peak.minimumRuPerSecond());
      assertThat(a.physicalPartitions()).isGreaterThan(1);
      assertThat(peak.busiestRuPerSecond()).isLessThanOrEqualTo(peak.budgetRuPerSecond() + 1e-6);
      assertThat(peak.predicted429Share()).isZero();
    }
  }

  @Test
  void plan_withAWorkload_atAGivenTargetThroughput_predictsItsThrottling(@TempDir Path tmp)
      throws Exception {
    PlanWorkload w = PlanWorkload.read(workload(tmp, 1_000, 20_000), null, "orders");
    MigrationSpec given =
        new MigrationSpec(
            new Endpoint(lab.endpoint(), lab.key()),
            new ContainerRef("shop", "orders"),
            new Endpoint(lab.endpoint(), lab.key()),
            new ContainerRef("shop", "orders7"),
            "/region",
            OnMissing.SKIP,
            0,
            12_000);
    try (Migrator m = Migrator.open(given, Path.of("unused"), Lab.options())) {
      Plan.Advice a = m.plan(w).advice();
      assertThat(a.peak().minimumSearched()).isFalse();
      assertThat(a.throughputRuPerSecond()).isEqualTo(12_000);
      // three regions on two partitions of 6,000 RU/s: one region alone needs ~9,000
      assertThat(a.peak().busiestRuPerSecond()).isGreaterThan(a.peak().budgetRuPerSecond());
      assertThat(a.peak().predicted429Share()).isPositive();
    }
  }

  @Test
  void aWorkloadWithoutOperations_orWithoutTheSourcesContainer_isRefusedNamingWhy(@TempDir Path tmp)
      throws Exception {
    Path empty = java.nio.file.Files.writeString(tmp.resolve("empty.yaml"), "name: orders\n");
    try (Migrator m =
        Migrator.open(
            Lab.spec(lab, "shop", "orders", "orders8", "/region+/userId"),
            Path.of("unused"),
            Lab.options())) {
      PlanWorkload none = PlanWorkload.read(empty, null, "orders");
      assertThatThrownBy(() -> m.plan(none))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("orders has no operations");
    }
    Path two =
        java.nio.file.Files.writeString(
            tmp.resolve("two.yaml"),
            """
            containers:
              - { name: a, operations: [ { type: read, rate: 10 } ] }
              - { name: b, operations: [ { type: read, rate: 10 } ] }
            """);
    assertThatThrownBy(() -> PlanWorkload.read(two, null, "orders"))
        .hasMessageContaining("none is named orders")
        .hasMessageContaining("--workload-container");
    assertThat(PlanWorkload.read(two, "b", "orders").container().name()).isEqualTo("b");
  }
}
