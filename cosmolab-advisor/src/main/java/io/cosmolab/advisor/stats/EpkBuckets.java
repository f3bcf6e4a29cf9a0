package io.cosmolab.advisor.stats;

import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
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
   * Sums {@code perBucket} over each range of {@code bounds}: range i runs from position {@code
   * bounds[i]} to {@code bounds[i + 1]}, in buckets, where a fraction is that part of a bucket (a
   * boundary inside it takes its share of the bucket's value).
   */
  public static double[] sum(double[] perBucket, double[] bounds) {
    double[] below = new double[perBucket.length + 1]; // below[b]: the sum of buckets before b
    for (int b = 0; b < perBucket.length; b++) {
      below[b + 1] = below[b] + perBucket[b];
    }
    double[] out = new double[bounds.length - 1];
    double start = prefix(perBucket, below, bounds[0]);
    for (int p = 0; p < out.length; p++) {
      double end = prefix(perBucket, below, bounds[p + 1]);
      out[p] = end - start;
      start = end;
    }
    return out;
  }

  /** The sum of {@code perBucket} below position {@code at}. */
  private static double prefix(double[] perBucket, double[] below, double at) {
    int whole = (int) Math.min(perBucket.length, Math.floor(at));
    return whole < perBucket.length
        ? below[whole] + (at - whole) * perBucket[whole]
        : below[perBucket.length];
  }
}
