package io.cosmolab.advisor.candidate;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import java.util.ArrayList;
import java.util.List;

/**
 * A partition key to weigh.
 *
 * @param paths the document paths it reads
 * @param kind how they make a key: one path, a synthetic concatenation stored in a new property, or
 *     a hierarchical (MultiHash) key with one level per path
 */
public record Candidate(List<String> paths, Kind kind, int buckets) {

  /** How a candidate's paths make a key. */
  public enum Kind {
    SINGLE,
    SYNTHETIC,
    HIERARCHICAL,
    /** One path plus a suffix 0..B-1 from the document id: spreads writes, multiplies reads. */
    BUCKETED
  }

  public Candidate(List<String> paths, Kind kind) {
    this(paths, kind, 0);
  }

  public Candidate {
    paths = List.copyOf(paths);
    for (String p : paths) {
      PartitionKeyDefinition.segmentsOf(p); // fails naming a malformed path
    }
    if (paths.isEmpty() || (kind == Kind.SINGLE && paths.size() != 1)) {
      throw new IllegalArgumentException("a " + kind + " candidate needs paths, got " + paths);
    }
    if (kind == Kind.BUCKETED && (paths.size() != 1 || buckets < 2)) {
      throw new IllegalArgumentException(
          "a bucketed key is one path with 2 or more buckets, got " + paths + " x" + buckets);
    }
    if (kind == Kind.HIERARCHICAL && (paths.size() < 2 || paths.size() > 3)) {
      throw new IllegalArgumentException("a hierarchical key has 2 or 3 levels, got " + paths);
    }
  }

  public static Candidate single(String path) {
    return new Candidate(List.of(path), Kind.SINGLE);
  }

  public static Candidate synthetic(String... paths) {
    return new Candidate(List.of(paths), Kind.SYNTHETIC);
  }

  public static Candidate hierarchical(String... paths) {
    return new Candidate(List.of(paths), Kind.HIERARCHICAL);
  }

  /** {@code path} with a suffix from 0 to {@code buckets - 1}, chosen by the document id. */
  public static Candidate bucketed(String path, int buckets) {
    return new Candidate(List.of(path), Kind.BUCKETED, buckets);
  }

  private static final java.util.regex.Pattern BUCKETS =
      java.util.regex.Pattern.compile("\\d{1,9}");

  /**
   * A candidate as users write it: {@code /a}, {@code /a+/b} (synthetic), {@code /a>/b[>/c]}
   * (hierarchical), {@code /a*10} (a with a suffix of 10 buckets).
   *
   * @throws IllegalArgumentException naming what is wrong with {@code text}
   */
  public static Candidate parse(String text) {
    String key = text.strip();
    try {
      if (key.contains("*")) {
        String[] parts = split(key, "\\*");
        if (parts.length != 2) {
          throw new IllegalArgumentException("one * only");
        }
        if (!BUCKETS.matcher(parts[1]).matches()) {
          throw new IllegalArgumentException("B, the number of buckets, must be a whole number");
        }
        return bucketed(parts[0], Integer.parseInt(parts[1]));
      }
      if (key.contains(">")) {
        return hierarchical(split(key, ">"));
      }
      if (key.contains("+")) {
        return synthetic(split(key, "\\+"));
      }
      return single(key);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "candidate key '"
              + text
              + "' is not /a, /a+/b (synthetic), /a>/b[>/c] (hierarchical) or /a*B (B buckets): "
              + e.getMessage(),
          e);
    }
  }

  private static String[] split(String key, String separator) {
    String[] parts = key.split(separator, -1);
    for (int i = 0; i < parts.length; i++) {
      parts[i] = parts[i].strip();
    }
    return parts;
  }

  /** {@code /tenantId}, {@code /tenantId+/userId} (synthetic), {@code /tenantId/>/userId}. */
  public String name() {
    return switch (kind) {
      case SINGLE -> paths.get(0);
      case SYNTHETIC -> String.join("+", paths);
      case HIERARCHICAL -> String.join(" > ", paths);
      case BUCKETED -> paths.get(0) + "+bucket(" + buckets + ")";
    };
  }

  /** The container definition this key would have (version 2 hashing, as new containers use). */
  public PartitionKeyDefinition definition() {
    return switch (kind) {
      case SINGLE -> PartitionKeyDefinition.hash(paths.get(0));
      case SYNTHETIC -> PartitionKeyDefinition.hash("/" + String.join("_", names()));
      case HIERARCHICAL -> PartitionKeyDefinition.hierarchical(paths.toArray(String[]::new));
      case BUCKETED -> PartitionKeyDefinition.hash("/" + names().get(0) + "_bucket");
    };
  }

  /** A document's key: the value to hash, and its text for counting and display. */
  public record Key(PartitionKeyValue value, String text) {
    /** The 64-bit hash of {@link #text()} that {@link Reader#hashOf} computes without it. */
    public long hash() {
      return KeyHash.of(text);
    }
  }

  /**
   * Reads this candidate's key from documents, with the paths split once: one reader per stream (it
   * is not thread-safe).
   */
  public Reader reader() {
    return new Reader(this);
  }

  /** Reads a candidate's key from documents. */
  public static final class Reader {
    private final Candidate candidate;
    private final String[][] segments;

    private Reader(Candidate candidate) {
      this.candidate = candidate;
      this.segments = new String[candidate.paths().size()][];
      for (int p = 0; p < segments.length; p++) {
        segments[p] =
            PartitionKeyDefinition.segmentsOf(candidate.paths().get(p)).toArray(String[]::new);
      }
    }

    /**
     * The 64-bit hash of the text of the key a document would get ({@link Key#hash()}), without
     * building the key; 0 when the document cannot supply one.
     */
    public long hashOf(JsonNode document) {
      long h = KeyHash.START;
      Kind kind = candidate.kind();
      boolean joined = kind == Kind.SYNTHETIC || kind == Kind.BUCKETED;
      h = KeyHash.chr(h, '[');
      if (joined) {
        h = KeyHash.chr(h, '"');
      }
      for (int p = 0; p < segments.length; p++) {
        JsonNode v = scalarAt(document, segments[p]);
        if (v == null) {
          return 0;
        }
        if (p > 0) {
          h = KeyHash.chr(h, joined ? '-' : ',');
        }
        if (joined) { // the parts' plain text, escaped as one JSON string
          h = KeyHash.escaped(h, v.isTextual() ? v.textValue() : v.asText());
        } else if (v.isTextual()) {
          h = KeyHash.quoted(h, v.textValue());
        } else if (v.isNumber()) {
          h = KeyHash.str(h, v.asText());
        } else if (v.isBoolean()) {
          h = KeyHash.str(h, v.booleanValue() ? "true" : "false");
        } else {
          h = KeyHash.str(h, "null");
        }
      }
      if (kind == Kind.BUCKETED) {
        h = KeyHash.str(KeyHash.chr(h, '-'), Integer.toString(candidate.bucketOf(document)));
      }
      if (joined) {
        h = KeyHash.chr(h, '"');
      }
      return KeyHash.finish(KeyHash.chr(h, ']'));
    }

    /** The key a document would get, or null: see {@link Candidate#keyOf}. */
    public Key keyOf(JsonNode document) {
      JsonNode[] values = new JsonNode[segments.length];
      for (int p = 0; p < values.length; p++) {
        values[p] = scalarAt(document, segments[p]);
        if (values[p] == null) {
          return null;
        }
      }
      return candidate.keyFrom(values, document);
    }

    /** The scalar at a path (split into segments), or null when missing, an object or an array. */
    public static JsonNode scalarAt(JsonNode document, String[] segments) {
      JsonNode node = document;
      for (String segment : segments) {
        node = node.get(segment);
        if (node == null) {
          return null;
        }
      }
      return node.isContainerNode() ? null : node;
    }
  }

  private int bucketOf(JsonNode document) {
    JsonNode id = document.get("id");
    return Math.floorMod(id == null ? 0 : id.asText().hashCode(), buckets);
  }

  /**
   * The key a document would get, or null when it cannot supply one (a path is missing, or holds an
   * object or array). The text is the key's JSON array form, e.g. {@code ["acme","u1"]}.
   */
  public Key keyOf(JsonNode document) {
    return reader().keyOf(document);
  }

  private Key keyFrom(JsonNode[] values, JsonNode document) {
    if (kind == Kind.BUCKETED) {
      int bucket = bucketOf(document);
      String base = values[0].isTextual() ? values[0].textValue() : values[0].asText();
      String joined = base + "-" + bucket;
      return new Key(PartitionKeyValue.of(joined), "[" + quoted(joined) + "]");
    }
    if (kind == Kind.SYNTHETIC) {
      StringBuilder b = new StringBuilder(64);
      for (int p = 0; p < values.length; p++) {
        JsonNode v = values[p];
        b.append(p == 0 ? "" : "-").append(v.isTextual() ? v.textValue() : v.asText());
      }
      String joined = b.toString();
      return new Key(PartitionKeyValue.of(joined), "[" + quoted(joined) + "]");
    }
    StringBuilder text = new StringBuilder(64).append('[');
    Object[] plain = new Object[values.length];
    for (int p = 0; p < values.length; p++) {
      JsonNode v = values[p];
      if (p > 0) {
        text.append(',');
      }
      if (v.isTextual()) {
        plain[p] = v.textValue();
        appendQuoted(text, v.textValue());
      } else if (v.isNumber()) {
        plain[p] = v.doubleValue();
        text.append(v.asText());
      } else if (v.isBoolean()) {
        plain[p] = v.booleanValue();
        text.append(v.booleanValue());
      } else {
        plain[p] = null;
        text.append("null");
      }
    }
    return new Key(PartitionKeyValue.of(plain), text.append(']').toString());
  }

  private static String quoted(String s) {
    return appendQuoted(new StringBuilder(s.length() + 2), s).toString();
  }

  /** Appends {@code s} as a JSON string, escaping only quotes and backslashes (as keys print). */
  private static StringBuilder appendQuoted(StringBuilder b, String s) {
    b.append('"');
    if (s.indexOf('"') < 0 && s.indexOf('\\') < 0) {
      return b.append(s).append('"');
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\');
      }
      b.append(c);
    }
    return b.append('"');
  }

  private List<String> names() {
    List<String> out = new ArrayList<>();
    for (String p : paths) {
      out.add(p.substring(1).replace('/', '_'));
    }
    return out;
  }
}
