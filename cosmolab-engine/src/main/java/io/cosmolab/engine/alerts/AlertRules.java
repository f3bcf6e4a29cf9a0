package io.cosmolab.engine.alerts;

import io.cosmolab.engine.metrics.PartitionMetrics;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The thresholds of the built-in rules: the reference's defaults ({@link #defaults()}), or a rules
 * file that changes some of them ({@link #load(Path)}). Immutable.
 *
 * <p>A rules file is JSON or YAML (by its extension), one entry per rule to change; what it leaves
 * out keeps its default:
 *
 * <pre>{@code
 * hot-partition:            { threshold: 0.8, for: 5m }
 * large-logical-partition:  { bytes: 16GiB }          # unscaled: divided by --scale
 * throttle-rate:            { threshold: 0.01, window: 5m, min-requests: 100 }
 * cross-partition-queries:  { threshold: 0.05, window: 5m, min-queries: 20 }
 * query-fan-out:            { ratio: 50, window: 5m, min-retrieved: 100 }
 * gone-range-requests:      { min-requests: 10, min-seconds: 5, window: 1m, after: 30s }
 * }</pre>
 *
 * Every rule also takes {@code enabled: false}. Sources: DESIGN.md and issue 17 (80 % for 5
 * minutes, 16 GB, 1 %, 5 %, 50); the minimum counts are ours [H], so that one throttled request out
 * of three is not a rate. gone-range-requests is ours [H]: a client that recovers from a layout
 * change meets its 410s in a burst (what it had in flight) and then uses the new ranges, so
 * requests in 5 distinct seconds of a minute, from 30 s after the change, are a client that does
 * not; the JavaScript SDK's stuck ORDER BY asks every second.
 */
public record AlertRules(
    HotPartition hotPartition,
    LargeLogicalPartition largeLogicalPartition,
    ThrottleRate throttleRate,
    CrossPartitionQueries crossPartitionQueries,
    QueryFanOut queryFanOut,
    GoneRange goneRange) {

  /** Normalized RU consumption above {@code threshold} (0–1) continuously for {@code duration}. */
  public record HotPartition(boolean enabled, double threshold, Duration duration) {
    public HotPartition {
      requireShare("hot-partition.threshold", threshold);
      requireWindow("hot-partition.for", duration);
    }
  }

  /** A logical partition above {@code bytes}, unscaled (the scale model divides it). */
  public record LargeLogicalPartition(boolean enabled, long bytes) {
    public LargeLogicalPartition {
      if (bytes <= 0) {
        throw new IllegalArgumentException(
            "large-logical-partition.bytes must be positive, was " + bytes);
      }
    }
  }

  /** (429s + would-be 429s) ÷ requests of a partition above {@code threshold} over a window. */
  public record ThrottleRate(boolean enabled, double threshold, Duration window, long minRequests) {
    public ThrottleRate {
      requireShare("throttle-rate.threshold", threshold);
      requireWindow("throttle-rate.window", window);
    }
  }

  /** Cross-partition queries ÷ queries of a container above {@code threshold} over a window. */
  public record CrossPartitionQueries(
      boolean enabled, double threshold, Duration window, long minQueries) {
    public CrossPartitionQueries {
      requireShare("cross-partition-queries.threshold", threshold);
      requireWindow("cross-partition-queries.window", window);
    }
  }

  /** A query in the window whose retrieved ÷ returned documents is above {@code ratio}. */
  public record QueryFanOut(boolean enabled, double ratio, Duration window, long minRetrieved) {
    public QueryFanOut {
      if (!(ratio > 0) || Double.isInfinite(ratio)) {
        throw new IllegalArgumentException("query-fan-out.ratio must be above 0, was " + ratio);
      }
      requireWindow("query-fan-out.window", window);
    }
  }

  /**
   * At least {@code minRequests} requests, in at least {@code minSeconds} distinct seconds of the
   * last {@code window}, naming a partition that a split or a merge replaced, counted from the
   * second in which {@code after} had passed since it was replaced.
   */
  public record GoneRange(
      boolean enabled, long minRequests, long minSeconds, Duration window, Duration after) {
    public GoneRange {
      if (minRequests < 1) {
        throw new IllegalArgumentException(
            "gone-range-requests.min-requests must be at least 1, was " + minRequests);
      }
      requireWindow("gone-range-requests.window", window);
      if (minSeconds < 1 || minSeconds > window.toSeconds()) {
        throw new IllegalArgumentException(
            "gone-range-requests.min-seconds must be between 1 and the window's "
                + window.toSeconds()
                + " seconds, was "
                + minSeconds);
      }
      if (after == null
          || after.isNegative()
          || after.compareTo(Duration.ofSeconds(PartitionMetrics.WINDOW_SECONDS)) > 0) {
        throw new IllegalArgumentException(
            "gone-range-requests.after must be a duration from 0 to 1h, was " + after);
      }
    }
  }

  private static final AlertRules DEFAULTS =
      new AlertRules(
          new HotPartition(true, 0.8, Duration.ofMinutes(5)),
          new LargeLogicalPartition(true, 16L << 30),
          new ThrottleRate(true, 0.01, Duration.ofMinutes(5), 100),
          new CrossPartitionQueries(true, 0.05, Duration.ofMinutes(5), 20),
          new QueryFanOut(true, 50, Duration.ofMinutes(5), 100),
          new GoneRange(true, 10, 5, Duration.ofMinutes(1), Duration.ofSeconds(30)));

  /** The reference's rules: 80 % for 5 min, 16 GB, 1 % of 429s, 5 % cross-partition, ratio 50. */
  public static AlertRules defaults() {
    return DEFAULTS;
  }

  /**
   * The defaults changed by a rules file ({@code .json}, {@code .yaml} or {@code .yml}).
   *
   * @throws AlertRulesException naming the file, the line and the field of what is wrong
   */
  public static AlertRules load(Path file) {
    return RulesFile.load(file);
  }

  /**
   * The defaults changed by the text of a rules file.
   *
   * @param source the file's name, for messages
   * @param yaml true for YAML, false for JSON
   * @throws AlertRulesException naming the source, the line and the field of what is wrong
   */
  public static AlertRules parse(String text, String source, boolean yaml) {
    return RulesFile.parse(text, source, yaml);
  }

  /** Whether {@code rule} is enabled. */
  public boolean enabled(AlertRule rule) {
    return switch (rule) {
      case HOT_PARTITION -> hotPartition.enabled();
      case LARGE_LOGICAL_PARTITION -> largeLogicalPartition.enabled();
      case THROTTLE_RATE -> throttleRate.enabled();
      case CROSS_PARTITION_QUERIES -> crossPartitionQueries.enabled();
      case QUERY_FAN_OUT -> queryFanOut.enabled();
      case GONE_RANGE_REQUESTS -> goneRange.enabled();
    };
  }

  public AlertRules withHotPartition(HotPartition r) {
    return new AlertRules(
        r, largeLogicalPartition, throttleRate, crossPartitionQueries, queryFanOut, goneRange);
  }

  public AlertRules withLargeLogicalPartition(LargeLogicalPartition r) {
    return new AlertRules(
        hotPartition, r, throttleRate, crossPartitionQueries, queryFanOut, goneRange);
  }

  public AlertRules withThrottleRate(ThrottleRate r) {
    return new AlertRules(
        hotPartition, largeLogicalPartition, r, crossPartitionQueries, queryFanOut, goneRange);
  }

  public AlertRules withCrossPartitionQueries(CrossPartitionQueries r) {
    return new AlertRules(
        hotPartition, largeLogicalPartition, throttleRate, r, queryFanOut, goneRange);
  }

  public AlertRules withQueryFanOut(QueryFanOut r) {
    return new AlertRules(
        hotPartition, largeLogicalPartition, throttleRate, crossPartitionQueries, r, goneRange);
  }

  public AlertRules withGoneRange(GoneRange r) {
    return new AlertRules(
        hotPartition, largeLogicalPartition, throttleRate, crossPartitionQueries, queryFanOut, r);
  }

  private static void requireShare(String field, double v) {
    if (!(v >= 0 && v <= 1)) {
      throw new IllegalArgumentException(field + " must be a share between 0 and 1, was " + v);
    }
  }

  private static void requirePositive(String field, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(field + " must be a positive duration, was " + d);
    }
  }

  private static void requireWindow(String field, Duration d) {
    requirePositive(field, d);
    if (d.toSeconds() < 1) {
      throw new IllegalArgumentException(
          field + " must be at least 1s (the metrics count whole seconds), was " + d);
    }
    if (d.toSeconds() > PartitionMetrics.WINDOW_SECONDS) {
      throw new IllegalArgumentException(
          field + " must be at most 1h (the metrics keep an hour), was " + d);
    }
  }
}
