package io.cosmolab.migrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import io.cosmolab.testkit.CosmosLab;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The migrator in a child JVM, killed with SIGKILL at seeded random moments while a writer creates,
 * replaces and deletes in the source, started again each time; at the end the target equals the
 * source. Once with a source that serves the all-versions-and-deletes feed, once with one that
 * keeps the latest version only (deletes then follow by reconciliation). The child copies under an
 * RU cap, so the copy lasts several seconds: the first kills land in the copy, the later ones in
 * the catch-up (the last two wait for it, as blind kills can all land in a slow copy), and the test
 * checks that both phases were hit. Replay a seed with {@code -Dcosmolab.seed=N}. Heavy: each trial
 * starts a JVM.
 */
@Tag("heavy")
class KilledRunTest {
  /**
   * RU/s for the child: the copy of ~650 documents (the 400 seeded and the writer's) then takes
   * about 6 s of the children's time, so several trials can land in it.
   */
  private static final double CHILD_MAX_RU = 500;

  @ParameterizedTest(name = "{0} source feed")
  @ValueSource(strings = {"all-versions-and-deletes", "latest-version"})
  void aRunKilledTenTimesWithSigkill_andRestarted_leavesTheTargetEqualToTheSource(
      String feed, @TempDir Path tmp) throws Exception {
    long seed = Long.getLong("cosmolab.seed", System.nanoTime());
    System.out.println(
        "KilledRunTest seed " + seed + " (replay with -Dcosmolab.seed=" + seed + ")");
    Random random = new Random(seed);
    Path logs = java.nio.file.Files.createDirectories(Path.of("target", "killed-run-logs"));
    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    try (CosmosLab lab = CosmosLab.builder().start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      String db = feed.startsWith("all") ? "k" : "klv";
      CosmosContainer source =
          feed.startsWith("all")
              ? Lab.orders(client, db, "orders", 400)
              : Lab.latestVersionOrders(client, db, 400);
      int killedInCopy = 0;
      int killedInCatchUp = 0;
      try (Lab.Writer writer = new Lab.Writer(source, seed, 300)) {
        for (int trial = 0; trial < 10; trial++) {
          MigrationState before = state(tmp);
          Process p =
              new ProcessBuilder(
                      List.of(
                          javaBin,
                          "-cp",
                          System.getProperty("java.class.path"),
                          KilledRunMain.class.getName(),
                          lab.endpoint().toString(),
                          lab.key(),
                          db,
                          tmp.toString(),
                          Double.toString(CHILD_MAX_RU)))
                  .redirectErrorStream(true)
                  .redirectOutput(logs.resolve("child-" + trial + ".log").toFile())
                  .start();
          Path log = logs.resolve("child-" + trial + ".log");
          await(() -> java.nio.file.Files.readString(log).contains("running"), "starts", p, log);
          // trials 0-1 kill blind, often in the plan or the target's creation (no state yet);
          // 2-5 wait for the first saved page, so they land in the copy while it lasts; 6-7 kill
          // blind again, in the copy or the catch-up; 8-9 wait for the catch-up
          String waited;
          int within; // ms after what was waited for, at most
          if (trial >= 2 && trial <= 5) {
            await(() -> !Objects.equals(state(tmp), before), "saves its state", p, log);
            waited = "its first save";
            within = 900;
          } else if (trial >= 8) {
            await(
                () -> {
                  MigrationState s = state(tmp);
                  return s != null && s.phase() == MigrationState.Phase.CATCHING_UP;
                },
                "reaches the catch-up",
                p,
                log);
            waited = "its catch-up began";
            within = 900;
          } else {
            waited = "it opened";
            within = trial < 2 ? 2500 : 6000;
          }
          long killAfter = 100L + random.nextInt(within);
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
          MigrationState s = state(tmp);
          if (s != null && s.phase() == MigrationState.Phase.COPYING) {
            killedInCopy++;
          } else if (s != null) {
            killedInCatchUp++;
          }
          System.out.printf(
              "  trial %d: killed %d ms after %s: %s%n",
              trial,
              killAfter,
              waited,
              s == null
                  ? "no state yet"
                  : s.phase() + " copied " + s.copied() + " applied " + s.applied());
        }
        assertThat(writer.writes()).isPositive();
        assertThat(killedInCopy).as("kills that landed in the copy (seed %d)", seed).isPositive();
        assertThat(killedInCatchUp)
            .as("kills that landed in the catch-up (seed %d)", seed)
            .isPositive();
        MigrationState s = state(tmp);
        assertThat(s).as("the children made progress (logs in %s)", logs).isNotNull();
      }
      Endpoint e = new Endpoint(lab.endpoint(), lab.key());
      MigrationSpec spec =
          new MigrationSpec(
              e,
              new ContainerRef(db, "orders"),
              e,
              new ContainerRef(db, "byRegion"),
              "/region+/userId",
              OnMissing.FAIL,
              0,
              0);
      try (Migrator m = Migrator.open(spec, tmp, Lab.options())) {
        MigrationState s = m.run(true, () -> false);
        assertThat(s.ready()).isTrue();
        assertThat(s.changeFeed()).isEqualTo(feed);
        VerifyReport v = m.verify();
        assertThat(v.differences()).as("seed %d", seed).isEmpty();
        assertThat(v.targetDocuments()).isEqualTo(v.sourceDocuments());
      }
    }
  }

  /** The state the children saved, or null before the first save. */
  private static MigrationState state(Path stateDir) {
    return new io.cosmolab.migrator.internal.StateStore(stateDir).loadOrNull();
  }

  /** A condition on what the child wrote. */
  private interface Condition {
    boolean holds() throws Exception;
  }

  /**
   * Waits until {@code condition} holds, failing if the child ends first or it takes over 60 s
   * ("the child {@code what} within 60 s").
   */
  private static void await(Condition condition, String what, Process p, Path log)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!condition.holds()) {
      assertThat(p.isAlive()).as("the child runs (see %s)", log).isTrue();
      assertThat(System.nanoTime()).as("the child %s within 60 s", what).isLessThan(deadline);
      Thread.sleep(10);
    }
  }
}
