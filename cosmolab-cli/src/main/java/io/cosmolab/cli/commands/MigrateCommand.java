package io.cosmolab.cli.commands;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cosmolab.migrator.ContainerRef;
import io.cosmolab.migrator.Cutover;
import io.cosmolab.migrator.Endpoint;
import io.cosmolab.migrator.MigrationSpec;
import io.cosmolab.migrator.MigrationState;
import io.cosmolab.migrator.Migrator;
import io.cosmolab.migrator.MigratorOptions;
import io.cosmolab.migrator.OnMissing;
import io.cosmolab.migrator.Plan;
import io.cosmolab.migrator.VerifyReport;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code cosmolab migrate}: change a container's partition key online. */
@Command(
    name = "migrate",
    mixinStandardHelpOptions = true,
    description = {
      "Changes a container's partition key online, through the official Java SDK (cosmolab or a"
          + " real account): plan (preflight), run (create the target, copy a snapshot, then apply"
          + " the source's all-versions-and-deletes change feed; resumable), status, verify (per"
          + " logical partition: count and an order-independent hash of user content, every"
          + " difference with its id) and cutover (wait for a quiet source, drain, verify, say"
          + " whether to switch). See docs/migrator.md for the procedure and failure cases.",
      "",
      "Keys (--partition-key) take the advisor's forms: /a, /a>/b[>/c] (hierarchical),"
          + " /a+/b (synthetic: the migrator writes the property a_b = \"<a>-<b>\"), /a*N"
          + " (N suffix buckets: the property a_bucket = \"<a>-<0..N-1>\", from the id).",
      "",
      "Exit codes: 0 done, 1 failure, 2 usage error, 3 blocking findings / differences / not safe."
    },
    subcommands = {
      MigrateCommand.PlanCommand.class,
      MigrateCommand.RunCommand.class,
      MigrateCommand.StatusCommand.class,
      MigrateCommand.VerifyCommand.class,
      MigrateCommand.CutoverCommand.class
    })
public final class MigrateCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The accounts: source and (optionally another) target. */
  static final class Accounts {
    @Option(
        names = "--endpoint",
        paramLabel = "URL",
        defaultValue = "https://localhost:8081",
        description = "The source account (${DEFAULT-VALUE}, a local `cosmolab serve`).")
    URI endpoint;

    @Option(
        names = "--account-key",
        paramLabel = "KEY",
        description =
            "The source account's key (default: $COSMOS_KEY, else the emulator's well-known key).")
    String accountKey;

    @Option(
        names = "--target-endpoint",
        paramLabel = "URL",
        description = "The target account (default: the source's --endpoint).")
    URI targetEndpoint;

    @Option(
        names = "--target-account-key",
        paramLabel = "KEY",
        description =
            "The target account's key (default: $COSMOS_TARGET_KEY, else the source's key).")
    String targetAccountKey;

    String sourceKey() {
      String k = accountKey != null ? accountKey : System.getenv("COSMOS_KEY");
      return k != null ? k : io.cosmolab.gateway.auth.MasterKeyAuthenticator.EMULATOR_KEY;
    }

    String targetKey() {
      if (targetAccountKey != null) {
        return targetAccountKey;
      }
      String k = System.getenv("COSMOS_TARGET_KEY");
      return k != null ? k : sourceKey();
    }

    Endpoint source() {
      return new Endpoint(endpoint, sourceKey());
    }

    Endpoint target() {
      return new Endpoint(targetEndpoint != null ? targetEndpoint : endpoint, targetKey());
    }
  }

  /** What to migrate. */
  static final class What {
    @Option(
        names = "--source",
        required = true,
        paramLabel = "DB/CONTAINER",
        description = "The container whose key changes.")
    String source;

    @Option(
        names = "--partition-key",
        required = true,
        paramLabel = "PATHS",
        description = "The new key: /a, /a>/b[>/c], /a+/b or /a*N.")
    String partitionKey;

    @Option(
        names = "--on-missing",
        paramLabel = "skip|default=VALUE|fail",
        defaultValue = "fail",
        description =
            "Documents lacking a path of the new key: fail (refuse to run, ${DEFAULT-VALUE}),"
                + " skip (leave them out, counted in the state), or default=VALUE (fill the"
                + " missing path with the string VALUE; for /a+/b and /a*N only the computed"
                + " property uses it).")
    String onMissing;

    @Option(
        names = "--max-ru",
        paramLabel = "N",
        defaultValue = "0",
        description =
            "Request units per second the migrator may spend, reads and writes together (0, the"
                + " default: no cap). 429s are always honoured with their retry-after.")
    double maxRu;

    @Option(
        names = "--target-throughput",
        paramLabel = "RU/S",
        defaultValue = "0",
        description =
            "Manual throughput of the new target container (0, the default: the source's).")
    int targetThroughput;

    MigrationSpec spec(Accounts a, String target) {
      ContainerRef from = ContainerRef.parse(source);
      ContainerRef to =
          target != null
              ? ContainerRef.parse(target)
              : new ContainerRef(from.database(), from.container() + "-migrated");
      return new MigrationSpec(
          a.source(),
          from,
          a.target(),
          to,
          partitionKey,
          OnMissing.parse(onMissing),
          maxRu,
          targetThroughput);
    }
  }

  @io.cosmolab.engine.internal.SuppressForbidden(
      "the command line is where the wall clock enters; the library takes it injected")
  static MigratorOptions options() {
    return MigratorOptions.of(InstantSource.system());
  }

  /** {@code migrate plan}. */
  @Command(
      name = "plan",
      mixinStandardHelpOptions = true,
      description = {
        "Reads every source document and reports: documents lacking the new key's paths, ids that"
            + " would collide (the same id in one new logical partition), documents that already"
            + " hold the computed property, the largest new logical partition against 20 GB,"
            + " and the RU and time to copy at --max-ru. Writes nothing. Exits 3 when a finding"
            + " would stop `run`."
      })
  static final class PlanCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @Mixin Accounts accounts = new Accounts();
    @Mixin What what = new What();

    @Option(
        names = "--target",
        paramLabel = "DB/CONTAINER",
        description = "The container to create (default: the source's name + -migrated).")
    String target;

    @Option(names = "--json", description = "Print the plan as JSON.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      MigrationSpec s = what.spec(accounts, target);
      PrintWriter out = spec.commandLine().getOut();
      try (Migrator m = Migrator.open(s, Path.of("."), options())) {
        Plan p = m.plan();
        List<String> blocking = p.blocking(s.onMissing());
        if (json) {
          out.println(JSON.writeValueAsString(p));
        } else {
          out.printf(
              Locale.ROOT,
              "plan: %s -> %s by %s%n",
              s.sourceContainer(),
              s.targetContainer(),
              p.partitionKey());
          out.printf(
              Locale.ROOT, "  documents          %,d (%,d bytes)%n", p.documents(), p.bytes());
          out.printf(
              Locale.ROOT, "  logical partitions %,d under the new key%n", p.logicalPartitions());
          out.printf(
              Locale.ROOT,
              "  largest partition  %s: %,d bytes (%.4f%% of 20 GB)%n",
              p.largestPartition(),
              p.largestPartitionBytes(),
              100.0 * p.largestPartitionBytes() / Plan.LOGICAL_PARTITION_LIMIT);
          out.printf(
              Locale.ROOT,
              "  missing key paths  %,d %s%n",
              p.missing(),
              p.missingIds().isEmpty() ? "" : p.missingIds());
          out.printf(
              Locale.ROOT,
              "  id collisions      %,d %s%n",
              p.collisions().size(),
              p.collisions().isEmpty()
                  ? ""
                  : p.collisions().subList(0, Math.min(20, p.collisions().size())));
          if (p.overwrites() > 0) {
            out.printf(
                Locale.ROOT, "  would overwrite    %,d %s%n", p.overwrites(), p.overwriteIds());
          }
          out.printf(
              Locale.ROOT,
              "  copy               ~%,.0f RU%s%n",
              p.copyRequestUnits(),
              p.maxRu() > 0
                  ? String.format(Locale.ROOT, ", %.0f s at %.0f RU/s", p.copySeconds(), p.maxRu())
                  : " (no --max-ru: as fast as the accounts allow)");
          Plan.Advice a = p.advice();
          if (a == null) {
            out.println(
                "  advisor            not asked: the target would share its database's"
                    + " throughput");
          } else {
            out.printf(
                Locale.ROOT,
                "  advisor            %s, score %d: %d physical partitions at %s %,.0f RU/s;"
                    + " %s%n",
                a.verdict(),
                a.score(),
                a.physicalPartitions(),
                a.throughputKind(),
                a.throughputRuPerSecond(),
                a.reasons().isEmpty() ? "spreads evenly" : a.reasons().get(0));
          }
          out.println(
              blocking.isEmpty()
                  ? "verdict: ready to run"
                  : "verdict: blocked\n  " + String.join("\n  ", blocking));
        }
        return blocking.isEmpty() ? 0 : 3;
      }
    }
  }

  /** {@code migrate run}. */
  @Command(
      name = "run",
      mixinStandardHelpOptions = true,
      description = {
        "Plans (a new migration refuses on blocking findings), creates the target (the new key;"
            + " the source's indexing policy, default TTL, unique keys, computed properties,"
            + " change-feed policy and throughput), takes the source's all-versions change-feed"
            + " position, copies the documents, then applies the feed from that position: creates"
            + " and replaces as upserts, deletes as deletes, a changed key value as a delete of"
            + " the old copy. Progress is saved in --state after every page (state.json, replaced"
            + " atomically); run the same command again after a crash or Ctrl-C and it resumes."
            + " Without --until-caught-up it keeps tailing until stopped."
      })
  static final class RunCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @Mixin Accounts accounts = new Accounts();
    @Mixin What what = new What();

    @Option(
        names = "--target",
        required = true,
        paramLabel = "DB/CONTAINER",
        description = "The container to create with the new key.")
    String target;

    @Option(
        names = "--state",
        required = true,
        paramLabel = "DIR",
        description = "Where progress is kept (created if need be).")
    Path state;

    @Option(
        names = "--until-caught-up",
        description = "Stop once the copy is done and the change feed has nothing new (lag < 2 s).")
    boolean untilCaughtUp;

    @Option(
        names = "--change-feed",
        paramLabel = "auto|all-versions-and-deletes|latest-version",
        defaultValue = "auto",
        description =
            "The source feed to tail (${DEFAULT-VALUE}: all versions and deletes where the source"
                + " serves it, else the latest version). With latest-version, which has no"
                + " deletes, a reconciliation pass (a read of both containers) removes what the"
                + " source no longer has: whenever the feed is drained, at most once a minute,"
                + " at the end of --until-caught-up and before cutover verifies. A resumed run"
                + " keeps the feed it started with.")
    String changeFeed;

    @Option(
        names = "--progress",
        negatable = true,
        description = "Show progress on stderr (default: when stderr is a terminal).")
    Boolean progress;

    @Override
    public Integer call() {
      MigrationSpec s = what.spec(accounts, target);
      PrintWriter err = spec.commandLine().getErr();
      PrintWriter out = spec.commandLine().getOut();
      boolean show = io.cosmolab.cli.Terminal.showProgress(progress);
      MigratorOptions o =
          options().withChangeFeed(io.cosmolab.migrator.ChangeFeedMode.parse(changeFeed));
      try (Migrator m = Migrator.open(s, state, o)) {
        long[] last = {0};
        MigrationState end =
            m.run(
                untilCaughtUp,
                () -> {
                  long now = System.nanoTime();
                  if (show && now - last[0] > 1_000_000_000L) {
                    last[0] = now;
                    MigrationState st = m.status();
                    if (st != null) {
                      err.print(progress(st));
                      err.flush();
                    }
                  }
                  return false;
                });
        if (show) {
          err.println();
        }
        out.println(line(end));
        return 0;
      }
    }
  }

  /** The state in one line: where the run is, its rates, and its totals. */
  static String line(MigrationState s) {
    String where;
    if (s.phase() == MigrationState.Phase.COPYING) {
      double eta = s.copyEtaSeconds();
      where =
          String.format(
              Locale.ROOT,
              "copying: copied %,d%s%s",
              s.copied(),
              s.sourceDocuments() > 0
                  ? String.format(
                      Locale.ROOT,
                      " of ~%,d (%.0f%%)",
                      s.sourceDocuments(),
                      100.0 * copyFraction(s))
                  : "",
              eta >= 0 ? String.format(Locale.ROOT, ", ETA %s", duration(eta)) : "");
    } else {
      where = String.format(Locale.ROOT, "catching up: copied %,d", s.copied());
    }
    return String.format(
        Locale.ROOT,
        "%s, skipped %,d, applied %,d (%,d deletes%s), lag %.1f s; %,.0f docs/s, %,.0f RU/s;"
            + " %,d 429s, %,.0f RU in all; %s feed%s",
        where,
        s.skipped(),
        s.applied(),
        s.deleted(),
        s.changeFeedMode() == io.cosmolab.migrator.ChangeFeedMode.LATEST_VERSION
            ? String.format(Locale.ROOT, ", %,d removed by reconciliation", s.removed())
            : "",
        s.lagSeconds(),
        s.documentsPerSecond(),
        s.ruPerSecond(),
        s.throttled(),
        s.requestUnits(),
        s.changeFeedMode(),
        s.ready() ? " - ready" : "");
  }

  /** The bar while copying; the line while catching up. */
  static String progress(MigrationState s) {
    if (s.phase() == MigrationState.Phase.COPYING && s.sourceDocuments() > 0) {
      double eta = s.copyEtaSeconds();
      return io.cosmolab.cli.Terminal.bar(
          copyFraction(s),
          String.format(
              Locale.ROOT,
              "%,d of ~%,d copied, %,.0f docs/s, %,.0f RU/s%s   ",
              s.copied() + s.skipped(),
              s.sourceDocuments(),
              s.documentsPerSecond(),
              s.ruPerSecond(),
              eta >= 0 ? ", ETA " + duration(eta) : ""));
    }
    return "\r" + line(s) + "   ";
  }

  private static double copyFraction(MigrationState s) {
    return Math.min(1, (s.copied() + s.skipped()) / (double) Math.max(1, s.sourceDocuments()));
  }

  static String duration(double seconds) {
    long t = Math.round(seconds);
    return t < 60
        ? t + " s"
        : t < 3600
            ? String.format(Locale.ROOT, "%d min %02d s", t / 60, t % 60)
            : String.format(Locale.ROOT, "%d h %02d min", t / 3600, t / 60 % 60);
  }

  /** Options of the commands that work from a state directory. */
  static final class FromState {
    @Option(
        names = "--state",
        required = true,
        paramLabel = "DIR",
        description = "The state directory of `migrate run`.")
    Path state;

    @Option(
        names = "--account-key",
        paramLabel = "KEY",
        description =
            "The source account's key (default: $COSMOS_KEY, else the emulator's well-known key).")
    String accountKey;

    @Option(
        names = "--target-account-key",
        paramLabel = "KEY",
        description =
            "The target account's key (default: $COSMOS_TARGET_KEY, else the source's key).")
    String targetAccountKey;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    Migrator open() {
      Accounts a = new Accounts();
      a.accountKey = accountKey;
      a.targetAccountKey = targetAccountKey;
      return Migrator.resume(state, a.sourceKey(), a.targetKey(), options());
    }
  }

  /** {@code migrate status}. */
  @Command(
      name = "status",
      mixinStandardHelpOptions = true,
      description =
          "What --state says: documents copied and skipped, changes applied, deletes, lag, 429s,"
              + " RU spent, and \"ready\" (copied, lag under 2 s). Reads only the state file.")
  static final class StatusCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @Mixin FromState from = new FromState();

    @Override
    public Integer call() throws Exception {
      MigrationState s = new io.cosmolab.migrator.internal.StateStore(from.state).loadOrNull();
      if (s == null) {
        throw new IllegalArgumentException("no migration in " + from.state);
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println(
          from.json
              ? JSON.writeValueAsString(s)
              : s.source() + " -> " + s.target() + " by " + s.partitionKey() + "\n" + line(s));
      return 0;
    }
  }

  /** {@code migrate verify}. */
  @Command(
      name = "verify",
      mixinStandardHelpOptions = true,
      description =
          "Compares source and target per logical partition of the target: count and an"
              + " order-independent hash of user content (system properties and the computed key"
              + " property left out), and lists every missing, extra and different document with"
              + " its id. Exact once the source is quiet and the feed drained; during catch-up the"
              + " differences are writes not yet applied. Exits 3 on a difference.")
  static final class VerifyCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @Mixin FromState from = new FromState();

    @Override
    public Integer call() throws Exception {
      try (Migrator m = from.open()) {
        VerifyReport v = m.verify();
        print(spec.commandLine().getOut(), v, from.json);
        return v.equal() ? 0 : 3;
      }
    }
  }

  static void print(PrintWriter out, VerifyReport v, boolean json) throws Exception {
    if (json) {
      out.println(JSON.writeValueAsString(v));
      return;
    }
    out.printf(
        Locale.ROOT,
        "verify: %,d logical partitions, %,d differ; source %,d documents," + " target %,d%n",
        v.partitions(),
        v.differingPartitions(),
        v.sourceDocuments(),
        v.targetDocuments());
    for (VerifyReport.Difference d : v.differences()) {
      out.println("  " + d.kind() + " " + d.partitionKey() + " " + d.id());
    }
    out.println(v.equal() ? "verdict: equal" : "verdict: different");
  }

  /** {@code migrate cutover}. */
  @Command(
      name = "cutover",
      mixinStandardHelpOptions = true,
      description = {
        "Stop the source's writers first. Then this drains the change feed until the source has"
            + " been quiet for --quiet seconds, verifies, and prints the verdict and what to"
            + " switch. Exits 3 when it is not safe."
      })
  static final class CutoverCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @Mixin FromState from = new FromState();

    @Option(
        names = "--quiet",
        paramLabel = "SECONDS",
        defaultValue = "5",
        description = "How long the source must show no change (${DEFAULT-VALUE}).")
    int quiet;

    @Option(
        names = "--timeout",
        paramLabel = "SECONDS",
        defaultValue = "600",
        description = "Give up waiting for a quiet source after this (${DEFAULT-VALUE}).")
    int timeout;

    @Override
    public Integer call() throws Exception {
      try (Migrator m = from.open()) {
        Cutover c = m.cutover(Duration.ofSeconds(quiet), Duration.ofSeconds(timeout));
        PrintWriter out = spec.commandLine().getOut();
        if (from.json) {
          out.println(JSON.writeValueAsString(c));
        } else {
          out.println(line(c.state()));
          if (c.verify() != null) {
            print(out, c.verify(), false);
          }
          out.println((c.safe() ? "SAFE: " : "NOT SAFE: ") + c.verdict());
        }
        return c.safe() ? 0 : 3;
      }
    }
  }
}
