package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The explorer page in a real browser (headless Chromium through chromedriver, from Debian's
 * packages; {@code -P browser}): an hour of a SaaS container whose biggest tenant turns hot half
 * way through, in enforce mode. The heat map must mark the tenant's partition, the query explorer
 * must show a query's RU and the partitions it visited, and the screenshots land in {@code
 * target/explorer-*.png} for a person to look at.
 */
@Tag("browser")
class ExplorerBrowserTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path OUT = Path.of("target");

  @Test
  void heatMapMarksTheHotTenantsPartition_andTheQueryExplorerShowsRuAndPartitions()
      throws Exception {
    assertThat(WebDriver.CHROMIUM).as("apt-get install chromium chromium-driver").exists();
    long seed = new Random().nextLong();
    System.out.println("ExplorerBrowserTest seed " + seed);
    Random random = new Random(seed);
    ManualClock clock = new ManualClock(java.time.Instant.parse("2026-11-27T08:00:00Z"));
    try (CosmosEngine engine =
        CosmosEngine.builder().clock(clock).throttling(ThrottlingMode.ENFORCE).scale(10).build()) {
      // 80 RU/s at scale 10 (8,000 RU/s at full scale) over 4 partitions: 20 RU/s each
      Container c =
          engine
              .createDatabase("saas")
              .createContainer(
                  ContainerSettings.of("tenants", PartitionKeyDefinition.hash("/tenantId"))
                      .withThroughput(Throughput.manual(80))
                      .withPhysicalPartitions(4));
      engine.setThrottling(ThrottlingMode.OFF); // the documents arrived before the hour shown
      for (int t = 0; t < 40; t++) {
        for (int d = 0; d < (t == 0 ? 60 : 5); d++) {
          ObjectNode doc = JSON.createObjectNode();
          doc.put("id", "o" + d);
          doc.put("tenantId", t == 0 ? "acme" : "t" + t);
          doc.put("plan", t % 7 == 0 ? "gold" : "basic");
          doc.put("total", random.nextInt(500));
          c.create(doc);
        }
      }
      engine.setThrottling(ThrottlingMode.ENFORCE);
      String hotRange = c.read(PartitionKeyValue.of("acme"), "o0").partitionKeyRangeId();
      // an hour: light traffic everywhere, then acme at twice its partition's budget
      clock.advance(Duration.ofSeconds(65));
      String cold = null;
      for (int s = 0; s < 3600; s++) {
        for (int r = 0; r < 4; r++) {
          read(c, "t" + (1 + random.nextInt(39)), "o" + random.nextInt(5));
        }
        if (s >= 1800 && s % 60 < 50) {
          for (int r = 0; r < 40; r++) {
            read(c, "acme", "o" + random.nextInt(60));
          }
        }
        if (s == 2700) {
          // a cold partition splits on demand (as the page's button does): a marker on the map
          cold =
              c.partitionStats().stream()
                  .map(p -> p.id())
                  .filter(id -> !id.equals(hotRange))
                  .findFirst()
                  .orElseThrow();
          c.splitPartition(cold);
        }
        clock.advance(Duration.ofSeconds(1));
      }
      try (GatewayServer server = GatewayServer.builder(engine).port(0).plainHttp().start()) {
        server.alerts().evaluate(clock.millis());
        assertThat(server.alerts().active())
            .extracting(a -> a.rule().id())
            .contains("hot-partition");
        try (WebDriver browser = new WebDriver(1400, 2200)) {
          browser.open(server.endpoint().resolve("/_explorer/index.html#db=saas&coll=tenants"));
          browser.await(
              "return document.querySelectorAll('#partition-table tr[data-partition]').length",
              Duration.ofSeconds(30));
          browser.await(
              "return document.querySelector('#heatmap-svg') && document.querySelector('#heatmap-svg').dataset.hottest",
              Duration.ofSeconds(30));
          JsonNode heat =
              browser.script(
                  "const s = document.querySelector('#heatmap-svg');"
                      + " return {hottest: s.dataset.hottest,"
                      + " hot: [...s.querySelectorAll('rect.row.hot')].map(r => r.dataset.partition),"
                      + " throttled: [...new Set([...s.querySelectorAll('circle.throttled')].map(c => c.dataset.partition))],"
                      + " events: s.querySelectorAll('line.event').length,"
                      + " retired: [...s.querySelectorAll('text.retired-label')].map(t => t.dataset.partition),"
                      + " blank: s.querySelectorAll('rect.retired').length,"
                      + " headline: document.querySelector('#headline').textContent,"
                      + " alerts: [...document.querySelectorAll('#alerts .alert')].map(a => a.dataset.rule)}");
          assertThat(heat.path("hottest").asText()).isEqualTo(hotRange);
          assertThat(heat.path("hot")).extracting(JsonNode::asText).containsExactly(hotRange);
          assertThat(heat.path("throttled")).extracting(JsonNode::asText).containsExactly(hotRange);
          assertThat(heat.path("events").asInt()).isEqualTo(1);
          // the split partition keeps its row up to the split (15 minutes before the end, so
          // 15 one-minute cells are blank after it)
          assertThat(heat.path("retired")).extracting(JsonNode::asText).containsExactly(cold);
          // 15 cells after the parent went, and the children's 45 before they came: 15 + 2 × 45
          assertThat(heat.path("blank").asInt()).isBetween(103, 105);
          assertThat(heat.path("headline").asText())
              .contains("hottest partition (" + hotRange + ") at 100 %");
          assertThat(heat.path("alerts")).extracting(JsonNode::asText).contains("hot-partition");
          browser.screenshot(OUT.resolve("explorer-overview.png"));

          // the query explorer: a cross-partition query
          browser.script(
              "document.getElementById('query-text').value = arguments[0];"
                  + " document.getElementById('query-card').scrollIntoView();",
              "SELECT c.tenantId, c.id, c.total FROM c WHERE c.plan = 'gold' AND c.total > 400");
          browser.click("#query-run");
          JsonNode ru =
              browser.await(
                  "const e = document.querySelector('#query-ru b'); return e && e.textContent",
                  Duration.ofSeconds(30));
          JsonNode parts =
              browser.script("return document.querySelector('#query-partitions b').textContent");
          assertThat(ru.asText()).matches("\\d+\\.\\d\\d RU");
          assertThat(Double.parseDouble(ru.asText().substring(0, ru.asText().indexOf(' '))))
              .isPositive();
          assertThat(parts.asText().split(", ", -1)).hasSize(c.routing().ranges().size());
          browser.screenshot(OUT.resolve("explorer-query.png"));
          // a query that does not parse: the page shows the error's own words, not the wrapper
          // the SDKs read ('Message: {"Errors":[...]}\r\nActivityId: ...')
          browser.script(
              "document.getElementById('query-text').value = arguments[0];", "SELEC * FROM c");
          browser.click("#query-run");
          JsonNode error =
              browser.await(
                  "const e = document.querySelector('#query-result p.error');"
                      + " return e && e.textContent",
                  Duration.ofSeconds(30));
          assertThat(error.asText()).contains("SC1001").doesNotContain("Message: {");
          browser.screenshot(OUT.resolve("explorer-query-error.png"));
          browser.script("document.getElementById('partitions-card').scrollIntoView();");
          browser.screenshot(OUT.resolve("explorer-partitions.png"));
        }
      }
    }
    assertThat(Files.size(OUT.resolve("explorer-overview.png"))).isGreaterThan(10_000);
  }

  @Test
  void anAggregateOfOneKeyCutAtThePageTime_isShownAsPartialPages() throws Exception {
    assertThat(WebDriver.CHROMIUM).as("apt-get install chromium chromium-driver").exists();
    try (CosmosEngine engine = CosmosEngine.builder().queryPageTime(Duration.ofNanos(1)).build()) {
      Container c =
          engine
              .createDatabase("saas")
              .createContainer(
                  ContainerSettings.of("tenants", PartitionKeyDefinition.hash("/tenantId")));
      for (int d = 0; d < 4; d++) {
        c.create(
            JSON.createObjectNode()
                .put("id", "o" + d)
                .put("tenantId", "acme")
                .put("plan", d % 2 == 0 ? "free" : "pro"));
      }
      try (GatewayServer server = GatewayServer.builder(engine).port(0).plainHttp().start();
          WebDriver browser = new WebDriver(1400, 900)) {
        browser.open(server.endpoint().resolve("/_explorer/index.html#db=saas&coll=tenants"));
        browser.await("return !!document.getElementById('query-run')", Duration.ofSeconds(30));
        browser.script(
            "document.getElementById('query-text').value = arguments[0];"
                + " document.getElementById('query-pk').value = arguments[1];"
                + " document.getElementById('query-card').scrollIntoView();",
            "SELECT VALUE COUNT(1) FROM c",
            "\"acme\"");
        assertThat(runAndReadNote(browser))
            .startsWith("4 row(s); partial aggregates of 4 pages cut at the query page time");
        browser.script("document.getElementById('query-card').scrollIntoView();");
        browser.screenshot(OUT.resolve("explorer-partial-aggregates.png"));

        // a DISTINCT cut the same way: each page distinct within itself, the repeats left out
        browser.script(
            "document.querySelector('#query-result div.muted').remove();"
                + " document.getElementById('query-text').value = arguments[0];",
            "SELECT DISTINCT VALUE c.plan FROM c");
        assertThat(runAndReadNote(browser))
            .startsWith("2 row(s); 2 value(s) a later page repeated left out");
        assertThat(
                browser.script("return document.getElementById('query-rows').textContent").asText())
            .contains("free")
            .contains("pro");
        browser.script("document.getElementById('query-card').scrollIntoView();");
        browser.screenshot(OUT.resolve("explorer-distinct-repeats.png"));
      }
    }
  }

  /** Runs the query in the explorer's form and returns the note under its figures. */
  private static String runAndReadNote(WebDriver browser) throws Exception {
    browser.click("#query-run");
    return browser
        .await(
            "const e = document.querySelector('#query-result div.muted');"
                + " return e && e.textContent.includes('row(s)') && e.textContent",
            Duration.ofSeconds(30))
        .asText();
  }

  private static void read(Container c, String tenant, String id) {
    try {
      c.read(PartitionKeyValue.of(tenant), id);
    } catch (CosmosException e) {
      if (e.status() != 429) {
        throw e;
      }
    }
  }
}
