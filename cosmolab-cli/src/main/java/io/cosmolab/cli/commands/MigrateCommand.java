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
import io.cosmolab.migrator.PlanWorkload;
import io.cosmolab.migrator.report.MigrationReport;
import io.cosmolab.migrator.report.ReportText;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
          + " the source's change feed, all versions and deletes where the source serves it, else"
          + " the latest version with a reconciliation pass for deletes; resumable), status, verify (per"
          + " logical partition: count and an order-independent hash of user content, every"
          + " difference with its id; the run also verifies settled partitions while it tails) and"
          + " cutover (wait for a quiet source, drain, verify what changed, say whether to switch)."
          + " status shows progress per source feed range, with the lag in seconds and documents;"
          + " verify and cutover write the final report with --json FILE and --html FILE. See"
          + " docs/migrator.md for the procedure and failure cases.",
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

  /** How the SDK reaches the accounts: a choice of each command, not saved with the migration. */
  static final class ConnectionMode {
    @Option(
        names = "--direct",
        description =
            "Reach both accounts in direct mode (RNTBD over TLS, the SDK's default and the faster"
                + " path to the service; default here: gateway mode, which every endpoint serves).")
    boolean direct;
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

    @Mixin ConnectionMode connection = new ConnectionMode();

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
  static MigratorOptions options(boolean direct) {
    return MigratorOptions.of(InstantSource.system()).withDirect(direct);
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
    /** What the workload's peak says of the new key, in one line. */
    static String peakLine(Plan.Advice a) {
      Plan.Peak k = a.peak();
      String demand =
          String.format(
              Locale.ROOT,
              "the busiest partition needs %,.0f of its %,.0f RU/s; predicted 429s %.1f%%",
              k.busiestRuPerSecond(),
              k.budgetRuPerSecond(),
              100 * k.predicted429Share());
      if (!k.minimumSearched()) {
        return String.format(
            Locale.ROOT,
            "workload %s at the target's %,.0f RU/s: %s",
            k.workload(),
            a.throughputRuPerSecond(),
            demand);
      }
      if (k.minimumRuPerSecond() == null) {
        return "workload "
            + k.workload()
            + ": no throughput serves its peak without 429s (see the reasons above); "
            + demand;
      }
      return String.format(
          Locale.ROOT,
          "workload %s: give the target at least %,.0f RU/s %s (--target-throughput), %s;" + " %s",
          k.workload(),
          k.minimumRuPerSecond(),
          a.throughputKind(),
          physicalPartitions(a.physicalPartitions()),
          demand);
    }

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

    @Option(
        names = "--workload",
        paramLabel = "FILE",
        description =
            "The source's workload at its busiest second, in the advisor's format (YAML; see"
                + " docs/advisor.md): the advisor then also weighs the new key at that peak, and"
                + " without --target-throughput finds the least throughput that serves it (the"
                + " throughput to give the target), with the physical partitions and the predicted"
                + " 429s. Its candidates, throughput and sample are not used.")
    Path workload;

    @Option(
        names = "--workload-container",
        paramLabel = "NAME",
        description =
            "The source's container in a --workload of several (default: the only one, else the"
                + " one named like the source container).")
    String workloadContainer;

    @Override
    public Integer call() throws Exception {
      MigrationSpec s = what.spec(accounts, target);
      PrintWriter out = spec.commandLine().getOut();
      if (workloadContainer != null && workload == null) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "--workload-container needs --workload FILE");
      }
      PlanWorkload w =
          workload == null
              ? null
              : PlanWorkload.read(workload, workloadContainer, s.sourceContainer().container());
      try (Migrator m = Migrator.open(s, Path.of("."), options(accounts.connection.direct))) {
        Plan p = m.plan(w);
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
                "  advisor            %s, score %d: %s at %s %,.0f RU/s; %s%n",
                a.verdict(),
                a.score(),
                physicalPartitions(a.physicalPartitions()),
                a.throughputKind(),
                a.throughputRuPerSecond(),
                a.reasons().isEmpty() ? "spreads evenly" : a.reasons().get(0));
            if (a.peak() != null) {
              out.println("  at peak            " + peakLine(a));
            }
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
            + " change-feed policy and throughput), takes the source's change-feed position"
            + " (see --change-feed), copies the documents, then applies the feed from that"
            + " position: creates and replaces as upserts, deletes as deletes (with the"
            + " latest-version feed, by a reconciliation pass), a changed key value as a delete of"
            + " the old copy. Progress is saved in --state after every page (state.json, replaced"
            + " atomically); run the same command again after a crash or Ctrl-C and it resumes."
            + " While tailing, with the feed drained, it verifies (at most every --verify-every"
            + " seconds) the logical partitions of the target it has not written for --settle"
            + " seconds, once all of them, then those it wrote since (kept in --state/verify.json;"
            + " see `migrate status`)."
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
        names = "--verify-every",
        paramLabel = "SECONDS",
        defaultValue = "60",
        description =
            "While tailing, verify at most this often (${DEFAULT-VALUE}), with the feed drained,"
                + " the logical partitions of the target that have settled: all of them the first"
                + " time, then those the run wrote since. -1: only at cutover.")
    long verifyEvery;

    @Option(
        names = "--settle",
        paramLabel = "SECONDS",
        defaultValue = "10",
        description =
            "How long a partition must have had no write from the run before it is verified"
                + " while tailing (${DEFAULT-VALUE}).")
    long settle;

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
      if (settle < 0 || verifyEvery < -1) {
        throw new IllegalArgumentException(
            "--settle is 0 or more and --verify-every -1 (never) or more seconds, not --settle "
                + settle
                + " and --verify-every "
                + verifyEvery);
      }
      MigratorOptions o =
          options(accounts.connection.direct)
              .withChangeFeed(io.cosmolab.migrator.ChangeFeedMode.parse(changeFeed))
              .withVerify(Duration.ofSeconds(verifyEvery), Duration.ofSeconds(settle));
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
    return ReportText.line(s);
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
    return ReportText.copyFraction(s);
  }

  static String duration(double seconds) {
    return ReportText.duration(seconds);
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

    @Mixin ConnectionMode connection = new ConnectionMode();

    @Option(
        names = "--json",
        paramLabel = "FILE",
        arity = "0..1",
        fallbackValue = "-",
        description =
            "JSON: alone, printed instead of the text; with FILE, written to FILE (replaced) and"
                + " the text printed.")
    String json;

    Migrator open() {
      Accounts a = new Accounts();
      a.accountKey = accountKey;
      a.targetAccountKey = targetAccountKey;
      return Migrator.resume(state, a.sourceKey(), a.targetKey(), options(connection.direct));
    }
  }

  /** The report files a command was asked for: {@code --html FILE}. */
  static final class HtmlFile {
    @Option(
        names = "--html",
        paramLabel = "FILE",
        description =
            "Also write the final report as one HTML page to FILE (replaced): verdict, counts,"
                + " progress per source feed range, RU spent, 429s, lag, every difference with its"
                + " id, and what to switch. Self-contained: inline CSS and SVG, nothing fetched.")
    Path html;
  }

  /**
   * Prints {@code report} as text (or as JSON for a bare {@code --json}) and writes the files asked
   * for.
   */
  static void emit(PrintWriter out, MigrationReport report, String json, Path html) {
    if (json != null && !json.equals("-")) {
      write(Path.of(json), report.json(), "--json");
    }
    if (html != null) {
      write(html, report.html(), "--html");
    }
    out.print("-".equals(json) ? report.json() + "\n" : report.text());
    out.flush();
  }

  private static void write(Path file, String content, String option) {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      throw new IllegalArgumentException(
          option + " " + file + ": the directory " + parent + " does not exist");
    }
    if (Files.isDirectory(file)) {
      throw new IllegalArgumentException(
          option
              + " "
              + file
              + " is a directory: give the file to write, e.g. "
              + file.resolve(option.equals("--html") ? "report.html" : "report.json"));
    }
    try {
      Files.writeString(file, content, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          option + " " + file + ": cannot write it (" + e.getMessage() + ")", e);
    }
  }

  /** {@code migrate status}. */
  @Command(
      name = "status",
      mixinStandardHelpOptions = true,
      description =
          "What --state says: documents copied and skipped, changes applied, deletes, lag (in"
              + " seconds and in documents), 429s, RU spent, and \"ready\" (copied, lag under 2"
              + " s); then one line per source feed range: its position in the change feed, the"
              + " documents copied and changes applied from it, and its lag in documents (a range"
              + " gone by a split keeps its counts, marked split). Reads only the state file.")
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
      String text =
          s.source()
              + " -> "
              + s.target()
              + " by "
              + s.partitionKey()
              + "\n"
              + ReportText.line(s)
              + ReportText.ranges(s);
      if (from.json != null && !from.json.equals("-")) {
        write(Path.of(from.json), JSON.writeValueAsString(s), "--json");
      }
      out.println("-".equals(from.json) ? JSON.writeValueAsString(s) : text);
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
              + " differences are writes not yet applied. Reads both containers whole (the run's"
              + " own incremental passes read only what changed). Prints the report (the counts,"
              + " progress per source range, the comparison, every difference); --json and --html"
              + " write it as JSON and as one HTML page. Exits 3 on a difference.")
  static final class VerifyCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @Mixin FromState from = new FromState();
    @Mixin HtmlFile files = new HtmlFile();

    @Override
    public Integer call() throws Exception {
      try (Migrator m = from.open()) {
        MigrationReport r = m.verifyReport();
        emit(spec.commandLine().getOut(), r, from.json, files.html);
        return r.safe() ? 0 : 3;
      }
    }
  }

  /** {@code migrate cutover}. */
  @Command(
      name = "cutover",
      mixinStandardHelpOptions = true,
      description = {
        "Stop the source's writers first. Then this drains the change feed until the source has"
            + " been quiet for --quiet seconds, verifies the logical partitions the run wrote since"
            + " it last verified them (and those that differed; every partition if it never"
            + " verified, or with --full-verify), and prints the final report: the verdict, what"
            + " to switch, the counts, progress per source range, RU, 429s, lag and every"
            + " difference. --json and --html write it as JSON and as one HTML page. Exits 3 when"
            + " it is not safe."
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

    @Option(
        names = "--full-verify",
        description =
            "Compare every logical partition of both containers, not only those the run wrote"
                + " since it last verified them (the default; every partition if it never did)."
                + " Catches writes made to the target by anyone but the migrator.")
    boolean fullVerify;

    @Mixin HtmlFile files = new HtmlFile();

    @Override
    public Integer call() throws Exception {
      if (quiet < 0 || timeout <= 0) {
        throw new IllegalArgumentException(
            "--quiet is 0 or more and --timeout more than 0 seconds, not "
                + quiet
                + " and "
                + timeout);
      }
      try (Migrator m = from.open()) {
        Cutover c = m.cutover(Duration.ofSeconds(quiet), Duration.ofSeconds(timeout), fullVerify);
        emit(spec.commandLine().getOut(), m.report(c), from.json, files.html);
        return c.safe() ? 0 : 3;
      }
    }
  }

  /** "1 physical partition", "4 physical partitions". */
  static String physicalPartitions(int n) {
    return n + (n == 1 ? " physical partition" : " physical partitions");
  }
}
