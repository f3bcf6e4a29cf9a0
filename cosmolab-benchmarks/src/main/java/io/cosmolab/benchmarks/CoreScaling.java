package io.cosmolab.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The machine's own ceiling for "2 threads do N times the work of one": each thread runs an
 * arithmetic loop of its own (a multiply and a xorshift per step), sharing no memory and allocating
 * nothing, with 1 thread and then 2, for several rounds. On two whole cores this gives about 2×;
 * the engine's creates, which allocate and keep what they allocate, are measured against it
 * (docs/benchmarks.md, "What else it is not").
 *
 * <pre>
 *   java -cp benchmarks.jar io.cosmolab.benchmarks.CoreScaling [STEPS] [ROUNDS]
 * </pre>
 */
public final class CoreScaling {
  private CoreScaling() {}

  /** Runs the loops and prints each round's rates and ratio. */
  public static void main(String[] args) throws Exception {
    long steps = args.length > 0 ? Long.parseLong(args[0]) : 400_000_000L;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    if (steps <= 0 || rounds <= 0) {
      throw new IllegalArgumentException("STEPS and ROUNDS must be positive");
    }
    for (int round = 1; round <= rounds; round++) {
      double one = stepsPerSecond(1, steps);
      double two = stepsPerSecond(2, steps);
      System.out.printf(
          Locale.ROOT,
          "round %d: 1 thread %.0f M steps/s, 2 threads %.0f M steps/s, 2 ÷ 1 = %.2f%n",
          round,
          one / 1e6,
          two / 1e6,
          two / one);
    }
  }

  private static double stepsPerSecond(int threads, long steps) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      long start = System.nanoTime();
      List<Future<Long>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long seed = t + 1L;
        done.add(pool.submit(() -> loop(seed, steps)));
      }
      long sink = 0;
      for (Future<Long> f : done) {
        sink ^= f.get();
      }
      long elapsed = System.nanoTime() - start;
      if (sink == 42) {
        System.out.print(""); // keeps the loops' results live
      }
      return threads * (double) steps / (elapsed / 1e9);
    } finally {
      pool.shutdown();
    }
  }

  private static long loop(long seed, long steps) {
    long x = seed;
    for (long i = 0; i < steps; i++) {
      x = x * 6364136223846793005L + 1442695040888963407L;
      x ^= x >>> 29;
    }
    return x;
  }
}
