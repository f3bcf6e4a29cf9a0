package io.cosmolab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve}'s observability options: the rules file, metrics off, and the banner. */
class ServeObservabilityTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  @Test
  void banner_namesTheExplorerTheMetricsAndTheRules(@TempDir Path dir) throws Exception {
    Path rules = dir.resolve("rules.yaml");
    Files.writeString(rules, "hot-partition:\n  threshold: 90%\n");
    int code =
        run(
            "serve",
            "--port",
            "0",
            "--http",
            "--alert-rules",
            rules.toString(),
            "--exit-when-ready");
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .containsPattern(
            "observe     http://localhost:\\d+/_explorer/index.html, http://localhost:\\d+/metrics; alert rules from .*rules.yaml");
  }

  @Test
  void noMetrics_saysSo() {
    int code = run("serve", "--port", "0", "--http", "--no-metrics", "--exit-when-ready");
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).contains("_explorer/index.html (metrics off); alert rules built in");
  }

  @Test
  void aWrongRulesFile_isAUsageError_namingFileLineAndField(@TempDir Path dir) throws Exception {
    Path rules = dir.resolve("rules.yaml");
    Files.writeString(rules, "throttle-rate:\n  window: forever\n");
    int code =
        run(
            "serve",
            "--port",
            "0",
            "--http",
            "--alert-rules",
            rules.toString(),
            "--exit-when-ready");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString())
        .contains(rules + ":2: throttle-rate.window: must be a duration")
        .contains("was 'forever'");
  }
}
