package io.cosmolab.rehearsal;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * One candidate key's rehearsal.
 *
 * @param candidate the key as written: {@code /a}, {@code /a+/b}, {@code /a>/b}, {@code /a*10}
 * @param name the key as the advisor names it ({@code /a > /b}, {@code /a+bucket(10)})
 * @param kind SINGLE, SYNTHETIC, HIERARCHICAL or BUCKETED
 * @param verdict recommended, risky or rejected (the advisor's words)
 * @param reasons why, worst first
 * @param headline the numbers that decide it
 * @param phases latencies and failures per phase
 * @param timeline the heat map and the per-step series
 */
@JsonPropertyOrder({
  "candidate",
  "name",
  "kind",
  "verdict",
  "reasons",
  "headline",
  "phases",
  "timeline"
})
public record CandidateResult(
    String candidate,
    String name,
    String kind,
    String verdict,
    List<String> reasons,
    Headline headline,
    List<PhaseStats> phases,
    Timeline timeline) {

  public CandidateResult {
    reasons = List.copyOf(reasons);
    phases = List.copyOf(phases);
  }

  /**
   * The numbers that decide a candidate, at full scale.
   *
   * @param requests requests the application sent
   * @param attempts requests sent to the service, retries included
   * @param throttledAttempts attempts answered 429
   * @param peak429Share the highest share of attempts answered 429 in one step of the timeline
   * @param failedRequests requests that failed: out of retries, or refused for good
   * @param failedThrottled of those, out of retries on 429
   * @param failedStorage of those, 403/1014: the logical partition is full
   * @param notFound reads of documents whose create had failed (404), not counted as failures
   * @param p50Millis end-to-end latency, median
   * @param p99Millis end-to-end latency, 99th percentile
   * @param p999Millis end-to-end latency, 99.9th percentile
   * @param ruUnusedWhileThrottling RU/s of the container's budget left unused, on average, in the
   *     seconds when some partition answered 429
   * @param ruUnusedShareWhileThrottling that, as a share of the provisioned RU/s
   * @param largestLogicalPartitionBytes the largest logical partition at the end
   * @param largestLogicalPartitionKey its key, as JSON
   * @param logicalPartitionLimitBytes 20 GB
   * @param splits physical partition splits during the rehearsal
   * @param physicalPartitionsAtStart physical partitions at the start
   * @param physicalPartitionsAtEnd physical partitions at the end
   * @param hottestKey the logical partition that consumed most RU, as JSON
   * @param hottestKeyRuShare its share of all RU consumed
   */
  public record Headline(
      long requests,
      long attempts,
      long throttledAttempts,
      double peak429Share,
      long failedRequests,
      long failedThrottled,
      long failedStorage,
      long notFound,
      double p50Millis,
      double p99Millis,
      double p999Millis,
      double ruUnusedWhileThrottling,
      double ruUnusedShareWhileThrottling,
      long largestLogicalPartitionBytes,
      String largestLogicalPartitionKey,
      long logicalPartitionLimitBytes,
      int splits,
      int physicalPartitionsAtStart,
      int physicalPartitionsAtEnd,
      String hottestKey,
      double hottestKeyRuShare) {}

  /**
   * One phase of one candidate, at full scale; a request counts in the phase it started in.
   *
   * @param phase the phase's name
   * @param requests requests started in it
   * @param throttledAttempts attempts answered 429
   * @param failedRequests requests that failed
   * @param p50Millis end-to-end latency, median
   * @param p99Millis 99th percentile
   * @param p999Millis 99.9th percentile
   * @param maxMillis the slowest request
   */
  public record PhaseStats(
      String phase,
      long requests,
      long throttledAttempts,
      long failedRequests,
      double p50Millis,
      double p99Millis,
      double p999Millis,
      double maxMillis) {}
}
