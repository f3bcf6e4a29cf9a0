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
  void planRunStatusVerifyCutover_moveAContainerToANewKey(@TempDir Path state) {
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
                    "--until-caught-up"
                  },
                  common));
      assertThat(code).as(out + "" + err).isEqualTo(0);
      assertThat(out.toString()).contains("copied 40").contains("ready");

      code = run("migrate", "status", "--state", state.toString());
      assertThat(code).isEqualTo(0);
      assertThat(out.toString())
          .contains("shop/orders -> shop/byTenant by /tenantId")
          .contains("catching up: copied 40")
          .contains("all-versions-and-deletes feed");

      code = run("migrate", "verify", "--state", state.toString(), "--account-key", lab.key());
      assertThat(code).as(out + "" + err).isEqualTo(0);
      assertThat(out.toString()).contains("5 logical partitions, 0 differ").contains("equal");

      code =
          run(
              "migrate",
              "cutover",
              "--state",
              state.toString(),
              "--account-key",
              lab.key(),
              "--quiet",
              "1");
      assertThat(code).as(out + "" + err).isEqualTo(0);
      assertThat(out.toString()).contains("SAFE: safe to switch");
    }
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
            "--[no-]progress");
  }

  private static String[] concat(String[] a, String[] b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
