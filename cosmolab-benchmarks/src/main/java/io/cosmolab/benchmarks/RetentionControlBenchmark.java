package io.cosmolab.benchmarks;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The control for "creates scale with threads": no engine, nothing shared between threads. Each
 * thread makes a document-like map per operation (an insertion-ordered map of five properties, two
 * fresh strings: about a dozen objects, 450 bytes) and either keeps it in a map of its own, as a
 * container keeps a created document, or drops it. The same fork settings as {@link
 * PointOperationsBenchmark} (a 2 GB heap, the JDK's default collector) and the same fresh start
 * each iteration.
 *
 * <p>What it shows (docs/benchmarks.md, "The control"): with two threads on two cores, a program
 * that keeps what it makes scales as far as the collector lets it, whatever the program; one that
 * drops it scales with the cores. Run with {@code -t 1} and {@code -t 2}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class RetentionControlBenchmark {
  /**
   * Arithmetic steps per operation besides the map (about 1.6 ns each here): 3000 brings the
   * operation to about a create's time in the engine, so the live set grows at a create's rate.
   */
  @Param({"0", "3000"})
  public int steps;

  private Map<String, Object> kept;
  private long next;
  private long x = 1;

  /** A fresh "container" each iteration, as the creates get, so the heap stays bounded. */
  @Setup(Level.Iteration)
  public void fresh() {
    kept = new HashMap<>();
  }

  private Map<String, Object> document() {
    long n = next++;
    for (int i = 0; i < steps; i++) {
      x = x * 6364136223846793005L + 1442695040888963407L;
      x ^= x >>> 29;
    }
    Map<String, Object> d = new LinkedHashMap<>();
    String id = "new" + n;
    d.put("id", id);
    d.put("pk", "key-" + (n % 5_000));
    d.put("name", "benchmark document");
    d.put("n", n ^ (x & 1)); // keeps the steps' result live
    d.put("payload", PointOperationsBenchmark.FILLER); // shared, as the creates' is
    return d;
  }

  /** Makes a document and keeps it: the live set grows as a container's does under creates. */
  @Benchmark
  public Object keep() {
    Map<String, Object> d = document();
    kept.put((String) d.get("id"), d);
    return d;
  }

  /**
   * Makes the same document and drops it: the same allocation, nothing for the collector to copy.
   */
  @Benchmark
  public Object drop() {
    return document();
  }
}
