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
    Path logs = java.nio.file.Files.createDirectories(Path.of("target", "killed-run-logs"));
    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    try (CosmosLab lab = CosmosLab.builder().start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      CosmosContainer source = Lab.orders(client, "k", "orders", 200);
      try (Lab.Writer writer = new Lab.Writer(source, seed, 300)) {
        for (int trial = 0; trial < 10; trial++) {
          Process p =
              new ProcessBuilder(
                      List.of(
                          javaBin,
                          "-cp",
                          System.getProperty("java.class.path"),
                          KilledRunMain.class.getName(),
                          lab.endpoint().toString(),
                          lab.key(),
                          "k",
                          tmp.toString()))
                  .redirectErrorStream(true)
                  .redirectOutput(logs.resolve("child-" + trial + ".log").toFile())
                  .start();
          Path log = logs.resolve("child-" + trial + ".log");
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
          while (!java.nio.file.Files.readString(log).contains("running")) {
            assertThat(p.isAlive()).as("the child runs (see %s)", log).isTrue();
            assertThat(System.nanoTime()).as("the child starts within 60 s").isLessThan(deadline);
            Thread.sleep(20);
          }
          // the copy of 200 documents takes a few seconds: kills land in the copy and the tail
          long killAfter = 100L + random.nextInt(6000);
          boolean ended = p.waitFor(killAfter, TimeUnit.MILLISECONDS);
          assertThat(ended).as("the child ran until killed (see its log)").isFalse();
          if (Boolean.getBoolean("cosmolab.dumpChild")) {
            new ProcessBuilder(
                    Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(p.pid()),
                    "Thread.print")
                .redirectOutput(logs.resolve("child-" + trial + ".threads").toFile())
                .start()
                .waitFor();
          }
          p.destroyForcibly(); // SIGKILL
          p.waitFor();
          MigrationState s = new io.cosmolab.migrator.internal.StateStore(tmp).loadOrNull();
          System.out.printf(
              "  trial %d: killed %d ms after it opened: %s%n",
              trial,
              killAfter,
              s == null
                  ? "no state yet"
                  : s.phase() + " copied " + s.copied() + " applied " + s.applied());
        }
        assertThat(writer.writes.get()).isPositive();
        MigrationState s = new io.cosmolab.migrator.internal.StateStore(tmp).loadOrNull();
        assertThat(s).as("the children made progress (logs in %s)", logs).isNotNull();
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
