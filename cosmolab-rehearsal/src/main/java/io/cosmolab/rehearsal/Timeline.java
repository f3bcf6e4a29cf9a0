package io.cosmolab.rehearsal;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * One candidate's rehearsal over time, in steps of {@code stepSeconds}: the heat map (one lane per
 * physical partition that existed, with its normalized RU and 429s per step), the marks (splits;
 * alerts), and the per-step series of the whole container.
 *
 * @param stepSeconds the width of a step
 * @param steps the number of steps
 * @param lanes one per physical partition, in the order they appeared (then key order)
 * @param splits the splits, each marked on the partition that split
 * @param alerts the engine's alert rules (docs/observability.md), each mark where one started, on
 *     its partition (empty for the container-wide query rules)
 * @param series the container as a whole, per step
 */
@JsonPropertyOrder({"stepSeconds", "steps", "lanes", "splits", "alerts", "series"})
public record Timeline(
    long stepSeconds,
    int steps,
    List<Lane> lanes,
    List<Mark> splits,
    List<Mark> alerts,
    Series series) {

  public Timeline {
    lanes = List.copyOf(lanes);
    splits = List.copyOf(splits);
    alerts = List.copyOf(alerts);
  }

  /**
   * A physical partition's row of the heat map.
   *
   * @param partition its range id
   * @param parent the range it split from, or null
   * @param minEpk where its EPK range starts (inclusive)
   * @param maxEpk where it ends (exclusive)
   * @param fromStep the first step it existed in
   * @param toStep the step after the last it existed in
   * @param normalizedRu per step: the highest per-second RU ÷ budget, capped at 1 as Azure Monitor
   *     reports it (0 outside [fromStep, toStep))
   * @param demandRatio per step: the same, uncapped (the excess is charge admitted into debt)
   * @param throttled per step: attempts it answered 429, at full scale
   */
  @JsonPropertyOrder({
    "partition",
    "parent",
    "minEpk",
    "maxEpk",
    "fromStep",
    "toStep",
    "normalizedRu",
    "demandRatio",
    "throttled"
  })
  public record Lane(
      String partition,
      String parent,
      String minEpk,
      String maxEpk,
      int fromStep,
      int toStep,
      List<Double> normalizedRu,
      List<Double> demandRatio,
      List<Long> throttled) {
    public Lane {
      normalizedRu = List.copyOf(normalizedRu);
      demandRatio = List.copyOf(demandRatio);
      throttled = List.copyOf(throttled);
    }
  }

  /**
   * A mark on the timeline.
   *
   * @param second when, from the start
   * @param step the step it falls in
   * @param partition the partition it concerns
   * @param rule what: {@code split} (with the children in the detail) or an alert rule's name
   * @param detail in words
   */
  public record Mark(long second, int step, String partition, String rule, String detail) {}

  /**
   * The container per step, at full scale.
   *
   * @param requests requests started
   * @param attempts attempts sent, retries included
   * @param throttled attempts answered 429
   * @param failed requests that failed
   * @param p99Millis 99th percentile of the requests that completed in the step (0 if none)
   * @param ruPerSecond RU/s consumed, averaged over the step
   * @param budgetRuPerSecond RU/s provisioned
   */
  @JsonPropertyOrder({
    "requests",
    "attempts",
    "throttled",
    "failed",
    "p99Millis",
    "ruPerSecond",
    "budgetRuPerSecond"
  })
  public record Series(
      List<Long> requests,
      List<Long> attempts,
      List<Long> throttled,
      List<Long> failed,
      List<Double> p99Millis,
      List<Double> ruPerSecond,
      List<Double> budgetRuPerSecond) {
    public Series {
      requests = List.copyOf(requests);
      attempts = List.copyOf(attempts);
      throttled = List.copyOf(throttled);
      failed = List.copyOf(failed);
      p99Millis = List.copyOf(p99Millis);
      ruPerSecond = List.copyOf(ruPerSecond);
      budgetRuPerSecond = List.copyOf(budgetRuPerSecond);
    }
  }
}
