package io.cosmolab.engine.alerts;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a rules file with Jackson's streaming parser (JSON, or YAML through the same interface), so
 * every error names the line of the value at fault.
 */
final class RulesFile {
  private RulesFile() {}

  /** One scalar of a rule entry, where it was. */
  private record Value(String text, JsonToken token, int line) {}

  static AlertRules load(Path file) {
    String name = file.toString().toLowerCase(Locale.ROOT);
    boolean yaml = name.endsWith(".yaml") || name.endsWith(".yml");
    if (!yaml && !name.endsWith(".json")) {
      throw new AlertRulesException(
          file + ": a rules file must end in .yaml, .yml or .json, to say its format", null);
    }
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AlertRulesException(file + ": cannot read the rules file: " + e.getMessage(), e);
    }
    return parse(text, file.toString(), yaml);
  }

  static AlertRules parse(String text, String source, boolean yaml) {
    JsonFactory factory = yaml ? yamlFactory(source) : new JsonFactory();
    AlertRules rules = AlertRules.defaults();
    try (JsonParser p = factory.createParser(text)) {
      JsonToken t = p.nextToken();
      if (t == null) {
        return rules; // an empty file changes nothing
      }
      if (t != JsonToken.START_OBJECT) {
        throw fail(source, line(p), "", "the file must map rule names to their settings");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String ruleName = p.currentName();
        int ruleLine = line(p);
        AlertRule rule = AlertRule.byId(ruleName);
        if (rule == null) {
          throw fail(source, ruleLine, ruleName, "no such rule; the rules are " + ruleIds());
        }
        if (p.nextToken() != JsonToken.START_OBJECT) {
          throw fail(source, line(p), ruleName, "must be a map of settings, e.g. {enabled: false}");
        }
        Map<String, Value> fields = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String field = p.currentName();
          int fieldLine = line(p);
          JsonToken v = p.nextToken();
          if (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY) {
            throw fail(source, fieldLine, ruleName + "." + field, "must be a single value");
          }
          fields.put(field, new Value(p.getText(), v, fieldLine));
        }
        rules = apply(rules, rule, fields, source, ruleLine);
      }
      return rules;
    } catch (JsonProcessingException e) {
      int l = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
      throw new AlertRulesException(
          source
              + ":"
              + l
              + ": not valid "
              + (yaml ? "YAML" : "JSON")
              + ": "
              + e.getOriginalMessage(),
          e);
    } catch (IOException e) {
      throw new AlertRulesException(source + ": cannot read the rules: " + e.getMessage(), e);
    }
  }

  private static JsonFactory yamlFactory(String source) {
    try {
      return new com.fasterxml.jackson.dataformat.yaml.YAMLFactory();
    } catch (NoClassDefFoundError e) {
      throw new AlertRulesException(
          source
              + ": YAML rules need jackson-dataformat-yaml on the class path (the CLI has it);"
              + " or write the rules as JSON",
          null);
    }
  }

  private static int line(JsonParser p) {
    return p.currentLocation().getLineNr();
  }

  private static String ruleIds() {
    StringBuilder b = new StringBuilder();
    for (AlertRule r : AlertRule.values()) {
      b.append(b.length() == 0 ? "" : ", ").append(r.id());
    }
    return b.toString();
  }

  private static AlertRulesException fail(String source, int line, String field, String what) {
    return new AlertRulesException(
        source + ":" + line + ": " + (field.isEmpty() ? "" : field + ": ") + what, null);
  }

  /** The rule's defaults with the file's fields applied; a wrong field fails at its line. */
  private static AlertRules apply(
      AlertRules rules, AlertRule rule, Map<String, Value> f, String source, int ruleLine) {
    Fields in = new Fields(rule.id(), f, source);
    try {
      AlertRules out =
          switch (rule) {
            case HOT_PARTITION -> {
              AlertRules.HotPartition d = rules.hotPartition();
              in.allow("enabled", "threshold", "for");
              yield rules.withHotPartition(
                  new AlertRules.HotPartition(
                      in.bool("enabled", d.enabled()),
                      in.number("threshold", d.threshold()),
                      in.duration("for", d.duration())));
            }
            case LARGE_LOGICAL_PARTITION -> {
              AlertRules.LargeLogicalPartition d = rules.largeLogicalPartition();
              in.allow("enabled", "bytes");
              yield rules.withLargeLogicalPartition(
                  new AlertRules.LargeLogicalPartition(
                      in.bool("enabled", d.enabled()), in.bytes("bytes", d.bytes())));
            }
            case THROTTLE_RATE -> {
              AlertRules.ThrottleRate d = rules.throttleRate();
              in.allow("enabled", "threshold", "window", "min-requests");
              yield rules.withThrottleRate(
                  new AlertRules.ThrottleRate(
                      in.bool("enabled", d.enabled()),
                      in.number("threshold", d.threshold()),
                      in.duration("window", d.window()),
                      in.count("min-requests", d.minRequests())));
            }
            case CROSS_PARTITION_QUERIES -> {
              AlertRules.CrossPartitionQueries d = rules.crossPartitionQueries();
              in.allow("enabled", "threshold", "window", "min-queries");
              yield rules.withCrossPartitionQueries(
                  new AlertRules.CrossPartitionQueries(
                      in.bool("enabled", d.enabled()),
                      in.number("threshold", d.threshold()),
                      in.duration("window", d.window()),
                      in.count("min-queries", d.minQueries())));
            }
            case QUERY_FAN_OUT -> {
              AlertRules.QueryFanOut d = rules.queryFanOut();
              in.allow("enabled", "ratio", "window", "min-retrieved");
              yield rules.withQueryFanOut(
                  new AlertRules.QueryFanOut(
                      in.bool("enabled", d.enabled()),
                      in.number("ratio", d.ratio()),
                      in.duration("window", d.window()),
                      in.count("min-retrieved", d.minRetrieved())));
            }
            case GONE_RANGE_REQUESTS -> {
              AlertRules.GoneRange d = rules.goneRange();
              in.allow("enabled", "min-requests", "min-seconds", "window", "after");
              yield rules.withGoneRange(
                  new AlertRules.GoneRange(
                      in.bool("enabled", d.enabled()),
                      in.count("min-requests", d.minRequests()),
                      in.count("min-seconds", d.minSeconds()),
                      in.duration("window", d.window()),
                      in.duration("after", d.after())));
            }
          };
      return out;
    } catch (IllegalArgumentException e) {
      // a range check of the records: "hot-partition.threshold must be ..."
      String msg = e.getMessage();
      int line = ruleLine;
      String field = rule.id();
      for (Map.Entry<String, Value> v : f.entrySet()) {
        if (msg.startsWith(rule.id() + "." + v.getKey() + " ")) {
          line = v.getValue().line();
          field = rule.id() + "." + v.getKey();
          msg = msg.substring(field.length() + 1);
        }
      }
      throw fail(source, line, field, msg);
    }
  }

  /** The fields of one rule entry, read by type. */
  private static final class Fields {
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)");
    private static final Pattern SIZE =
        Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(B|KB|KiB|MB|MiB|GB|GiB|TB|TiB)?");

    private final String rule;
    private final Map<String, Value> fields;
    private final String source;

    Fields(String rule, Map<String, Value> fields, String source) {
      this.rule = rule;
      this.fields = fields;
      this.source = source;
    }

    void allow(String... names) {
      for (Map.Entry<String, Value> e : fields.entrySet()) {
        if (!java.util.Arrays.asList(names).contains(e.getKey())) {
          throw fail(
              source,
              e.getValue().line(),
              rule + "." + e.getKey(),
              "no such setting; " + rule + " takes " + String.join(", ", names));
        }
      }
    }

    private AlertRulesException wrong(String name, Value v, String expected) {
      return fail(
          source, v.line(), rule + "." + name, "must be " + expected + ", was '" + v.text() + "'");
    }

    boolean bool(String name, boolean dflt) {
      Value v = fields.get(name);
      if (v == null) {
        return dflt;
      }
      if (v.token() == JsonToken.VALUE_TRUE || v.token() == JsonToken.VALUE_FALSE) {
        return v.token() == JsonToken.VALUE_TRUE;
      }
      throw wrong(name, v, "true or false");
    }

    double number(String name, double dflt) {
      Value v = fields.get(name);
      if (v == null) {
        return dflt;
      }
      String t = v.text().strip();
      try {
        if (t.endsWith("%")) {
          return Double.parseDouble(t.substring(0, t.length() - 1).strip()) / 100;
        }
        return Double.parseDouble(t);
      } catch (NumberFormatException e) {
        throw wrong(name, v, "a number (0.8, or 80%)");
      }
    }

    long count(String name, long dflt) {
      Value v = fields.get(name);
      if (v == null) {
        return dflt;
      }
      try {
        long n = Long.parseLong(v.text().strip());
        if (n >= 0) {
          return n;
        }
      } catch (NumberFormatException e) {
        // falls through to the message
      }
      throw wrong(name, v, "a whole number >= 0");
    }

    Duration duration(String name, Duration dflt) {
      Value v = fields.get(name);
      if (v == null) {
        return dflt;
      }
      String t = v.text().strip();
      if (v.token() == JsonToken.VALUE_NUMBER_INT) {
        return Duration.ofSeconds(Long.parseLong(t));
      }
      Matcher m = DURATION.matcher(t);
      if (m.matches()) {
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
          case "ms" -> Duration.ofMillis(n);
          case "s" -> Duration.ofSeconds(n);
          case "m" -> Duration.ofMinutes(n);
          default -> Duration.ofHours(n);
        };
      }
      try {
        return Duration.parse(t);
      } catch (java.time.format.DateTimeParseException e) {
        throw wrong(name, v, "a duration (300, 300s, 5m, 1h or PT5M)");
      }
    }

    long bytes(String name, long dflt) {
      Value v = fields.get(name);
      if (v == null) {
        return dflt;
      }
      Matcher m = SIZE.matcher(v.text().strip());
      if (!m.matches()) {
        throw wrong(
            name, v, "a size (17179869184, 16GiB or 16GB; GB is taken as GiB, as the limits are)");
      }
      double n = Double.parseDouble(m.group(1));
      String unit = m.group(2) == null ? "B" : m.group(2);
      long mult =
          switch (unit) {
            case "KB", "KiB" -> 1L << 10;
            case "MB", "MiB" -> 1L << 20;
            case "GB", "GiB" -> 1L << 30;
            case "TB", "TiB" -> 1L << 40;
            default -> 1;
          };
      return (long) (n * mult);
    }
  }
}
