package io.cosmolab.engine.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.datasketches.frequencies.ErrorType;
import org.apache.datasketches.frequencies.ItemsSketch;

/**
 * Records what each physical partition of a container serves, second by second, and which logical
 * partitions consume the most RU.
 */
/*
 * How and why.
 *
 * Per physical partition a ring of WINDOW one-second slots holds RU consumed, operations, 429s and
 * would-be 429s; a slot is tagged with its epoch second and reset when the ring comes round, so
 * memory is fixed (WINDOW slots per partition) and old seconds fall away. Seconds come from the
 * injected clock, so a rehearsal in virtual time fills the same slots.
 *
 * Hot logical partitions by RU come from a frequent-items sketch (DataSketches ItemsSketch, the
 * Misra-Gries/Space-Saving family) weighted by centi-RU: bounded memory (a map of MAX_MAP_SIZE
 * entries) whatever the number of keys, with a guaranteed error of at most 3.5/MAX_MAP_SIZE of the
 * total weight, reported with each estimate ([D] partitioning-model §5).
 *
 * Recent hot keys: besides the sketch since creation, each series keeps one for the current
 * RECENT_WINDOW_SECONDS window of the clock and one for the window before it; a new window
 * replaces the older of the two (or both, after a quiet spell). "Recently hottest" merges those of
 * the two that are the current and the previous window at the time asked, so it covers the last
 * 5 to 10 minutes: a key that was hot yesterday is not reported as hot now, which is what a live
 * metric and an alert need. (A sliding window with exact expiry would need a sketch per second.)
 *
 * Each physical partition's series has its own sketches, so an operation takes one monitor, its
 * partition's, and writes to different partitions share nothing; the hottest keys of the container
 * are the merge of the partitions' sketches (a key whose partition split is in both halves' and
 * the parent's, and the merge adds them up). The merged error bound is the sum of theirs.
 *
 * Concurrency: updates synchronize on the partition's series; events are a copy-on-write list.
 * Readers take snapshots.
 */
public final class PartitionMetrics {
  /** Seconds of per-second history kept per partition. */
  public static final int WINDOW_SECONDS = 3600;

  /** The length of a recent hot-keys window; reports cover the current and the previous one. */
  public static final int RECENT_WINDOW_SECONDS = 300;

  private static final int MAX_MAP_SIZE = 1024;

  /** Metrics with no history yet. */
  public PartitionMetrics() {}

  private final Map<String, Series> series = new ConcurrentHashMap<>();
  private final List<PartitionEvent> events = new CopyOnWriteArrayList<>();
  private final List<RetiredPartition> retired = new CopyOnWriteArrayList<>();

  /** One second of one partition. */
  public record Second(
      long epochSecond, double ru, long operations, long throttled, long wouldThrottle) {}

  private static final class Series {
    final long[] tags = new long[WINDOW_SECONDS];
    final double[] ru = new double[WINDOW_SECONDS];
    final long[] ops = new long[WINDOW_SECONDS];
    final long[] throttled = new long[WINDOW_SECONDS];
    final long[] wouldThrottle = new long[WINDOW_SECONDS];
    double totalRu;
    long totalOps;
    long totalThrottled;
    long totalWouldThrottle;
    final ItemsSketch<String> hotKeysByRu = new ItemsSketch<>(MAX_MAP_SIZE);
    // the recent windows: `recent` is window `recentWindow`, `previous` the one before or null
    ItemsSketch<String> recent;
    ItemsSketch<String> previous;
    long recentWindow = Long.MIN_VALUE;

    void updateRecent(long second, String keyEpk, long weight) {
      long w = Math.floorDiv(second, (long) RECENT_WINDOW_SECONDS);
      if (w != recentWindow) {
        previous = recentWindow != Long.MIN_VALUE && w == recentWindow + 1 ? recent : null;
        recent = new ItemsSketch<>(MAX_MAP_SIZE);
        recentWindow = w;
      }
      recent.update(keyEpk, weight);
    }

    /** Merges into {@code into} the recent windows that are current or previous at {@code w}. */
    void mergeRecent(ItemsSketch<String> into, long w) {
      if (recentWindow == w) {
        into.merge(recent);
        if (previous != null) {
          into.merge(previous);
        }
      } else if (recentWindow == w - 1) {
        into.merge(recent);
      }
    }

    Series() {
      java.util.Arrays.fill(tags, Long.MIN_VALUE);
    }

    int slot(long second) {
      int i = (int) Math.floorMod(second, (long) WINDOW_SECONDS);
      if (tags[i] != second) {
        tags[i] = second;
        ru[i] = 0;
        ops[i] = 0;
        throttled[i] = 0;
        wouldThrottle[i] = 0;
      }
      return i;
    }
  }

  private Series of(String rangeId) {
    return series.computeIfAbsent(rangeId, id -> new Series());
  }

  /** An operation served by a partition, with its charge. */
  public void recordOperation(String rangeId, long nowMillis, double ru) {
    recordOperation(rangeId, nowMillis, ru, null);
  }

  /**
   * An operation served by a partition, with its charge, counted also to the logical partition of
   * {@code keyEpk} (null: none, as for a query across keys).
   */
  public void recordOperation(String rangeId, long nowMillis, double ru, String keyEpk) {
    Series s = of(rangeId);
    synchronized (s) {
      int i = s.slot(Math.floorDiv(nowMillis, 1000));
      s.ru[i] += ru;
      s.ops[i]++;
      s.totalRu += ru;
      s.totalOps++;
      if (keyEpk != null) {
        long weight = Math.max(1, Math.round(ru * 100));
        s.hotKeysByRu.update(keyEpk, weight);
        s.updateRecent(Math.floorDiv(nowMillis, 1000), keyEpk, weight);
      }
    }
  }

  /** A 429 (enforce) or a would-be 429 (observe). */
  public void recordThrottle(String rangeId, long nowMillis, boolean enforced) {
    Series s = of(rangeId);
    synchronized (s) {
      int i = s.slot(Math.floorDiv(nowMillis, 1000));
      if (enforced) {
        s.throttled[i]++;
        s.totalThrottled++;
      } else {
        s.wouldThrottle[i]++;
        s.totalWouldThrottle++;
      }
    }
  }

  public void recordEvent(PartitionEvent event) {
    events.add(event);
  }

  public List<PartitionEvent> events() {
    return List.copyOf(events);
  }

  /** A partition that a split or a merge replaced; its history stays in the window. */
  public void recordRetired(RetiredPartition partition) {
    retired.add(partition);
  }

  /** The partitions that splits and merges replaced, oldest first. */
  public List<RetiredPartition> retired() {
    return List.copyOf(retired);
  }

  /** Totals of a partition: {ru, operations, throttled, wouldThrottle}. */
  public double[] totals(String rangeId) {
    Series s = series.get(rangeId);
    if (s == null) {
      return new double[4];
    }
    synchronized (s) {
      return new double[] {s.totalRu, s.totalOps, s.totalThrottled, s.totalWouldThrottle};
    }
  }

  /**
   * The seconds {@code [fromSecond, toSecond)} of a partition, oldest first; seconds outside the
   * window or without activity are zero.
   */
  public List<Second> seconds(String rangeId, long fromSecond, long toSecond) {
    List<Second> out = new ArrayList<>();
    Series s = series.get(rangeId);
    for (long sec = fromSecond; sec < toSecond; sec++) {
      if (s == null) {
        out.add(new Second(sec, 0, 0, 0, 0));
        continue;
      }
      synchronized (s) {
        int i = (int) Math.floorMod(sec, (long) WINDOW_SECONDS);
        out.add(
            s.tags[i] == sec
                ? new Second(sec, s.ru[i], s.ops[i], s.throttled[i], s.wouldThrottle[i])
                : new Second(sec, 0, 0, 0, 0));
      }
    }
    return out;
  }

  /** A frequent key: its EPK, estimated RU and the most the estimate may overstate. */
  public record HotKey(String epk, double ru, double errorBound) {}

  /** The logical partitions that consumed the most RU since creation, highest first. */
  public List<HotKey> hottestKeysByRu(int n) {
    ItemsSketch<String> merged = new ItemsSketch<>(MAX_MAP_SIZE);
    for (Series s : series.values()) {
      synchronized (s) {
        merged.merge(s.hotKeysByRu);
      }
    }
    return top(merged, n);
  }

  /**
   * The logical partitions that consumed the most RU in the current and the previous {@link
   * #RECENT_WINDOW_SECONDS} window at {@code nowMillis} (the last 5 to 10 minutes), highest first.
   */
  public List<HotKey> recentlyHottestKeysByRu(int n, long nowMillis) {
    long w = Math.floorDiv(Math.floorDiv(nowMillis, 1000), (long) RECENT_WINDOW_SECONDS);
    ItemsSketch<String> merged = new ItemsSketch<>(MAX_MAP_SIZE);
    for (Series s : series.values()) {
      synchronized (s) {
        s.mergeRecent(merged, w);
      }
    }
    return top(merged, n);
  }

  /** The {@code n} heaviest keys of a sketch, highest first (ties by EPK). */
  private static List<HotKey> top(ItemsSketch<String> merged, int n) {
    List<HotKey> all = new ArrayList<>();
    double error = merged.getMaximumError() / 100.0;
    // threshold 0: every tracked key, so fewer than n passing the error bound still yields n
    for (ItemsSketch.Row<String> row : merged.getFrequentItems(0, ErrorType.NO_FALSE_NEGATIVES)) {
      all.add(new HotKey(row.getItem(), row.getEstimate() / 100.0, error));
    }
    all.sort(
        java.util.Comparator.comparingDouble(HotKey::ru).reversed().thenComparing(HotKey::epk));
    return all.size() <= n ? all : new ArrayList<>(all.subList(0, n));
  }
}
