package io.cosmolab.engine;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.metrics.PartitionEvent;
import io.cosmolab.engine.metrics.PartitionMetrics;
import io.cosmolab.engine.metrics.RetiredPartition;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.routing.LayoutModel;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.routing.RoutingMap;
import io.cosmolab.engine.routing.SplitPoints;
import io.cosmolab.engine.throughput.PartitionBudget;
import io.cosmolab.engine.throughput.Throughput;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A container's partition layout and the changes to it: splits (requested, for throughput, for
 * storage), merges and the budgets that follow the throughput.
 */
/*
 * Concurrency: compare-and-set of an immutable snapshot, guarded by a read-write lock (LayoutLock,
 * whose shared side writers of different partitions take without meeting). The layout
 * is one immutable value ({@link Layout}) in an atomic reference; a request reads it once and uses
 * that value from start to end. Document writes hold the read side of the lock for their whole
 * run (and then the lock of their partition), so they run side by side; a layout change holds the
 * write side, so it waits for the writes in flight, finds the usage of the logical partitions
 * exact, and publishes the next layout with one set. Readers that take no lock (point reads,
 * queries, the change feed) see the old layout or the new one, never a mix; a budget they charge
 * after a split belongs to a range that is gone, which loses that charge and nothing else.
 *
 * A write never changes the layout while it holds the read side (a read-write lock cannot be
 * upgraded): a write that overfills a partition flags it, and splits it after it let go.
 */
final class PartitionLayout {
  private final CosmosEngine engine;
  private final PartitionKeyDefinition partitionKey;
  private final LogicalPartitions logical;
  private final PartitionMetrics metrics;
  private final HighWaterMarks marks;
  private final AtomicReference<Layout> current;
  private final LayoutLock lock = new LayoutLock();
  private volatile boolean overfull;

  PartitionLayout(
      CosmosEngine engine,
      PartitionKeyDefinition partitionKey,
      LogicalPartitions logical,
      PartitionMetrics metrics,
      RoutingMap routing,
      Throughput throughput,
      HighWaterMarks marks,
      java.util.function.ToLongFunction<PartitionKeyRange> startLsn) {
    this.engine = engine;
    this.partitionKey = partitionKey;
    this.logical = logical;
    this.metrics = metrics;
    this.marks = marks;
    Map<String, Layout.Partition> partitions = new HashMap<>();
    for (PartitionKeyRange r : routing.ranges()) {
      long[] usage = logical.usage(r.range());
      partitions.put(
          r.id(), new Layout.Partition(r, null, usage[0], usage[1], startLsn.applyAsLong(r)));
    }
    this.current = new AtomicReference<>(new Layout(routing, partitions));
    current.set(withBudgets(current.get(), throughput));
  }

  /** The layout now (no lock: for readers). */
  Layout current() {
    return current.get();
  }

  /** Runs a document write: the layout cannot change until it returns. */
  <T> T shared(java.util.function.Function<Layout, T> write) {
    int token = lock.lockShared();
    try {
      return write.apply(current.get());
    } finally {
      lock.unlockShared(token);
    }
  }

  /** Runs a change that needs no write in flight (a layout change, an index build, a TTL rule). */
  <T> T exclusive(Supplier<T> change) {
    lock.lockExclusive();
    try {
      return change.get();
    } finally {
      lock.unlockExclusive();
    }
  }

  /** Called by a write, under the read side: its partition passed its storage limit. */
  void flagOverfull() {
    overfull = true;
  }

  // ---------------------------------------------------------------- changes (under exclusive)

  /** Splits a range at an EPK inside it, or at its midpoint when {@code at} is null. */
  RoutingMap split(String rangeId, String at, Throughput throughput) {
    return exclusive(
        () -> {
          PartitionKeyRange range = current.get().routing().require(rangeId);
          String point = at != null ? at : SplitPoints.midpoint(range.range(), partitionKey);
          if (point == null) {
            throw CosmosError.BAD_REQUEST.exception(
                "partition %s %s holds a single hash value and cannot be split",
                rangeId, range.range());
          }
          applySplit(range, point, "requested", throughput);
          return current.get().routing();
        });
  }

  /** Merges two adjacent ranges. */
  RoutingMap merge(String leftId, String rightId, Throughput throughput) {
    return exclusive(
        () -> {
          Layout before = current.get();
          RoutingMap after = before.routing().merge(leftId, rightId);
          PartitionKeyRange merged = after.rangeFor(before.routing().require(leftId).range().min());
          Layout.Partition l = before.partition(leftId);
          Layout.Partition r = before.partition(rightId);
          Map<String, Layout.Partition> next = new HashMap<>(before.partitions());
          next.remove(leftId);
          next.remove(rightId);
          // the merged partition numbers on from the higher of its parents' LSNs, so a session
          // token or a continuation taken on either parent stays at or below it
          long lsn = Math.max(l.lsn(), r.lsn());
          marks.rangesReplaced(List.of(leftId, rightId), Map.of(merged.id(), lsn));
          next.put(
              merged.id(),
              new Layout.Partition(
                  merged, null, l.documents() + r.documents(), l.bytes() + r.bytes(), lsn));
          publish(new Layout(after, next), throughput);
          retire(before, leftId);
          retire(before, rightId);
          metrics.recordEvent(
              new PartitionEvent(
                  engine.clock().millis(),
                  PartitionEvent.Kind.MERGE,
                  List.of(leftId, rightId),
                  List.of(merged.id()),
                  null,
                  "requested"));
          return after;
        });
  }

  /**
   * A new throughput: every partition gets RU/s ÷ P, and partitions split (the widest first, each
   * at its midpoint) until {@code P = ceil(RU/s ÷ 10,000)}; a lower throughput never merges.
   */
  RoutingMap applyThroughput(Throughput throughput) {
    return exclusive(
        () -> {
          int target =
              (int)
                  Math.ceil(
                      throughput.maxRuPerSecond() / engine.limits().physicalPartitionRu() - 1e-9);
          while (current.get().routing().size() < target) {
            PartitionKeyRange widest =
                LayoutModel.nextThroughputSplit(current.get().routing(), partitionKey);
            if (widest == null) {
              break;
            }
            applySplit(
                widest,
                SplitPoints.midpoint(widest.range(), partitionKey),
                "throughput "
                    + io.cosmolab.engine.throughput.Throughput.format(throughput.maxRuPerSecond())
                    + " RU/s",
                throughput);
          }
          publish(current.get(), throughput);
          return current.get().routing();
        });
  }

  /**
   * After a write let go of the layout: splits the partitions that passed their storage limit at
   * the median of their stored bytes, and reports (once) those that cannot split because one
   * logical partition holds it all.
   */
  void splitOverfull(Throughput throughput) {
    if (!overfull) {
      return;
    }
    overfull = false;
    // looked at without the lock first, so a partition that cannot split does not stop every
    // write that follows (each of which would flag it again)
    if (splitPoint(current.get()) == null) {
      return;
    }
    exclusive(
        () -> {
          for (int guard = 0; guard < 64; guard++) {
            String[] split = splitPoint(current.get());
            if (split == null) {
              break;
            }
            Layout.Partition p = current.get().partition(split[0]);
            applySplit(
                p.range,
                split[1],
                String.format(
                    "storage %d bytes above the %d-byte limit",
                    p.bytes(), engine.limits().physicalPartitionBytes()),
                throughput);
          }
          return null;
        });
  }

  /** {range id, EPK} of an overfull partition that can split, or null; reports blocked ones. */
  private String[] splitPoint(Layout layout) {
    long limit = engine.limits().physicalPartitionBytes();
    for (Layout.Partition p : layout.partitions().values()) {
      if (p.bytes() <= limit) {
        continue;
      }
      String at =
          LayoutModel.storageSplitPoint(p.bytes(), limit, logical.keyBytes(p.range.range()));
      if (at != null) {
        return new String[] {p.range.id(), at};
      }
      if (!logical.blockedReported(p.range.id())) {
        metrics.recordEvent(
            new PartitionEvent(
                engine.clock().millis(),
                PartitionEvent.Kind.SPLIT_BLOCKED,
                List.of(p.range.id()),
                List.of(),
                null,
                String.format(
                    "storage %d bytes above the %d-byte limit, but one logical partition"
                        + " holds it all and a logical partition cannot be split",
                    p.bytes(), limit)));
      }
    }
    return null;
  }

  private void applySplit(
      PartitionKeyRange parent, String at, String reason, Throughput throughput) {
    Layout before = current.get();
    RoutingMap after = before.routing().split(parent.id(), at);
    PartitionKeyRange left = after.rangeFor(parent.range().min());
    PartitionKeyRange right = after.rangeFor(at);
    Map<String, Layout.Partition> next = new HashMap<>(before.partitions());
    next.remove(parent.id());
    // both children number on from the parent's LSN, as the service's do
    long lsn = before.partition(parent.id()).lsn();
    marks.rangesReplaced(List.of(parent.id()), Map.of(left.id(), lsn, right.id(), lsn));
    for (PartitionKeyRange child : List.of(left, right)) {
      long[] usage = logical.usage(child.range());
      next.put(child.id(), new Layout.Partition(child, null, usage[0], usage[1], lsn));
    }
    publish(new Layout(after, next), throughput);
    retire(before, parent.id());
    metrics.recordEvent(
        new PartitionEvent(
            engine.clock().millis(),
            PartitionEvent.Kind.SPLIT,
            List.of(parent.id()),
            List.of(left.id(), right.id()),
            at,
            reason));
  }

  /** Records that range {@code id} of layout {@code before} is gone, with its last budget. */
  private void retire(Layout before, String id) {
    Layout.Partition p = before.partition(id);
    metrics.recordRetired(
        new RetiredPartition(
            id,
            p.range.range(),
            p.budget == null ? 0 : p.budget.ruPerSecond(),
            engine.clock().millis()));
  }

  private void publish(Layout next, Throughput throughput) {
    current.set(withBudgets(next, throughput));
    engine.catalogChanged();
  }

  /**
   * Every partition gets RU/s ÷ P: a partition that kept its range keeps its bucket at the new
   * rate; a new range gets a new one. Null budgets under the database's shared throughput.
   */
  private Layout withBudgets(Layout layout, Throughput throughput) {
    Map<String, Layout.Partition> next = new HashMap<>();
    long now = engine.clock().millis();
    double perPartition =
        throughput == null ? 0 : throughput.maxRuPerSecond() / layout.routing().size();
    for (Layout.Partition p : layout.partitions().values()) {
      PartitionBudget b = null;
      if (throughput != null) {
        b = p.budget;
        if (b != null) {
          b.setRuPerSecond(perPartition, now);
        } else {
          b = new PartitionBudget(perPartition, engine.burstCapacity(), engine.limits(), now);
        }
      }
      next.put(p.range.id(), p.budget == b ? p : p.withBudget(b));
    }
    return new Layout(layout.routing(), next);
  }
}
