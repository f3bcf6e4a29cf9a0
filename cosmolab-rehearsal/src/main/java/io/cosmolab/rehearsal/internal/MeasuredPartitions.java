package io.cosmolab.rehearsal.internal;

import io.cosmolab.engine.partitioning.EpkRange;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A candidate's partitions as a live run measured them: what each response said it cost and where
 * it went, added up per physical partition and second; the layouts read from the SDK (its feed
 * ranges) as the run went; the budget each partition had, assumed to be the container's throughput
 * divided evenly among them, as the service divides it [A].
 *
 * <p>The run records; then the report replays it second by second ({@link #at}), so the {@link
 * Recorder} reads it as it reads the engine. Guarded by the caller (one lock per run).
 */
/*
 * How a response finds its partition. A point operation's key is hashed with the engine's EPK code
 * (bit-exact with the SDK's) and looked up in the layout of the moment. Its response also names the
 * partition key range id (the SDK's diagnostics), so each range learns its id from the first
 * response that names one; a page of a query names only the id, and is counted under it until the
 * end, when the learnt ids join the two. A range no response named keeps "epk:" and its lower bound
 * as its id.
 */
final class MeasuredPartitions implements PartitionSource {
  /** A layout read from the SDK: the ranges, from a second on, and the budget of each. */
  private record Layout(long fromSecond, List<EpkRange> ranges, double budgetEach) {}

  private final long startSecond;
  private final int seconds;
  private final List<Layout> layouts = new ArrayList<>();
  private final Map<EpkRange, String> ids = new HashMap<>();
  private final Map<String, double[]> ru = new HashMap<>();
  private final Map<String, long[]> throttled = new HashMap<>();
  private final Map<String, long[]> operations = new HashMap<>();
  private final Map<String, Double> bytesByKey = new HashMap<>();
  private final Map<String, Double> ruByKey = new HashMap<>();
  private double totalRu;
  private int cursor; // the layout the replay is at
  private long cursorSecond;
  private List<LayoutEvent> events;

  /**
   * @param startSecond the epoch second of the rehearsal's start (its virtual clock)
   * @param seconds how many seconds it lasts; later responses count in the last
   */
  MeasuredPartitions(long startSecond, int seconds) {
    this.startSecond = startSecond;
    this.seconds = Math.max(1, seconds);
  }

  /** The layout from {@code second} (from the start) on: the SDK's ranges and the throughput. */
  void layout(long second, List<EpkRange> ranges, double throughput) {
    events = null; // derived again at the next replay
    List<EpkRange> sorted = new ArrayList<>(ranges);
    sorted.sort(java.util.Comparator.comparing(EpkRange::min));
    Layout last = layouts.isEmpty() ? null : layouts.get(layouts.size() - 1);
    double each = throughput / Math.max(1, sorted.size());
    if (last != null && last.ranges.equals(sorted) && last.budgetEach == each) {
      return;
    }
    if (last != null && last.fromSecond >= second) {
      layouts.set(layouts.size() - 1, new Layout(last.fromSecond, List.copyOf(sorted), each));
    } else {
      layouts.add(new Layout(second, List.copyOf(sorted), each));
    }
  }

  /** The container's throughput changed at {@code second}; the ranges stay as last read. */
  void throughput(long second, double throughput) {
    layout(second, layouts.get(layouts.size() - 1).ranges, throughput);
  }

  /** The ranges of the latest layout. */
  List<EpkRange> current() {
    return layouts.get(layouts.size() - 1).ranges;
  }

  /** The range holding {@code epk} in the latest layout. */
  EpkRange rangeOf(String epk) {
    for (EpkRange r : current()) {
      if (r.contains(epk)) {
        return r;
      }
    }
    return current().get(0); // the layouts cover the key space; not reached
  }

  /** A response named its range's id. */
  void learn(EpkRange range, String id) {
    if (id != null && !id.isEmpty()) {
      ids.putIfAbsent(range, id);
    }
  }

  /**
   * A request attempt answered at {@code second} (from the start): charged {@code ru}, throttled or
   * not, on the partition of {@code range} (when the key is known) or of id {@code rangeId}.
   */
  void served(long second, EpkRange range, String rangeId, double charge, boolean wasThrottled) {
    String key = range != null ? keyOf(range) : "id:" + rangeId;
    int s = (int) Math.max(0, Math.min(seconds - 1, second));
    ru.computeIfAbsent(key, k -> new double[seconds])[s] += charge;
    operations.computeIfAbsent(key, k -> new long[seconds])[s]++;
    if (wasThrottled) {
      throttled.computeIfAbsent(key, k -> new long[seconds])[s]++;
    }
    totalRu += charge;
  }

  /** A logical partition was charged {@code charge} and, for a write, now holds {@code bytes}. */
  void logical(String key, double charge, double bytesWritten) {
    ruByKey.merge(key, charge, Double::sum);
    if (bytesWritten > 0) {
      bytesByKey.merge(key, bytesWritten, Double::sum);
    }
  }

  /** A delete removed {@code bytes} from a logical partition. */
  void removed(String key, double bytes) {
    bytesByKey.computeIfPresent(key, (k, v) -> Math.max(0, v - bytes));
  }

  private static String keyOf(EpkRange r) {
    return r.min() + "-" + r.max();
  }

  /** Moves the replay to the epoch second {@code second}. */
  void at(long second) {
    if (events == null) {
      events = deriveEvents();
    }
    cursorSecond = second;
    long fromStart = second - startSecond;
    cursor = 0;
    for (int i = 0; i < layouts.size(); i++) {
      if (layouts.get(i).fromSecond <= fromStart) {
        cursor = i;
      }
    }
  }

  private String idOf(EpkRange r) {
    String id = ids.get(r);
    return id != null ? id : "epk:" + r.min();
  }

  @Override
  public List<Range> ranges() {
    List<Range> out = new ArrayList<>();
    for (EpkRange r : layouts.get(cursor).ranges) {
      out.add(new Range(idOf(r), r.min(), r.max()));
    }
    return out;
  }

  @Override
  public Map<String, Double> budgets() {
    Map<String, Double> out = new LinkedHashMap<>();
    Layout l = layouts.get(cursor);
    for (EpkRange r : l.ranges) {
      out.put(idOf(r), l.budgetEach);
    }
    return out;
  }

  @Override
  public long layoutVersion() {
    return cursor;
  }

  @Override
  public List<LayoutEvent> layoutEvents() {
    if (events == null) {
      events = deriveEvents();
    }
    List<LayoutEvent> upTo = new ArrayList<>();
    for (LayoutEvent e : events) {
      if (e.millis() / 1000 <= cursorSecond) {
        upTo.add(e);
      }
    }
    return upTo;
  }

  /** Splits and merges: a range of one layout whose parts make the next one's ranges. */
  private List<LayoutEvent> deriveEvents() {
    List<LayoutEvent> out = new ArrayList<>();
    for (int i = 1; i < layouts.size(); i++) {
      List<EpkRange> before = layouts.get(i - 1).ranges;
      List<EpkRange> after = layouts.get(i).ranges;
      long millis = (startSecond + layouts.get(i).fromSecond) * 1000;
      for (EpkRange old : before) {
        if (after.contains(old)) {
          continue;
        }
        List<String> children = new ArrayList<>();
        for (EpkRange n : after) {
          if (old.encloses(n)) {
            children.add(idOf(n));
          }
        }
        if (children.size() > 1) {
          out.add(
              new LayoutEvent(
                  "split",
                  List.of(idOf(old)),
                  children,
                  "read from the SDK's feed ranges",
                  millis));
        }
      }
      for (EpkRange n : after) {
        if (before.contains(n)) {
          continue;
        }
        List<String> parents = new ArrayList<>();
        for (EpkRange old : before) {
          if (n.encloses(old)) {
            parents.add(idOf(old));
          }
        }
        if (parents.size() > 1) {
          out.add(
              new LayoutEvent(
                  "merge", parents, List.of(idOf(n)), "read from the SDK's feed ranges", millis));
        }
      }
    }
    return out;
  }

  @Override
  public Served second(String id, long second) {
    int s = (int) (second - startSecond);
    if (s < 0 || s >= seconds) {
      return new Served(0, 0, 0);
    }
    double r = 0;
    long t = 0;
    long o = 0;
    for (String key : keysOf(id)) {
      double[] ruOf = ru.get(key);
      long[] tOf = throttled.get(key);
      long[] oOf = operations.get(key);
      r += ruOf == null ? 0 : ruOf[s];
      t += tOf == null ? 0 : tOf[s];
      o += oOf == null ? 0 : oOf[s];
    }
    return new Served(r, t, o);
  }

  /**
   * The counters of partition {@code id}: by its range, and by its id when a page named only that.
   */
  private List<String> keysOf(String id) {
    List<String> out = new ArrayList<>();
    for (Layout l : layouts) {
      for (EpkRange r : l.ranges) {
        if (idOf(r).equals(id) && !out.contains(keyOf(r))) {
          out.add(keyOf(r));
        }
      }
    }
    out.add("id:" + id);
    return out;
  }

  @Override
  public Logical logical() {
    Map.Entry<String, Double> largest = max(bytesByKey);
    Map.Entry<String, Double> hottest = max(ruByKey);
    return new Logical(
        largest == null ? 0 : largest.getValue(),
        largest == null ? null : largest.getKey(),
        hottest == null ? null : hottest.getKey(),
        hottest == null || totalRu == 0 ? 0 : hottest.getValue() / totalRu);
  }

  private static Map.Entry<String, Double> max(Map<String, Double> m) {
    Map.Entry<String, Double> best = null;
    for (Map.Entry<String, Double> e : m.entrySet()) {
      if (best == null || e.getValue() > best.getValue()) {
        best = e;
      }
    }
    return best;
  }
}
