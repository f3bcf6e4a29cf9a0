package io.cosmolab.benchmarks;

import io.cosmolab.engine.limits.Limits;
import io.cosmolab.engine.metrics.PartitionMetrics;
import io.cosmolab.engine.throughput.PartitionBudget;
import java.util.Locale;

/**
 * What a point read pays its partition's bookkeeping, from one thread: nanoseconds per metrics
 * record ({@code PartitionMetrics.recordOperation} with a hot-key update) and per budget admission
 * and charge. Four partitions, 1,000 keys, 5 million of each, three timed rounds after one untimed.
 * It runs as a single-file program against an older build's jar too (docs/benchmarks.md, "point
 * reads on the event loop").
 */
public final class RecordingBench {
  private RecordingBench() {}

  public static void main(String[] args) {
    PartitionMetrics metrics = new PartitionMetrics();
    long t0 = 1_767_225_600_000L;
    PartitionBudget[] budgets = new PartitionBudget[4];
    String[] ranges = new String[budgets.length];
    for (int i = 0; i < budgets.length; i++) {
      budgets[i] = new PartitionBudget(1e12, false, Limits.SERVICE, t0);
      ranges[i] = Integer.toString(i);
    }
    String[] keys = new String[1000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = "epk" + i;
    }
    int n = 5_000_000;
    for (int round = 0; round < 4; round++) {
      long start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        metrics.recordOperation(ranges[i & 3], t0 + i / 1000, 1.0, keys[i % keys.length]);
      }
      long recorded = System.nanoTime() - start;
      start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        long now = t0 + i / 1000;
        PartitionBudget b = budgets[i & 3];
        b.charge(1.0, b.admit(now), now);
      }
      long charged = System.nanoTime() - start;
      if (round > 0) {
        System.out.printf(
            Locale.ROOT,
            "metrics record %.1f ns/op   budget admit+charge %.1f ns/op%n",
            recorded / (double) n,
            charged / (double) n);
      }
    }
  }
}
