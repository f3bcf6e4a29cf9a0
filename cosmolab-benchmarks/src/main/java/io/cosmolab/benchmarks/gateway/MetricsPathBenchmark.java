package io.cosmolab.benchmarks.gateway;

import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.alerts.AlertRules;
import io.cosmolab.gateway.auth.HostCheck;
import io.cosmolab.gateway.observe.Observability;
import io.cosmolab.gateway.observe.ObservedProtocol;
import io.cosmolab.gateway.wire.ResourcePath;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the metrics add to each request, apart from everything else a request does: a point read's
 * request and response (its real headers: charge, alt path, range id, session) through {@link
 * ObservedProtocol} in front of a protocol that answers at once, with metrics on and off, on one
 * thread and on two (the machine's cores, contending as a server's workers do). The difference
 * between {@code on} and {@code off} is the request path's cost per request; a server's own CPU per
 * point read is 60-150 us (docs/benchmarks.md), so 1 % of it is 0.6-1.5 us.
 *
 * <pre>
 * java -jar cosmolab-benchmarks/target/benchmarks.jar MetricsPathBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class MetricsPathBenchmark {
  @Param({"on", "off"})
  public String metrics;

  private CosmosEngine engine;
  private Observability observability;
  private ObservedProtocol observed;
  private WireRequest[] requests;

  @Setup(Level.Trial)
  public void setUp() {
    engine = CosmosEngine.builder().build();
    observability = new Observability(engine, AlertRules.defaults(), metrics.equals("on"), e -> {});
    String[] ranges = {"0", "1", "2", "3"};
    requests = new WireRequest[64];
    for (int i = 0; i < requests.length; i++) {
      requests[i] =
          new WireRequest(
              "GET",
              ResourcePath.parse("/dbs/shop/colls/orders/docs/o" + i),
              Map.of(
                  "host", "localhost",
                  "x-ms-documentdb-partitionkey", "[\"t" + i + "\"]",
                  "x-ms-version", "2020-07-15"),
              new byte[0],
              "http://localhost/",
              "");
    }
    WireResponse[] answers = new WireResponse[ranges.length];
    for (int r = 0; r < ranges.length; r++) {
      answers[r] =
          new WireResponse(
              200,
              Map.of(
                  "x-ms-request-charge", "1.05",
                  "x-ms-alt-content-path", "dbs/shop/colls/orders",
                  "x-ms-documentdb-partitionkeyrangeid", ranges[r],
                  "x-ms-session-token", ranges[r] + ":-1#42",
                  "etag", "\"00000000-0000-0000-0000-000000000042\""),
              "{\"id\":\"o1\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    observed =
        new ObservedProtocol(
            request -> answers[request.path().toString().length() % answers.length],
            new HostCheck(Set.of("localhost")),
            observability);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    observability.close();
  }

  /** Per thread: which request it sends next. */
  @State(Scope.Thread)
  public static class Cursor {
    int next;
  }

  @Benchmark
  @Threads(1)
  public WireResponse oneThread(Cursor c) {
    return observed.apply(requests[c.next++ & 63]);
  }

  @Benchmark
  @Threads(2)
  public WireResponse twoThreads(Cursor c) {
    return observed.apply(requests[c.next++ & 63]);
  }
}
