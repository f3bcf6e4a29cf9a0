package io.cosmolab.migrator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.migrator.report.MigrationReport;
import io.cosmolab.testkit.CosmosLab;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cutover report in a real browser (headless Chromium from Debian's package; {@code -P
 * browser}): a migration with a source split and a writer, cut over SAFE; then two documents
 * spoiled in the target and cut over again, NOT SAFE. The screenshots land in {@code
 * target/migrate-report-*.png}, for a person to look at.
 */
@Tag("browser")
class ReportBrowserTest {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path OUT = Path.of("target");

  @Test
  void theCutoverReport_rendersInChromium_safeAndNotSafe(@TempDir Path tmp) throws Exception {
    assumeTrue(Files.isExecutable(CHROMIUM), "no " + CHROMIUM);
    try (CosmosLab lab = CosmosLab.builder().start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      CosmosContainer source = Lab.orders(client, "shop", "orders", 400);
      MigrationSpec spec = Lab.spec(lab, "shop", "orders", "byRegion", "/region>/userId");
      MigratorOptions o = Lab.options().withVerify(Duration.ZERO, Duration.ZERO);
      try (Lab.Writer writer = new Lab.Writer(source, 3, 120);
          Migrator m = Migrator.open(spec, tmp.resolve("state"), o)) {
        int[] pages = {0};
        m.run(
            false,
            () -> {
              if (++pages[0] == 6) {
                var c = lab.engine().database("shop").container("orders");
                c.splitPartition(c.routing().ranges().get(0).id());
              }
              return pages[0] > 14 && writer.writes() > 300;
            });
      }
      try (Migrator m = Migrator.open(spec, tmp.resolve("state"), o)) {
        Cutover safe = m.cutover(Duration.ofMillis(500), Duration.ofSeconds(60));
        assertThat(safe.safe()).as(safe.verdict()).isTrue();
        shoot(m.report(safe), tmp, "migrate-report-safe");

        CosmosContainer target = client.getDatabase("shop").getContainer("byRegion");
        List<ObjectNode> docs =
            target
                .queryItems("SELECT * FROM c WHERE c.region = 'eu'", null, ObjectNode.class)
                .stream()
                .limit(2)
                .toList();
        ObjectNode gone = docs.get(0);
        target.deleteItem(
            gone.get("id").asText(),
            new com.azure.cosmos.models.PartitionKeyBuilder()
                .add(gone.get("region").asText())
                .add(gone.get("userId").asText())
                .build(),
            null);
        ObjectNode changed = docs.get(1).put("total", -1);
        target.upsertItem(changed);
        source.upsertItem(Lab.order("late", "t1", "eu", 7)); // a write the run applies
        Cutover bad = m.cutover(Duration.ofMillis(500), Duration.ofSeconds(60), true);
        assertThat(bad.safe()).isFalse();
        shoot(m.report(bad), tmp, "migrate-report-not-safe");
      }
    }
  }

  private static void shoot(MigrationReport r, Path tmp, String name)
      throws IOException, InterruptedException {
    Path html = OUT.resolve(name + ".html");
    Files.writeString(html, r.html(), StandardCharsets.UTF_8);
    Path png = OUT.resolve(name + ".png").toAbsolutePath();
    Files.deleteIfExists(png);
    Process p =
        new ProcessBuilder(
                CHROMIUM.toString(),
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
                "--user-data-dir=" + tmp.resolve("chromium-" + name),
                "--window-size=1200,1700",
                "--screenshot=" + png,
                html.toAbsolutePath().toUri().toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("chromium finished").isTrue();
    assertThat(p.exitValue()).isZero();
    BufferedImage img = ImageIO.read(png.toFile());
    assertThat(img.getWidth()).isEqualTo(1200);
    // the page is drawn: the verdict banner's colour is there (green or red), not a blank page
    boolean banner = false;
    for (int y = 0; y < Math.min(img.getHeight(), 400) && !banner; y += 2) {
      for (int x = 0; x < 800 && !banner; x += 2) {
        int rgb = img.getRGB(x, y) & 0xffffff;
        banner = rgb == (r.safe() ? 0xe6f4ea : 0xfce8e6);
      }
    }
    assertThat(banner).as("the verdict banner in " + png).isTrue();
  }
}
