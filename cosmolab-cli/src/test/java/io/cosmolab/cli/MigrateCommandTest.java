package io.cosmolab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.testkit.CosmosLab;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cosmolab migrate} end to end against an in-process server. */
class MigrateCommandTest {
  private StringWriter out = new StringWriter();
  private StringWriter err = new StringWriter();

  private int run(String... args) {
    out = new StringWriter();
    err = new StringWriter();
    return Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  @Test
  void planRunStatusVerifyCutover_moveAContainerToANewKey(@TempDir Path state) throws Exception {
    try (CosmosLab lab = CosmosLab.builder().start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      client.createDatabaseIfNotExists("shop");
      client.getDatabase("shop").createContainer(new CosmosContainerProperties("orders", "/id"));
      CosmosContainer c = client.getDatabase("shop").getContainer("orders");
      ObjectMapper json = new ObjectMapper();
      for (int i = 0; i < 40; i++) {
        ObjectNode d = json.createObjectNode().put("id", "o" + i).put("n", i);
        if (i != 7) {
          d.put("tenantId", "t" + (i % 4));
        }
        c.createItem(d);
      }
      String endpoint = lab.endpoint().toString();
      String[] common = {"--endpoint", endpoint, "--account-key", lab.key()};

      int code =
          run(
              concat(
                  new String[] {
                    "migrate", "plan", "--source", "shop/orders", "--partition-key", "/tenantId"
                  },
                  common));
      assertThat(code).as(out + "" + err).isEqualTo(3);
      assertThat(out.toString()).contains("missing key paths  1 [o7]").contains("blocked");

      // with the source's busiest second, the advisor finds the throughput to give the target
      Path workload =
          java.nio.file.Files.writeString(
              state.resolveSibling(state.getFileName() + "-workload.yaml"),
              """
              name: orders
              operations:
                - { type: create, rate: 500 }
                - { type: read, rate: 15000 }
              """);
      code =
          run(
              concat(
                  new String[] {
                    "migrate",
                    "plan",
                    "--source",
                    "shop/orders",
                    "--partition-key",
                    "/id",
                    "--workload",
                    workload.toString()
                  },
                  common));
      assertThat(code).as(out + "" + err).isEqualTo(0);
      assertThat(out.toString())
          .as(out.toString())
          .containsPattern("at peak +workload orders: give the target at least [0-9,]+ RU/s manual")
          .contains("physical partitions")
          .contains("predicted 429s 0.0%");
      code =
          run(
              concat(
                  new String[] {
                    "migrate",
                    "plan",
                    "--source",
                    "shop/orders",
                    "--partition-key",
                    "/id",
                    "--workload-container",
                    "orders"
                  },
                  common));
      assertThat(code).isEqualTo(2);
      assertThat(err.toString()).contains("--workload-container needs --workload FILE");

      code =
          run(
              concat(
                  new String[] {
                    "migrate",
                    "run",
                    "--source",
                    "shop/orders",
                    "--target",
                    "shop/byTenant",
                    "--partition-key",
                    "/tenantId",
                    "--state",
                    state.toString(),
                    "--on-missing",
                    "default=none",
                    "--until-caught-up",
                    "--direct" // the run in the SDK's direct mode; plan and verify in gateway mode
                  },
                  common));
      assertThat(code).as(out + "" + err).isEqualTo(0);
      assertThat(out.toString()).contains("copied 40").contains("ready");

      code = run("migrate", "status", "--state", state.toString());
      assertThat(code).isEqualTo(0);
      assertThat(out.toString())
          .contains("shop/orders -> shop/byTenant by /tenantId")
          .contains("catching up: copied 40")
          .contains("lag 0.0 s and 0 docs")
          .contains("all-versions-and-deletes feed")
          .containsPattern("range \\[,FF\\) +at \"[0-9]+\"; copied 40, applied 0, lag 0 docs");

      code =
          run(
              "migrate",
              "verify",
              "--state",
              state.toString(),
              "--account-key",
              lab.key(),
              "--direct");
      assertThat(code).as(out + "" + err).isEqualTo(0);
      assertThat(out.toString()).contains("5 logical partitions, 0 differ").contains("equal");

      code =
          run(
              "migrate",
              "verify",
              "--state",
              state.toString(),
              "--account-key",
              lab.key(),
              "--json");
      assertThat(code).as(out + "" + err).isEqualTo(0);
      assertThat(json.readTree(out.toString()).path("verify").path("partitions").asLong())
          .isEqualTo(5);

      Path missingDir = state.resolve("no-such-dir").resolve("report.html");
      code =
          run(
              "migrate",
              "verify",
              "--state",
              state.toString(),
              "--account-key",
              lab.key(),
              "--html",
              missingDir.toString());
      assertThat(code).isEqualTo(2);
      assertThat(err.toString())
          .contains("--html " + missingDir)
          .contains("the directory " + missingDir.getParent() + " does not exist");

      code =
          run(
              "migrate",
              "cutover",
              "--state",
              state.toString(),
              "--account-key",
              lab.key(),
              "--quiet",
              "1",
              "--html",
              state.resolve("report.html").toString(),
              "--json",
              state.resolve("report.json").toString());
      assertThat(code).as(out + "" + err).isEqualTo(0);
      assertThat(out.toString())
          .contains("SAFE: safe to switch")
          .contains("range [,FF)")
          .contains("verified 5 partitions, 0 differ")
          // the run verified every partition when it caught up, and nothing changed since
          .contains("read 0 of 5 partitions, 0 documents");
      String html = java.nio.file.Files.readString(state.resolve("report.html"));
      assertThat(html).contains("<b>SAFE</b>").contains("<code>shop/byTenant</code>");
      var report = json.readTree(state.resolve("report.json").toFile());
      assertThat(report.path("command").asText()).isEqualTo("cutover");
      assertThat(report.path("switchTo").path("partitionKeyPaths").get(0).asText())
          .isEqualTo("/tenantId");
    }
  }

  @Test
  void verifyAndCutoverHelp_documentTheReportFiles() {
    for (String command : new String[] {"verify", "cutover"}) {
      assertThat(run("migrate", command, "--help")).isEqualTo(0);
      assertThat(out.toString()).contains("--html=FILE", "--json[=FILE]");
    }
    assertThat(out.toString()).contains("--full-verify", "--quiet", "--timeout");
    assertThat(run("migrate", "status", "--help")).isEqualTo(0);
    assertThat(out.toString())
        .contains("lag\n(in seconds and in documents)", "per source feed range");
  }

  @Test
  void cutover_withANegativeQuiet_isAUsageError_namingIt(@TempDir Path state) {
    assertThat(run("migrate", "cutover", "--state", state.toString(), "--quiet", "-1"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--quiet is 0 or more").contains("not -1");
  }

  @Test
  void run_withANegativeSettle_isAUsageError_namingIt(@TempDir Path state) {
    int code =
        run(
            "migrate",
            "run",
            "--source",
            "a/b",
            "--target",
            "a/c",
            "--partition-key",
            "/x",
            "--state",
            state.toString(),
            "--settle",
            "-5");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("--settle is 0 or more").contains("not --settle -5");
  }

  @Test
  void migrateHelp_documentsEverySubcommand() {
    assertThat(run("migrate", "--help")).isEqualTo(0);
    assertThat(out.toString()).contains("plan", "run", "status", "verify", "cutover");
    assertThat(run("migrate", "run", "--help")).isEqualTo(0);
    assertThat(out.toString())
        .contains(
            "--max-ru",
            "--until-caught-up",
            "--state",
            "--target-endpoint",
            "--target-account-key",
            "--on-missing",
            "--change-feed",
            "--verify-every",
            "--settle",
            "--[no-]progress");
  }

  private static String[] concat(String[] a, String[] b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
