package io.cosmolab.advisor.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.Advisor;
import io.cosmolab.advisor.AdvisorOptions;
import io.cosmolab.advisor.Report;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.engine.throughput.Throughput;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The report's defects seen in screenshots, each pinned (issue 18 item 12). */
class HtmlReportTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static String report(Candidate key) {
    List<ObjectNode> docs = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      ObjectNode d = JSON.createObjectNode();
      d.put("id", "d" + i);
      d.put("tenantId", i % 3 == 0 ? "whale-tenant-with-a-long-name" : "t" + (i % 40));
      d.put("userId", "user-" + i % 700);
      docs.add(d);
    }
    Report.ContainerAdvice c =
        Advisor.analyze(
            "c", docs.iterator(), List.of(key), AdvisorOptions.of(Throughput.manual(40_000)));
    return HtmlReport.render(new Report(Report.SCHEMA, List.of(c)));
  }

  @Test
  void aSmallPositiveShare_isNeverPrintedAsZero() {
    assertThat(HtmlReport.percent(0)).isEqualTo("0.0%");
    assertThat(HtmlReport.percent(0.0024)).isEqualTo("0.24%");
    assertThat(HtmlReport.percent(1e-7)).isEqualTo("<0.01%");
    assertThat(HtmlReport.percent(0.37)).isEqualTo("37.0%");
  }

  @Test
  void longHierarchicalKeys_keepTheEndsThatTellThemApart() {
    String a = HtmlReport.shorten("[\"whale-tenant-with-a-long-name\",\"user-101\"]");
    String b = HtmlReport.shorten("[\"whale-tenant-with-a-long-name\",\"user-202\"]");
    assertThat(a).isNotEqualTo(b).endsWith("user-101\"]").contains("…");
  }

  @Test
  void theCumulativeShareCurve_spansTheWholeAxis() {
    String html = report(Candidate.single("/tenantId"));
    Matcher m = Pattern.compile("<polyline[^>]*points=\"([^\"]+)\"").matcher(html);
    assertThat(m.find()).isTrue();
    double maxX = 0;
    Matcher xs = Pattern.compile("([0-9.]+),[0-9.]+").matcher(m.group(1));
    while (xs.find()) {
      maxX = Math.max(maxX, Double.parseDouble(xs.group(1)));
    }
    assertThat(maxX).isCloseTo(420 - 36, org.assertj.core.data.Offset.offset(0.5));
  }

  @Test
  void everyPartitionBar_isNumbered_andTheSizeLabelsAlternateRows() {
    String html = report(Candidate.single("/tenantId"));
    int partitions = Integer.parseInt(html.replaceAll("(?s).*?(\\d+) physical partitions.*", "$1"));
    for (int i = 0; i < partitions; i++) {
      assertThat(html).contains("text-anchor=\"middle\">" + i + "</text>");
    }
    assertThat(html).contains("y=\"176\" text-anchor=\"middle\">&lt; 1 MB");
    assertThat(html).contains("y=\"188\" text-anchor=\"middle\">1–10 MB");
  }

  @Test
  void aKeyUniqueToEachDocument_saysNoKeyStandsOut_insteadOfAnEmptyChart() {
    String html = report(Candidate.single("/id"));
    assertThat(html).contains("No key stands out");
  }
}
