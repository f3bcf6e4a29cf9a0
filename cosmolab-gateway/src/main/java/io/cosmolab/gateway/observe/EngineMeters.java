package io.cosmolab.gateway.observe;

import io.cosmolab.engine.Container;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.Database;
import io.cosmolab.engine.alerts.Alert;
import io.cosmolab.engine.alerts.AlertEvaluator;
import io.cosmolab.engine.alerts.AlertRule;
import io.cosmolab.engine.metrics.LogicalPartitionStats;
import io.cosmolab.engine.metrics.PartitionEvent;
import io.cosmolab.engine.metrics.PartitionStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The engine's numbers as meters, read at each scrape: per physical partition the normalized RU
 * consumption, budget, storage, documents and 429s (real and would-be); per container the
 * provisioned throughput, splits and the top logical partitions by RU and by storage; per rule the
 * active alerts.
 */
/*
 * How and why.
 *
 * Partitions come and go (splits, merges, dropped containers) and the top keys change, so the set
 * of label values is known only at a scrape. Each scrape therefore reconciles: every value the
 * engine reports now is written into a holder that a registered gauge or function counter reads,
 * new label sets are registered, and meters whose labels the engine no longer reports are removed
 * from the registry, so the exposition never shows a partition that is gone. Counters read the
 * engine's own totals, which only grow for a given range id.
 *
 * Label cardinality is bounded: partitions × a few, plus TOP_N keys per container and list.
 *
 * Concurrency: refresh() is synchronized (one scrape reconciles at a time); the holders are
 * volatile, read by the registry while it renders.
 */
final class EngineMeters {
  /** Logical partitions exported per container and list. */
  static final int TOP_N = 5;

  private static final class Holder {
    volatile double value;
  }

  private enum Kind {
    GAUGE,
    COUNTER
  }

  private record Key(String name, Tags tags) {}

  private record Entry(Meter meter, Holder holder) {}

  private final MeterRegistry registry;
  private final CosmosEngine engine;
  private final AlertEvaluator alerts;
  private final Map<Key, Entry> meters = new HashMap<>();
  private Set<Key> seen = new HashSet<>();

  EngineMeters(MeterRegistry registry, CosmosEngine engine, AlertEvaluator alerts) {
    this.registry = registry;
    this.engine = engine;
    this.alerts = alerts;
  }

  synchronized void refresh() {
    seen = new HashSet<>();
    for (Database db : engine.databases()) {
      for (Container c : db.containers()) {
        container(db, c);
      }
    }
    Map<AlertRule, Integer> perRule = new java.util.EnumMap<>(AlertRule.class);
    for (AlertRule r : AlertRule.values()) {
      perRule.put(r, 0);
    }
    for (Alert a : alerts.active()) {
      perRule.merge(a.rule(), 1, Integer::sum);
      set(
          Kind.GAUGE,
          "cosmolab.alert.value",
          "The measured value of an active alert (a share, a ratio or bytes)",
          null,
          Tags.of(
              "rule", a.rule().id(),
              "database", a.database(),
              "container", a.container(),
              "partition_key_range_id", nullToEmpty(a.partitionKeyRangeId())),
          a.value());
    }
    perRule.forEach(
        (rule, n) ->
            set(
                Kind.GAUGE,
                "cosmolab.alert.active",
                "Alerts of the rule active now",
                null,
                Tags.of("rule", rule.id()),
                n));
    meters
        .entrySet()
        .removeIf(
            e -> {
              if (seen.contains(e.getKey())) {
                return false;
              }
              registry.remove(e.getValue().meter());
              return true;
            });
  }

  private void container(Database db, Container c) {
    Tags base = Tags.of("database", db.id(), "container", c.id());
    double provisioned =
        c.throughput()
            .or(db::sharedThroughput)
            .map(io.cosmolab.engine.throughput.Throughput::maxRuPerSecond)
            .orElse(0.0);
    set(
        Kind.GAUGE,
        "cosmolab.provisioned.throughput",
        "RU/s provisioned to the container, or to its database when shared",
        null,
        base,
        provisioned);
    for (PartitionStats p : c.partitionStats()) {
      Tags t = base.and("partition_key_range_id", p.id());
      set(
          Kind.GAUGE,
          "cosmolab.normalized.ru.consumption",
          "The busiest second of the last minute, RU / the partition's budget, capped at 1",
          null,
          t,
          p.normalizedRuConsumption());
      set(
          Kind.GAUGE,
          "cosmolab.partition.throughput.budget",
          "RU/s the physical partition may use (its share of the throughput)",
          null,
          t,
          p.budgetRuPerSecond());
      set(Kind.GAUGE, "cosmolab.data.usage", "Bytes stored", "bytes", t, (double) p.storageBytes());
      set(
          Kind.GAUGE,
          "cosmolab.document.count",
          "Documents stored",
          null,
          t,
          (double) p.documents());
      set(
          Kind.COUNTER,
          "cosmolab.throttled.requests",
          "429s: answered (mode=enforced) or that observe mode let through (mode=observed)",
          null,
          t.and("mode", "enforced"),
          (double) p.throttled());
      set(
          Kind.COUNTER,
          "cosmolab.throttled.requests",
          "429s: answered (mode=enforced) or that observe mode let through (mode=observed)",
          null,
          t.and("mode", "observed"),
          (double) p.wouldThrottle());
    }
    long splits = 0;
    for (PartitionEvent e : c.partitionEvents()) {
      if (e.kind() == PartitionEvent.Kind.SPLIT) {
        splits++;
      }
    }
    set(
        Kind.COUNTER,
        "cosmolab.partition.splits",
        "Physical partition splits",
        null,
        base,
        (double) splits);
    for (LogicalPartitionStats s : c.recentlyHottestLogicalPartitions(TOP_N)) {
      set(
          Kind.GAUGE,
          "cosmolab.top.logical.partition.ru",
          "RU consumed by the hottest logical partitions in the last 5 to 10 minutes (a sketch's"
              + " estimate)",
          null,
          base.and("partition_key_range_id", s.rangeId(), "partition_key", keyOf(s)),
          s.value());
    }
    for (LogicalPartitionStats s : c.largestLogicalPartitions(TOP_N)) {
      set(
          Kind.GAUGE,
          "cosmolab.top.logical.partition.bytes",
          "Bytes stored by the largest logical partitions (exact)",
          null,
          base.and("partition_key_range_id", s.rangeId(), "partition_key", keyOf(s)),
          s.value());
    }
  }

  static String keyOf(LogicalPartitionStats s) {
    return s.partitionKey() == null ? s.epk() : s.partitionKey().toString();
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  private void set(Kind kind, String name, String help, String unit, Tags tags, double value) {
    Key key = new Key(name, tags);
    seen.add(key);
    Entry e = meters.get(key);
    if (e == null) {
      Holder h = new Holder();
      Meter m =
          kind == Kind.GAUGE
              ? Gauge.builder(name, h, x -> x.value)
                  .description(help)
                  .baseUnit(unit)
                  .tags(tags)
                  .register(registry)
              : FunctionCounter.builder(name, h, x -> x.value)
                  .description(help)
                  .baseUnit(unit)
                  .tags(tags)
                  .register(registry);
      e = new Entry(m, h);
      meters.put(key, e);
    }
    e.holder().value = value;
  }
}
