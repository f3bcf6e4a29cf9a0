package io.cosmolab.advisor.load;

import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.stats.CandidateStats;
import io.cosmolab.advisor.stats.EpkBuckets;
import io.cosmolab.engine.limits.Limits;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.routing.LayoutModel;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.routing.RoutingMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * The physical partitions a candidate's container reaches by the horizon, as the service would
 * reach them: created with the partitions its throughput makes, then split for storage at the
 * median of the stored bytes wherever a partition passes 50 GB. The splits are the engine's own
 * rules ({@link LayoutModel}), so the layout the advisor judges is the one {@code cosmolab serve}
 * and the rehearsal reach with the same data.
 *
 * <p>The model needs the logical partitions in EPK order. The statistics keep storage per EPK
 * bucket exactly, so each bucket's bytes (scaled to the horizon) stand as one logical partition at
 * the bucket's start; a storage split then falls on a bucket boundary, 1/4,096 of the hash space.
 * For a hierarchical key that is too coarse: every key of one first-level value shares a bucket,
 * and a large tenant is exactly the data that must split inside its prefix. There the sampled
 * documents ({@link Reservoir}) share the bucket's bytes out over their whole EPKs, by their sizes,
 * so the median can fall between two users of one tenant. Assumptions [I]: the sample's documents
 * in a bucket stand for the bucket's; growth to the horizon keeps the key distribution (each key's
 * share of the bytes), so splitting the projected data at once reaches the layout that splitting as
 * it grows would (a median does not move when every key grows alike); and inside a bucket, requests
 * and documents follow the bytes.
 *
 * <p>Each layout comes with its bounds in fractional buckets ({@link Layout#bounds()}), which is
 * how per-bucket loads are summed per partition ({@link EpkBuckets#sum(double[], double[])}).
 */
public final class Layouts {
  /**
   * One layout.
   *
   * @param routing its ranges
   * @param bounds where each range starts, in buckets (a fraction inside one), then {@link
   *     EpkBuckets#COUNT}
   * @param blocked ranges over 50 GB that one logical partition fills, so they cannot split
   */
  @SuppressWarnings("ArrayRecordComponent") // a computed value, never compared
  public record Layout(RoutingMap routing, double[] bounds, Set<String> blocked) {
    /** Its physical partitions. */
    public int size() {
      return routing.size();
    }
  }

  private final PartitionKeyDefinition definition;
  private final long partitionBytes;
  private final NavigableMap<String, Long> logical = new TreeMap<>();
  private final double[] bucketBytes = new double[EpkBuckets.COUNT];
  private final Map<Integer, Layout> created = new HashMap<>();

  private Layouts(PartitionKeyDefinition definition, long partitionBytes) {
    this.definition = definition;
    this.partitionBytes = partitionBytes;
  }

  /**
   * The layouts of one candidate.
   *
   * @param reservoir the sampled documents (null: bucket resolution only)
   * @param factor how many documents at the horizon each counted document stands for
   */
  public static Layouts of(
      CandidateStats stats, Reservoir reservoir, double factor, Limits limits) {
    Candidate candidate = stats.candidate();
    Layouts out = new Layouts(candidate.definition(), limits.physicalPartitionBytes());
    double[] bytes = stats.bytesPerBucket();
    int c = reservoir == null ? -1 : reservoir.candidateIndex(candidate);
    Map<Integer, Map<String, Long>> sampled = new HashMap<>(); // bucket -> EPK -> sampled bytes
    if (c >= 0 && candidate.kind() == Candidate.Kind.HIERARCHICAL) {
      for (Reservoir.Sampled d : reservoir.sample()) {
        PartitionKeyValue key = d.hierarchicalKeys()[c];
        if (key != null && d.buckets()[c] >= 0) {
          sampled
              .computeIfAbsent(d.buckets()[c], b -> new TreeMap<>())
              .merge(
                  EffectivePartitionKey.of(candidate.definition(), key),
                  (long) Math.max(1, d.size()),
                  Long::sum);
        }
      }
    }
    for (int b = 0; b < bytes.length; b++) {
      long projected = Math.round(bytes[b] * factor);
      if (projected == 0) {
        continue;
      }
      out.bucketBytes[b] = projected;
      Map<String, Long> inside = sampled.get(b);
      if (inside == null) {
        out.logical.merge(bucketStart(b), projected, Long::sum);
        continue;
      }
      long total = 0;
      for (long s : inside.values()) {
        total += s;
      }
      long given = 0;
      int left = inside.size();
      for (Map.Entry<String, Long> e : inside.entrySet()) {
        // the last one takes the rounding, so the bucket's bytes are all placed
        long share =
            --left == 0
                ? projected - given
                : Math.round(projected * (e.getValue() / (double) total));
        given += share;
        if (share > 0) {
          out.logical.merge(e.getKey(), share, Long::sum);
        }
      }
    }
    return out;
  }

  /**
   * The layout a container created with {@code partitions} even partitions reaches: storage splits
   * wherever a partition holds more than 50 GB of the projected data.
   */
  public Layout created(int partitions) {
    return created.computeIfAbsent(partitions, this::evolve);
  }

  private Layout evolve(int partitions) {
    RoutingMap even = EpkBuckets.evenLayout(definition, partitions);
    double[] evenBounds = bounds(even);
    double[] stored = EpkBuckets.sum(bucketBytes, evenBounds);
    LayoutModel model = null;
    for (int i = 0; i < stored.length; i++) {
      if (stored[i] <= partitionBytes) {
        continue;
      }
      if (model == null) {
        model = new LayoutModel(definition, even, partitionBytes);
      }
      // only the logical partitions of an overfull range: a split never reaches another range
      for (Map.Entry<String, Long> e : within(even.ranges().get(i).range()).entrySet()) {
        model.place(e.getKey(), e.getValue());
      }
    }
    if (model == null) {
      return new Layout(even, evenBounds, Set.of()); // nothing to split
    }
    model.settle();
    return new Layout(model.routing(), bounds(model.routing()), model.blocked());
  }

  /** The projected bytes of the logical partitions inside {@code range}. */
  public long bytesWithin(EpkRange range) {
    long sum = 0;
    for (long b : within(range).values()) {
      sum += b;
    }
    return sum;
  }

  /** The projected logical partitions of {@code range} (every EPK sorts below its "FF" end). */
  private NavigableMap<String, Long> within(EpkRange range) {
    return logical.subMap(range.min(), true, range.max(), false);
  }

  /** Where each range of {@code routing} starts, in fractional buckets, then the end. */
  private double[] bounds(RoutingMap routing) {
    List<PartitionKeyRange> ranges = routing.ranges();
    double[] out = new double[ranges.size() + 1];
    for (int i = 0; i < ranges.size(); i++) {
      out[i] = position(ranges.get(i).range().min());
    }
    out[ranges.size()] = EpkBuckets.COUNT;
    return out;
  }

  /**
   * A range start's place in fractional buckets: its bucket, plus the share of that bucket's
   * projected bytes that lies below it (so summing any per-bucket load over a range gives the range
   * its part of a bucket a boundary cuts, by bytes).
   */
  double position(String epk) {
    if (epk.isEmpty()) {
      return 0;
    }
    int b = EpkBuckets.of(epk);
    if (bucketBytes[b] == 0) {
      return b;
    }
    long below = 0;
    for (long x : logical.subMap(bucketStart(b), true, epk, false).values()) {
      below += x;
    }
    return b + Math.min(1, below / bucketBytes[b]);
  }

  /** The first EPK of bucket {@code b}: its leading 32 bits, padded to a V2 hash's 32 digits. */
  static String bucketStart(int b) {
    long top = (long) b * (0x40000000L / EpkBuckets.COUNT);
    return String.format(Locale.ROOT, "%08X", top) + "0".repeat(24);
  }
}
