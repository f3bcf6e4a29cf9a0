package io.cosmolab.rehearsal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scenario file shown in docs/rehearsal.md reads as the page says. */
class DocsExampleTest {
  @TempDir Path dir;

  @Test
  void theDocumentedScenarioFile_reads() throws IOException {
    String doc =
        Files.readString(
            Path.of(System.getProperty("user.dir")).getParent().resolve("docs/rehearsal.md"));
    int start = doc.indexOf("```yaml\n") + "```yaml\n".length();
    String yaml = doc.substring(start, doc.indexOf("```\n", start));
    Files.writeString(dir.resolve("shop-day.yaml"), yaml);
    StringBuilder orders = new StringBuilder();
    for (var d : Library.orders(50, 3)) {
      orders.append(d).append('\n');
    }
    Files.writeString(dir.resolve("orders.jsonl"), orders);
    Files.writeString(dir.resolve("rules.yaml"), "hot-partition: { threshold: 0.9 }\n");
    Scenario s = ScenarioFile.read(dir.resolve("shop-day.yaml"));
    assertThat(s.name()).isEqualTo("shop-day");
    assertThat(s.phases())
        .extracting(Phase::name)
        .isEqualTo(List.of("normal", "ramp", "spike", "cool-down"));
    assertThat(s.duration().toMinutes()).isEqualTo(10);
    assertThat(s.events())
        .extracting(Event::kind)
        .containsExactly(Event.Kind.HOT, Event.Kind.THROUGHPUT);
    assertThat(s.clockFields()).containsKeys("/createdDate", "/yyyyMM");
    assertThat(s.candidates()).hasSize(2);
    assertThat(s.effectiveScale()).isEqualTo(20); // 770 requests/s x 10 at peak
    assertThat(s.client()).isEqualTo(ClientModel.SDK_DEFAULT);
    assertThat(s.alertRules().hotPartition().threshold()).isEqualTo(0.9);
    assertThat(s.indexingPolicy().path("excludedPaths").get(0).path("path").asText())
        .isEqualTo("/*");
  }
}
