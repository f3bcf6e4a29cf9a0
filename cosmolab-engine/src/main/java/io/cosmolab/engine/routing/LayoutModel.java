package io.cosmolab.engine.routing;

import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * The physical partitions a container reaches, without the container: the service's split rules
 * applied to logical partitions given as (EPK, bytes). The engine's own layout ({@code
 * PartitionLayout}) takes its split decisions from the two rules here ({@link #nextThroughputSplit}
 * and {@link #storageSplitPoint}), and the advisor runs this model over the data it projects, so
 * the layout the advisor predicts and the one the emulator reaches are one piece of code.
 *
 * <ul>
 *   <li>Throughput splits: while there are fewer partitions than {@code ceil(RU/s ÷ 10,000)}, the
 *       widest splittable range splits at its key-space midpoint ({@link SplitPoints#midpoint}).
 *   <li>Storage splits: a partition over its byte limit splits at the logical-partition boundary
 *       nearest the median of its stored bytes ({@link SplitPoints#storageMedian}); for a
 *       hierarchical key that boundary can lie inside one first-level value, which is how a large
 *       tenant comes to span several physical partitions. A partition whose bytes are all one
 *       logical partition cannot split: it is reported as blocked.
 * </ul>
 *
 * <p>Mutable and not thread-safe: a simulation, fed in the order the writes happen. Fed the same
 * writes as the engine, it reaches the engine's ranges (the engine splits after each write that
 * overfills a partition, and so does {@link #add}).
 */
public final class LayoutModel {
  /** A split the model made: the parent range, the EPK it was cut at, and why. */
  public record Split(String parentId, String at, Cause cause) {}

  /** Why a partition split. */
  public enum Cause {
    /** the throughput asked for more partitions */
    THROUGHPUT,
    /** the partition held more than its byte limit */
    STORAGE
  }

  private final PartitionKeyDefinition definition;
  private final long partitionBytes;
  private final NavigableMap<String, Long> logical = new TreeMap<>();
  private final Map<String, Long> bytesPerRange = new HashMap<>();
  private final List<Split> splits = new ArrayList<>();
  private final Set<String> blocked = new LinkedHashSet<>();
  private RoutingMap routing;

  /**
   * @param initial the layout the container starts with
   * @param partitionBytes a physical partition's byte limit ({@code Limits.physicalPartitionBytes})
   */
  public LayoutModel(PartitionKeyDefinition definition, RoutingMap initial, long partitionBytes) {
    if (partitionBytes <= 0) {
      throw new IllegalArgumentException("partitionBytes must be positive: " + partitionBytes);
    }
    this.definition = definition;
    this.partitionBytes = partitionBytes;
    this.routing = initial;
    for (PartitionKeyRange r : initial.ranges()) {
      bytesPerRange.put(r.id(), 0L);
    }
  }

  /**
   * One logical partition grows by {@code bytes} (negative when it shrinks); then every partition
   * over its limit splits, as the engine splits after a write.
   */
  public void add(String epk, long bytes) {
    place(epk, bytes);
    settle();
  }

  /**
   * Places bytes without splitting: for loading a whole projected data set before {@link #settle}.
   */
  public void place(String epk, long bytes) {
    if (bytes == 0) {
      return;
    }
    long now = logical.getOrDefault(epk, 0L) + bytes;
    if (now < 0) {
      throw new IllegalArgumentException(
          "logical partition " + epk + " would hold " + now + " bytes");
    }
    if (now == 0) {
      logical.remove(epk);
    } else {
      logical.put(epk, now);
    }
    bytesPerRange.merge(routing.rangeFor(epk).id(), bytes, Long::sum);
  }

  /** Splits for throughput until there are at least {@code partitions} (or nothing can split). */
  public void raiseTo(int partitions) {
    while (routing.size() < partitions) {
      PartitionKeyRange widest = nextThroughputSplit(routing, definition);
      if (widest == null) {
        return;
      }
      split(widest, SplitPoints.midpoint(widest.range(), definition), Cause.THROUGHPUT);
    }
  }

  /** Splits every partition over its byte limit, children too, until none is or none can. */
  public void settle() {
    boolean changed = true;
    while (changed) {
      changed = false;
      for (PartitionKeyRange r : routing.ranges()) {
        long bytes = bytesPerRange.getOrDefault(r.id(), 0L);
        String at = storageSplitPoint(bytes, partitionBytes, keyBytes(r.range()));
        if (at != null) {
          split(r, at, Cause.STORAGE);
          changed = true;
          break; // the map changed: walk the new one
        }
        if (bytes > partitionBytes) {
          blocked.add(r.id()); // over its limit, and one logical partition holds it all
        }
      }
    }
  }

  private void split(PartitionKeyRange parent, String at, Cause cause) {
    routing = routing.split(parent.id(), at);
    bytesPerRange.remove(parent.id());
    for (PartitionKeyRange child :
        List.of(routing.rangeFor(parent.range().min()), routing.rangeFor(at))) {
      long sum = 0;
      for (long b : within(child.range()).values()) {
        sum += b;
      }
      bytesPerRange.put(child.id(), sum);
    }
    splits.add(new Split(parent.id(), at, cause));
  }

  /** The logical partitions of {@code range} (every EPK sorts below its "FF" end). */
  private NavigableMap<String, Long> within(EpkRange range) {
    return logical.subMap(range.min(), true, range.max(), false);
  }

  private Iterator<SplitPoints.KeyBytes> keyBytes(EpkRange range) {
    return within(range).entrySet().stream()
        .map(e -> new SplitPoints.KeyBytes(e.getKey(), e.getValue()))
        .iterator();
  }

  /** The layout now. */
  public RoutingMap routing() {
    return routing;
  }

  /** The bytes a range of {@link #routing()} holds. */
  public long bytes(String rangeId) {
    return bytesPerRange.getOrDefault(rangeId, 0L);
  }

  /** Every split made so far, in order. */
  public List<Split> splits() {
    return Collections.unmodifiableList(splits);
  }

  /** Ranges that were over their limit and could not split: one logical partition holds them. */
  public Set<String> blocked() {
    Set<String> live = new LinkedHashSet<>();
    for (String id : blocked) {
      if (routing.byId(id).isPresent()) {
        live.add(id);
      }
    }
    return live;
  }

  // ------------------------------------------------------------- the rules the engine shares

  /**
   * The range a throughput split cuts next: the widest (in the first level's hash space) that can
   * be cut, or null when every range holds a single hash value.
   */
  public static PartitionKeyRange nextThroughputSplit(
      RoutingMap routing, PartitionKeyDefinition definition) {
    PartitionKeyRange best = null;
    BigInteger bestWidth = null;
    for (PartitionKeyRange r : routing.ranges()) {
      if (SplitPoints.midpoint(r.range(), definition) == null) {
        continue;
      }
      BigInteger w = SplitPoints.width(r.range());
      if (bestWidth == null || w.compareTo(bestWidth) > 0) {
        best = r;
        bestWidth = w;
      }
    }
    return best;
  }

  /**
   * Where a partition holding {@code bytes} splits for storage: null while it is within {@code
   * limit}, and null when one logical partition holds it all (it can never split).
   *
   * @param logicalPartitions the partition's logical partitions in EPK order
   */
  public static String storageSplitPoint(
      long bytes, long limit, Iterator<SplitPoints.KeyBytes> logicalPartitions) {
    return bytes <= limit ? null : SplitPoints.storageMedian(logicalPartitions, bytes);
  }
}
