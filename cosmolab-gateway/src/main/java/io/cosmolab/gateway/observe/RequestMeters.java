package io.cosmolab.gateway.observe;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The counters only the wire sees: requests and request units by database, container, physical
 * partition, operation type, status and sub-status ({@code cosmolab_requests_total}, {@code
 * cosmolab_request_units_total}), and the latency of each operation type ({@code
 * cosmolab_request_latency_seconds}, a histogram).
 */
/*
 * How and why.
 *
 * Micrometer finds a meter by name and tags on every builder call, which costs a tag sort and a
 * map look-up of a Meter.Id; a request here finds its pair of counters in one ConcurrentHashMap
 * look-up by a record of the six labels, and the registry is asked only the first time a label
 * set is seen. Latency buckets are a fixed list of service-level objectives (1 ms to 10 s), not
 * Micrometer's 70-odd percentile-histogram buckets, to keep the exposition short.
 *
 * Concurrency: the maps are concurrent; Micrometer's counters and timers are thread-safe.
 */
final class RequestMeters {
  private record Labels(
      String database,
      String container,
      String range,
      String operation,
      String status,
      String subStatus) {}

  private record Pair(Counter requests, Counter units) {}

  private static final Duration[] BUCKETS = {
    Duration.ofNanos(250_000),
    Duration.ofMillis(1),
    Duration.ofMillis(2),
    Duration.ofMillis(5),
    Duration.ofMillis(10),
    Duration.ofMillis(25),
    Duration.ofMillis(50),
    Duration.ofMillis(100),
    Duration.ofMillis(250),
    Duration.ofMillis(500),
    Duration.ofSeconds(1),
    Duration.ofSeconds(10)
  };

  private final MeterRegistry registry;
  private final ConcurrentHashMap<Labels, Pair> counters = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Timer> timers = new ConcurrentHashMap<>();

  RequestMeters(MeterRegistry registry) {
    this.registry = registry;
  }

  void record(
      String database,
      String container,
      String range,
      String operation,
      int status,
      int subStatus,
      double requestUnits,
      long nanos) {
    Labels l =
        new Labels(
            database,
            container,
            range,
            operation,
            Integer.toString(status),
            Integer.toString(subStatus));
    Pair p = counters.get(l);
    if (p == null) {
      p = counters.computeIfAbsent(l, this::register);
    }
    p.requests().increment();
    if (requestUnits > 0) {
      p.units().increment(requestUnits);
    }
    Timer t = timers.get(operation);
    if (t == null) {
      t = timers.computeIfAbsent(operation, this::timer);
    }
    t.record(nanos, TimeUnit.NANOSECONDS);
  }

  private Pair register(Labels l) {
    String[] tags = {
      "database", l.database(),
      "container", l.container(),
      "partition_key_range_id", l.range(),
      "operation_type", l.operation(),
      "status_code", l.status(),
      "sub_status", l.subStatus()
    };
    return new Pair(
        Counter.builder("cosmolab.requests")
            .description("Requests answered, by operation type and status (as Azure Monitor's)")
            .tags(tags)
            .register(registry),
        Counter.builder("cosmolab.request.units")
            .description("Request units charged, by operation type and status")
            .tags(tags)
            .register(registry));
  }

  private Timer timer(String operation) {
    return Timer.builder("cosmolab.request.latency")
        .description("Time from a decoded request to its response, in the gateway's worker")
        .tag("operation_type", operation)
        .serviceLevelObjectives(BUCKETS)
        .register(registry);
  }
}
