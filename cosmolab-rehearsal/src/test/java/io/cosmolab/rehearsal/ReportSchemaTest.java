package io.cosmolab.rehearsal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cosmolab.rehearsal.report.JsonReport;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The JSON report's field paths are pinned ({@code rehearse-schema.txt}): fields are only added
 * within cosmolab.rehearse/v1, and each is documented in docs/rehearsal.md.
 */
class ReportSchemaTest {

  @Test
  void jsonFieldPaths_areThePinnedSchema() throws IOException {
    RehearsalReport r = Rehearsal.run(ScenarioFile.read(ScenarioFileTest.resource("small.yaml")));
    JsonNode tree = new ObjectMapper().readTree(JsonReport.render(r));
    assertThat(tree.get("schema").asText()).isEqualTo("cosmolab.rehearse/v1");
    TreeSet<String> paths = new TreeSet<>();
    collect(tree, "", paths);
    String pinned;
    try (InputStream in = getClass().getResourceAsStream("rehearse-schema.txt")) {
      pinned = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<String> expected = new ArrayList<>();
    for (String line : pinned.split("\n", -1)) {
      if (!line.isBlank()) {
        expected.add(line.strip());
      }
    }
    assertThat(String.join("\n", paths)).isEqualTo(String.join("\n", expected));
  }

  @Test
  void everyPinnedField_isDocumented() throws IOException {
    String doc =
        java.nio.file.Files.readString(
            java.nio.file.Path.of(System.getProperty("user.dir"))
                .getParent()
                .resolve("docs/rehearsal.md"));
    try (InputStream in = getClass().getResourceAsStream("rehearse-schema.txt")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1)) {
        if (line.isBlank()) {
          continue;
        }
        String[] parts = line.strip().split("\\.", -1);
        String last = parts[parts.length - 1].replace("[]", "");
        assertThat(doc.contains("`" + last) || doc.contains("." + last))
            .as("docs/rehearsal.md names field %s", line)
            .isTrue();
      }
    }
  }

  private static void collect(JsonNode n, String at, java.util.Set<String> out) {
    if (n.isObject()) {
      for (Map.Entry<String, JsonNode> e : n.properties()) {
        String p = at.isEmpty() ? e.getKey() : at + "." + e.getKey();
        out.add(p);
        collect(e.getValue(), p, out);
      }
    } else if (n.isArray()) {
      for (JsonNode e : n) {
        if (e.isContainerNode()) {
          collect(e, at + "[]", out);
        }
      }
    }
  }
}
