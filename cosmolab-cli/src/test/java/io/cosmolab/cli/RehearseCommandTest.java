package io.cosmolab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cosmolab rehearse}: thin over cosmolab-rehearsal; usage errors exit 2. */
class RehearseCommandTest {
  @TempDir Path dir;

  private record Result(int code, String out, String err) {}

  private static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void help_listsTheBuiltInScenarios() {
    Result r = run("rehearse", "--help");
    assertThat(r.code()).isZero();
    for (io.cosmolab.rehearsal.Library l : io.cosmolab.rehearsal.Library.values()) {
      assertThat(r.out()).contains("  " + l.cliName() + " ");
    }
    assertThat(r.out()).contains("--html").contains("--json").contains("--example");
  }

  @Test
  void neitherFileNorExample_exits2WithWhatToGive() {
    Result r = run("rehearse");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("name a SCENARIO file or --example NAME");
  }

  @Test
  void unknownExample_exits2NamingTheKnownOnes() {
    Result r = run("rehearse", "--example", "cyber-monday");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("is not one of: black-friday, vip-tenant");
  }

  @Test
  void aScenarioFile_printsTheSummary_andWritesHtmlAndJson() throws Exception {
    Files.writeString(
        dir.resolve("s.jsonl"),
        """
        {"id":"a","tenantId":"t1","userId":"u1","x":"yyyyyyyyyyyyyyyyyy"}
        {"id":"b","tenantId":"t2","userId":"u2","x":"yyyyyyyyyyyyyyyyyy"}
        """);
    Files.writeString(
        dir.resolve("day.yaml"),
        """
        scenario: tiny
        duration: 20s
        step: 5s
        events:
          - { at: 5s, hot: { field: /tenantId, value: vip, share: 0.5 } }
        sample: [s.jsonl]
        candidates: [/tenantId, "/tenantId>/userId"]
        throughput: 1000
        documents: 200
        operations:
          - { type: create, rate: 20 }
          - { type: read, rate: 100 }
        """);
    Path html = dir.resolve("r.html");
    Path json = dir.resolve("r.json");
    Result r =
        run(
            "rehearse",
            dir.resolve("day.yaml").toString(),
            "--html",
            html.toString(),
            "--json",
            json.toString(),
            "--no-progress");
    assertThat(r.err()).isEmpty();
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("rehearsal tiny: 0:00:20 of virtual time");
    assertThat(r.out()).contains("/tenantId>/userId");
    assertThat(Files.readString(html)).startsWith("<!DOCTYPE html>").contains("heat map");
    assertThat(Files.readString(json)).contains("\"schema\" : \"cosmolab.rehearse/v1\"");
  }

  @Test
  void alertRules_aBadFileExits2NamingIt_andTheyAreNotForALiveEndpoint() throws Exception {
    Files.writeString(dir.resolve("rules.yaml"), "throttle-rate: { treshold: 0.5 }\n");
    Result r =
        run(
            "rehearse",
            "--example",
            "black-friday",
            "--alert-rules",
            dir.resolve("rules.yaml").toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--alert-rules").contains("rules.yaml").contains("treshold");
    Files.writeString(dir.resolve("rules.yaml"), "throttle-rate: { threshold: 0.5 }\n");
    r =
        run(
            "rehearse",
            "--example",
            "black-friday",
            "--alert-rules",
            dir.resolve("rules.yaml").toString(),
            "--endpoint",
            "https://localhost:1/");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("a live endpoint evaluates its own");
  }

  @Test
  void aBadScenarioFile_exits2NamingTheLine() throws Exception {
    Files.writeString(dir.resolve("bad.yaml"), "scenario: x\nphases:\n  - { name: a, rate: 2 }\n");
    Result r = run("rehearse", dir.resolve("bad.yaml").toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("bad.yaml, line").contains("needs duration");
  }

  @Test
  void liveOnlyOptions_withoutAnEndpoint_exit2NamingThem() {
    Result r = run("rehearse", "--example", "vip-tenant", "--max-rate", "50", "--keep-containers");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err())
        .contains("--max-rate, --keep-containers are for a live rehearsal: add --endpoint URL");
  }

  @Test
  void againstALiveEndpoint_runsInRealTime_andSaysWhereInTheSummaryAndJson() throws Exception {
    Files.writeString(
        dir.resolve("s.jsonl"),
        """
        {"id":"a","tenantId":"t1","userId":"u1","x":"yyyyyyyyyyyyyyyyyy"}
        {"id":"b","tenantId":"t2","userId":"u2","x":"yyyyyyyyyyyyyyyyyy"}
        """);
    Files.writeString(
        dir.resolve("live.yaml"),
        """
        scenario: tiny-live
        duration: 4s
        step: 2s
        sample: [s.jsonl]
        candidates: [/tenantId, /userId]
        throughput: 800
        documents: 20
        operations:
          - { type: create, rate: 10 }
          - { type: read, rate: 20 }
        """);
    Path json = dir.resolve("live.json");
    try (io.cosmolab.testkit.CosmosLab lab = io.cosmolab.testkit.CosmosLab.builder().start()) {
      Result r =
          run(
              "rehearse",
              dir.resolve("live.yaml").toString(),
              "--endpoint",
              lab.endpoint().toString(),
              "--account-key",
              lab.key(),
              "--max-rate",
              "100",
              "--json",
              json.toString());
      // no terminal and no --progress/--no-progress: one line says how long the run takes
      assertThat(r.err().strip())
          .isEqualTo(
              "cosmolab: rehearsing tiny-live live against "
                  + lab.endpoint()
                  + ": 0:00:04 of real time after loading its documents (--progress shows a"
                  + " progress bar)");
      assertThat(r.code()).isZero();
      assertThat(r.out())
          .contains("rehearsal tiny-live: 0:00:04 live against " + lab.endpoint())
          .contains("(gateway mode)")
          .contains("/userId");
      com.fasterxml.jackson.databind.JsonNode tree =
          new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.toFile());
      assertThat(tree.get("against").asText()).isEqualTo(lab.endpoint().toString());
      assertThat(tree.get("connection").asText()).isEqualTo("gateway");
      assertThat(tree.at("/candidates/0/headline/requests").asLong()).isEqualTo(120);
      // the containers it made are gone
      assertThat(
              lab.engine()
                  .findDatabase(io.cosmolab.rehearsal.LiveOptions.DEFAULT_DATABASE)
                  .orElseThrow()
                  .containers())
          .isEmpty();
    }
  }
}
