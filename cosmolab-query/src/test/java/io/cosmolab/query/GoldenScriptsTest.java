package io.cosmolab.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cosmolab.query.exec.Executor;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Golden scripts ({@code scripts/*.script}): documents, then queries with the rows or the error
 * they must give. Format:
 *
 * <pre>
 * # a comment (anywhere)
 * --- docs                       (replaces the documents; one JSON object per line)
 * {"id": "1", "n": 1}
 * --- query                      (one query; may span lines)
 * SELECT VALUE c.n FROM c
 * --- params                     (optional, a JSON object of @name: value)
 * {"@x": 1}
 * --- rows                       (the expected JSON array, in order)
 * [1]
 * --- rows unordered             (or: the expected rows in any order)
 * --- error SC1001 @7            (or: the error code, and optionally the offset it starts at;
 *                                 "-" for an error the service sends without a code; a text
 *                                 under it must appear in the message)
 * --- policy                     (the container's {"vectorEmbeddingPolicy", "fullTextPolicy",
 *                                 "geospatialConfig"}
 *                                 for the queries after it, as SearchPolicy reads them)
 * </pre>
 *
 * The clock of the scripts is 2026-01-01T00:00:00Z; documents are input in file order.
 */
class GoldenScriptsTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  @TestFactory
  Stream<DynamicTest> scripts() throws IOException, URISyntaxException {
    Path dir = Paths.get(GoldenScriptsTest.class.getResource("scripts").toURI());
    List<DynamicTest> tests = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".script")).sorted().toList()) {
        tests.addAll(parse(f));
      }
    }
    assertThat(tests).as("golden cases").hasSizeGreaterThan(100);
    return tests.stream();
  }

  private record Case(
      String file,
      int line,
      List<JsonNode> docs,
      String query,
      String params,
      String expect,
      String rows,
      SearchPolicy policy) {}

  private static List<DynamicTest> parse(Path file) throws IOException {
    List<DynamicTest> out = new ArrayList<>();
    List<JsonNode> docs = new ArrayList<>();
    String section = null;
    StringBuilder body = new StringBuilder();
    String query = null;
    String params = null;
    SearchPolicy policy = SearchPolicy.NONE;
    int queryLine = 0;
    List<String> lines = read(file);
    lines.add("--- end");
    String header = null;
    for (int n = 0; n < lines.size(); n++) {
      String line = lines.get(n);
      if (line.startsWith("#")) {
        continue; // a comment, in any section (no query, row or document starts with #)
      }
      if (!line.startsWith("--- ")) {
        body.append(line).append('\n');
        continue;
      }
      // close the previous section
      String text = body.toString().strip();
      if (section != null) {
        switch (section) {
          case "docs" -> {
            docs = new ArrayList<>();
            for (String d : text.split("\n", -1)) {
              if (!d.isBlank() && !d.startsWith("#")) {
                docs.add(MAPPER.readTree(d));
              }
            }
          }
          case "query" -> query = text;
          case "policy" -> {
            JsonNode p = MAPPER.readTree(text);
            policy =
                SearchPolicy.fromJson(
                    p.get("vectorEmbeddingPolicy"),
                    p.get("fullTextPolicy"),
                    p.get("geospatialConfig"));
          }
          case "params" -> params = text;
          case "rows", "error" -> {
            Case c =
                new Case(
                    file.getFileName().toString(),
                    queryLine,
                    List.copyOf(docs),
                    query,
                    params,
                    header,
                    text,
                    policy);
            out.add(
                DynamicTest.dynamicTest(
                    c.file() + ":" + c.line() + " " + oneLine(query), () -> run(c)));
            params = null;
          }
          default -> fail("unknown section '" + section + "' in " + file);
        }
      }
      header = line.substring(4).strip();
      section = header.split(" ", 2)[0];
      if (section.equals("query")) {
        queryLine = n + 1;
        params = null;
      }
      body.setLength(0);
    }
    return out;
  }

  private static String oneLine(String q) {
    String s = q == null ? "" : q.replaceAll("\\s+", " ");
    return s.length() > 90 ? s.substring(0, 90) + "…" : s;
  }

  private static List<String> read(Path file) throws IOException {
    List<String> lines = new ArrayList<>();
    try (InputStream in = Files.newInputStream(file);
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String l;
      while ((l = r.readLine()) != null) {
        lines.add(l);
      }
    }
    return lines;
  }

  private static void run(Case c) throws IOException {
    Map<String, JsonNode> params = new LinkedHashMap<>();
    if (c.params() != null) {
      for (Map.Entry<String, JsonNode> e : MAPPER.readTree(c.params()).properties()) {
        params.put(e.getKey(), e.getValue());
      }
    }
    List<Executor.Input> inputs = new ArrayList<>();
    for (int i = 0; i < c.docs().size(); i++) {
      inputs.add(new Executor.Input(c.docs().get(i), i));
    }
    String[] expect = c.expect().split("\\s+", -1);
    if (expect[0].equals("error")) {
      try {
        List<JsonNode> rows =
            CompiledQuery.compile(c.query(), params)
                .withSearchPolicy(c.policy())
                .execute(inputs, NOW);
        fail("expected error " + expect[1] + " but got rows " + rows);
      } catch (QueryException e) {
        assertThat(e.code()).as(e.getMessage()).isEqualTo(expect[1].equals("-") ? "" : expect[1]);
        if (expect.length > 2 && expect[2].startsWith("@")) {
          assertThat(e.start())
              .as(e.getMessage())
              .isEqualTo(Integer.parseInt(expect[2].substring(1)));
        }
        if (!c.rows().isEmpty()) {
          assertThat(e.getMessage()).contains(c.rows());
        }
      }
      return;
    }
    List<JsonNode> rows =
        CompiledQuery.compile(c.query(), params).withSearchPolicy(c.policy()).execute(inputs, NOW);
    JsonNode want = MAPPER.readTree(c.rows());
    List<JsonNode> expected = new ArrayList<>();
    want.forEach(expected::add);
    if (expect.length > 1 && expect[1].equals("unordered")) {
      assertThat(rows).as(c.query()).containsExactlyInAnyOrderElementsOf(expected);
    } else {
      assertThat(MAPPER.valueToTree(rows).toString())
          .as(c.query())
          .isEqualTo(MAPPER.valueToTree(expected).toString());
    }
  }
}
