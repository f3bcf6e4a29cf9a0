package io.cosmolab.engine.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
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
 * Concurrency: recording never waits; reading may. A recorder that finds its series' lock free
 * (tryLock) applies the series' inbox and then its own record. One that finds it taken puts its
 * record in the inbox (a lock-free queue) and goes on. Either way it then applies the inbox while
 * it is not empty and the lock is free: a record queued while another thread held the lock is
 * applied by the queuer itself, or, if the lock is still held when the queuer looks, by the holder,
 * which looks at the inbox after it unlocks (the record was queued before the queuer saw the lock
 * taken, so the holder's look after unlocking sees it); a reader that held the lock leaves what was
 * queued meanwhile to the next recorder or reader, and every reader applies the inbox before it
 * reads, so nothing recorded before a read is missing from it. A recorder applies at most
 * INBOX_TURNS rounds of INBOX_BATCH queued records, so one on an event loop is not kept doing
 * others' work while they go on recording; what it leaves is applied the same way. Uncontended, a
 * record allocates nothing. So a point read served on a network event loop records its charge
 * without ever waiting for a thread that holds the series, such as a scrape merging the hot-key
 * sketches (issue 13 item 4). Readers take the lock, apply the inbox and take snapshots. Events are
 * a copy-on-write list.
 */
public final class PartitionMetrics {
  /** Seconds of per-second history kept per partition. */
  public static final int WINDOW_SECONDS = 3600;

  /** The length of a recent hot-keys window; reports cover the current and the previous one. */
  public static final int RECENT_WINDOW_SECONDS = 300;

  private static final int MAX_MAP_SIZE = 1024;

  /**
   * A recorder applies at most INBOX_TURNS rounds of at most INBOX_BATCH of others' queued records
   * (see the class comment).
   */
  private static final int INBOX_TURNS = 2;

  private static final int INBOX_BATCH = 256;

  /** Metrics with no history yet. */
  public PartitionMetrics() {}

  private final Map<String, Series> series = new ConcurrentHashMap<>();
  private final List<PartitionEvent> events = new CopyOnWriteArrayList<>();
  private final GoneRangeRequests goneRangeRequests = new GoneRangeRequests();
  private final List<RetiredPartition> retired = new CopyOnWriteArrayList<>();

  /** One second of one partition. */
  public record Second(
      long epochSecond, double ru, long operations, long throttled, long wouldThrottle) {}

  /** What one call recorded, waiting in its series' inbox. */
  private record Recorded(long nowMillis, double ru, String keyEpk, Kind kind) {}

  private enum Kind {
    OPERATION,
    THROTTLED,
    WOULD_THROTTLE
  }

  private static final class Series {
    final ReentrantLock lock = new ReentrantLock();
    final Queue<Recorded> inbox = new ConcurrentLinkedQueue<>();
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
      if (w < recentWindow) {
        // a call that read the clock before another's, applied after it (threads race, and an
        // entry may wait in the inbox): it belongs to the window before, if that is kept
        if (w == recentWindow - 1) {
          if (previous == null) {
            previous = new ItemsSketch<>(MAX_MAP_SIZE);
          }
          previous.update(keyEpk, weight);
        }
        return;
      }
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

    /**
     * Applies what a call recorded, now if the series is free (the inbox first, so the order of
     * arrival holds), else through the inbox. Never waits.
     */
    void record(long nowMillis, double ru, String keyEpk, Kind kind) {
      if (lock.tryLock()) {
        try {
          applyInbox(INBOX_BATCH);
          apply(nowMillis, ru, keyEpk, kind);
        } finally {
          lock.unlock();
        }
      } else {
        inbox.add(new Recorded(nowMillis, ru, keyEpk, kind));
      }
      // what others queued while this call held the series (or what this call queued): applied
      // here unless a holder is still at it, which then sees it after it unlocks
      for (int turn = 0; turn < INBOX_TURNS && !inbox.isEmpty() && lock.tryLock(); turn++) {
        try {
          applyInbox(INBOX_BATCH);
        } finally {
          lock.unlock();
        }
      }
    }

    /** Takes the lock (readers only: they may wait) with the inbox applied. */
    void lockApplied() {
      lock.lock();
      applyInbox(Integer.MAX_VALUE);
    }

    /** Under the lock: applies up to {@code max} queued records. */
    private void applyInbox(int max) {
      Recorded r;
      for (int n = 0; n < max && (r = inbox.poll()) != null; n++) {
        apply(r.nowMillis(), r.ru(), r.keyEpk(), r.kind());
      }
    }

    private void apply(long nowMillis, double charge, String keyEpk, Kind kind) {
      long second = Math.floorDiv(nowMillis, 1000);
      int i = slot(second);
      switch (kind) {
        case OPERATION -> {
          ru[i] += charge;
          ops[i]++;
          totalRu += charge;
          totalOps++;
          if (keyEpk != null) {
            long weight = Math.max(1, Math.round(charge * 100));
            hotKeysByRu.update(keyEpk, weight);
            updateRecent(second, keyEpk, weight);
          }
        }
        case THROTTLED -> {
          throttled[i]++;
          totalThrottled++;
        }
        case WOULD_THROTTLE -> {
          wouldThrottle[i]++;
          totalWouldThrottle++;
        }
      }
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
    // get first: computeIfAbsent locks the key's bin when the key is not the bin's first entry,
    // and a recorder must not wait on a monitor
    Series s = series.get(rangeId);
    return s != null ? s : series.computeIfAbsent(rangeId, id -> new Series());
  }

  /**
   * Runs {@code whileHeld} holding the series of {@code rangeId} as a reader does (for tests: what
   * a slow reader, or a reader descheduled mid-merge, does to recorders).
   */
  void holdSeries(String rangeId, Runnable whileHeld) {
    Series s = of(rangeId);
    s.lockApplied();
    try {
      whileHeld.run();
    } finally {
      s.lock.unlock();
    }
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
    of(rangeId).record(nowMillis, ru, keyEpk, Kind.OPERATION);
  }

  /** A 429 (enforce) or a would-be 429 (observe). */
  public void recordThrottle(String rangeId, long nowMillis, boolean enforced) {
    of(rangeId).record(nowMillis, 0, null, enforced ? Kind.THROTTLED : Kind.WOULD_THROTTLE);
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
    goneRangeRequests.retired(partition.id(), partition.retiredMillis());
  }

  /** Requests that named a partition a split or a merge replaced (the gone-range-requests rule). */
  public GoneRangeRequests goneRangeRequests() {
    return goneRangeRequests;
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
    s.lockApplied();
    try {
      return new double[] {s.totalRu, s.totalOps, s.totalThrottled, s.totalWouldThrottle};
    } finally {
      s.lock.unlock();
    }
  }

  /**
   * The seconds {@code [fromSecond, toSecond)} of a partition, oldest first; seconds outside the
   * window or without activity are zero.
   */
  public List<Second> seconds(String rangeId, long fromSecond, long toSecond) {
    List<Second> out = new ArrayList<>();
    Series s = series.get(rangeId);
    if (s == null) {
      for (long sec = fromSecond; sec < toSecond; sec++) {
        out.add(new Second(sec, 0, 0, 0, 0));
      }
      return out;
    }
    s.lockApplied();
    try {
      for (long sec = fromSecond; sec < toSecond; sec++) {
        int i = (int) Math.floorMod(sec, (long) WINDOW_SECONDS);
        out.add(
            s.tags[i] == sec
                ? new Second(sec, s.ru[i], s.ops[i], s.throttled[i], s.wouldThrottle[i])
                : new Second(sec, 0, 0, 0, 0));
      }
    } finally {
      s.lock.unlock();
    }
    return out;
  }

  /** A frequent key: its EPK, estimated RU and the most the estimate may overstate. */
  public record HotKey(String epk, double ru, double errorBound) {}

  /** The logical partitions that consumed the most RU since creation, highest first. */
  public List<HotKey> hottestKeysByRu(int n) {
    ItemsSketch<String> merged = new ItemsSketch<>(MAX_MAP_SIZE);
    for (Series s : series.values()) {
      s.lockApplied();
      try {
        merged.merge(s.hotKeysByRu);
      } finally {
        s.lock.unlock();
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
      s.lockApplied();
      try {
        s.mergeRecent(merged, w);
      } finally {
        s.lock.unlock();
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
