package io.cosmolab.gateway.observe;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The counters only the wire sees: requests and request units by database, container, physical
 * partition, operation type, status and sub-status ({@code cosmolab_requests_total}, {@code
 * cosmolab_request_units_total}), and the latency of each operation type ({@code
 * cosmolab_request_latency_seconds}, a histogram).
 */
/*
 * How and why.
 *
 * A request touches no Micrometer or Prometheus class, no atomic and no shared counter: each
 * thread that answers requests counts into cells of its own (Local), found by one look-up of the
 * six labels, and writes them with opaque stores that only it makes; a scrape sums every thread's
 * cells with opaque loads. Shared striped adders (LongAdder) were the design before: on two cores
 * they have two stripes, and the workers of 16 connections then bounce the adders' cache lines
 * between the cores on every request, which measured as the metrics' cost at 16 connections
 * (docs/benchmarks.md, "What metrics cost"). The latency goes into a fixed list of buckets (0.25 ms
 * to 10 s) the same way. A server that is never scraped never loads the metrics libraries (a test
 * JVM's cold start is most of its class loading). At a scrape the Prometheus client reads the sums
 * as a MultiCollector registered in the registry Micrometer renders, so the exposition is written
 * by the Prometheus client's own writer, in one document with the engine's meters.
 *
 * Concurrency: a Local's maps are concurrent (its thread inserts, a scrape iterates); a cell has
 * one writer, its thread, and is read whole per field (opaque access is atomic for longs and
 * eventually visible), so a scrape may see a request in one series and not yet in another, never
 * a torn or lost count. A thread that has ended is folded into `retired` at the next scrape (its
 * last writes happen-before isAlive() answers false) and forgotten, so worker threads that come
 * and go neither lose counts nor pile up. Scrapes are serialized.
 */
final class RequestMeters {
  /**
   * The six labels of a request's cell. Not a record: the hash is computed once, and equality meets
   * identical strings first, since a request's label strings are the same instances each time
   * (ObservedProtocol keeps the database and container names; codes, operations and range ids are
   * shared), which made a record's generated hashCode and equals the bulk of the metrics' cost per
   * request (JFR, docs/benchmarks.md).
   */
  private static final class Labels6 {
    final String database;
    final String container;
    final String range;
    final String operation;
    final String status;
    final String subStatus;
    private final int hash;

    Labels6(
        String database,
        String container,
        String range,
        String operation,
        String status,
        String subStatus) {
      this.database = database;
      this.container = container;
      this.range = range;
      this.operation = operation;
      this.status = status;
      this.subStatus = subStatus;
      int h = database.hashCode();
      h = 31 * h + container.hashCode();
      h = 31 * h + range.hashCode();
      h = 31 * h + operation.hashCode();
      h = 31 * h + status.hashCode();
      this.hash = 31 * h + subStatus.hashCode();
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o == this
          || (o instanceof Labels6 l
              && hash == l.hash
              && database.equals(l.database) // String.equals checks identity first
              && container.equals(l.container)
              && range.equals(l.range)
              && operation.equals(l.operation)
              && status.equals(l.status)
              && subStatus.equals(l.subStatus));
    }
  }

  /** Requests and request units (in millionths, so a long) of one label set, by one thread. */
  private static final class Cell {
    long requests;
    long microUnits;
  }

  /** One operation type's latency buckets and total, by one thread. */
  private static final class Latency {
    final long[] buckets = new long[BOUNDS.length + 1];
    long nanos;
  }

  private static final VarHandle REQUESTS;
  private static final VarHandle MICRO_UNITS;
  private static final VarHandle NANOS;
  private static final VarHandle BUCKET = MethodHandles.arrayElementVarHandle(long[].class);

  static {
    try {
      MethodHandles.Lookup l = MethodHandles.lookup();
      REQUESTS = l.findVarHandle(Cell.class, "requests", long.class);
      MICRO_UNITS = l.findVarHandle(Cell.class, "microUnits", long.class);
      NANOS = l.findVarHandle(Latency.class, "nanos", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The counts of one thread: only it writes them. */
  private static final class Local {
    final Thread owner;
    final ConcurrentHashMap<Labels6, Cell> cells = new ConcurrentHashMap<>();
    final ConcurrentHashMap<String, Latency> latencies = new ConcurrentHashMap<>();

    Local(Thread owner) {
      this.owner = owner;
    }
  }

  /** Upper bounds of the latency buckets, in seconds; +Inf follows. */
  static final double[] BOUNDS = {
    0.00025, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 10
  };

  private static final long[] BOUNDS_NANOS = new long[BOUNDS.length];

  static {
    for (int i = 0; i < BOUNDS.length; i++) {
      BOUNDS_NANOS[i] = Math.round(BOUNDS[i] * 1e9);
    }
  }

  private final Set<Local> locals = ConcurrentHashMap.newKeySet();
  private final ThreadLocal<Local> local =
      ThreadLocal.withInitial(
          () -> {
            Local l = new Local(Thread.currentThread());
            locals.add(l);
            return l;
          });
  // the sums of threads that have ended; only scrapes, which are serialized, read or write it
  private final Map<Labels6, long[]> retiredCells = new HashMap<>();
  private final Map<String, long[]> retiredLatencies = new HashMap<>();

  void record(
      String database,
      String container,
      String range,
      String operation,
      int status,
      int subStatus,
      double requestUnits,
      long nanos) {
    Local mine = local.get();
    Labels6 l = new Labels6(database, container, range, operation, code(status), code(subStatus));
    Cell c = mine.cells.get(l);
    if (c == null) {
      c = mine.cells.computeIfAbsent(l, k -> new Cell());
    }
    REQUESTS.setOpaque(c, c.requests + 1);
    if (requestUnits > 0) {
      MICRO_UNITS.setOpaque(c, c.microUnits + Math.round(requestUnits * 1e6));
    }
    Latency t = mine.latencies.get(operation);
    if (t == null) {
      t = mine.latencies.computeIfAbsent(operation, k -> new Latency());
    }
    int b = 0;
    while (b < BOUNDS_NANOS.length && nanos > BOUNDS_NANOS[b]) {
      b++;
    }
    BUCKET.setOpaque(t.buckets, b, t.buckets[b] + 1);
    NANOS.setOpaque(t, t.nanos + nanos);
  }

  /**
   * Every thread's counts summed: {requests, micro-units} per label set and {buckets..., nanos} per
   * operation type; threads that have ended are folded into the retired sums on the way.
   */
  private synchronized void sum(Map<Labels6, long[]> cellsOut, Map<String, long[]> latencyOut) {
    for (java.util.Iterator<Local> it = locals.iterator(); it.hasNext(); ) {
      Local l = it.next();
      boolean ended = !l.owner.isAlive();
      add(l, ended ? retiredCells : cellsOut, ended ? retiredLatencies : latencyOut);
      if (ended) {
        it.remove();
      }
    }
    retiredCells.forEach((k, v) -> merge(cellsOut, k, v));
    retiredLatencies.forEach((k, v) -> merge(latencyOut, k, v));
  }

  private static void add(Local l, Map<Labels6, long[]> cells, Map<String, long[]> latencies) {
    for (Map.Entry<Labels6, Cell> e : l.cells.entrySet()) {
      Cell c = e.getValue();
      merge(
          cells,
          e.getKey(),
          new long[] {(long) REQUESTS.getOpaque(c), (long) MICRO_UNITS.getOpaque(c)});
    }
    for (Map.Entry<String, Latency> e : l.latencies.entrySet()) {
      Latency t = e.getValue();
      long[] v = new long[BOUNDS.length + 2];
      for (int i = 0; i <= BOUNDS.length; i++) {
        v[i] = (long) BUCKET.getOpaque(t.buckets, i);
      }
      v[BOUNDS.length + 1] = (long) NANOS.getOpaque(t);
      merge(latencies, e.getKey(), v);
    }
  }

  private static <K> void merge(Map<K, long[]> into, K key, long[] v) {
    long[] sum = into.computeIfAbsent(key, k -> new long[v.length]);
    for (int i = 0; i < v.length; i++) {
      sum[i] += v[i];
    }
  }

  /** Status and sub-status codes as label values, the common ones without a new string. */
  private static final String[] CODES = new String[1100];

  static {
    for (int i = 0; i < CODES.length; i++) {
      CODES[i] = Integer.toString(i);
    }
  }

  private static String code(int n) {
    return n >= 0 && n < CODES.length ? CODES[n] : Integer.toString(n);
  }

  /** The cells as Prometheus snapshots, read at each scrape. */
  MultiCollector collector() {
    return () -> {
      Map<Labels6, long[]> cells = new HashMap<>();
      Map<String, long[]> latencies = new HashMap<>();
      sum(cells, latencies);
      CounterSnapshot.Builder requests =
          CounterSnapshot.builder()
              .name("cosmolab_requests")
              .help("Requests answered, by operation type and status (as Azure Monitor's)");
      CounterSnapshot.Builder units =
          CounterSnapshot.builder()
              .name("cosmolab_request_units")
              .help("Request units charged, by operation type and status");
      for (Map.Entry<Labels6, long[]> e : cells.entrySet()) {
        Labels6 l = e.getKey();
        Labels labels =
            Labels.of(
                "container", l.container,
                "database", l.database,
                "operation_type", l.operation,
                "partition_key_range_id", l.range,
                "status_code", l.status,
                "sub_status", l.subStatus);
        requests.dataPoint(
            CounterSnapshot.CounterDataPointSnapshot.builder()
                .labels(labels)
                .value((double) e.getValue()[0])
                .build());
        units.dataPoint(
            CounterSnapshot.CounterDataPointSnapshot.builder()
                .labels(labels)
                .value(e.getValue()[1] / 1e6)
                .build());
      }
      HistogramSnapshot.Builder latency =
          HistogramSnapshot.builder()
              .name("cosmolab_request_latency_seconds")
              .help("Time from a decoded request to its response, in the gateway's worker");
      double[] bounds = java.util.Arrays.copyOf(BOUNDS, BOUNDS.length + 1);
      bounds[BOUNDS.length] = Double.POSITIVE_INFINITY;
      for (Map.Entry<String, long[]> e : latencies.entrySet()) {
        long[] v = e.getValue();
        latency.dataPoint(
            HistogramSnapshot.HistogramDataPointSnapshot.builder()
                .labels(Labels.of("operation_type", e.getKey()))
                .classicHistogramBuckets(
                    ClassicHistogramBuckets.of(bounds, java.util.Arrays.copyOf(v, bounds.length)))
                .sum(v[BOUNDS.length + 1] / 1e9)
                .build());
      }
      return MetricSnapshots.of(requests.build(), units.build(), latency.build());
    };
  }
}
