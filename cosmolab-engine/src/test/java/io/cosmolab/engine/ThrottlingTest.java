package io.cosmolab.engine;

import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.metrics.PartitionStats;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Per-partition budgets on a controlled clock. */
class ThrottlingTest {
  private final ManualClock clock = ManualClock.startingAtEpoch2026();

  private Container container(ThrottlingMode mode, boolean burst, double ru, int partitions) {
    return container(clock, mode, burst, ru, partitions);
  }

  /** A container keyed by /pk with {@code ru} RU/s over {@code partitions} partitions. */
  private static Container container(
      ManualClock clock, ThrottlingMode mode, boolean burst, double ru, int partitions) {
    CosmosEngine engine =
        CosmosEngine.builder().clock(clock).throttling(mode).burstCapacity(burst).build();
    return engine
        .createDatabase("db")
        .createContainer(
            ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                .withThroughput(Throughput.manual(ru))
                .withPhysicalPartitions(partitions));
  }

  /** Reads the 1 KB-or-less document {@code n} times in the current second; returns 429s. */
  private static int hammer(Container c, PartitionKeyValue key, String id, int n) {
    int throttled = 0;
    for (int i = 0; i < n; i++) {
      try {
        c.read(key, id);
      } catch (CosmosException e) {
        assertThat(e.error()).isEqualTo(CosmosError.REQUEST_RATE_TOO_LARGE);
        throttled++;
      }
    }
    return throttled;
  }

  @Test
  void hotKey_throttlesItsPartition_whileTheContainerHasMostOfItsRuUnused() {
    Container c = container(ThrottlingMode.ENFORCE, false, 4_000, 4);
    PartitionKeyValue vip = PartitionKeyValue.of("vip-tenant");
    c.create(obj("{'id':'profile','pk':'vip-tenant'}"));
    clock.advance(Duration.ofSeconds(1)); // the create's 5 RU are repaid

    int throttled = hammer(c, vip, "profile", 2_000); // 2,000 RU of demand in one second

    String hot = c.routing().rangeFor(EffectivePartitionKey.of(c.partitionKey(), vip)).id();
    clock.advance(Duration.ofSeconds(1));
    List<PartitionStats> stats = c.partitionStats();
    double used = stats.stream().mapToDouble(PartitionStats::ruLastSecond).sum();
    double provisioned = stats.stream().mapToDouble(PartitionStats::budgetRuPerSecond).sum();
    // the hot partition served its 1,000 RU/s and refused the rest
    assertThat(throttled).isEqualTo(1_000);
    assertThat(used).isEqualTo(1_000);
    assertThat(1 - used / provisioned).isEqualTo(0.75); // 75 % of the RU/s unused, yet 429s
    for (PartitionStats s : stats) {
      if (s.id().equals(hot)) {
        assertThat(s.throttled()).isEqualTo(1_000);
        assertThat(s.normalizedRuConsumption()).isEqualTo(1.0);
      } else {
        assertThat(s.throttled()).isZero();
        assertThat(s.ruLastSecond()).isZero();
        assertThat(s.normalizedRuConsumption()).isZero();
      }
    }
  }

  @Test
  void throttled_operation_hasAPositiveRetryAfter_thatIsEnoughToSucceed() {
    Container c = container(ThrottlingMode.ENFORCE, false, 400, 1);
    c.create(obj("{'id':'a','pk':'p'}"));
    clock.advance(Duration.ofSeconds(1));
    hammer(c, PartitionKeyValue.of("p"), "a", 400); // uses the 400 RU of this second
    CosmosException e = null;
    try {
      c.read(PartitionKeyValue.of("p"), "a");
    } catch (CosmosException thrown) {
      e = thrown;
    }
    assertThat(e).isNotNull();
    assertThat(e.status()).isEqualTo(429);
    assertThat(e.subStatus()).isEqualTo(3200);
    assertThat(e.retryAfterMillis()).isPositive();
    assertThat(e.getMessage()).contains("Request rate is large").contains("400 RU/s");
    clock.advanceMillis(e.retryAfterMillis());
    assertThat(c.read(PartitionKeyValue.of("p"), "a").status()).isEqualTo(200);
  }

  @Test
  void retryAfter_waitsForTheNextSecond_andForAnyDebtAnExpensiveOperationLeft() {
    Container c = container(ThrottlingMode.ENFORCE, false, 400, 1);
    clock.advance(Duration.ofSeconds(1)); // at the start of a second
    String big = "x".repeat(1000 * 1024);
    // admitted with the whole second's 400 RU free, charged ~613 RU: 213 RU of debt
    double charge = c.create(obj("{'id':'big','pk':'p','s':'" + big + "'}")).requestCharge();
    assertThat(charge).isBetween(600.0, 800.0);
    clock.advanceMillis(250);
    CosmosException e =
        (CosmosException)
            org.assertj.core.api.Assertions.catchThrowable(
                () -> c.read(PartitionKeyValue.of("p"), "big"));
    assertThat(e).isNotNull();
    assertThat(e.retryAfterMillis()).isEqualTo(750); // the rest of this second
    clock.advanceMillis(749);
    assertThat(
            org.assertj.core.api.Assertions.catchThrowable(
                () -> c.read(PartitionKeyValue.of("p"), "big")))
        .isInstanceOf(CosmosException.class);
    clock.advanceMillis(1); // the next second starts with 213 of its 400 RU already spent
    assertThat(c.read(PartitionKeyValue.of("p"), "big").status()).isEqualTo(200);
  }

  @Test
  void aSecond_neverServesMuchMoreThanItsBudget_evenAfterIdleTime() {
    Container c = container(ThrottlingMode.ENFORCE, false, 1_000, 1);
    c.create(obj("{'id':'a','pk':'p'}"));
    clock.advance(Duration.ofMinutes(1));
    int refused = hammer(c, PartitionKeyValue.of("p"), "a", 3_000);
    assertThat(3_000 - refused).isEqualTo(1_000);
  }

  @Test
  void throttledWrite_writesNothing() {
    Container c = container(ThrottlingMode.ENFORCE, false, 400, 1);
    int created = 0;
    int refused = 0;
    for (int i = 0; i < 200; i++) {
      try {
        c.create(obj("{'id':'d" + i + "','pk':'p'}"));
        created++;
      } catch (CosmosException e) {
        refused++;
      }
    }
    assertThat(refused).isPositive();
    assertThat(c.documentCount()).isEqualTo(created);
    assertThat(c.lsn()).isEqualTo(created);
  }

  @Test
  void observeMode_runsEverything_andCountsTheSame429sEnforceWouldGive() {
    Container enforce = container(ThrottlingMode.ENFORCE, false, 1_000, 1);
    enforce.create(obj("{'id':'a','pk':'p'}"));
    ManualClock other = ManualClock.startingAtEpoch2026();
    Container observe = container(other, ThrottlingMode.OBSERVE, false, 1_000, 1);
    observe.create(obj("{'id':'a','pk':'p'}"));
    int refused = hammer(enforce, PartitionKeyValue.of("p"), "a", 3_000);
    assertThat(hammer(observe, PartitionKeyValue.of("p"), "a", 3_000)).isZero();
    PartitionStats s = observe.partitionStats().get(0);
    assertThat(s.wouldThrottle()).isEqualTo(refused);
    assertThat(s.throttled()).isZero();
    assertThat(s.operations()).isEqualTo(3_001);
    assertThat(s.peakDemandRatio()).isGreaterThan(1.0);
  }

  @Test
  void offMode_neverThrottles_butStillCharges() {
    Container c = container(ThrottlingMode.OFF, false, 400, 1);
    c.create(obj("{'id':'a','pk':'p'}"));
    assertThat(hammer(c, PartitionKeyValue.of("p"), "a", 5_000)).isZero();
    PartitionStats s = c.partitionStats().get(0);
    assertThat(s.wouldThrottle()).isZero();
    assertThat(s.totalRu()).isCloseTo(5_000 + 5.2, within(1.0));
  }

  @Test
  void burstCapacity_spendsBankedIdleRu_upTo3000RuPerSecond() {
    Container withBurst = container(ThrottlingMode.ENFORCE, true, 400, 4); // 100 RU/s each
    withBurst.create(obj("{'id':'a','pk':'p'}"));
    clock.advance(Duration.ofMinutes(10)); // banks 300 s x 100 RU = 30,000 RU
    int refused = hammer(withBurst, PartitionKeyValue.of("p"), "a", 2_000);
    assertThat(refused).isZero();

    ManualClock other = ManualClock.startingAtEpoch2026();
    Container noBurst = container(other, ThrottlingMode.ENFORCE, false, 400, 4);
    noBurst.create(obj("{'id':'a','pk':'p'}"));
    other.advance(Duration.ofMinutes(10));
    assertThat(hammer(noBurst, PartitionKeyValue.of("p"), "a", 2_000)).isEqualTo(1_900);
  }

  @Test
  void burst_isCappedAt3000RuPerSecond() {
    Container c = container(ThrottlingMode.ENFORCE, true, 400, 4);
    c.create(obj("{'id':'a','pk':'p'}"));
    clock.advance(Duration.ofMinutes(10));
    // a fresh second: 100 budget + up to 2,900 from the bank, then 429s
    int refused = hammer(c, PartitionKeyValue.of("p"), "a", 4_000);
    assertThat(refused).isEqualTo(1_000);
  }

  @Test
  void autoscale_budgetsEachPartitionAtTheMaximumOverP() {
    CosmosEngine engine = CosmosEngine.builder().clock(clock).build();
    Container c =
        engine
            .createDatabase("db")
            .createContainer(
                ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                    .withThroughput(Throughput.autoscale(40_000)));
    assertThat(c.partitionStats()).hasSize(4).allMatch(s -> s.budgetRuPerSecond() == 10_000);
    assertThat(((Throughput.Autoscale) c.throughput().orElseThrow()).floor()).isEqualTo(4_000);
  }

  @Test
  void sharedDatabaseThroughput_isSpentByEveryContainerInIt() {
    CosmosEngine engine =
        CosmosEngine.builder().clock(clock).throttling(ThrottlingMode.ENFORCE).build();
    Database db = engine.createDatabase("shared", Throughput.manual(400));
    Container a = db.createContainer(ContainerSettings.of("a", PartitionKeyDefinition.hash("/pk")));
    Container b = db.createContainer(ContainerSettings.of("b", PartitionKeyDefinition.hash("/pk")));
    a.create(obj("{'id':'x','pk':'p'}"));
    b.create(obj("{'id':'x','pk':'p'}"));
    clock.advance(Duration.ofSeconds(1));
    assertThat(hammer(a, PartitionKeyValue.of("p"), "x", 400)).isZero();
    assertThat(hammer(b, PartitionKeyValue.of("p"), "x", 10)).isEqualTo(10);
    assertThat(a.partitionStats().get(0).budgetRuPerSecond()).isEqualTo(400);
  }

  @Test
  void switchingModes_atRuntime_takesEffectOnTheNextOperation() {
    Container c = container(ThrottlingMode.OFF, false, 400, 1);
    c.create(obj("{'id':'a','pk':'p'}"));
    assertThat(hammer(c, PartitionKeyValue.of("p"), "a", 1_000)).isZero();
    c.database().engine().setThrottling(ThrottlingMode.ENFORCE);
    clock.advance(Duration.ofSeconds(1));
    assertThat(hammer(c, PartitionKeyValue.of("p"), "a", 1_000)).isEqualTo(600);
  }
}
