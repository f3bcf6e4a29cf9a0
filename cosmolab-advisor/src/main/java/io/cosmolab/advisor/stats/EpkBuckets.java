package io.cosmolab.advisor.stats;

import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.routing.RoutingMap;
import io.cosmolab.engine.routing.SplitPoints;

/**
 * The V2 hash space cut into {@value #COUNT} equal buckets. Statistics are kept per bucket, so the
 * load of any layout follows by summing the buckets inside each of its ranges.
 */
public final class EpkBuckets {
  /** Fine enough for layouts of up to a few hundred partitions. */
  public static final int COUNT = 4096;

  /** V2 hashes keep the top two bits clear: the first 8 hex digits lie below this. */
  private static final long HASH_SPACE = 0x40000000L;

  private EpkBuckets() {}

  /** The bucket of an EPK (hex). */
  public static int of(String epk) {
    if (epk.length() < 8) {
      return 0;
    }
    long top = Long.parseLong(epk.substring(0, 8), 16);
    return (int) Math.min(COUNT - 1, top * COUNT / HASH_SPACE);
  }

  /** The bucket of an EPK's leading bits ({@code EffectivePartitionKey.leadingBits}). */
  public static int ofLeadingBits(long bits) {
    return (int) (bits >>> 50); // 62 significant bits: the top 12 pick one of 4,096
  }

  /**
   * The engine's even layout of {@code partitions} for a key: the hash space cut as the service
   * cuts it at creation and on throughput splits.
   */
  public static RoutingMap evenLayout(PartitionKeyDefinition definition, int partitions) {
    return RoutingMap.of(SplitPoints.evenBoundaries(definition, partitions));
  }

  /**
   * Where each range of {@code layout} starts, in buckets, plus {@link #COUNT} at the end: range i
   * holds buckets {@code [bounds[i], bounds[i + 1])}. A boundary inside a bucket rounds down, so a
   * range's share is off by at most one bucket.
   */
  public static int[] bounds(RoutingMap layout) {
    int[] out = new int[layout.ranges().size() + 1];
    int i = 0;
    for (PartitionKeyRange r : layout.ranges()) {
      out[i++] = r.range().min().isEmpty() ? 0 : of(r.range().min());
    }
    out[i] = COUNT;
    return out;
  }

  /** Sums {@code perBucket} over each range of {@code bounds}. */
  public static double[] sum(double[] perBucket, int[] bounds) {
    double[] out = new double[bounds.length - 1];
    for (int p = 0; p < out.length; p++) {
      for (int b = bounds[p]; b < bounds[p + 1]; b++) {
        out[p] += perBucket[b];
      }
    }
    return out;
  }
}
