package io.cosmolab.rehearsal;

import com.fasterxml.jackson.databind.node.IntNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.workload.Access;
import io.cosmolab.advisor.workload.ContainerWorkload;
import io.cosmolab.advisor.workload.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * How fast a rehearsal runs: virtual seconds per wall second for a 10,000 requests/s peak (1,000
 * creates, 8,500 point reads and 500 single-partition queries per second on /userId, 150,000 RU/s),
 * at full fidelity and with the scale model. Numbers for docs/benchmarks.md; run with {@code -P
 * heavy -Dtest=RehearsalSpeedTest}. Prints medians of 3 runs after one warm-up.
 */
@Tag("heavy")
class RehearsalSpeedTest {

  static Scenario peak(long seconds, double scale) {
    ContainerWorkload w =
        new ContainerWorkload(
            "orders",
            null,
            null,
            IntNode.valueOf(150_000),
            null,
            0L,
            null,
            null,
            List.of(
                new Operation(Operation.Type.CREATE, 1000),
                new Operation(Operation.Type.READ, 8500),
                Operation.query(
                        "my orders",
                        "SELECT * FROM c WHERE c.userId = @user",
                        500,
                        Map.of("@user", Access.DATA))
                    .withRows(5)),
            null);
    return new Scenario(
        "speed",
        "10,000 requests/s",
        w,
        List.of(Candidate.single("/userId")),
        Library.orders(4000, 1),
        null,
        List.of(Phase.constant("peak", Duration.ofSeconds(seconds), 1)),
        List.of(),
        Map.of(),
        Duration.ofSeconds(Math.max(1, seconds / 300)),
        null,
        scale,
        42);
  }

  private static void measure(long seconds, double scale) {
    Scenario s = peak(seconds, scale);
    Rehearsal.run(peak(Math.min(seconds, 60), scale)); // warm-up
    List<Double> ratios = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      long t0 = System.nanoTime();
      RehearsalReport r = Rehearsal.run(s);
      double wall = (System.nanoTime() - t0) / 1e9;
      ratios.add(seconds / wall);
      if (i == 0) {
        System.out.printf(
            Locale.ROOT,
            "scale %s: %,d requests, 429s %,d%n",
            scale,
            r.candidates().get(0).headline().requests(),
            r.candidates().get(0).headline().throttledAttempts());
      }
    }
    Collections.sort(ratios);
    System.out.printf(
        Locale.ROOT,
        "scale %4.0f, %5d virtual s: %.1fx real time (median of 3; min %.1f, max %.1f);"
            + " %.0f simulated requests/s of wall time%n",
        scale,
        seconds,
        ratios.get(1),
        ratios.get(0),
        ratios.get(2),
        ratios.get(1) * 10_000 / scale);
  }

  @Test
  void virtualSecondsPerWallSecond_atATenThousandRequestPeak() {
    measure(60, 1);
    measure(600, 10);
    measure(3600, 20);
    measure(3600, 50);
  }
}
