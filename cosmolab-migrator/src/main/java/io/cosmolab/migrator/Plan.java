package io.cosmolab.migrator;

import java.util.ArrayList;
import java.util.List;

/**
 * The preflight's findings over every source document.
 *
 * @param source {@code DB/CONTAINER}
 * @param partitionKey the new key
 * @param documents documents read
 * @param bytes their total JSON size
 * @param logicalPartitions distinct values of the new key
 * @param missing documents lacking a path of the new key (or holding an object or array there)
 * @param missingIds up to 20 of their ids
 * @param collisions ids that would occur more than once in one new logical partition
 * @param overwrites documents that already hold the property the migrator would compute, with
 *     another value
 * @param overwriteIds up to 20 of their ids
 * @param largestPartition the new key with the most bytes, as JSON-array text
 * @param largestPartitionBytes its bytes
 * @param copyRequestUnits the estimated RU to read and write every document (published costs)
 * @param maxRu the RU cap it was planned at; 0 for none
 * @param copySeconds the time to copy at the cap; 0 without one
 * @param advice what the advisor says of the new key over the same documents, at the target's
 *     throughput; null when the target would share its database's throughput
 */
public record Plan(
    String source,
    String partitionKey,
    long documents,
    long bytes,
    long logicalPartitions,
    long missing,
    List<String> missingIds,
    List<Collision> collisions,
    long overwrites,
    List<String> overwriteIds,
    String largestPartition,
    long largestPartitionBytes,
    double copyRequestUnits,
    double maxRu,
    double copySeconds,
    Advice advice) {

  /** The service's limit on a logical partition's storage. */
  public static final long LOGICAL_PARTITION_LIMIT = 20L * 1024 * 1024 * 1024;

  public Plan {
    missingIds = List.copyOf(missingIds);
    collisions = List.copyOf(collisions);
    overwriteIds = List.copyOf(overwriteIds);
  }

  /**
   * The advisor's judgement of the new key over the source's documents: storage, layout and the
   * key's shape; with a workload, also the RU/s each partition must serve at its peak.
   *
   * @param verdict recommended, risky or rejected
   * @param score 0–100
   * @param reasons worst first
   * @param throughputKind manual or autoscale
   * @param throughputRuPerSecond the throughput weighed: the target's (the source's unless given),
   *     or, with a workload and no target throughput given, the least that serves the peak
   * @param physicalPartitions the partitions the target reaches with that throughput and this data
   * @param hotPartitionRatio the fullest partition's storage over the mean
   * @param peak the workload's peak on that layout; null without a workload
   */
  public record Advice(
      String verdict,
      int score,
      List<String> reasons,
      String throughputKind,
      double throughputRuPerSecond,
      int physicalPartitions,
      double hotPartitionRatio,
      Peak peak) {
    public Advice {
      reasons = List.copyOf(reasons);
    }
  }

  /**
   * The workload's busiest second under the new key.
   *
   * @param workload the workload container it came from
   * @param minimumSearched true when the throughput is the least that serves the peak (no {@code
   *     --target-throughput} was given)
   * @param minimumRuPerSecond the least throughput with no physical partition over its budget at
   *     peak; null when none can (a logical partition alone needs more than one physical partition
   *     serves)
   * @param busiestRuPerSecond the busiest physical partition's demand at the throughput weighed
   * @param budgetRuPerSecond each physical partition's share of that throughput
   * @param predicted429Share the share of requests at peak the advisor predicts would get 429
   */
  public record Peak(
      String workload,
      boolean minimumSearched,
      Double minimumRuPerSecond,
      double busiestRuPerSecond,
      double budgetRuPerSecond,
      double predicted429Share) {}

  /** An id that would occur {@code count} times in the new logical partition {@code key}. */
  public record Collision(String key, String id, int count) {}

  /** The findings that stop a run, given how missing paths are handled; empty when it may run. */
  public List<String> blocking(OnMissing onMissing) {
    List<String> out = new ArrayList<>();
    if (missing > 0 && onMissing.mode() == OnMissing.Mode.FAIL) {
      out.add(
          missing
              + " documents lack a path of "
              + partitionKey
              + " (e.g. "
              + missingIds
              + "): pass --on-missing skip or --on-missing default=VALUE");
    }
    if (!collisions.isEmpty()) {
      out.add(
          collisions.size()
              + " ids would collide in one new logical partition (e.g. "
              + collisions.get(0)
              + "): the target would keep one of each; change the key or the ids first");
    }
    if (overwrites > 0) {
      out.add(
          overwrites
              + " documents already hold the computed key property with another value (e.g. "
              + overwriteIds
              + ")");
    }
    if (largestPartitionBytes > LOGICAL_PARTITION_LIMIT) {
      out.add(
          "the largest new logical partition "
              + largestPartition
              + " would hold "
              + largestPartitionBytes
              + " bytes, over the 20 GB limit");
    }
    return out;
  }
}
