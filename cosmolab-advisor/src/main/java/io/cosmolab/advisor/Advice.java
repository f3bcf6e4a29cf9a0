package io.cosmolab.advisor;

import io.cosmolab.advisor.stats.CandidateStats;
import java.util.List;

/**
 * What the advisor found for one candidate key. Weights are projected from the sample to the full
 * data set ({@link AdvisorOptions#projectedDocuments()}).
 *
 * @param candidate the key, e.g. {@code /tenantId} or {@code /tenantId > /userId}
 * @param kind SINGLE, SYNTHETIC or HIERARCHICAL
 * @param distinct estimated distinct values in the sample, with its 2σ bounds
 * @param topByDocuments the heaviest keys by documents, with each one's share of all documents
 * @param topByBytes the heaviest keys by bytes, projected
 * @param missingShare the share of documents that cannot supply the key
 * @param largestLogicalPartitionBytes the biggest logical partition, projected (the sketch's
 *     estimate: exact while the keys are fewer than its counters)
 * @param physicalPartitions the physical partitions the container would have
 * @param partitionShares each physical partition's share of the storage
 * @param hotPartitionRatio the busiest partition's storage over the mean (1 = even)
 * @param monotonicity how much the key follows arrival order (0.5 unrelated, 1 a clock)
 * @param peakRuPerSecond the busiest partition's demand at peak (0 without a workload)
 * @param budgetRuPerSecond each partition's share of the throughput
 * @param predicted429Share the share of peak requests beyond their partition's budget
 * @param minimumRuPerSecond the throughput that would serve the busiest partition at peak
 * @param score 0–100, higher is better
 * @param verdict recommended, risky or rejected
 * @param reasons why, in the terms of the failure each number predicts
 */
public record Advice(
    String candidate,
    String kind,
    Range distinct,
    List<Share> topByDocuments,
    List<Share> topByBytes,
    double missingShare,
    long largestLogicalPartitionBytes,
    int physicalPartitions,
    List<Double> partitionShares,
    double hotPartitionRatio,
    double monotonicity,
    double peakRuPerSecond,
    double budgetRuPerSecond,
    double predicted429Share,
    double minimumRuPerSecond,
    int score,
    String verdict,
    List<String> reasons) {

  /** An estimate and its bounds. */
  public record Range(double estimate, double lower, double upper) {}

  /** A key's weight and its share of the total. */
  public record Share(String key, long weight, double share) {}

  static Share share(CandidateStats.Heavy h, double total, double factor) {
    return new Share(
        h.key(), Math.round(h.estimate() * factor), total == 0 ? 0 : h.estimate() / total);
  }
}
