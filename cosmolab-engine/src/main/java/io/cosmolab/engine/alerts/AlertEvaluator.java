package io.cosmolab.engine.alerts;

import io.cosmolab.engine.Container;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.Database;
import io.cosmolab.engine.metrics.GoneRangeRequests;
import io.cosmolab.engine.metrics.LogicalPartitionStats;
import io.cosmolab.engine.metrics.PartitionMetrics;
import io.cosmolab.engine.metrics.PartitionStats;
import io.cosmolab.engine.metrics.QueryStats;
import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Evaluates the {@link AlertRules} over an engine's partitions at a given time, keeps the alerts
 * that are active, and reports each start and stop once.
 *
 * <pre>{@code
 * AlertEvaluator alerts = new AlertEvaluator(engine, AlertRules.defaults(), AlertEvaluator.log());
 * List<Alert> active = alerts.evaluate(clock.millis());   // live: once a second; or in virtual time
 * }</pre>
 *
 * <p>Thread-safe: {@link #evaluate} runs one call at a time; {@link #active()} and {@link
 * #events()} read the result of the last one without waiting.
 */
/*
 * How and why.
 *
 * The rules read only what the engine records on its injected clock: the per-second series of
 * each physical partition (RU, operations, 429s, would-be 429s), the exact storage per logical
 * partition, the hot-key sketch and the per-second query statistics. Nothing is sampled by the
 * evaluator, so calling it once a second live, or every virtual minute in a rehearsal, sees the
 * same numbers; only `since` of the rules other than hot-partition depends on when it is called
 * (the first evaluation that finds the condition).
 *
 * hot-partition: the normalized RU consumption at second s is, as Azure Monitor defines it, the
 * busiest second of the minute ending at s, RU ÷ the partition's budget now. The rule holds at
 * second s when that is above the threshold; it fires once it has held for every second of the
 * last `for` (5 minutes: a load that starts at T fires at T + 5 min exactly) and stops at the
 * first second it does not hold — about a minute after the load falls, since the busiest second
 * of the minute remembers it. Its `since` is the start of the run plus `for`, read from the
 * series (looked back up to 2 × `for`).
 *
 * throttle-rate: per partition over the window, (429s + would-be 429s) ÷ (operations + 429s):
 * a refused operation is not an operation served, a would-be 429 in observe mode is both.
 *
 * Splits: a child range starts with an empty series, so a hot partition that splits stops its
 * alert and its children start their own runs, as on the service's per-range metrics.
 */
public final class AlertEvaluator {
  private static final System.Logger LOG = System.getLogger("io.cosmolab.alerts");
  private static final int KEYS_PER_ALERT = 3;
  private static final int EVENTS_KEPT = 200;

  private final CosmosEngine engine;
  private final AlertRules rules;
  private final Consumer<AlertEvent> listener;
  private Map<String, Alert> active = new LinkedHashMap<>();
  private volatile List<Alert> activeView = List.of();
  private final Deque<AlertEvent> events = new ArrayDeque<>();
  private volatile List<AlertEvent> eventsView = List.of();

  /**
   * @param listener told of every start and stop, on the evaluating thread (e.g. {@link #log()})
   */
  public AlertEvaluator(CosmosEngine engine, AlertRules rules, Consumer<AlertEvent> listener) {
    this.engine = engine;
    this.rules = rules;
    this.listener = listener;
  }

  /** A listener that logs one line per start and stop (logger {@code io.cosmolab.alerts}). */
  public static Consumer<AlertEvent> log() {
    return e ->
        LOG.log(e.kind() == AlertEvent.Kind.STARTED ? Level.WARNING : Level.INFO, describe(e));
  }

  /** One line for a log: {@code alert started: hot-partition db/c partition 0: ...}. */
  public static String describe(AlertEvent e) {
    Alert a = e.alert();
    String where =
        a.database()
            + "/"
            + a.container()
            + (a.partitionKeyRangeId() == null ? "" : " partition " + a.partitionKeyRangeId());
    String tail =
        e.kind() == AlertEvent.Kind.STOPPED
            ? " (active " + ((e.atMillis() - a.sinceMillis()) / 1000) + " s)"
            : "";
    return "alert "
        + (e.kind() == AlertEvent.Kind.STARTED ? "started" : "stopped")
        + ": "
        + a.rule().id()
        + " "
        + where
        + ": "
        + a.message()
        + tail;
  }

  public AlertRules rules() {
    return rules;
  }

  /** The alerts active at the last evaluation. */
  public List<Alert> active() {
    return activeView;
  }

  /** The last starts and stops (at most 200), oldest first. */
  public List<AlertEvent> events() {
    return eventsView;
  }

  /**
   * Evaluates every enabled rule at {@code nowMillis} and returns the active alerts; starts and
   * stops since the last call go to the listener, once each.
   */
  public synchronized List<Alert> evaluate(long nowMillis) {
    Map<String, Alert> next = new LinkedHashMap<>();
    for (Database db : engine.databases()) {
      for (Container c : db.containers()) {
        evaluate(db, c, nowMillis, next);
      }
    }
    for (Map.Entry<String, Alert> e : active.entrySet()) {
      if (!next.containsKey(e.getKey())) {
        emit(new AlertEvent(AlertEvent.Kind.STOPPED, e.getValue(), nowMillis));
      }
    }
    for (Map.Entry<String, Alert> e : next.entrySet()) {
      if (!active.containsKey(e.getKey())) {
        emit(new AlertEvent(AlertEvent.Kind.STARTED, e.getValue(), nowMillis));
      }
    }
    active = next;
    activeView = List.copyOf(next.values());
    eventsView = List.copyOf(events);
    return activeView;
  }

  private void emit(AlertEvent e) {
    events.addLast(e);
    while (events.size() > EVENTS_KEPT) {
      events.removeFirst();
    }
    listener.accept(e);
  }

  private void evaluate(Database db, Container c, long nowMillis, Map<String, Alert> out) {
    long nowSecond = Math.floorDiv(nowMillis, 1000);
    List<LogicalPartitionStats> hot = null;
    AlertRules.HotPartition hp = rules.hotPartition();
    AlertRules.ThrottleRate tr = rules.throttleRate();
    if (hp.enabled() || tr.enabled()) {
      long hotSeconds = hp.duration().toSeconds();
      long lookback =
          Math.min(
              PartitionMetrics.WINDOW_SECONDS - 1,
              Math.max(2 * hotSeconds + 59, tr.window().toSeconds()));
      for (PartitionStats p : c.partitionStats()) {
        List<PartitionMetrics.Second> series =
            c.partitionSeconds(p.id(), nowSecond - lookback, nowSecond + 1);
        if (hot == null) {
          hot = c.recentlyHottestLogicalPartitions(50);
        }
        if (hp.enabled()) {
          hotPartition(db, c, p, series, nowSecond, hot, out);
        }
        if (tr.enabled()) {
          throttleRate(db, c, p, series, nowMillis, hot, out);
        }
      }
    }
    if (rules.largeLogicalPartition().enabled()) {
      largeLogicalPartitions(db, c, nowMillis, out);
    }
    if (rules.crossPartitionQueries().enabled() || rules.queryFanOut().enabled()) {
      queries(db, c, nowMillis, out);
    }
    if (rules.goneRange().enabled()) {
      goneRanges(db, c, nowMillis, out);
    }
  }

  private void goneRanges(Database db, Container c, long nowMillis, Map<String, Alert> out) {
    AlertRules.GoneRange rule = rules.goneRange();
    long nowSecond = Math.floorDiv(nowMillis, 1000);
    long window = rule.window().toSeconds();
    for (GoneRangeRequests.Asked asked :
        c.goneRangeRequests()
            .asked(nowSecond - window + 1, nowSecond + 1, rule.after().toMillis())) {
      if (asked.requests() < rule.minRequests() || asked.seconds() < rule.minSeconds()) {
        continue;
      }
      Alert a =
          new Alert(
              AlertRule.GONE_RANGE_REQUESTS,
              db.id(),
              c.id(),
              asked.rangeId(),
              nowMillis,
              List.of(),
              asked.requests(),
              rule.minRequests(),
              String.format(
                  Locale.ROOT,
                  "%d requests in %d seconds of the last %s named partition %s, which a split or"
                      + " a merge replaced %s ago: a client keeps asking for it instead of the"
                      + " partitions that replaced it (the JavaScript SDK's cross-partition ORDER"
                      + " BY does; docs/engine.md)",
                  asked.requests(),
                  asked.seconds(),
                  human(window),
                  asked.rangeId(),
                  human(Math.max(0, (nowMillis - asked.retiredMillis()) / 1000))));
      out.put(a.key(), keepSince(a));
    }
  }

  private void hotPartition(
      Database db,
      Container c,
      PartitionStats p,
      List<PartitionMetrics.Second> series,
      long nowSecond,
      List<LogicalPartitionStats> hot,
      Map<String, Alert> out) {
    AlertRules.HotPartition rule = rules.hotPartition();
    double budget = p.budgetRuPerSecond();
    if (!(budget > 0)) {
      return;
    }
    int n = series.size(); // series.get(n - 1) is nowSecond
    long need = rule.duration().toSeconds();
    // walk back from now while the busiest second of the minute ending there is above threshold
    long runStart = Long.MAX_VALUE;
    double nowValue = 0;
    for (int i = n - 1; i >= 59; i--) {
      double max = 0;
      for (int j = i - 59; j <= i; j++) {
        max = Math.max(max, series.get(j).ru() / budget);
      }
      if (i == n - 1) {
        nowValue = max;
      }
      if (!(max > rule.threshold())) {
        break;
      }
      runStart = series.get(i).epochSecond();
    }
    if (runStart == Long.MAX_VALUE || nowSecond - runStart < need) {
      return;
    }
    Alert a =
        new Alert(
            AlertRule.HOT_PARTITION,
            db.id(),
            c.id(),
            p.id(),
            (runStart + need) * 1000,
            keysOf(hot, p.id()),
            Math.min(1.0, nowValue),
            rule.threshold(),
            String.format(
                Locale.ROOT,
                "normalized RU %.0f %% of its %.1f RU/s budget, above %.0f %% for %s",
                Math.min(1.0, nowValue) * 100,
                budget,
                rule.threshold() * 100,
                human(need)));
    out.put(a.key(), keepSince(a));
  }

  private void throttleRate(
      Database db,
      Container c,
      PartitionStats p,
      List<PartitionMetrics.Second> series,
      long nowMillis,
      List<LogicalPartitionStats> hot,
      Map<String, Alert> out) {
    AlertRules.ThrottleRate rule = rules.throttleRate();
    long window = rule.window().toSeconds();
    long ops = 0;
    long refused = 0;
    long wouldBe = 0;
    for (int i = Math.max(0, series.size() - (int) window); i < series.size(); i++) {
      PartitionMetrics.Second s = series.get(i);
      ops += s.operations();
      refused += s.throttled();
      wouldBe += s.wouldThrottle();
    }
    long requests = ops + refused;
    if (requests == 0 || requests < rule.minRequests()) {
      return;
    }
    double rate = (double) (refused + wouldBe) / requests;
    if (!(rate > rule.threshold())) {
      return;
    }
    Alert a =
        new Alert(
            AlertRule.THROTTLE_RATE,
            db.id(),
            c.id(),
            p.id(),
            nowMillis,
            keysOf(hot, p.id()),
            rate,
            rule.threshold(),
            String.format(
                Locale.ROOT,
                "%.1f %% of %d requests in the last %s got a 429 (%d) or would have (%d), above"
                    + " %.1f %%",
                rate * 100,
                requests,
                human(window),
                refused,
                wouldBe,
                rule.threshold() * 100));
    out.put(a.key(), keepSince(a));
  }

  private void largeLogicalPartitions(
      Database db, Container c, long nowMillis, Map<String, Alert> out) {
    AlertRules.LargeLogicalPartition rule = rules.largeLogicalPartition();
    double limit = rule.bytes() / engine.limits().scaleFactor();
    for (LogicalPartitionStats s : c.largestLogicalPartitions(10)) {
      if (!(s.value() > limit)) {
        break; // largest first
      }
      String key = s.partitionKey() == null ? s.epk() : s.partitionKey().toString();
      Alert a =
          new Alert(
              AlertRule.LARGE_LOGICAL_PARTITION,
              db.id(),
              c.id(),
              s.rangeId(),
              nowMillis,
              List.of(key),
              s.value(),
              limit,
              String.format(
                  Locale.ROOT,
                  "logical partition %s holds %s in %d documents, above %s (of the %s limit)",
                  key,
                  bytes(s.value()),
                  s.documents(),
                  bytes(limit),
                  bytes((double) engine.limits().logicalPartitionBytes())));
      out.put(a.key(), keepSince(a));
    }
  }

  private void queries(Database db, Container c, long nowMillis, Map<String, Alert> out) {
    long nowSecond = Math.floorDiv(nowMillis, 1000);
    AlertRules.CrossPartitionQueries cross = rules.crossPartitionQueries();
    if (cross.enabled()) {
      QueryStats.Window w =
          c.queryStats().window(nowSecond - cross.window().toSeconds() + 1, nowSecond + 1);
      if (w.queries() > 0
          && w.queries() >= cross.minQueries()
          && w.crossPartitionShare() > cross.threshold()) {
        Alert a =
            new Alert(
                AlertRule.CROSS_PARTITION_QUERIES,
                db.id(),
                c.id(),
                null,
                nowMillis,
                List.of(),
                w.crossPartitionShare(),
                cross.threshold(),
                String.format(
                    Locale.ROOT,
                    "%d of %d queries in the last %s were cross-partition (%.1f %%), above %.1f %%",
                    w.crossPartition(),
                    w.queries(),
                    human(cross.window().toSeconds()),
                    w.crossPartitionShare() * 100,
                    cross.threshold() * 100));
        out.put(a.key(), keepSince(a));
      }
    }
    AlertRules.QueryFanOut fan = rules.queryFanOut();
    if (fan.enabled()) {
      QueryStats.Window w =
          c.queryStats().window(nowSecond - fan.window().toSeconds() + 1, nowSecond + 1);
      if (w.worstRatio() > fan.ratio() && w.worstRetrieved() >= fan.minRetrieved()) {
        Alert a =
            new Alert(
                AlertRule.QUERY_FAN_OUT,
                db.id(),
                c.id(),
                null,
                nowMillis,
                List.of(),
                w.worstRatio(),
                fan.ratio(),
                String.format(
                    Locale.ROOT,
                    "a query retrieved %d documents to return %d (ratio %.0f, above %.0f): %s",
                    w.worstRetrieved(),
                    w.worstOutput(),
                    w.worstRatio(),
                    fan.ratio(),
                    w.worstText()));
        out.put(a.key(), keepSince(a));
      }
    }
  }

  /** An alert that was already active keeps its start. */
  private Alert keepSince(Alert a) {
    Alert before = active.get(a.key());
    if (before == null || a.rule() == AlertRule.HOT_PARTITION) {
      return a;
    }
    return new Alert(
        a.rule(),
        a.database(),
        a.container(),
        a.partitionKeyRangeId(),
        before.sinceMillis(),
        a.hottestKeys(),
        a.value(),
        a.threshold(),
        a.message());
  }

  private static List<String> keysOf(List<LogicalPartitionStats> hot, String rangeId) {
    List<String> keys = new ArrayList<>();
    for (LogicalPartitionStats s : hot) {
      if (s.rangeId().equals(rangeId)) {
        keys.add(s.partitionKey() == null ? s.epk() : s.partitionKey().toString());
        if (keys.size() == KEYS_PER_ALERT) {
          break;
        }
      }
    }
    return keys;
  }

  private static String human(long seconds) {
    if (seconds == 0) {
      return "0 s";
    }
    if (seconds % 3600 == 0) {
      return seconds / 3600 + " h";
    }
    if (seconds % 60 == 0) {
      return seconds / 60 + " min";
    }
    return seconds + " s";
  }

  static String bytes(double b) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024 && u < units.length - 1) {
      b /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, u == 0 ? "%.0f %s" : "%.1f %s", b, units[u]);
  }
}
