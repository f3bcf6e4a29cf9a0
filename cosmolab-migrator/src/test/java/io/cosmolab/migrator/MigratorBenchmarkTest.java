package io.cosmolab.migrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.testkit.CosmosLab;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measured, not asserted beyond sanity: documents per second copied with no RU cap, and the lag
 * while a writer updates the source at a fixed rate. Heavy: numbers for docs/benchmarks.md. The
 * source's feed gives no previous images, as the service's by default; {@code
 * -Dcosmolab.bench.previousImages=true} measures a source that gives them.
 */
@Tag("heavy")
class MigratorBenchmarkTest {

  @Test
  void copyRate_withoutACap_andLagAtSteadyState_withAWriterAt100PerSecond(@TempDir Path tmp)
      throws Exception {
    int n = Integer.getInteger("cosmolab.bench.documents", 20_000);
    boolean previousImages = Boolean.getBoolean("cosmolab.bench.previousImages");
    try (CosmosLab lab =
            CosmosLab.builder()
                .throttling(ThrottlingMode.OFF)
                .changeFeedPreviousImages(previousImages)
                .start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      CosmosContainer source = Lab.orders(client, "b", "orders", 0);
      java.util.List<com.azure.cosmos.models.CosmosItemOperation> ops = new java.util.ArrayList<>();
      for (int i = 0; i < n; i++) {
        ops.add(
            com.azure.cosmos.models.CosmosBulkOperations.getCreateItemOperation(
                Lab.order("o" + i, "t" + (i % 97), Lab.REGIONS[i % 3], i),
                new com.azure.cosmos.models.PartitionKey("t" + (i % 97))));
      }
      source.executeBulkOperations(ops).forEach(r -> {});
      MigrationSpec spec = Lab.spec(lab, "b", "orders", "byRegion", "/region+/userId");
      MigratorOptions o = MigratorOptions.of(Clock.systemUTC());
      try (Migrator m = Migrator.open(spec, tmp, o)) {
        long t0 = System.nanoTime();
        MigrationState s = m.run(true, () -> false);
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf(
            "copy: %,d documents in %.1f s = %,.0f documents/s (plan and target creation"
                + " included), %,.0f RU%n",
            s.copied(), seconds, s.copied() / seconds, s.requestUnits());
        assertThat(s.copied()).isEqualTo(n);
      }
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong writes = new AtomicLong();
      Thread writer =
          new Thread(
              () -> {
                long next = System.nanoTime();
                int i = 0;
                while (!stop.get()) {
                  int k = i++ % n;
                  source.upsertItem(Lab.order("o" + k, "t" + (k % 97), Lab.REGIONS[i % 3], i));
                  writes.incrementAndGet();
                  next += 10_000_000L; // 100 writes per second
                  long wait = next - System.nanoTime();
                  if (wait > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(wait);
                  }
                }
              });
      writer.start();
      double maxLag = 0;
      double sumLag = 0;
      int samples = 0;
      try (Migrator m = Migrator.open(spec, tmp, o)) {
        long end = System.nanoTime() + 20_000_000_000L;
        long[] last = {System.nanoTime()};
        double[] lag = {0, 0};
        int[] count = {0};
        m.run(
            false,
            () -> {
              MigrationState st = m.status();
              if (System.nanoTime() - last[0] > 500_000_000L && st != null) {
                last[0] = System.nanoTime();
                lag[0] = Math.max(lag[0], st.lagSeconds());
                lag[1] += st.lagSeconds();
                count[0]++;
              }
              return System.nanoTime() > end;
            });
        maxLag = lag[0];
        sumLag = lag[1];
        samples = count[0];
      } finally {
        stop.set(true);
        writer.join();
      }
      System.out.printf(
          "steady state: writer at 100/s (%,d writes), lag mean %.2f s, max %.2f s over %d"
              + " samples (the feed's crts has whole seconds)%n",
          writes.get(), samples == 0 ? 0 : sumLag / samples, maxLag, samples);
      try (Migrator m = Migrator.open(spec, tmp, o)) {
        m.run(true, () -> false);
        assertThat(m.verify().equal()).isTrue();
      }
    }
  }
}
