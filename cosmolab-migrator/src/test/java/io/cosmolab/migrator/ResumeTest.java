package io.cosmolab.migrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import io.cosmolab.testkit.CosmosLab;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run crashed at a seeded random step (before a write or a save of the state), resumed each time,
 * while a writer creates, replaces and deletes in the source: the target ends equal to the source,
 * nothing lost, nothing deleted back. Replay a seed with {@code -Dcosmolab.seed=N}.
 */
class ResumeTest {
  private static CosmosLab lab;
  private static CosmosClient client;

  /** The injected crash. */
  static final class Crash extends RuntimeException {
    private static final long serialVersionUID = 1;

    Crash(String step) {
      super("injected crash before " + step);
    }
  }

  @BeforeAll
  static void start() {
    lab = CosmosLab.builder().start();
    client = lab.clientBuilder().buildClient();
  }

  @AfterAll
  static void stop() {
    client.close();
    lab.close();
  }

  @Test
  void aRunCrashedAtTenRandomPoints_andResumed_leavesTheTargetEqualToTheSource(@TempDir Path tmp) {
    crashAndResume(tmp, "r1", 10, 300);
  }

  @Test
  @Tag("heavy")
  void aRunCrashedAtFiftyRandomPoints_andResumed_leavesTheTargetEqualToTheSource(
      @TempDir Path tmp) {
    crashAndResume(tmp, "r2", 50, 2000);
  }

  private static void crashAndResume(Path tmp, String db, int trials, int documents) {
    long seed = Long.getLong("cosmolab.seed", System.nanoTime());
    System.out.println("ResumeTest seed " + seed + " (replay with -Dcosmolab.seed=" + seed + ")");
    Random random = new Random(seed);
    CosmosContainer source = Lab.orders(client, db, "orders", documents);
    MigrationSpec spec = Lab.spec(lab, db, "orders", "byRegion", "/region+/userId");
    int crashes = 0;
    // the fault points a run may pass before it ends: the copy's many at first; once a run ends
    // without a crash, the copy is done and the next runs only catch up with the writer (at most
    // its 150 ids each), so they crash within as many points as the last whole run passed. A
    // fixed bound of documents / 2 left most catch-up runs whole (18 crashes in 50, seed
    // 12555194132838)
    int bound = documents / 2;
    try (Lab.Writer writer = new Lab.Writer(source, seed, 150)) {
      for (int trial = 0; trial < trials; trial++) {
        int at = 1 + random.nextInt(bound);
        AtomicInteger steps = new AtomicInteger();
        MigratorOptions o =
            Lab.options()
                .withFault(
                    step -> {
                      if (steps.incrementAndGet() == at) {
                        throw new Crash(step);
                      }
                    });
        try (Migrator m = Migrator.open(spec, tmp, o)) {
          m.run(true, () -> false);
          bound = Math.max(1, steps.get());
        } catch (Crash expected) {
          crashes++;
          System.out.println(
              "  trial " + trial + ": " + expected.getMessage() + " (step " + at + ")");
        }
      }
      assertThat(writer.writes()).as("writes during the trials").isPositive();
    }
    assertThat(crashes).as("seed %d", seed).isGreaterThan(trials / 2);
    try (Migrator m = Migrator.open(spec, tmp, Lab.options())) {
      MigrationState s = m.run(true, () -> false);
      assertThat(s.ready()).isTrue();
      VerifyReport v = m.verify();
      assertThat(v.differences()).as("seed %d", seed).isEmpty();
      assertThat(v.equal()).isTrue();
      assertThat(v.targetDocuments()).isEqualTo(v.sourceDocuments());
      // the counts per source range were saved with the position: replayed pages count once
      assertThat(s.ranges().stream().mapToLong(RangeProgress::copied).sum()).isEqualTo(s.copied());
      assertThat(s.ranges().stream().mapToLong(RangeProgress::applied).sum())
          .isEqualTo(s.applied());
      // and the incremental verification, its marks saved with the position too, agrees
      Cutover c = m.cutover(java.time.Duration.ZERO, java.time.Duration.ofSeconds(30));
      assertThat(c.safe()).as("seed %d: %s", seed, c.verdict()).isTrue();
      assertThat(c.verify().partitions()).isEqualTo(v.partitions());
    }
  }
}
