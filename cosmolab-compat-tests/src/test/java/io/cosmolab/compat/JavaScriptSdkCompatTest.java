package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cosmolab.engine.alerts.AlertRules;
import io.cosmolab.testkit.CosmosLab;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The official JavaScript SDK ({@code @azure/cosmos}, installed from npm into {@code target/js})
 * against the server over HTTPS: CRUD, a paged cross-partition ORDER BY on 8 partitions, the change
 * feed, throughput buckets, vector, full-text and hybrid search on 4 partitions, patch, etags,
 * transactional batch, bulk, hierarchical keys and the all-versions feed, and queries and the
 * change feed while the container splits or merges under them, with the alert that names the SDK's
 * stuck ORDER BY. Skipped, saying so, on a machine without Node.js 20+.
 */
class JavaScriptSdkCompatTest {

  @Test
  void javascriptSdk_crudOrderByPagingAndChangeFeed() throws Exception {
    assertThat(runAgainst(CosmosLab.builder(), "sdk-test.mjs"))
        .contains("\"crud\":\"ok\"")
        .contains("\"queryRows\":100")
        .contains("\"plans\":\"ok\"")
        .contains("\"indexMetrics\":\"ok\"")
        .contains("\"arrayIndexOrderBy\":\"ok\"")
        .contains("\"changeFeedNew\":5")
        .contains("\"throughputBuckets\":\"ok\"")
        .contains("\"search\":\"ok\"");
  }

  /**
   * The same over plain HTTP ({@code serve --http}): the SDK allows an {@code http:} endpoint (its
   * request handler sets the pipeline's {@code allowInsecureConnection} from the URL's scheme), so
   * a user need not set up TLS for it.
   */
  @Test
  void javascriptSdk_overPlainHttp() throws Exception {
    assertThat(runAgainst(CosmosLab.builder().plainHttp(), "sdk-test.mjs"))
        .contains("\"crud\":\"ok\"")
        .contains("\"queryRows\":100")
        .contains("\"changeFeedNew\":5");
  }

  @Test
  void javascriptSdk_storedProceduresTriggersAndUdfs() throws Exception {
    // 25 operations per call: the bulk import needs the continuation pattern to finish
    CosmosLab.Builder lab =
        CosmosLab.builder()
            .scriptLimits(
                io.cosmolab.engine.script.ScriptLimits.DEFAULT.withAcceptedOperations(25));
    assertThat(runAgainst(lab, "scripts-test.mjs"))
        .contains("\"bulkImported\":60")
        .containsPattern("\"bulkCalls\":([3-9]|1\\d)[,}]") // 25 + 25 + 10, or more if slow
        .contains("\"triggers\":\"ok\"");
  }

  @Test
  void javascriptSdk_permissionFeedAndResourceTokens() throws Exception {
    assertThat(runAgainst(CosmosLab.builder(), "permissions-test.mjs"))
        .contains("\"permissions\":\"ok\"")
        .contains("\"permissionFeed\":\"ok\"")
        .contains("\"outOfScope\":\"ok\"")
        .contains("\"readToken\":\"ok\"")
        .contains("\"rename\":\"ok\"");
  }

  @Test
  void javascriptSdk_followsContinuationsPastQueryPagesThatEndedEarly() throws Exception {
    // every query page that may end early does, after one document or one row: most are empty
    CosmosLab.Builder lab = CosmosLab.builder().queryPageTime(java.time.Duration.ofNanos(1));
    assertThat(runAgainst(lab, "paging-test.mjs"))
        .contains("\"orderBy\":60")
        .contains("\"count\":60")
        .contains("\"groups\":7")
        .contains("\"distinct\":7")
        .doesNotContain("\"distinctRepeatsInOneKey\":0")
        .contains("\"topInKey\":3,\"offsetInKey\":4,\"top\":25,\"offset\":15")
        .contains("\"withoutValue\":60");
  }

  @Test
  void javascriptSdk_patchEtagsBatchBulkHierarchicalKeysAndAllVersions() throws Exception {
    assertThat(runAgainst(CosmosLab.builder(), "operations-test.mjs"))
        .contains(
            "{\"patch\":\"ok\",\"etag\":\"ok\",\"indexingDirective\":\"ok\","
                + "\"spatialBoundingBox\":\"ok\",\"fullPages\":\"ok\","
                + "\"batch\":\"ok\",\"bulk\":\"ok\","
                + "\"hierarchical\":\"ok\",\"allVersions\":3}");
  }

  /**
   * Splits under a paged query, a resumed continuation and a change feed come through whole. An
   * ORDER BY does not: the SDK asks the gone range forever (its fault, see layout-changes.mjs),
   * pinned as "stuck" so that an SDK that recovers fails this test and the docs get updated.
   */
  @Test
  void javascriptSdk_queriesAndChangeFeedComeThroughSplits() throws Exception {
    assertThat(runAgainst(goneRangeAlertAtOnce(), "split-test.mjs"))
        .contains("\"query\":200,\"resumed\":200,\"changeFeed\":300")
        .contains("\"orderByAcrossSplit\":\"stuck\",\"goneRangeAlert\":true")
        .contains("\"partitions\":16");
  }

  /**
   * Merges, sent by the script to the explorer API, under a paged query, a resumed continuation and
   * a change feed come through whole: the SDK reads the gone range's part of the merged range by
   * EPK. An ORDER BY meets the same fault as across a split (merge-test.mjs), pinned as "stuck",
   * and the alert fires for it as well.
   */
  @Test
  void javascriptSdk_queriesAndChangeFeedComeThroughMerges() throws Exception {
    assertThat(runAgainst(goneRangeAlertAtOnce(), "merge-test.mjs"))
        .contains("\"query\":200,\"resumed\":200,\"changeFeed\":300")
        .contains("\"orderByAcrossMerge\":\"stuck\",\"goneRangeAlert\":true")
        .contains("\"partitions\":4");
  }

  /**
   * A lab whose gone-range-requests rule fires on 10 requests in 2 distinct seconds of 10 s for a
   * replaced range, from the moment it was replaced (the default waits 30 s and asks for 5
   * seconds): the stuck ORDER BY asks about 80 a second.
   */
  private static CosmosLab.Builder goneRangeAlertAtOnce() {
    return CosmosLab.builder()
        .alertRules(
            AlertRules.defaults()
                .withGoneRange(
                    new AlertRules.GoneRange(
                        true, 10, 2, java.time.Duration.ofSeconds(10), java.time.Duration.ZERO)));
  }

  /**
   * Runs one of the JavaScript tests against a lab of these settings; skipped without Node.js.
   * Fails with the script's output unless it exits 0; returns its output (one JSON line).
   */
  private static String runAgainst(CosmosLab.Builder settings, String script) throws Exception {
    assumeTrue(nodeAvailable(), "Node.js 20+ (node and npm on PATH) is needed for this test");
    Path dir = install();
    try (CosmosLab lab = settings.start()) {
      String endpoint = lab.endpoint().getScheme() + "://127.0.0.1:" + lab.port() + "/";
      Result test = run(dir, 300, "node", script, endpoint, lab.key());
      System.out.println("JavaScript SDK " + script + ": " + test.output().strip());
      assertThat(test.exit()).as("%s failed:%n%s", script, test.output()).isZero();
      return test.output();
    }
  }

  /** Copies the JavaScript tests to target/js and installs the SDK there once. */
  private static Path install() throws IOException, InterruptedException {
    Path dir = Path.of("target", "js");
    Files.createDirectories(dir);
    for (String f :
        List.of(
            "package.json",
            "lab.mjs",
            "sdk-test.mjs",
            "scripts-test.mjs",
            "permissions-test.mjs",
            "paging-test.mjs",
            "layout-changes.mjs",
            "split-test.mjs",
            "merge-test.mjs",
            "operations-test.mjs")) {
      Files.copy(
          Path.of("src", "test", "js", f),
          dir.resolve(f),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    // installed again when package.json names another version than the one installed: a stale
    // node_modules would test the SDK of an earlier run
    String wanted = textAt(dir.resolve("package.json"), "/dependencies/@azure~1cosmos");
    assertThat(wanted).as("@azure/cosmos in package.json").isNotEmpty();
    Path installed = dir.resolve("node_modules/@azure/cosmos/package.json");
    if (!Files.exists(installed) || !textAt(installed, "/version").equals(wanted)) {
      Result install =
          run(dir, 600, "npm", "install", "--no-audit", "--no-fund", "--loglevel=error");
      assertThat(install.exit()).as("npm install failed:%n%s", install.output()).isZero();
      assertThat(textAt(installed, "/version"))
          .as("the @azure/cosmos npm installed")
          .isEqualTo(wanted);
    }
    return dir;
  }

  /** The text at a JSON pointer of a JSON file, or "" where there is none. */
  private static String textAt(Path json, String pointer) throws IOException {
    return new com.fasterxml.jackson.databind.ObjectMapper()
        .readTree(json.toFile())
        .at(pointer)
        .asText("");
  }

  private record Result(int exit, String output) {}

  /**
   * Runs the command in {@code dir}, its output to a file, so that the time limit holds even when
   * the process hangs with its output open (reading a pipe to its end would wait for it).
   */
  private static Result run(Path dir, int timeoutSeconds, String... command)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("cosmolab-js", ".out");
    try {
      Process p =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(out.toFile())
              .start();
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return new Result(
            -1,
            "timed out after "
                + timeoutSeconds
                + " s:\n"
                + Files.readString(out, StandardCharsets.UTF_8));
      }
      return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
    }
  }

  private static boolean nodeAvailable() {
    try {
      Result v = run(Path.of("."), 30, "node", "--version");
      if (v.exit() != 0) {
        return false;
      }
      int major = Integer.parseInt(v.output().strip().replaceFirst("^v(\\d+).*", "$1"));
      return major >= 20 && run(Path.of("."), 30, "npm", "--version").exit() == 0;
    } catch (IOException | NumberFormatException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
