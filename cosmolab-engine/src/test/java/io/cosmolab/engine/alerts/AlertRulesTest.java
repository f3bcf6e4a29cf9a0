package io.cosmolab.engine.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AlertRulesTest {

  @Test
  void defaults_areTheReferenceRules() {
    AlertRules r = AlertRules.defaults();
    assertThat(r.hotPartition().threshold()).isEqualTo(0.8);
    assertThat(r.hotPartition().duration()).isEqualTo(Duration.ofMinutes(5));
    assertThat(r.largeLogicalPartition().bytes()).isEqualTo(16L << 30);
    assertThat(r.throttleRate().threshold()).isEqualTo(0.01);
    assertThat(r.crossPartitionQueries().threshold()).isEqualTo(0.05);
    assertThat(r.queryFanOut().ratio()).isEqualTo(50);
    assertThat(r.goneRange())
        .isEqualTo(
            new AlertRules.GoneRange(true, 10, 5, Duration.ofMinutes(1), Duration.ofSeconds(30)));
    for (AlertRule rule : AlertRule.values()) {
      assertThat(r.enabled(rule)).isTrue();
    }
  }

  @Test
  void yamlFile_changesOnlyWhatItNames(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("rules.yaml");
    Files.writeString(
        file,
        """
        # tighter than the defaults
        hot-partition:
          threshold: 70%
          for: 2m
        large-logical-partition:
          bytes: 10GiB
        query-fan-out:
          enabled: false
        """);
    AlertRules r = AlertRules.load(file);
    assertThat(r.hotPartition().threshold()).isEqualTo(0.7);
    assertThat(r.hotPartition().duration()).isEqualTo(Duration.ofMinutes(2));
    assertThat(r.largeLogicalPartition().bytes()).isEqualTo(10L << 30);
    assertThat(r.enabled(AlertRule.QUERY_FAN_OUT)).isFalse();
    assertThat(r.throttleRate()).isEqualTo(AlertRules.defaults().throttleRate());
  }

  @Test
  void jsonFile_isReadToo(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("rules.json");
    Files.writeString(
        file, "{\"throttle-rate\": {\"threshold\": 0.05, \"window\": 600, \"min-requests\": 10}}");
    AlertRules r = AlertRules.load(file);
    assertThat(r.throttleRate())
        .isEqualTo(new AlertRules.ThrottleRate(true, 0.05, Duration.ofMinutes(10), 10));
  }

  @Test
  void errors_nameTheFileTheLineAndTheField() {
    String yaml = "hot-partition:\n  threshold: 0.8\n  for: soon\n";
    assertThatThrownBy(() -> AlertRules.parse(yaml, "rules.yaml", true))
        .isInstanceOf(AlertRulesException.class)
        .hasMessage(
            "rules.yaml:3: hot-partition.for: must be a duration (300, 300s, 5m, 1h or PT5M), was"
                + " 'soon'");
    assertThatThrownBy(
            () -> AlertRules.parse("throttle-rate:\n  threshold: 1.5\n", "rules.yaml", true))
        .hasMessage(
            "rules.yaml:2: throttle-rate.threshold: must be a share between 0 and 1, was 1.5");
    assertThatThrownBy(() -> AlertRules.parse("hot-partitions: {}\n", "r.yaml", true))
        .hasMessageStartingWith(
            "r.yaml:1: hot-partitions: no such rule; the rules are hot-partition,");
    assertThatThrownBy(
            () -> AlertRules.parse("query-fan-out:\n  enabled: true\n  ratoi: 9\n", "r.yml", true))
        .hasMessage(
            "r.yml:3: query-fan-out.ratoi: no such setting; query-fan-out takes enabled, ratio,"
                + " window, min-retrieved");
    assertThatThrownBy(
            () -> AlertRules.parse("{\"hot-partition\": {\"enabled\": 1}}", "r.json", false))
        .hasMessage("r.json:1: hot-partition.enabled: must be true or false, was '1'");
    assertThatThrownBy(() -> AlertRules.parse("{\"hot-partition\": ", "r.json", false))
        .hasMessageStartingWith("r.json:1: not valid JSON: ");
    assertThatThrownBy(() -> AlertRules.load(Path.of("rules.txt")))
        .hasMessageContaining("must end in .yaml, .yml or .json");
  }

  @Test
  void goneRangeRequests_settings_andTheirErrors() {
    AlertRules r =
        AlertRules.parse(
            "gone-range-requests: { min-requests: 3, min-seconds: 2, window: 30s, after: 0 }\n",
            "r.yaml",
            true);
    assertThat(r.goneRange())
        .isEqualTo(new AlertRules.GoneRange(true, 3, 2, Duration.ofSeconds(30), Duration.ZERO));
    assertThatThrownBy(
            () -> AlertRules.parse("gone-range-requests:\n  min-requests: 0\n", "r.yaml", true))
        .hasMessage("r.yaml:2: gone-range-requests.min-requests: must be at least 1, was 0");
    assertThatThrownBy(
            () -> AlertRules.parse("gone-range-requests:\n  window: 2h\n", "r.yaml", true))
        .hasMessage(
            "r.yaml:2: gone-range-requests.window: must be at most 1h (the metrics keep an hour),"
                + " was PT2H");
    assertThatThrownBy(
            () -> AlertRules.parse("gone-range-requests:\n  grace: 5s\n", "r.yaml", true))
        .hasMessage(
            "r.yaml:2: gone-range-requests.grace: no such setting; gone-range-requests takes"
                + " enabled, min-requests, min-seconds, window, after");
    assertThatThrownBy(
            () -> AlertRules.parse("gone-range-requests:\n  min-seconds: 61\n", "r.yaml", true))
        .hasMessage(
            "r.yaml:2: gone-range-requests.min-seconds: must be between 1 and the window's 60"
                + " seconds, was 61");
    assertThatThrownBy(
            () -> AlertRules.parse("gone-range-requests:\n  after: 2h\n", "r.yaml", true))
        .hasMessage(
            "r.yaml:2: gone-range-requests.after: must be a duration from 0 to 1h, was PT2H");
    assertThatThrownBy(() -> AlertRules.parse("throttle-rate:\n  window: 500ms\n", "r.yaml", true))
        .hasMessage(
            "r.yaml:2: throttle-rate.window: must be at least 1s (the metrics count whole"
                + " seconds), was PT0.5S");
  }

  @Test
  void emptyFile_isTheDefaults() {
    assertThat(AlertRules.parse("", "empty.yaml", true)).isEqualTo(AlertRules.defaults());
  }
}
