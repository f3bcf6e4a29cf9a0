package io.cosmolab.migrator.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.migrator.MigrationState;
import io.cosmolab.migrator.VerifyReport;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The HTML report: its parts, its self-containment, and the escaping of what comes from data. */
class HtmlReportTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A state as a run saves it: two open ranges and one gone by a split. */
  static MigrationState state() throws Exception {
    ObjectNode s = JSON.createObjectNode();
    s.put("format", MigrationState.FORMAT);
    s.put("sourceUri", "https://localhost:8081");
    s.put("source", "shop/orders");
    s.put("targetUri", "https://localhost:8081");
    s.put("target", "shop/<byTenant>");
    s.put("partitionKey", "/tenantId+/region");
    s.put("onMissing", "fail");
    s.put("phase", "CATCHING_UP");
    s.put("copied", 1200);
    s.put("applied", 340);
    s.put("deleted", 12);
    s.put("throttled", 7);
    s.put("requestUnits", 15234.5);
    s.put("lagSeconds", 0.4);
    s.put("lagDocuments", 0);
    s.put("startedAtMillis", 1_700_000_000_000L);
    s.put("updatedAtMillis", 1_700_000_095_000L);
    s.put("sourceDocuments", 1200);
    s.putArray("ranges")
        .add(range("", "3F", "\"41\"", 400, 120, false))
        .add(range("3F", "7F", "\"44\"", 300, 100, false))
        .add(range("7F", "FF", "\"52\"", 500, 120, false))
        .add(range("", "7F", "\"20\"", 0, 0, true));
    return JSON.treeToValue(s, MigrationState.class);
  }

  private static ObjectNode range(
      String min, String max, String pos, long copied, long applied, boolean split) {
    ObjectNode r = JSON.createObjectNode();
    r.put("min", min).put("max", max).put("position", pos).put("copied", copied);
    r.put("applied", applied).put("lagDocuments", split ? -1 : 0).put("split", split);
    return r;
  }

  static MigrationReport report(boolean safe) throws Exception {
    List<VerifyReport.Difference> differences =
        safe
            ? List.of()
            : List.of(
                new VerifyReport.Difference(
                    VerifyReport.Kind.MISSING, "[\"t1-eu\"]", "<script>alert('x')</script>"),
                new VerifyReport.Difference(VerifyReport.Kind.EXTRA, "[\"t&t-us\"]", "a&b"),
                new VerifyReport.Difference(VerifyReport.Kind.DIFFERENT, "[\"t2-eu\"]", "o\"7"));
    VerifyReport v =
        new VerifyReport(40, safe ? 0 : 3, 1200, safe ? 1200 : 1199, differences, 4, 80, 0);
    return new MigrationReport(
        MigrationReport.SCHEMA,
        "cutover",
        safe,
        safe ? "safe to switch" : "3 documents differ: do not switch",
        safe
            ? new MigrationReport.Switch(
                "https://localhost:8081",
                "shop/<byTenant>",
                List.of("/tenantId_region"),
                "tenantId_region")
            : null,
        state(),
        v,
        81.5,
        1_700_000_100_000L);
  }

  @Test
  void theReport_hasTheVerdict_theCounts_everyRange_andWhatToSwitch() throws Exception {
    String html = report(true).html();
    assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n");
    assertThat(html).contains("<div class=\"verdict safe\" id=verdict><b>SAFE</b>");
    assertThat(html).contains("id=switch").contains("<code>/tenantId_region</code>");
    assertThat(html)
        .contains("<th>documents copied</th><td class=num>1,200</td>")
        .contains("<th>changes applied</th><td class=num>340</td>")
        .contains("<th>throttled (429s, each waited out)</th><td class=num>7</td>")
        .contains("<th>request units spent</th><td class=num>15,235 RU</td>")
        .contains("<th>lag in documents</th><td class=num>0</td>")
        .contains("4 partitions, 80 documents, 81.5 RU");
    // a row and two bars per range, the split one marked
    assertThat(count(html, "<tr><td><code>\\[")).isEqualTo(4);
    assertThat(count(html, "<rect ")).isEqualTo(4 * 2 + 2);
    assertThat(html).contains("[, 7F) (split)").contains("split: its children go on");
    assertThat(html).contains("id=differences>No document differs.");
    for (String tag : List.of("table", "svg", "div", "h1", "h2", "p")) {
      assertThat(count(html, "<" + tag + "[ >]"))
          .as("<%s> opened and closed", tag)
          .isEqualTo(count(html, "</" + tag + ">"));
    }
  }

  @Test
  void theReport_isSelfContained_noScriptNoFetch() throws Exception {
    String html = report(false).html();
    assertThat(html).doesNotContain("<script").doesNotContain("<link").doesNotContain("@import");
    assertThat(html).doesNotContainPattern("(src|href)=").doesNotContain("url(");
    assertThat(html).contains("<style>");
  }

  @Test
  void idsKeysAndNames_areEscaped_andEveryDifferenceIsListed() throws Exception {
    String html = report(false).html();
    assertThat(html).contains("<b>NOT SAFE</b>").doesNotContain("id=switch");
    assertThat(html)
        .contains("<code>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</code>")
        .contains("<code>a&amp;b</code>")
        .contains("<code>o&quot;7</code>")
        .contains("<code>[&quot;t&amp;t-us&quot;]</code>")
        .contains("<code>shop/&lt;byTenant&gt;</code>");
    assertThat(html).doesNotContain("<byTenant>").doesNotContain("a&b<");
    assertThat(count(html, "<tr><td class=\"(MISSING|EXTRA|DIFFERENT)\">")).isEqualTo(3);
    assertThat(html).contains("<h2>Differences (3)</h2>");
  }

  @Test
  void theJsonAndTheText_carryTheSameVerdictAndDifferences() throws Exception {
    MigrationReport r = report(false);
    var json = JSON.readTree(r.json());
    assertThat(json.path("schema").asText()).isEqualTo(MigrationReport.SCHEMA);
    assertThat(json.path("safe").asBoolean()).isFalse();
    assertThat(json.path("verify").path("differences")).hasSize(3);
    assertThat(json.path("state").path("ranges")).hasSize(4);
    assertThat(r.text())
        .contains("NOT SAFE: 3 documents differ")
        .contains("MISSING [\"t1-eu\"] <script>alert('x')</script>")
        .contains("range [,3F)")
        .contains("read 4 of 40 partitions, 80 documents, 81.5 RU");
  }

  private static int count(String s, String regex) {
    Matcher m = Pattern.compile(regex).matcher(s);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }
}
