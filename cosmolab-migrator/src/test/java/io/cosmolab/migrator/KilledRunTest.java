package io.cosmolab.migrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import io.cosmolab.testkit.CosmosLab;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The migrator in a child JVM, killed with SIGKILL at seeded random moments while a writer creates,
 * replaces and deletes in the source, started again each time; at the end the target equals the
 * source. Replay a seed with {@code -Dcosmolab.seed=N}. Heavy: each trial starts a JVM.
 */
@Tag("heavy")
class KilledRunTest {

  @Test
  void aRunKilledTenTimesWithSigkill_andRestarted_leavesTheTargetEqualToTheSource(@TempDir Path tmp)
      throws Exception {
    long seed = Long.getLong("cosmolab.seed", System.nanoTime());
    System.out.println(
        "KilledRunTest seed " + seed + " (replay with -Dcosmolab.seed=" + seed + ")");
    Random random = new Random(seed);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    try (CosmosLab lab = CosmosLab.builder().start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      CosmosContainer source = Lab.orders(client, "k", "orders", 3000);
      try (Lab.Writer writer = new Lab.Writer(source, seed, 300)) {
        for (int trial = 0; trial < 10; trial++) {
          Process p =
              new ProcessBuilder(
                      List.of(
                          java,
                          "-cp",
                          System.getProperty("java.class.path"),
                          KilledRunMain.class.getName(),
                          lab.endpoint().toString(),
                          lab.key(),
                          "k",
                          tmp.toString()))
                  .redirectErrorStream(true)
                  .redirectOutput(tmp.resolve("child-" + trial + ".log").toFile())
                  .start();
          long killAfter = 1500L + random.nextInt(3000);
          boolean ended = p.waitFor(killAfter, TimeUnit.MILLISECONDS);
          assertThat(ended).as("the child ran until killed (see its log)").isFalse();
          p.destroyForcibly(); // SIGKILL
          p.waitFor();
          MigrationState s = new io.cosmolab.migrator.internal.StateStore(tmp).loadOrNull();
          System.out.printf(
              "  trial %d: killed after %d ms: %s%n",
              trial,
              killAfter,
              s == null
                  ? "no state yet"
                  : s.phase() + " copied " + s.copied() + " applied " + s.applied());
        }
        assertThat(writer.writes.get()).isPositive();
      }
      Endpoint e = new Endpoint(lab.endpoint(), lab.key());
      MigrationSpec spec =
          new MigrationSpec(
              e,
              new ContainerRef("k", "orders"),
              e,
              new ContainerRef("k", "byRegion"),
              "/region+/userId",
              OnMissing.FAIL,
              0,
              0);
      try (Migrator m = Migrator.open(spec, tmp, Lab.options())) {
        MigrationState s = m.run(true, () -> false);
        assertThat(s.ready()).isTrue();
        VerifyReport v = m.verify();
        assertThat(v.differences()).as("seed %d", seed).isEmpty();
        assertThat(v.targetDocuments()).isEqualTo(v.sourceDocuments());
      }
    }
  }
}
