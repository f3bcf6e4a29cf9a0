package io.cosmolab.engine;

import io.cosmolab.engine.metrics.LogicalPartitionStats;
import io.cosmolab.engine.metrics.PartitionMetrics;
import io.cosmolab.engine.metrics.PartitionStats;
import io.cosmolab.engine.routing.RoutingMap;
import java.util.ArrayList;
import java.util.List;

/**
 * What a container reports of its partitions: usage, load and the hottest and largest logical
 * partitions, each read from one layout.
 *
 * <p>Concurrency: reads only; the metrics and usage counters it reads are thread-safe.
 */
final class ContainerStats {
  private final CosmosEngine engine;
  private final PartitionMetrics metrics;
  private final LogicalPartitions logical;
  private final PartitionLayout layout;
  private final Throttle throttle;

  ContainerStats(
      CosmosEngine engine,
      PartitionMetrics metrics,
      LogicalPartitions logical,
      PartitionLayout layout,
      Throttle throttle) {
    this.engine = engine;
    this.metrics = metrics;
    this.logical = logical;
    this.layout = layout;
    this.throttle = throttle;
  }

  /** Every physical partition now, in key order. */
  List<PartitionStats> partitions() {
    long second = Math.floorDiv(engine.clock().millis(), 1000);
    Layout l = layout.current();
    List<PartitionStats> out = new ArrayList<>();
    for (io.cosmolab.engine.routing.PartitionKeyRange r : l.routing().ranges()) {
      Layout.Partition p = l.partition(r.id());
      double budget = throttle.rate(r);
      // the last 60 seconds, the current (partial) one included, so live load shows at once
      List<PartitionMetrics.Second> minute = metrics.seconds(r.id(), second - 59, second + 1);
      double peak = 0;
      for (PartitionMetrics.Second s : minute) {
        peak = Math.max(peak, budget > 0 ? s.ru() / budget : 0);
      }
      double last = minute.get(minute.size() - 2).ru(); // the last complete second
      double[] totals = metrics.totals(r.id());
      out.add(
          new PartitionStats(
              r.id(),
              r.range(),
              p.documents(),
              p.bytes(),
              budget,
              last,
              Math.min(1.0, peak),
              peak,
              totals[0],
              (long) totals[1],
              (long) totals[2],
              (long) totals[3]));
    }
    return out;
  }

  /**
   * The logical partitions that consumed the most RU (estimates from a bounded sketch). A key whose
   * documents were all deleted since is reported by its EPK alone (its value is null).
   */
  List<LogicalPartitionStats> hottest(int n) {
    return described(metrics.hottestKeysByRu(n));
  }

  /** As {@link #hottest}, over the last 5 to 10 minutes of the engine's clock. */
  List<LogicalPartitionStats> recentlyHottest(int n) {
    return described(metrics.recentlyHottestKeysByRu(n, engine.clock().millis()));
  }

  private List<LogicalPartitionStats> described(List<PartitionMetrics.HotKey> keys) {
    List<LogicalPartitionStats> out = new ArrayList<>();
    RoutingMap map = layout.current().routing();
    for (PartitionMetrics.HotKey k : keys) {
      String epk = k.epk();
      out.add(
          new LogicalPartitionStats(
              logical.key(epk), epk, map.rangeFor(epk).id(), k.ru(), k.errorBound(), 0));
    }
    return out;
  }

  /** The largest logical partitions by storage (exact), largest first. */
  List<LogicalPartitionStats> largest(int n) {
    RoutingMap map = layout.current().routing();
    List<LogicalPartitionStats> out = new ArrayList<>();
    for (LogicalPartitions.Usage u : logical.largest(n)) {
      out.add(
          new LogicalPartitionStats(
              u.key(), u.epk(), map.rangeFor(u.epk()).id(), u.bytes(), 0, u.documents()));
    }
    return out;
  }

  /** Total bytes stored. */
  long storedBytes() {
    long total = 0;
    for (Layout.Partition p : layout.current().partitions().values()) {
      total += p.bytes();
    }
    return total;
  }
}
