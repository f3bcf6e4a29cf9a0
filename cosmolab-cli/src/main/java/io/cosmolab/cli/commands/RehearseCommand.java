package io.cosmolab.cli.commands;

import io.cosmolab.rehearsal.Library;
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
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.LongConsumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cosmolab rehearse}: play a scenario against the engine in virtual time. */
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
      "Built-in scenarios (--example NAME):",
      "  black-friday    orders, a x10 ramp and spike, one reseller: /userId, /userId*10",
      "  vip-tenant      a VIP tenant onboarded: /tenantId, /tenantId+/userId,"
          + " /tenantId>/userId",
      "  iot-hot-device  a device at 20 GB goes hot: /deviceId, /deviceId+/day",
      "  time-key        every write on today's partition: /createdDate, /yyyyMM, /userId",
      "  game-hot-server a launch crowds one game server: /serverId, /serverId*20",
      "  hierarchical-order  tenant dashboards: /tenantId>/userId, /userId>/tenantId"
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
              + " game-hot-server or hierarchical-order.")
  String example;

  @Option(names = "--html", paramLabel = "FILE", description = "Write the report as HTML.")
  Path html;

  @Option(
      names = "--json",
      paramLabel = "FILE",
      description = "Write the report as JSON (schema cosmolab.rehearse/v1).")
  Path json;

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
    if (scale != null) {
      s = s.withScale(scale);
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    long total = s.duration().toSeconds();
    LongConsumer bar = second -> {};
    long started = System.nanoTime();
    if (showProgress()) {
      bar =
          second -> {
            if (second % 10 == 0 || second == total) {
              double wall = Math.max(1e-9, (System.nanoTime() - started) / 1e9);
              err.print(
                  io.cosmolab.cli.Terminal.bar(
                      second / (double) total,
                      String.format(
                          Locale.ROOT,
                          "%s of %s virtual, %.0fx real time",
                          clock(second),
                          clock(total),
                          second / wall)));
              if (second == total) {
                err.println();
              }
              err.flush();
            }
          };
    }
    RehearsalReport report = Rehearsal.run(s, bar);
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
