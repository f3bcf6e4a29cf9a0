package io.cosmolab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.cli.demo.PartitionDemo;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** The command line as a user sees it: whole transcripts and exit codes. */
class MainTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  /** Set -Dcosmolab.updateGolden=true to rewrite the golden files after a deliberate change. */
  private static void assertGolden(String name, String actual) throws IOException {
    if (Boolean.getBoolean("cosmolab.updateGolden")) {
      Path p = Paths.get("src/test/resources/io/cosmolab/cli", name);
      Files.writeString(p, actual, StandardCharsets.UTF_8);
      return;
    }
    try (InputStream in = MainTest.class.getResourceAsStream(name)) {
      assertThat(in).as("golden file %s", name).isNotNull();
      String expected = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertThat(actual).isEqualTo(expected);
    }
  }

  @Test
  void serve_printsHowToConnect_andStopsCleanly(@org.junit.jupiter.api.io.TempDir Path dir) {
    int code =
        run("serve", "--port", "0", "--http", "--data-dir", dir.toString(), "--exit-when-ready");
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("cosmolab emulator listening on http://localhost:")
        .contains(
            "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==")
        .contains("-DCOSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED=true")
        .contains("@azure/cosmos 4.9 refuses it")
        .contains("(RocksDB)")
        .contains("self-check HTTP/1.1 200 OK")
        .contains("cosmolab: stopping");
  }

  @Test
  void serve_overTls_printsTheSdkTimerOption_directModeNeedsAgainst100msWaits(
      @org.junit.jupiter.api.io.TempDir Path dir) {
    int code = run("serve", "--port", "0", "--data-dir", dir.toString(), "--exit-when-ready");
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("-DCOSMOS.EMULATOR_SERVER_CERTIFICATE_VALIDATION_DISABLED=true")
        .contains(
            "'-Dazure.cosmos.directTcp.defaultOptions={\"idleChannelTimerResolution\":\"PT0.001S\"}'");
  }

  @Test
  void serve_withMaxConnections_startsWithThatCap() {
    int code = run("serve", "--port", "0", "--http", "--max-connections", "7", "--exit-when-ready");
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains(
            "connections at most 7 (--max-connections); a request within 30 s, idle for 120 s")
        .contains("self-check HTTP/1.1 200 OK");
  }

  @Test
  void serve_withEventLoops_runsThatManyLoopsPerListener() {
    int code = run("serve", "--port", "0", "--event-loops", "3", "--exit-when-ready");
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("3 event loops per listener (--event-loops)")
        .contains("self-check HTTP/1.1 200 OK");
  }

  @Test
  void serve_byDefault_runsTwoEventLoopsPerCore() {
    int code = run("serve", "--port", "0", "--http", "--exit-when-ready");
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains(
            2 * Runtime.getRuntime().availableProcessors()
                + " event loops per listener (--event-loops)");
  }

  @Test
  void serve_withEventLoopsBelowOne_isAUsageError() {
    assertThat(run("serve", "--event-loops", "0", "--exit-when-ready")).isEqualTo(2);
    assertThat(err.toString()).contains("--event-loops must be at least 1, was 0");
  }

  @Test
  void serve_withAScriptTimeoutBelowOne_isAUsageError() {
    assertThat(run("serve", "--script-timeout", "0", "--exit-when-ready")).isEqualTo(2);
    assertThat(err.toString()).contains("--script-timeout must be at least 1 ms, was 0");
  }

  @Test
  void serve_withAQueryPageTimeBelowOne_isAUsageError() {
    assertThat(run("serve", "--query-page-time", "0", "--exit-when-ready")).isEqualTo(2);
    assertThat(err.toString()).contains("--query-page-time must be at least 1 ms, was 0");
  }

  @Test
  void serve_withMaxConnectionsBelowOne_isAUsageError() {
    assertThat(run("serve", "--max-connections", "0", "--exit-when-ready")).isEqualTo(2);
    assertThat(err.toString()).contains("--max-connections must be at least 1, was 0");
  }

  @Test
  void serve_withAnUnknownThrottlingMode_isAUsageError() {
    assertThat(run("serve", "--throttling", "sometimes", "--exit-when-ready")).isEqualTo(2);
    assertThat(err.toString()).contains("--throttling must be enforce, observe or off");
  }

  @Test
  void serve_beyondLoopbackWithTheDefaultKey_isRefusedWithWhatToDo() {
    assertThat(run("serve", "--port", "0", "--host", "0.0.0.0", "--exit-when-ready")).isEqualTo(2);
    assertThat(err.toString())
        .contains("--host 0.0.0.0 would let anyone")
        .contains("public default key")
        .contains("--key");
  }

  @Test
  void serve_beyondLoopbackWithAKeyOfItsOwn_starts() {
    String key = java.util.Base64.getEncoder().encodeToString(new byte[64]);
    int code =
        run(
            "serve",
            "--port",
            "0",
            "--http",
            "--host",
            "0.0.0.0",
            "--key",
            key,
            "--allow-host",
            "cosmos.internal",
            "--exit-when-ready");
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).contains("self-check HTTP/1.1 200 OK");
  }

  @Test
  void certPem_printsTheCertificate(@org.junit.jupiter.api.io.TempDir Path dir) {
    assertThat(run("cert", "pem", "--data-dir", dir.toString())).isZero();
    assertThat(out.toString()).startsWith("-----BEGIN CERTIFICATE-----");
    assertThat(
            run(
                "cert",
                "truststore",
                dir.resolve("trust.p12").toString(),
                "--data-dir",
                dir.toString()))
        .isZero();
    assertThat(dir.resolve("trust.p12")).exists();
  }

  @Test
  void advise_ranksNamedKeys_andNamesTheHotTenant(@org.junit.jupiter.api.io.TempDir Path dir)
      throws IOException {
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 3000; i++) {
      String tenant = i % 2 == 0 ? "vip" : "t" + (i % 97);
      lines.append(
          String.format(
              "{\"id\":\"d%d\",\"tenantId\":\"%s\",\"userId\":\"u%d\"}%n", i, tenant, i % 400));
    }
    Path file = dir.resolve("sessions.jsonl");
    Files.writeString(file, lines.toString());
    int code =
        run(
            "advise",
            file.toString(),
            "--key",
            "/tenantId",
            "--key",
            "/tenantId>/userId",
            "--key",
            "/id",
            "--throughput",
            "24000");
    assertThat(code).as(err.toString()).isZero();
    String[] rows = out.toString().split("\\R", -1);
    assertThat(rows[1]).contains("/id").contains("recommended");
    assertThat(out.toString()).contains("hot key [\"vip\"] holds 50% of documents");
    out.getBuffer().setLength(0);
    Path workload = dir.resolve("peak.yaml");
    Files.writeString(
        workload,
        """
        throughput: 24000
        operations:
          - type: create
            rate: 2000
          - type: read
            rate: 20000
        """);
    assertThat(
            run("advise", file.toString(), "--key", "/tenantId", "--workload", workload.toString()))
        .isZero();
    // half the requests go to "vip": more than one physical partition can serve
    assertThat(out.toString()).containsPattern("[1-9]\\d*% +none  no throughput avoids 429");
    out.getBuffer().setLength(0);
    assertThat(run("advise", file.toString(), "--key", "/tenantId", "--json")).isZero();
    assertThat(out.toString()).contains("\"candidate\" : \"/tenantId\"").contains("\"verdict\"");
  }

  @Test
  void advise_withAWorkloadOfTwoContainers_ranksEach_andWritesJsonAndHtml(
      @org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
    StringBuilder orders = new StringBuilder();
    StringBuilder customers = new StringBuilder();
    for (int i = 0; i < 4000; i++) {
      orders.append(
          String.format(
              "{\"id\":\"o%d\",\"customerId\":\"c%d\",\"status\":\"%s\"}%n",
              i, i % 700, i % 3 == 0 ? "open" : "done"));
    }
    for (int i = 0; i < 700; i++) {
      customers.append(String.format("{\"id\":\"c%d\",\"country\":\"k%d\"}%n", i, i % 12));
    }
    Files.writeString(dir.resolve("orders.jsonl"), orders.toString());
    Files.writeString(dir.resolve("customers.jsonl"), customers.toString());
    Path workload = dir.resolve("shop.yaml");
    Files.writeString(
        workload,
        """
        containers:
          - name: orders
            sample: [orders.jsonl]
            candidates: [/customerId, /status]
            throughput: 12000
            operations:
              - { type: create, rate: 300 }
              - name: my orders
                type: query
                rate: 200
                sql: SELECT * FROM c WHERE c.customerId = @me
            joins:
              - { container: customers, match: /customerId = /id, rate: 200 }
          - name: customers
            sample: [customers.jsonl]
            candidates: [/id, /country]
            throughput: minimum
            operations:
              - { type: read, rate: 500 }
        """);
    Path html = dir.resolve("report.html");
    int code = run("advise", "--workload", workload.toString(), "--html", html.toString());
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("container orders: 4,000 documents sampled, throughput manual 12000")
        .contains("container customers: 700 documents sampled, throughput minimum")
        .contains("report: " + html.toAbsolutePath());
    String page = Files.readString(html);
    assertThat(page)
        .startsWith("<!DOCTYPE html>")
        .contains("<svg")
        .contains("Container customers")
        .contains("joins are cross-partition with this key: lookups from orders on /customerId");
    assertThat(page).doesNotContain("http://").doesNotContain("https://").doesNotContain("<script");

    out.getBuffer().setLength(0);
    assertThat(run("advise", "--workload", workload.toString(), "--container", "orders", "--json"))
        .isZero();
    var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(out.toString());
    assertThat(json.get("schema").asText()).isEqualTo("cosmolab.advise/v1");
    assertThat(json.get("containers")).hasSize(1);
    var best = json.get("containers").get(0).get("candidates").get(0);
    assertThat(best.get("candidate").asText()).isEqualTo("/customerId");
    assertThat(best.get("routing").get("singlePartitionReadShare").asDouble()).isEqualTo(1.0);
    assertGolden("advise-schema.txt", String.join("\n", fieldPaths(json, "")) + "\n");
  }

  /** Every field path of a JSON document, arrays as [], sorted: the schema without the values. */
  private static java.util.SortedSet<String> fieldPaths(
      com.fasterxml.jackson.databind.JsonNode node, String prefix) {
    java.util.SortedSet<String> out = new java.util.TreeSet<>();
    if (node.isObject()) {
      node.properties()
          .forEach(
              e -> {
                String p = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
                out.add(p);
                out.addAll(fieldPaths(e.getValue(), p));
              });
    } else if (node.isArray()) {
      for (com.fasterxml.jackson.databind.JsonNode item : node) {
        out.addAll(fieldPaths(item, prefix + "[]"));
      }
    }
    return out;
  }

  @Test
  void advise_withProgress_drawsABarOnStderrThatEndsAtAHundredPercent(
      @org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 5000; i++) {
      lines.append(String.format("{\"id\":\"d%d\",\"tenantId\":\"t%d\"}%n", i, i % 50));
    }
    Path file = dir.resolve("docs.jsonl");
    Files.writeString(file, lines.toString());
    assertThat(run("advise", file.toString(), "--key", "/tenantId", "--progress")).isZero();
    String bar = err.toString();
    assertThat(bar).startsWith("\r[").contains("5,000 documents").endsWith("\n");
    String last = bar.substring(bar.lastIndexOf('\r'));
    assertThat(last).contains("[" + "=".repeat(30) + "] 100%");
    assertThat(out.toString()).doesNotContain("\r"); // the ranking stays clean on stdout
    err.getBuffer().setLength(0);
    assertThat(run("advise", file.toString(), "--key", "/tenantId", "--no-progress")).isZero();
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void advise_rejectsAWorkloadWithoutSamples_namingTheContainer(
      @org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
    Path workload = dir.resolve("w.yaml");
    Files.writeString(workload, "containers:\n  - name: orders\n    throughput: 400\n");
    assertThat(run("advise", "--workload", workload.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("container orders has no sample documents");
    Files.writeString(workload, "sample: [nosuch.jsonl]\nthroughput: 400\n");
    assertThat(run("advise", "--workload", workload.toString())).isNotZero();
    assertThat(err.toString())
        .contains("cannot read " + dir.resolve("nosuch.jsonl") + ": there is no such file");
  }

  @Test
  void advise_fromALiveContainer_samplesItThroughTheSdk() {
    try (io.cosmolab.testkit.CosmosLab lab = io.cosmolab.testkit.CosmosLab.builder().start();
        com.azure.cosmos.CosmosClient client = lab.clientBuilder().buildClient()) {
      client.createDatabase("shop");
      client
          .getDatabase("shop")
          .createContainer(
              new com.azure.cosmos.models.CosmosContainerProperties("orders", "/tenantId"),
              com.azure.cosmos.models.ThroughputProperties.createManualThroughput(24_000));
      var orders = client.getDatabase("shop").getContainer("orders");
      for (int i = 0; i < 400; i++) {
        orders.createItem(
            java.util.Map.of("id", "o" + i, "tenantId", i % 2 == 0 ? "vip" : "t" + (i % 40)));
      }
      int code =
          run(
              "advise",
              "--from",
              "shop/orders",
              "--endpoint",
              lab.endpoint().toString(),
              "--account-key",
              lab.key(),
              "--key",
              "/tenantId",
              "--key",
              "/id",
              "--direct");
      assertThat(code).as(err.toString()).isZero();
      String[] rows = out.toString().split("\\R", -1);
      assertThat(rows[1]).contains("/id").contains("recommended");
      assertThat(rows[2]).contains("/tenantId").contains("hot key [\"vip\"] holds 50%");
      // the container's own throughput: 24,000 RU/s make 4 partitions
      assertThat(rows[1]).containsPattern("\\s4\\s+\\d\\.\\d\\dx");
    }
    assertThat(run("advise", "--from", "shop")).isEqualTo(2);
    assertThat(err.toString()).contains("--from shop: give it as DATABASE/CONTAINER");
  }

  @Test
  void adviseExample_runsTheScenario_andNamesTheKnownFailures() {
    assertThat(run("advise", "--example", "ecommerce", "--example-documents", "5000")).isZero();
    assertThat(out.toString())
        .contains("example ecommerce")
        .contains("/userId")
        .contains("time-based key");
    assertThat(run("advise", "--example", "nosuch")).isEqualTo(2);
    assertThat(err.toString()).contains("not one of: ecommerce, saas, iot, game");
  }

  @Test
  void advise_onInvalidJson_namesTheLine(@org.junit.jupiter.api.io.TempDir Path dir)
      throws IOException {
    Path file = dir.resolve("bad.jsonl");
    Files.writeString(file, "{\"id\":\"1\"}\n{\"id\": }\n");
    assertThat(run("advise", file.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("bad.jsonl, line 2");
  }

  @Test
  void demo_transcript_isDeterministicForASeed() throws IOException {
    int code =
        run(
            "demo",
            "--docs",
            "2000",
            "--throughput",
            "8000",
            "--partitions",
            "4",
            "--write-rate",
            "500",
            "--read-rate",
            "3000",
            "--read-seconds",
            "3",
            "--seed",
            "7");
    assertThat(err.toString()).isEmpty();
    assertThat(code).isZero();
    assertGolden("demo-small.txt", out.toString());
  }

  @Test
  void demo_withASingleHashPath_andObserveMode_countsWouldBe429s() {
    int code =
        run(
            "demo",
            "--key",
            "/tenantId",
            "--docs",
            "1000",
            "--throughput",
            "4000",
            "--partitions",
            "4",
            "--read-rate",
            "4000",
            "--read-seconds",
            "2",
            "--throttling",
            "observe",
            "--vip-share",
            "0.8");
    assertThat(code).isZero();
    assertThat(out.toString())
        .contains("keyed by Hash [/tenantId] (hash V2)")
        .contains("would have got 429")
        .contains("[\"vip\"]");
  }

  @Test
  void demo_keyAsAdviseWritesIt_isHierarchical_andAKeyNotOfPaths_isRefusedWithExit2() {
    assertThat(PartitionDemo.parsePaths("/tenantId>/userId"))
        .containsExactly("/tenantId", "/userId");
    assertThat(PartitionDemo.parsePaths(" /a , /b,/c")).containsExactly("/a", "/b", "/c");
    for (String bad : new String[] {"/tenantId+/region", "tenantId", "/a,,/b", "/a>/b>/c>/d"}) {
      out.getBuffer().setLength(0);
      err.getBuffer().setLength(0);
      assertThat(run("demo", "--key", bad, "--docs", "10")).as(bad).isEqualTo(2);
      assertThat(err.toString()).as(bad).contains("--key " + bad);
    }
  }

  /** An SDK error as a command meets it: the service's words inside the SDK's message. */
  private static final class SdkError extends com.azure.cosmos.CosmosException {
    private static final long serialVersionUID = 1L;

    SdkError(int status, String message) {
      super(status, message);
    }
  }

  @Test
  void anSdkError_isOneLineOfStatusAndTheServicesWords_notItsDiagnostics() {
    String missing =
        Main.message(
            new SdkError(
                404,
                "Message: {\"Errors\":[\"Resource Not Found. Learn more: https://aka.ms/x\"]}"
                    + "\r\nActivityId: 1, Request URI: /dbs/shop"));
    assertThat(missing)
        .isEqualTo(
            "there is no such database or container: Resource Not Found. Learn more:"
                + " https://aka.ms/x");
    assertThat(Main.message(new SdkError(429, "Request rate is large")))
        .isEqualTo("the service answered 429/0: Request rate is large");
    assertThat(Main.message(new IllegalStateException("plain"))).isEqualTo("plain");
  }

  @Test
  void demo_atScale_splitsPartitionsByStorage() {
    int code =
        run(
            "demo",
            "--docs",
            "3000",
            "--scale",
            "20000",
            "--throughput",
            "1",
            "--partitions",
            "1",
            "--read-seconds",
            "0",
            "--throttling",
            "off");
    assertThat(code).isZero();
    assertThat(out.toString()).contains("split [0]").contains("storage");
  }

  @Test
  void usageErrors_exit2_withAMessageNamingTheOption() {
    assertThat(run("demo", "--throttling", "sometimes")).isEqualTo(2);
    assertThat(err.toString()).contains("--throttling must be enforce, observe or off");
    assertThat(run("demo", "--vip-share", "2")).isEqualTo(2);
    assertThat(err.toString()).contains("--vip-share must be in [0, 1]");
    assertThat(run("demo", "--no-such-option")).isEqualTo(2);
    assertThat(err.toString()).contains("Unknown option");
  }

  @Test
  void engineErrors_exit1_withTheServiceMessage() {
    assertThat(run("demo", "--throughput", "100", "--docs", "1")).isEqualTo(1);
    assertThat(err.toString()).contains("below the minimum of 400 RU/s");
  }

  @Test
  void noArguments_printsUsage() {
    assertThat(run()).isZero();
    assertThat(out.toString()).contains("Usage: cosmolab").contains("demo");
  }
}
