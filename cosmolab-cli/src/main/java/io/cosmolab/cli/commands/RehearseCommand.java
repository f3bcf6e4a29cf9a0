package io.cosmolab.cli.commands;

import io.cosmolab.rehearsal.Library;
import io.cosmolab.rehearsal.LiveOptions;
import io.cosmolab.rehearsal.Rehearsal;
import io.cosmolab.rehearsal.RehearsalReport;
import io.cosmolab.rehearsal.Scenario;
import io.cosmolab.rehearsal.ScenarioFile;
import io.cosmolab.rehearsal.report.HtmlReport;
import io.cosmolab.rehearsal.report.JsonReport;
import io.cosmolab.rehearsal.report.TerminalSummary;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.LongConsumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cosmolab rehearse}: play a scenario against the engine in virtual time, or against a live
 * endpoint through the Java SDK in real time.
 */
@Command(
    name = "rehearse",
    mixinStandardHelpOptions = true,
    description = {
      "Plays a workload with phases and events (a ramp, a spike, a VIP tenant onboarded, a device"
          + " gone hot) against the real engine in virtual time, each candidate key in its own"
          + " container, and shows per physical partition the normalized RU over time (a heat"
          + " map) with 429s and splits, latencies with the SDK's retries, failures and a verdict"
          + " per candidate. See docs/rehearsal.md.",
      "",
      "With --endpoint, the same scenario runs against a live endpoint (a cosmolab serve, or a"
          + " real account) through the official Java SDK in real time, at the scale that keeps its"
          + " peak under --max-rate, and the report is built from what the responses measured"
          + " (charges, 429s, latencies, the partitions they name).",
      "",
      "Built-in scenarios (--example NAME):",
      "  black-friday    orders, a x10 ramp and spike, one reseller: /userId, /userId*10",
      "  vip-tenant      a VIP tenant onboarded: /tenantId, /tenantId+/userId,"
          + " /tenantId>/userId",
      "  iot-hot-device  a device at 20 GB goes hot: /deviceId, /deviceId+/day",
      "  time-key        every write on today's partition: /createdDate, /yyyyMM, /userId",
      "  game-hot-server a launch crowds one game server: /serverId, /serverId*20",
      "  hierarchical-order  tenant dashboards: /tenantId>/userId, /userId>/tenantId",
      "  suffix-fan-out  buckets nobody needed: /deviceId*100, /deviceId",
      "  orders-join-products  order pages look up products: /category, /id"
    })
public final class RehearseCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      arity = "0..1",
      paramLabel = "SCENARIO",
      description = "The scenario file: a workload file with time (YAML; docs/rehearsal.md).")
  Path scenarioFile;

  @Option(
      names = "--example",
      paramLabel = "NAME",
      description =
          "Run a built-in scenario: black-friday, vip-tenant, iot-hot-device, time-key,"
              + " game-hot-server, hierarchical-order, suffix-fan-out or orders-join-products.")
  String example;

  @Option(names = "--html", paramLabel = "FILE", description = "Write the report as HTML.")
  Path html;

  @Option(
      names = "--json",
      paramLabel = "FILE",
      description = "Write the report as JSON (schema cosmolab.rehearse/v1).")
  Path json;

  @Option(
      names = "--alert-rules",
      paramLabel = "FILE",
      description =
          "The engine's alert rules to evaluate in virtual time instead of the scenario's (or the"
              + " defaults): the rules file of serve --alert-rules (docs/observability.md). Not"
              + " with --endpoint: a live endpoint evaluates its own.")
  Path alertRules;

  @Option(names = "--seed", paramLabel = "N", description = "Replace the scenario's seed.")
  Long seed;

  @Option(
      names = "--scale",
      paramLabel = "F",
      description =
          "Replace the scenario's scale factor: each simulated request and document stands for F"
              + " (0: chosen from the peak rate).")
  Double scale;

  @Option(
      names = "--endpoint",
      paramLabel = "URL",
      description =
          "Rehearse against this live endpoint (https://localhost:8081 for a local cosmolab"
              + " serve) instead of the engine in virtual time, in real time.")
  java.net.URI endpoint;

  @Option(
      names = "--account-key",
      paramLabel = "KEY",
      description =
          "The live endpoint's key (default: $COSMOS_KEY, else the emulator's well-known key).")
  String accountKey;

  @Option(
      names = "--max-rate",
      paramLabel = "N",
      description =
          "Live: the most requests a second sent, all candidates and the preload included"
              + " (default 200); the scale is chosen to keep the peak under it.")
  Double maxRate;

  @Option(
      names = "--database",
      paramLabel = "NAME",
      description =
          "Live: the database the candidates' containers are created in (default"
              + " "
              + LiveOptions.DEFAULT_DATABASE
              + "; created if missing).")
  String database;

  @Option(names = "--direct", description = "Live: connect in direct mode (default: gateway mode).")
  boolean direct;

  @Option(
      names = "--keep-containers",
      description = "Live: keep the candidates' containers after the run (default: deleted).")
  boolean keepContainers;

  @Option(
      names = "--replace-containers",
      description =
          "Live: delete containers of the run's names left by an earlier run (default: refuse to"
              + " start).")
  boolean replaceContainers;

  @Option(
      names = "--progress",
      negatable = true,
      description = "Show a progress bar on stderr (default: when stderr is a terminal).")
  Boolean progress;

  @Override
  public Integer call() throws IOException {
    if ((scenarioFile == null) == (example == null)) {
      throw new IllegalArgumentException(
          "name a SCENARIO file or --example NAME ("
              + java.util.Arrays.stream(Library.values())
                  .map(Library::cliName)
                  .collect(java.util.stream.Collectors.joining(", "))
              + "), not both");
    }
    Scenario s =
        example != null ? Library.named(example).scenario() : ScenarioFile.read(scenarioFile);
    if (seed != null) {
      s = s.withSeed(seed);
    }
    if (alertRules != null) {
      if (endpoint != null) {
        throw new IllegalArgumentException(
            "--alert-rules is for a rehearsal in virtual time: a live endpoint evaluates its own"
                + " (cosmolab serve --alert-rules)");
      }
      try {
        s = s.withAlertRules(io.cosmolab.engine.alerts.AlertRules.load(alertRules));
      } catch (io.cosmolab.engine.alerts.AlertRulesException e) {
        throw new IllegalArgumentException("--alert-rules " + e.getMessage(), e);
      }
    }
    if (scale != null && endpoint == null) {
      s = s.withScale(scale);
    }
    if (endpoint == null) {
      List<String> liveOnly = new ArrayList<>();
      if (accountKey != null) {
        liveOnly.add("--account-key");
      }
      if (maxRate != null) {
        liveOnly.add("--max-rate");
      }
      if (database != null) {
        liveOnly.add("--database");
      }
      if (direct) {
        liveOnly.add("--direct");
      }
      if (keepContainers) {
        liveOnly.add("--keep-containers");
      }
      if (replaceContainers) {
        liveOnly.add("--replace-containers");
      }
      if (!liveOnly.isEmpty()) {
        throw new IllegalArgumentException(
            String.join(", ", liveOnly)
                + (liveOnly.size() == 1 ? " is" : " are")
                + " for a live rehearsal: add --endpoint URL");
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    long total = s.duration().toSeconds();
    LongConsumer bar = second -> {};
    long started = System.nanoTime();
    if (endpoint != null && progress == null && !showProgress()) {
      // live runs take the scenario's real minutes: say so once where no bar shows it (and
      // --no-progress did not ask for quiet)
      err.printf(
          Locale.ROOT,
          "cosmolab: rehearsing %s live against %s: %s of real time after loading its documents"
              + " (--progress shows a progress bar)%n",
          s.name(),
          endpoint,
          clock(total));
      err.flush();
    }
    if (showProgress()) {
      bar =
          second -> {
            if (second % 10 == 0 || second == total) {
              double wall = Math.max(1e-9, (System.nanoTime() - started) / 1e9);
              err.print(
                  io.cosmolab.cli.Terminal.bar(
                      second / (double) total,
                      endpoint == null
                          ? String.format(
                              Locale.ROOT,
                              "%s of %s virtual, %.0fx real time",
                              clock(second),
                              clock(total),
                              second / wall)
                          : clock(second) + " of " + clock(total) + " live"));
              if (second == total) {
                err.println();
              }
              err.flush();
            }
          };
    }
    RehearsalReport report;
    if (endpoint == null) {
      report = Rehearsal.run(s, bar);
    } else {
      String key = accountKey != null ? accountKey : System.getenv("COSMOS_KEY");
      LiveOptions live =
          LiveOptions.of(
                  endpoint,
                  key != null ? key : io.cosmolab.gateway.auth.MasterKeyAuthenticator.EMULATOR_KEY)
              .withMaxRequestsPerSecond(
                  maxRate != null ? maxRate : LiveOptions.DEFAULT_MAX_REQUESTS_PER_SECOND)
              .withScale(scale == null ? 0 : scale)
              .withDatabase(database != null ? database : LiveOptions.DEFAULT_DATABASE)
              .withDirect(direct)
              .withKeepContainers(keepContainers)
              .withReplaceContainers(replaceContainers);
      report = Rehearsal.live(s, live, bar);
    }
    out.print(TerminalSummary.render(report));
    if (html != null) {
      Files.writeString(html, HtmlReport.render(report));
      out.println("report: " + html.toAbsolutePath());
    }
    if (json != null) {
      Files.writeString(json, JsonReport.render(report));
      out.println("json: " + json.toAbsolutePath());
    }
    out.flush();
    return 0;
  }

  private static String clock(long seconds) {
    return String.format(
        Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
  }

  private boolean showProgress() {
    return io.cosmolab.cli.Terminal.showProgress(progress);
  }
}
