package io.cosmolab.advisor.workload;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.cosmolab.engine.throughput.Throughput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * A container's workload at peak, as a YAML file:
 *
 * <pre>
 * throughput: 30000          # manual RU/s; or autoscale: 40000
 * documents: 500000000       # documents at the horizon (optional)
 * operations:                # at the busiest second
 *   - type: create           # create, upsert, replace, patch, delete or read (point reads)
 *     rate: 2000             # per second
 *   - type: read
 *     rate: 12000
 * </pre>
 *
 * Every operation addresses documents by their key, so its load follows the data's distribution
 * over partitions. [I] Queries and per-operation key distributions are not modelled yet.
 *
 * @param throughput manual RU/s, or null
 * @param autoscale autoscale maximum RU/s, or null
 * @param documents documents at the horizon, or null
 * @param operations the operations at peak
 */
public record Workload(
    @JsonProperty("throughput") Double throughput,
    @JsonProperty("autoscale") Double autoscale,
    @JsonProperty("documents") Long documents,
    @JsonProperty("operations") List<Operation> operations) {

  public Workload {
    if (throughput != null && autoscale != null) {
      throw new IllegalArgumentException("give either throughput or autoscale, not both");
    }
    if ((throughput != null && throughput <= 0) || (autoscale != null && autoscale <= 0)) {
      throw new IllegalArgumentException("throughput must be a positive number of RU/s");
    }
    if (documents != null && documents < 0) {
      throw new IllegalArgumentException("documents must be 0 or more, was " + documents);
    }
    operations = operations == null ? List.of() : List.copyOf(operations);
  }

  /** One kind of operation and its rate at peak. */
  public record Operation(@JsonProperty("type") Type type, @JsonProperty("rate") double rate) {
    public Operation {
      if (type == null) {
        throw new IllegalArgumentException(
            "an operation needs a type: create, upsert, replace, patch, delete or read");
      }
      if (!(rate > 0)) {
        throw new IllegalArgumentException(
            "the rate of a "
                + type.name().toLowerCase(Locale.ROOT)
                + " must be positive per second, was "
                + rate);
      }
    }
  }

  /** What an operation does. */
  public enum Type {
    CREATE,
    UPSERT,
    REPLACE,
    PATCH,
    DELETE,
    READ;

    /** The type a YAML value names, in any case. */
    @com.fasterxml.jackson.annotation.JsonCreator
    public static Type parse(String text) {
      for (Type t : values()) {
        if (t.name().equalsIgnoreCase(text.strip())) {
          return t;
        }
      }
      throw new IllegalArgumentException(
          "operation type '"
              + text
              + "' is not one of create, upsert, replace, patch, delete, read");
    }
  }

  /** The throughput it states, or null. */
  public Throughput throughputOrNull() {
    if (throughput != null) {
      return Throughput.manual(throughput);
    }
    return autoscale != null ? Throughput.autoscale(autoscale) : null;
  }

  /**
   * Reads a workload file.
   *
   * @throws IllegalArgumentException naming the file, line and field of what is wrong
   */
  public static Workload read(Path file) {
    YAMLMapper yaml = new YAMLMapper();
    yaml.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    yaml.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
    try {
      Workload w = yaml.readValue(Files.newBufferedReader(file), Workload.class);
      if (w == null) {
        throw new IllegalArgumentException(file + ": the workload file is empty");
      }
      return w;
    } catch (JsonMappingException e) {
      String field = e.getPath().isEmpty() ? "" : " (field " + path(e.getPath()) + ")";
      Throwable cause = e.getCause() instanceof IllegalArgumentException ? e.getCause() : e;
      String message = cause == e ? e.getOriginalMessage() : cause.getMessage();
      int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
      if (e instanceof com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException u) {
        // the parser is past the value by now; the name's own line is what the user needs
        line = lineOf(file, u.getPropertyName(), line);
        message = "unknown field '" + u.getPropertyName() + "'; known: " + u.getKnownPropertyIds();
      }
      throw new IllegalArgumentException(
          String.format("%s, line %d%s: %s", file, line, field, firstLine(message)), e);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          String.format(
              "%s, line %d: not valid YAML: %s",
              file,
              e.getLocation() == null ? 0 : e.getLocation().getLineNr(),
              firstLine(e.getOriginalMessage())),
          e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** The first line that defines {@code name} as a key, or {@code fallback}. */
  private static int lineOf(Path file, String name, int fallback) {
    try {
      List<String> lines = Files.readAllLines(file);
      java.util.regex.Pattern key =
          java.util.regex.Pattern.compile(
              "^\\s*(-\\s*)?" + java.util.regex.Pattern.quote(name) + "\\s*:");
      for (int i = 0; i < lines.size(); i++) {
        if (key.matcher(lines.get(i)).find()) {
          return i + 1;
        }
      }
    } catch (IOException e) {
      // keep the parser's line
    }
    return fallback;
  }

  private static String path(List<JsonMappingException.Reference> refs) {
    StringBuilder b = new StringBuilder();
    for (JsonMappingException.Reference r : refs) {
      if (r.getFieldName() != null) {
        b.append(b.length() == 0 ? "" : ".").append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        b.append('[').append(r.getIndex()).append(']');
      }
    }
    return b.toString();
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
