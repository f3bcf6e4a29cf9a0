package io.cosmolab.advisor;

import io.cosmolab.advisor.stats.CandidateStats;
import java.util.List;

/**
 * What the advisor found for one candidate key: the fields of the JSON schema {@code
 * cosmolab.advise/v1} ({@code docs/advisor.md} documents each). Weights are projected from the
 * sample to the container's documents now, and at the horizon where the name says so.
 *
 * @param candidate the key, e.g. {@code /tenantId}, {@code /tenantId+/userId} (synthetic), {@code
 *     /tenantId > /userId} (hierarchical), {@code /serverId+bucket(20)}
 * @param kind SINGLE, SYNTHETIC, HIERARCHICAL or BUCKETED
 * @param score 0–100, higher is better
 * @param verdict recommended (score ≥ 80), risky (≥ 50) or rejected
 * @param reasons why, worst first, in the terms of the failure each number predicts
 * @param distinct distinct key values in the sample, with 2σ bounds
 * @param missingShare the share of documents that cannot supply the key
 * @param monotonicity how much the key follows arrival order (0.5 unrelated, 1 a clock)
 * @param topByDocuments the heaviest keys by documents (weight: documents now)
 * @param topByBytes the heaviest keys by bytes (weight: bytes now)
 * @param topByRu the keys with the most RU/s at peak (weight: RU/s; empty without a workload)
 * @param storage sizes now and at the horizon
 * @param layout the physical partitions and how the storage falls on them
 * @param peak the RU/s each partition must serve at peak (null without a workload)
 * @param routing how reads and writes reach the partitions
 */
public record Advice(
    String candidate,
    String kind,
    int score,
    String verdict,
    List<String> reasons,
    Range distinct,
    double missingShare,
    double monotonicity,
    List<Share> topByDocuments,
    List<Share> topByBytes,
    List<Share> topByRu,
    Storage storage,
    Layout layout,
    Peak peak,
    Routing routing) {

  /** An estimate and its bounds. */
  public record Range(double estimate, double lower, double upper) {}

  /** A key's weight and its share of the total. */
  public record Share(String key, double weight, double share) {}

  /**
   * Storage by logical partition.
   *
   * @param documentsNow documents the container holds now (the sample, or as the workload says)
   * @param documentsAtHorizon with the growth to the horizon
   * @param largestLogicalPartitionNowBytes the biggest key's bytes now
   * @param largestLogicalPartitionAtHorizonBytes and at the horizon, growing like the rest [I]
   * @param gini the Gini coefficient of storage over key values: 0 all equal, near 1 one key
   * @param lorenz the cumulative share of storage held by the smallest share of keys
   * @param logicalPartitionSizes how many keys fall in each size class at the horizon
   */
  public record Storage(
      long documentsNow,
      long documentsAtHorizon,
      long largestLogicalPartitionNowBytes,
      long largestLogicalPartitionAtHorizonBytes,
      double gini,
      List<Point> lorenz,
      List<SizeClass> logicalPartitionSizes) {}

  /** A point of a Lorenz curve: the smallest {@code keys} share of keys holds {@code share}. */
  public record Point(double keys, double share) {}

  /** Keys whose logical partition is below {@code upToBytes} (and above the previous class). */
  public record SizeClass(String label, long upToBytes, long keys) {}

  /**
   * @param throughputRuPerSecond the throughput weighed (stated, or the minimum found)
   * @param throughputKind manual or autoscale
   * @param physicalPartitions by the service's rule: ceil(RU/s ÷ 6,000; autoscale ÷ 10,000), and at
   *     least one per 50 GB at the horizon
   * @param storageShares each partition's share of the storage at the horizon
   * @param hotPartitionRatio the fullest partition's storage over the mean (1 = even)
   */
  public record Layout(
      double throughputRuPerSecond,
      String throughputKind,
      int physicalPartitions,
      List<Double> storageShares,
      double hotPartitionRatio) {}

  /**
   * @param ruPerSecondByPartition each partition's demand at peak
   * @param busiestRuPerSecond the largest of them
   * @param budgetRuPerSecond each partition's share of the throughput
   * @param predicted429Share the share of requests that would be answered with 429
   * @param minimumRuPerSecond the least throughput with no partition over budget, or null when none
   *     can: a key alone needs more than the 10,000 RU/s of a physical partition
   * @param hotPartitionRatio the busiest partition's RU/s over the mean (1 = even)
   * @param gini the Gini coefficient of RU/s over key values
   * @param lorenz the cumulative share of RU/s taken by the least busy share of keys: the keys the
   *     workload model places one by one, the rest shared equally by the other keys [I]
   */
  public record Peak(
      List<Double> ruPerSecondByPartition,
      double busiestRuPerSecond,
      double budgetRuPerSecond,
      double predicted429Share,
      Double minimumRuPerSecond,
      double hotPartitionRatio,
      double gini,
      List<Point> lorenz) {}

  /**
   * @param singlePartitionReadShare reads (point reads and queries, by rate) that visit one logical
   *     partition
   * @param targetedReadShare reads that visit a few (IN lists, hierarchical prefixes, buckets)
   * @param fanOutReadShare reads that visit every partition
   * @param fanOutRuPerSecond the RU/s that visiting more than one partition adds (2.5 RU each)
   * @param keylessWritesPerSecond creates and upserts whose caller cannot supply the key
   * @param keyChangingUpdatesPerSecond updates that change a key field (a delete and a create)
   * @param readMultiplier requests a read by the original key needs (B for a key with B buckets)
   * @param alternatives for each query that visits every partition, what the service offers instead
   */
  public record Routing(
      double singlePartitionReadShare,
      double targetedReadShare,
      double fanOutReadShare,
      double fanOutRuPerSecond,
      double keylessWritesPerSecond,
      double keyChangingUpdatesPerSecond,
      int readMultiplier,
      List<Alternative> alternatives) {}

  /**
   * What serves one cross-partition query from one partition instead of visiting them all, and what
   * each costs [I]: a global secondary index (a container the service keeps in sync, keyed by the
   * query's filter) pays a write for every write to this container; a change-feed materialized view
   * (the same, kept by the application) pays those writes and reading each change from the feed
   * once, at a point read's charge.
   *
   * @param operation the query
   * @param ratePerSecond its requests per second
   * @param key the paths its filter fixes by equality: the key the index or view would have
   * @param fanOutRuPerSecond what visiting every partition adds to it now (2.5 RU per extra one)
   * @param globalSecondaryIndexRuPerSecond the index container's writes
   * @param materializedViewRuPerSecond the view's writes and feed reads
   */
  public record Alternative(
      String operation,
      double ratePerSecond,
      List<String> key,
      double fanOutRuPerSecond,
      double globalSecondaryIndexRuPerSecond,
      double materializedViewRuPerSecond) {}

  static Share share(CandidateStats.Heavy h, double total, double factor) {
    return new Share(
        h.key(), Math.round(h.estimate() * factor), total == 0 ? 0 : h.estimate() / total);
  }

  /** The largest logical partition at the horizon (shorthand). */
  public long largestLogicalPartitionBytes() {
    return storage.largestLogicalPartitionAtHorizonBytes();
  }

  /** The physical partitions (shorthand). */
  public int physicalPartitions() {
    return layout.physicalPartitions();
  }

  /** The predicted share of 429s at peak, 0 without a workload (shorthand). */
  public double predicted429Share() {
    return peak == null ? 0 : peak.predicted429Share();
  }
}
