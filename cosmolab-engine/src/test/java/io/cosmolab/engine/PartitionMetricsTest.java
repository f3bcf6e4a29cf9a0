package io.cosmolab.engine;

import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.metrics.LogicalPartitionStats;
import io.cosmolab.engine.metrics.PartitionMetrics;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.time.ManualClock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PartitionMetricsTest {
  private final ManualClock clock = ManualClock.startingAtEpoch2026();
  private final Container c = Engines.container(clock, 4);

  @Test
  void hottestLogicalPartitions_findTheHeavyHitters_withinTheSketchError() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    Map<String, Double> exact = new HashMap<>();
    for (int k = 0; k < 3_000; k++) {
      double charge = c.create(obj("{'id':'d','pk':'k" + k + "'}")).requestCharge();
      exact.merge("k" + k, charge, Double::sum);
    }
    // a Zipf-like workload: key i read ~ 2000 / (i + 1) times
    for (int i = 0; i < 20; i++) {
      int reads = 2_000 / (i + 1) + random.nextInt(3);
      for (int r = 0; r < reads; r++) {
        double charge = c.read(PartitionKeyValue.of("k" + i), "d").requestCharge();
        exact.merge("k" + i, charge, Double::sum);
      }
    }
    List<LogicalPartitionStats> top = c.hottestLogicalPartitions(5);
    assertThat(top)
        .as("seed %d", seed)
        .extracting(s -> s.partitionKey().components().get(0).toJson().textValue())
        .containsExactly("k0", "k1", "k2", "k3", "k4");
    for (LogicalPartitionStats s : top) {
      double truth = exact.get(s.partitionKey().components().get(0).toJson().textValue());
      assertThat(s.value()).as("seed %d", seed).isBetween(truth - 0.01, truth + s.errorBound());
      assertThat(s.rangeId()).isEqualTo(c.routing().rangeFor(s.epk()).id());
    }
  }

  /** The recently hottest keys' names, hottest first. */
  private List<String> recentlyHottest() {
    return c.recentlyHottestLogicalPartitions(5).stream()
        .map(s -> s.partitionKey().components().get(0).toJson().textValue())
        .toList();
  }

  private void reads(String key, int n) {
    for (int i = 0; i < n; i++) {
      c.read(PartitionKeyValue.of(key), "d");
    }
  }

  @Test
  void recentlyHottestLogicalPartitions_coverTheLastFiveToTenMinutes_notSinceCreation() {
    for (String k : List.of("yesterday", "now")) {
      c.create(obj("{'id':'d','pk':'" + k + "'}"));
    }
    // the clock starts on a five-minute boundary: "yesterday" is hot for the first window
    assertThat(clock.millis() % (PartitionMetrics.RECENT_WINDOW_SECONDS * 1000L)).isZero();
    reads("yesterday", 500);
    clock.advance(Duration.ofMinutes(5));
    reads("now", 50); // the second window: both still count
    assertThat(recentlyHottest()).containsExactly("yesterday", "now");
    clock.advance(Duration.ofMinutes(5)); // the third: the first window has fallen away
    assertThat(recentlyHottest()).containsExactly("now");
    reads("now", 1);
    assertThat(recentlyHottest()).containsExactly("now");
    clock.advance(Duration.ofMinutes(10)); // a quiet spell: nothing is recently hot
    assertThat(recentlyHottest()).isEmpty();
    reads("yesterday", 1); // a new window after the spell starts afresh, without the old ones
    assertThat(c.recentlyHottestLogicalPartitions(5).get(0).value()).isEqualTo(1.0);
    // since creation, the first hot key is still the hottest
    assertThat(
            c.hottestLogicalPartitions(1)
                .get(0)
                .partitionKey()
                .components()
                .get(0)
                .toJson()
                .textValue())
        .isEqualTo("yesterday");
  }

  @Test
  void largestLogicalPartitions_areExactAndOrdered() {
    for (int i = 0; i < 30; i++) {
      c.create(obj("{'id':'d" + i + "','pk':'big'}"));
    }
    for (int i = 0; i < 10; i++) {
      c.create(obj("{'id':'d" + i + "','pk':'mid'}"));
    }
    c.create(obj("{'id':'d','pk':'small'}"));
    List<LogicalPartitionStats> largest = c.largestLogicalPartitions(2);
    assertThat(largest).extracting(LogicalPartitionStats::documents).containsExactly(30L, 10L);
    assertThat(largest.get(0).value())
        .isEqualTo((double) c.logicalPartitionBytes(PartitionKeyValue.of("big")));
    c.delete(PartitionKeyValue.of("small"), "d");
    assertThat(c.largestLogicalPartitions(10)).hasSize(2);
  }

  @Test
  void perSecondSeries_recordsRuOperationsAndThrottles_byInjectedTime() {
    c.create(obj("{'id':'a','pk':'p'}"));
    String range = c.read(PartitionKeyValue.of("p"), "a").partitionKeyRangeId();
    long start = clock.millis() / 1000;
    clock.advance(Duration.ofSeconds(2));
    c.read(PartitionKeyValue.of("p"), "a");
    c.read(PartitionKeyValue.of("p"), "a");
    List<PartitionMetrics.Second> series = c.partitionSeconds(range, start, start + 3);
    assertThat(series).extracting(PartitionMetrics.Second::operations).containsExactly(2L, 0L, 2L);
    assertThat(series.get(2).ru()).isEqualTo(2.0);
    assertThat(series.get(0).ru()).isGreaterThan(5.0);
  }

  @Test
  void storageAndDocumentCounts_followWritesAndDeletes() {
    for (int i = 0; i < 50; i++) {
      c.create(obj("{'id':'d" + i + "','pk':'k" + i + "'}"));
    }
    long stored = c.partitionStats().stream().mapToLong(s -> s.storageBytes()).sum();
    assertThat(stored).isEqualTo(c.storedBytes()).isPositive();
    for (int i = 0; i < 50; i++) {
      c.delete(PartitionKeyValue.of("k" + i), "d" + i);
    }
    assertThat(c.partitionStats()).allMatch(s -> s.documents() == 0 && s.storageBytes() == 0);
  }
}
