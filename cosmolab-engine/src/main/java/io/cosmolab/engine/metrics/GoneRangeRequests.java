package io.cosmolab.engine.metrics;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Requests that named a physical partition which a split or a merge of this container had replaced,
 * counted per replaced partition and second, for the {@code gone-range-requests} alert rule.
 *
 * <p>A client that cached a range either reads the partition key ranges again before it asks (the
 * Java SDK does, and so never names a gone range) or meets a 410/1002 for it when the layout
 * changes, reads them then and goes on with the new ones. One that keeps naming the same gone range
 * long after is not recovering, and its application waits on a query that never ends
 * (docs/engine.md: the JavaScript SDK's ORDER BY across a split or a merge, which asks the gone
 * range about 80 times a second).
 */
/*
 * How and why.
 *
 * Only ranges this container replaced are counted: an id it never had is a client's mistake, not
 * a stale route, and counting any id would let a client grow this without bound. The replaced ids
 * kept are the last RETIRED_KEPT; each keeps its requests as (second, count) pairs for the last
 * WINDOW_SECONDS of the injected clock, so memory is bounded by layout changes and seconds, not by
 * requests. A clock set back (a test's virtual time) drops the seconds that are now in its future.
 *
 * The rule asks for requests in several distinct seconds as well as a count: a client in the loop
 * asks every second, while the recovery of a client that was idle through the change (its
 * requests in flight all answered 410 at once, then the new ranges) lands in one or two.
 *
 * Concurrency: every method synchronizes on this object. Requests for gone ranges are rare except
 * from a client in such a loop, and none is on the path of a request that reached its partition.
 */
public final class GoneRangeRequests {
  /** Replaced ranges remembered, newest kept. */
  static final int RETIRED_KEPT = 256;

  /**
   * A replaced range and what asked for it.
   *
   * @param rangeId the id of the range a split or a merge replaced
   * @param retiredMillis when it was replaced (the engine's clock)
   * @param requests requests that named it in the interval asked about
   * @param seconds the distinct seconds those requests came in
   */
  public record Asked(String rangeId, long retiredMillis, long requests, int seconds) {}

  private static final class Range {
    final long retiredMillis;
    final ArrayDeque<long[]> seconds = new ArrayDeque<>(); // {epochSecond, count}, oldest first

    Range(long retiredMillis) {
      this.retiredMillis = retiredMillis;
    }
  }

  private final LinkedHashMap<String, Range> ranges = new LinkedHashMap<>();

  /** One per container, kept by its {@link PartitionMetrics}. */
  GoneRangeRequests() {}

  /** A split or a merge replaced the range {@code rangeId} at {@code retiredMillis}. */
  public synchronized void retired(String rangeId, long retiredMillis) {
    ranges.put(rangeId, new Range(retiredMillis));
    Iterator<Map.Entry<String, Range>> oldest = ranges.entrySet().iterator();
    while (ranges.size() > RETIRED_KEPT) {
      oldest.next();
      oldest.remove();
    }
  }

  /**
   * A request named {@code rangeId}, which is not in the current layout: counted when a split or a
   * merge of this container replaced it, ignored otherwise.
   */
  public synchronized void record(String rangeId, long nowMillis) {
    Range r = ranges.get(rangeId);
    if (r == null) {
      return;
    }
    long second = Math.floorDiv(nowMillis, 1000);
    while (!r.seconds.isEmpty() && r.seconds.peekLast()[0] > second) {
      r.seconds.removeLast(); // the clock was set back: those seconds have not happened
    }
    long[] last = r.seconds.peekLast();
    if (last != null && last[0] == second) {
      last[1]++;
    } else {
      r.seconds.addLast(new long[] {second, 1});
    }
    while (r.seconds.peekFirst()[0] <= second - PartitionMetrics.WINDOW_SECONDS) {
      r.seconds.removeFirst();
    }
  }

  /**
   * The replaced ranges that requests named in the seconds from {@code fromSecond} (inclusive) to
   * {@code toSecond} (exclusive), counting only the seconds from the one in which {@code
   * afterMillis} had passed since the range was replaced; ranges with none are left out. In the
   * order they were replaced.
   */
  public synchronized List<Asked> asked(long fromSecond, long toSecond, long afterMillis) {
    List<Asked> out = new ArrayList<>();
    for (Map.Entry<String, Range> e : ranges.entrySet()) {
      Range r = e.getValue();
      long from = Math.max(fromSecond, Math.floorDiv(r.retiredMillis + afterMillis, 1000));
      long requests = 0;
      int seconds = 0;
      for (Iterator<long[]> it = r.seconds.descendingIterator(); it.hasNext(); ) {
        long[] s = it.next();
        if (s[0] < from) {
          break; // newest first: the rest are older still
        }
        if (s[0] < toSecond) {
          requests += s[1];
          seconds++;
        }
      }
      if (requests > 0) {
        out.add(new Asked(e.getKey(), r.retiredMillis, requests, seconds));
      }
    }
    return out;
  }
}
