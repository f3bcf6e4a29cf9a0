package io.cosmolab.rehearsal.internal;

import io.cosmolab.engine.Container;
import io.cosmolab.engine.metrics.LogicalPartitionStats;
import io.cosmolab.engine.metrics.PartitionEvent;
import io.cosmolab.engine.metrics.PartitionMetrics;
import io.cosmolab.engine.metrics.PartitionStats;
import io.cosmolab.engine.routing.PartitionKeyRange;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A candidate's partitions as the engine itself counts them (the rehearsal in virtual time). */
final class EnginePartitions implements PartitionSource {
  private final Container container;
  private final List<LayoutEvent> events = new ArrayList<>();

  EnginePartitions(Container container) {
    this.container = container;
  }

  @Override
  public List<Range> ranges() {
    List<Range> out = new ArrayList<>();
    for (PartitionKeyRange r : container.routing().ranges()) {
      out.add(new Range(r.id(), r.range().min(), r.range().max()));
    }
    return out;
  }

  @Override
  public Map<String, Double> budgets() {
    Map<String, Double> out = new HashMap<>();
    for (PartitionStats p : container.partitionStats()) {
      out.put(p.id(), p.budgetRuPerSecond());
    }
    return out;
  }

  @Override
  public long layoutVersion() {
    // the routing map's version moves with splits; the event count with throughput changes too
    return container.routing().version() * 1_000_003L + container.partitionEvents().size();
  }

  @Override
  public List<LayoutEvent> layoutEvents() {
    List<PartitionEvent> all = container.partitionEvents();
    for (int i = events.size(); i < all.size(); i++) {
      PartitionEvent e = all.get(i);
      events.add(
          new LayoutEvent(
              switch (e.kind()) {
                case SPLIT -> "split";
                case MERGE -> "merge";
                case SPLIT_BLOCKED -> "split-blocked";
              },
              e.before(),
              e.after(),
              e.reason(),
              e.timeMillis()));
    }
    return events;
  }

  @Override
  public Served second(String id, long second) {
    PartitionMetrics.Second s = container.partitionSeconds(id, second, second + 1).get(0);
    return new Served(s.ru(), s.throttled(), s.operations());
  }

  private double totalRu() {
    double total = 0;
    for (PartitionStats p : container.partitionStats()) {
      total += p.totalRu();
    }
    return total;
  }

  @Override
  public Logical logical() {
    List<LogicalPartitionStats> largest = container.largestLogicalPartitions(1);
    List<LogicalPartitionStats> hottest = container.hottestLogicalPartitions(1);
    double total = totalRu();
    return new Logical(
        largest.isEmpty() ? 0 : largest.get(0).value(),
        largest.isEmpty() || largest.get(0).partitionKey() == null
            ? null
            : largest.get(0).partitionKey().toJson().toString(),
        hottest.isEmpty()
            ? null
            : hottest.get(0).partitionKey() == null
                ? hottest.get(0).epk()
                : hottest.get(0).partitionKey().toJson().toString(),
        hottest.isEmpty() || total == 0 ? 0 : hottest.get(0).value() / total);
  }
}
