package io.cosmolab.rehearsal.internal;

import io.cosmolab.rehearsal.Timeline;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;

/**
 * What one candidate's container did, second by second, read from its {@link PartitionSource} (the
 * engine's own per-partition metrics, or what the SDK measured); and what its client saw:
 * latencies, 429s, failures. Counts are simulated ones; the report multiplies them by the scale
 * factor.
 */
final class Recorder {
  /** Latencies are recorded in microseconds, up to an hour, to 3 significant digits. */
  private static final long MAX_MICROS = 3_600_000_000L;

  private final PartitionSource source;
  private final int steps;
  private final long stepSeconds;
  private final long startSecond; // epoch second of the rehearsal's start

  // the heat map
  private final Map<String, LaneData> lanes = new LinkedHashMap<>();
  private Set<String> live = new LinkedHashSet<>();
  private List<PartitionSource.Range> routing;
  private long layoutVersion;
  private final Map<String, Double> budgets = new HashMap<>();
  private int eventsSeen;
  final List<Timeline.Mark> splits = new ArrayList<>();
  final List<Timeline.Mark> alerts = new ArrayList<>();
  final int partitionsAtStart;

  /** An alert of the engine's rules started on this container at {@code epochMillis}. */
  void alertStarted(io.cosmolab.engine.alerts.Alert a, long epochMillis) {
    long at = Math.max(0, epochMillis / 1000 - startSecond);
    alerts.add(
        new Timeline.Mark(
            at,
            step(at),
            a.partitionKeyRangeId() == null ? "" : a.partitionKeyRangeId(),
            a.rule().id(),
            a.message()));
  }

  // per step
  final long[] requests;
  final long[] attempts;
  final long[] throttled;
  final long[] failed;
  final double[] p99;
  final double[] ru;
  final double[] budget;
  private final Histogram stepLatency = new Histogram(MAX_MICROS, 3);
  private int stepOfLatency;

  // per phase, and overall
  final Histogram[] phaseLatency;
  final long[] phaseRequests;
  final long[] phaseThrottled;
  final long[] phaseFailed;
  final Histogram latency = new Histogram(MAX_MICROS, 3);
  long failedThrottled;
  long failedStorage;
  long failedOther;
  String firstOtherFailure;
  long notFound;
  double unusedWhileThrottling; // sum over throttling seconds of RU/s unused
  long throttlingSeconds;
  double budgetWhileThrottling;

  static final class LaneData {
    final String id;
    final String parent;
    final String minEpk;
    final String maxEpk;
    final int from;
    int to;
    final double[] normalized;
    final double[] demand;
    final long[] throttled;

    LaneData(PartitionSource.Range r, String parent, int from, int steps) {
      this.id = r.id();
      this.parent = parent;
      this.minEpk = r.minEpk();
      this.maxEpk = r.maxEpk();
      this.from = from;
      this.to = steps;
      this.normalized = new double[steps];
      this.demand = new double[steps];
      this.throttled = new long[steps];
    }
  }

  Recorder(PartitionSource source, int steps, long stepSeconds, long startSecond, int phases) {
    this.source = source;
    this.steps = steps;
    this.stepSeconds = stepSeconds;
    this.startSecond = startSecond;
    this.requests = new long[steps];
    this.attempts = new long[steps];
    this.throttled = new long[steps];
    this.failed = new long[steps];
    this.p99 = new double[steps];
    this.ru = new double[steps];
    this.budget = new double[steps];
    this.phaseLatency = new Histogram[phases];
    for (int i = 0; i < phases; i++) {
      phaseLatency[i] = new Histogram(MAX_MICROS, 3);
    }
    this.phaseRequests = new long[phases];
    this.phaseThrottled = new long[phases];
    this.phaseFailed = new long[phases];
    this.eventsSeen = source.layoutEvents().size();
    refreshLayout(0);
    this.partitionsAtStart = routing.size();
  }

  int step(long secondOfRehearsal) {
    return (int) Math.min(steps - 1, secondOfRehearsal / stepSeconds);
  }

  /** The layout changed (a split, a new throughput): new lanes, new budgets. */
  void refreshLayout(long second) {
    routing = source.ranges();
    layoutVersion = source.layoutVersion();
    budgets.clear();
    budgets.putAll(source.budgets());
    List<PartitionSource.LayoutEvent> events = source.layoutEvents();
    Map<String, String> parents = new HashMap<>();
    for (int i = eventsSeen; i < events.size(); i++) {
      PartitionSource.LayoutEvent e = events.get(i);
      long at = Math.max(0, e.millis() / 1000 - startSecond);
      if (e.kind().equals("split") || e.kind().equals("merge")) {
        for (String child : e.after()) {
          parents.put(child, String.join("+", e.before()));
        }
        splits.add(
            new Timeline.Mark(
                at,
                step(at),
                String.join("+", e.before()),
                e.kind(),
                "into "
                    + String.join(", ", e.after())
                    + (e.reason() == null ? "" : ": " + e.reason())));
      } else if (e.kind().equals("split-blocked")) {
        splits.add(
            new Timeline.Mark(
                at, step(at), String.join("+", e.before()), "split-blocked", e.reason()));
      }
    }
    eventsSeen = events.size();
    int s = step(second);
    for (PartitionSource.Range r : routing) {
      if (!lanes.containsKey(r.id())) {
        lanes.put(r.id(), new LaneData(r, parents.get(r.id()), s, steps));
      }
    }
  }

  /** Reads what the partitions served in {@code second} (from the start) once it is over. */
  void endSecond(long second) {
    if (source.layoutVersion() != layoutVersion || source.layoutEvents().size() != eventsSeen) {
      refreshLayout(second);
    }
    Set<String> now = new LinkedHashSet<>();
    for (PartitionSource.Range r : routing) {
      now.add(r.id());
    }
    Set<String> sampled = new LinkedHashSet<>(live);
    sampled.addAll(now);
    int s = step(second);
    long epoch = startSecond + second;
    double unused = 0;
    double provisioned = 0;
    long throttledNow = 0;
    for (String id : sampled) {
      PartitionSource.Served sec = source.second(id, epoch);
      LaneData lane = lanes.get(id);
      Double b = budgets.get(id);
      if (lane == null) {
        continue;
      }
      if (!now.contains(id) && lane.to == steps) {
        // gone in this second: it ends with this step if it still served in it, else before it
        lane.to = sec.operations() > 0 || sec.throttled() > 0 ? s + 1 : Math.max(lane.from, s);
      }
      double ratio = b == null || b <= 0 ? 0 : sec.ru() / b;
      lane.normalized[s] = Math.max(lane.normalized[s], Math.min(1, ratio));
      lane.demand[s] = Math.max(lane.demand[s], ratio);
      lane.throttled[s] += sec.throttled();
      ru[s] += sec.ru();
      throttledNow += sec.throttled();
      if (now.contains(id) && b != null) {
        unused += Math.max(0, b - sec.ru());
        provisioned += b;
      }
    }
    budget[s] = provisioned;
    if (throttledNow > 0) {
      throttlingSeconds++;
      unusedWhileThrottling += unused;
      budgetWhileThrottling += provisioned;
    }
    live = now;
  }

  /** A request finished (done, or given up) at {@code second}, after {@code micros}. */
  void complete(int phase, long second, long micros) {
    long v = Math.max(1, Math.min(MAX_MICROS, micros));
    latency.recordValue(v);
    phaseLatency[phase].recordValue(v);
    int s = step(second);
    if (s != stepOfLatency) {
      closeLatencyStep();
      stepOfLatency = s;
    }
    stepLatency.recordValue(v);
  }

  void closeLatencyStep() {
    if (stepLatency.getTotalCount() > 0) {
      p99[stepOfLatency] = stepLatency.getValueAtPercentile(99) / 1000.0;
    }
    stepLatency.reset();
  }

  /** Where the heat map comes from. */
  PartitionSource source() {
    return source;
  }

  /** The lanes, for the timeline: in the order they appeared. */
  List<LaneData> lanes() {
    return new ArrayList<>(lanes.values());
  }
}
