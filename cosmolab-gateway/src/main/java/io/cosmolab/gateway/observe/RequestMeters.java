package io.cosmolab.gateway.observe;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters only the wire sees: requests and request units by database, container, physical
 * partition, operation type, status and sub-status ({@code cosmolab_requests_total}, {@code
 * cosmolab_request_units_total}), and the latency of each operation type ({@code
 * cosmolab_request_latency_seconds}, a histogram).
 */
/*
 * How and why.
 *
 * A request touches no Micrometer or Prometheus class: it finds its cell in one ConcurrentHashMap
 * look-up by a record of the six labels and adds to striped adders (LongAdder, DoubleAdder), and
 * its latency goes into a fixed list of buckets (0.25 ms to 10 s) of adders. So the request path
 * stays cheap, and a server that is never scraped never loads the metrics libraries (a test JVM's
 * cold start is most of its class loading). At a scrape the Prometheus client reads the cells as
 * a MultiCollector registered in the registry Micrometer renders, so the exposition is written by
 * the Prometheus client's own writer, in one document with the engine's meters.
 *
 * Concurrency: the maps are concurrent; the adders are thread-safe; a scrape reads each adder
 * once, so a request in flight may count in one series and not yet in another.
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

    String database() {
      return database;
    }

    String container() {
      return container;
    }

    String range() {
      return range;
    }

    String operation() {
      return operation;
    }

    String status() {
      return status;
    }

    String subStatus() {
      return subStatus;
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

  private static final class Cell {
    final LongAdder requests = new LongAdder();
    final DoubleAdder units = new DoubleAdder();
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

  private static final class Latency {
    final LongAdder[] buckets = new LongAdder[BOUNDS.length + 1];
    final DoubleAdder seconds = new DoubleAdder();

    Latency() {
      for (int i = 0; i < buckets.length; i++) {
        buckets[i] = new LongAdder();
      }
    }
  }

  private final ConcurrentHashMap<Labels6, Cell> cells = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Latency> latencies = new ConcurrentHashMap<>();

  void record(
      String database,
      String container,
      String range,
      String operation,
      int status,
      int subStatus,
      double requestUnits,
      long nanos) {
    Labels6 l = new Labels6(database, container, range, operation, code(status), code(subStatus));
    Cell c = cells.get(l);
    if (c == null) {
      c = cells.computeIfAbsent(l, k -> new Cell());
    }
    c.requests.increment();
    if (requestUnits > 0) {
      c.units.add(requestUnits);
    }
    Latency t = latencies.get(operation);
    if (t == null) {
      t = latencies.computeIfAbsent(operation, k -> new Latency());
    }
    int b = 0;
    while (b < BOUNDS_NANOS.length && nanos > BOUNDS_NANOS[b]) {
      b++;
    }
    t.buckets[b].increment();
    t.seconds.add(nanos / 1e9);
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
      CounterSnapshot.Builder requests =
          CounterSnapshot.builder()
              .name("cosmolab_requests")
              .help("Requests answered, by operation type and status (as Azure Monitor's)");
      CounterSnapshot.Builder units =
          CounterSnapshot.builder()
              .name("cosmolab_request_units")
              .help("Request units charged, by operation type and status");
      for (Map.Entry<Labels6, Cell> e : cells.entrySet()) {
        Labels6 l = e.getKey();
        Labels labels =
            Labels.of(
                "container", l.container(),
                "database", l.database(),
                "operation_type", l.operation(),
                "partition_key_range_id", l.range(),
                "status_code", l.status(),
                "sub_status", l.subStatus());
        requests.dataPoint(
            CounterSnapshot.CounterDataPointSnapshot.builder()
                .labels(labels)
                .value((double) e.getValue().requests.sum())
                .build());
        units.dataPoint(
            CounterSnapshot.CounterDataPointSnapshot.builder()
                .labels(labels)
                .value(e.getValue().units.sum())
                .build());
      }
      HistogramSnapshot.Builder latency =
          HistogramSnapshot.builder()
              .name("cosmolab_request_latency_seconds")
              .help("Time from a decoded request to its response, in the gateway's worker");
      double[] bounds = java.util.Arrays.copyOf(BOUNDS, BOUNDS.length + 1);
      bounds[BOUNDS.length] = Double.POSITIVE_INFINITY;
      for (Map.Entry<String, Latency> e : latencies.entrySet()) {
        long[] counts = new long[bounds.length];
        for (int i = 0; i < counts.length; i++) {
          counts[i] = e.getValue().buckets[i].sum();
        }
        latency.dataPoint(
            HistogramSnapshot.HistogramDataPointSnapshot.builder()
                .labels(Labels.of("operation_type", e.getKey()))
                .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, counts))
                .sum(e.getValue().seconds.sum())
                .build());
      }
      return MetricSnapshots.of(requests.build(), units.build(), latency.build());
    };
  }
}
