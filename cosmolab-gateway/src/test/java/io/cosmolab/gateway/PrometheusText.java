package io.cosmolab.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A Prometheus text exposition parsed by the Prometheus project's own parser: the official Python
 * client's {@code text_string_to_metric_families} (Debian's python3-prometheus-client), which fails
 * on any line that is not valid exposition. No Java parser of the text format is published. Missing
 * locally, the tests that need it are skipped; on CI (where {@code .ci/run} installs it) they fail
 * instead.
 */
final class PrometheusText {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path PYTHON = Path.of("/usr/bin/python3");
  private static final String SCRIPT =
      """
      import sys, json
      from prometheus_client.parser import text_string_to_metric_families
      for f in text_string_to_metric_families(sys.stdin.read()):
          for s in f.samples:
              print(json.dumps({'family': f.name, 'type': f.type, 'name': s.name,
                                'labels': s.labels, 'value': s.value}))
      """;

  /** One sample. */
  record Sample(
      String family, String type, String name, Map<String, String> labels, double value) {}

  private final List<Sample> samples;

  private PrometheusText(List<Sample> samples) {
    this.samples = samples;
  }

  /** Skips the test when the parser is missing, unless on CI. */
  static void assumeParser() {
    boolean present = Files.isExecutable(PYTHON) && run("import prometheus_client", "") != null;
    if (!present && System.getenv("CI") == null) {
      Assumptions.abort("python3-prometheus-client is not installed (apt-get install it)");
    }
  }

  static PrometheusText parse(String exposition) {
    String out = run(SCRIPT, exposition);
    if (out == null) {
      throw new AssertionError("the Prometheus parser refused the exposition:\n" + exposition);
    }
    List<Sample> samples = new ArrayList<>();
    try {
      for (String line : out.split("\n", -1)) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode n = JSON.readTree(line);
        Map<String, String> labels = new HashMap<>();
        n.get("labels").properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
        samples.add(
            new Sample(
                n.get("family").asText(),
                n.get("type").asText(),
                n.get("name").asText(),
                labels,
                n.get("value").asDouble()));
      }
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return new PrometheusText(samples);
  }

  /** stdout, or null when python failed (its stderr goes to the test's). */
  private static String run(String script, String stdin) {
    try {
      Process p =
          new ProcessBuilder(PYTHON.toString(), "-c", script)
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
      p.getOutputStream().close();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return null;
      }
      return p.exitValue() == 0 ? out : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  List<Sample> samples() {
    return samples;
  }

  /** The samples named {@code name} whose labels include {@code labels} (name, value, ...). */
  List<Sample> find(String name, String... labels) {
    List<Sample> out = new ArrayList<>();
    for (Sample s : samples) {
      if (!s.name().equals(name)) {
        continue;
      }
      boolean match = true;
      for (int i = 0; i < labels.length; i += 2) {
        match &= labels[i + 1].equals(s.labels().get(labels[i]));
      }
      if (match) {
        out.add(s);
      }
    }
    return out;
  }

  /** The value of the one sample that matches. */
  double value(String name, String... labels) {
    List<Sample> found = find(name, labels);
    if (found.size() != 1) {
      throw new AssertionError(
          "expected one sample " + name + " " + List.of(labels) + ", found " + found);
    }
    return found.get(0).value();
  }

  /** The type of the family a sample name belongs to. */
  String typeOf(String sampleName) {
    for (Sample s : samples) {
      if (s.name().equals(sampleName)) {
        return s.type();
      }
    }
    return null;
  }
}
