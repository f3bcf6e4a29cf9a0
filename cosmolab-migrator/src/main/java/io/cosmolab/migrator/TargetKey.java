package io.cosmolab.migrator;

import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyDefinition;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.cosmos.models.PartitionKind;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.cosmolab.advisor.candidate.Candidate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The new partition key, in the advisor's forms ({@link Candidate#parse}): {@code /a}, {@code
 * /a>/b[>/c]} (hierarchical), {@code /a+/b} (synthetic) and {@code /a*N} (suffix buckets). For the
 * last two the migrator computes a new property (named as the advisor names it, e.g. {@code a_b} or
 * {@code a_bucket}) and writes it into every target document; nothing else of a document changes,
 * except a path filled by {@link OnMissing#defaultValue} for a single or hierarchical key.
 */
public final class TargetKey {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String text;
  private final Candidate candidate;
  private final List<String> targetPaths;
  private final String computedProperty;
  private final List<String[]> segments = new ArrayList<>();

  private TargetKey(String text, Candidate candidate) {
    this.text = text;
    this.candidate = candidate;
    this.targetPaths = List.copyOf(candidate.definition().paths());
    boolean computed =
        candidate.kind() == Candidate.Kind.SYNTHETIC || candidate.kind() == Candidate.Kind.BUCKETED;
    this.computedProperty = computed ? targetPaths.get(0).substring(1) : null;
    for (String p : candidate.paths()) {
      segments.add(
          io.cosmolab.engine.partitioning.PartitionKeyDefinition.segmentsOf(p)
              .toArray(String[]::new));
    }
  }

  /** The key as the advisor sees it. */
  public Candidate candidate() {
    return candidate;
  }

  /**
   * Parses a key as users write it.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public static TargetKey parse(String text) {
    return new TargetKey(text.strip(), Candidate.parse(text));
  }

  /** The key as the user wrote it. */
  public String text() {
    return text;
  }

  /** The source paths the key reads. */
  public List<String> sourcePaths() {
    return candidate.paths();
  }

  /** The target container's partition-key paths. */
  public List<String> targetPaths() {
    return targetPaths;
  }

  /** The property the migrator computes and writes (synthetic, bucketed), or null. */
  public String computedPropertyOrNull() {
    return computedProperty;
  }

  /** The target container's partition-key definition for the SDK (version 2 hashing). */
  public PartitionKeyDefinition sdkDefinition() {
    PartitionKeyDefinition d = new PartitionKeyDefinition();
    d.setPaths(new ArrayList<>(targetPaths));
    d.setKind(targetPaths.size() > 1 ? PartitionKind.MULTI_HASH : PartitionKind.HASH);
    d.setVersion(PartitionKeyDefinitionVersion.V2);
    return d;
  }

  /** Whether {@code document} has a scalar at every path the key reads. */
  public boolean hasAllPaths(JsonNode document) {
    return candidate.keyOf(document) != null;
  }

  /**
   * The document to write to the target: {@code source} (not modified) with missing paths filled
   * when {@code onMissing} gives a default, and the computed property set; null when the document
   * lacks a path and {@code onMissing} skips it.
   *
   * @throws IllegalStateException when it lacks a path and {@code onMissing} refuses
   */
  public ObjectNode transform(ObjectNode source, OnMissing onMissing) {
    ObjectNode keyed = null;
    if (candidate.keyOf(source) == null) {
      keyed =
          switch (onMissing.mode()) {
            case SKIP -> null;
            case FAIL ->
                throw new IllegalStateException(
                    "document " + source.path("id").asText() + " lacks a path of " + text);
            case DEFAULT -> filled(source, onMissing.value());
          };
      if (keyed == null) {
        return null;
      }
    }
    if (computedProperty == null) {
      return keyed != null ? keyed : source.deepCopy();
    }
    if (keyed == null) {
      keyed = source;
    }
    Candidate.Key key = candidate.keyOf(keyed);
    ObjectNode out = source.deepCopy();
    out.set(computedProperty, values(key).get(0));
    return out;
  }

  /** The target document's key, read from a document {@link #transform} produced. */
  public String keyTextOf(ObjectNode target) {
    if (computedProperty != null) {
      return "[" + target.get(computedProperty) + "]";
    }
    Candidate.Key key = candidate.keyOf(target);
    if (key == null) {
      throw new IllegalStateException("target document lacks a key: " + target.path("id"));
    }
    return key.text();
  }

  /**
   * The values a document holds at the source paths the key reads, as a JSON array, {@code {}}
   * where it holds none (or an object or an array): what a query of the source for one new logical
   * partition filters on ({@link #sourceQuery}).
   */
  public ArrayNode sourceValuesOf(JsonNode document) {
    ArrayNode out = JSON.createArrayNode();
    for (String[] path : segments) {
      JsonNode node = document;
      for (String s : path) {
        node = node == null || !node.isObject() ? null : node.get(s);
      }
      if (node == null || node.isContainerNode()) {
        out.addObject();
      } else {
        out.add(node);
      }
    }
    return out;
  }

  /**
   * A query of the source that returns at least every document whose new key is {@code keyText}, or
   * null when none can be written: for {@code /a} and {@code /a>/b} the key's values are the
   * source's; for {@code /a+/b} and {@code /a*N} they come from {@code sourceValues} (a document's
   * {@link #sourceValuesOf}), null when unknown. It may return more (a string and a number that
   * print alike make one synthetic key; a filled default matches a missing path): the caller keeps
   * the documents whose {@link #transform} has that key.
   */
  public SqlQuerySpec sourceQuery(String keyText, JsonNode sourceValues, OnMissing onMissing) {
    JsonNode values;
    if (computedProperty == null) {
      try {
        values = JSON.readTree(keyText);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    } else {
      values = sourceValues;
    }
    if (values == null || !values.isArray() || values.size() != segments.size()) {
      return null;
    }
    String filler = onMissing.mode() == OnMissing.Mode.DEFAULT ? onMissing.value() : null;
    StringBuilder where = new StringBuilder();
    List<SqlParameter> params = new ArrayList<>();
    for (int i = 0; i < segments.size(); i++) {
      StringBuilder ref = new StringBuilder("c");
      for (String s : segments.get(i)) {
        ref.append('[').append(TextNode.valueOf(s)).append(']');
      }
      JsonNode v = values.get(i);
      List<String> any = new ArrayList<>();
      if (!v.isObject()) {
        String name = "@v" + i;
        params.add(new SqlParameter(name, v));
        any.add(ref + " = " + name);
        if (computedProperty != null && v.isNumber()) {
          params.add(new SqlParameter(name + "s", v.asText()));
          any.add(ref + " = " + name + "s");
        } else if (computedProperty != null && v.isTextual() && number(v.textValue()) != null) {
          params.add(new SqlParameter(name + "n", number(v.textValue())));
          any.add(ref + " = " + name + "n");
        }
      }
      if (v.isObject() || (filler != null && v.isTextual() && v.textValue().equals(filler))) {
        any.add("NOT IS_DEFINED(" + ref + ")");
        any.add("IS_OBJECT(" + ref + ")");
        any.add("IS_ARRAY(" + ref + ")");
      }
      where.append(i == 0 ? "" : " AND ").append('(').append(String.join(" OR ", any)).append(')');
    }
    return new SqlQuerySpec("SELECT * FROM c WHERE " + where, params);
  }

  private static Double number(String text) {
    try {
      return Double.valueOf(text);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The SDK partition key of a document {@link #transform} produced. */
  public PartitionKey sdkKeyOf(ObjectNode target) {
    return sdkKeyOfText(keyTextOf(target));
  }

  /** The SDK partition key from a key's JSON-array text, as {@link #keyTextOf} returns it. */
  public static PartitionKey sdkKeyOfText(String keyText) {
    try {
      return io.cosmolab.advisor.input.SdkForms.partitionKey(JSON.readTree(keyText));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<JsonNode> values(Candidate.Key key) {
    try {
      List<JsonNode> out = new ArrayList<>();
      JSON.readTree(key.text()).forEach(out::add);
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private ObjectNode filled(ObjectNode source, String value) {
    ObjectNode out = source.deepCopy();
    for (String[] path : segments) {
      ObjectNode node = out;
      for (int i = 0; i < path.length - 1; i++) {
        JsonNode next = node.get(path[i]);
        if (!(next instanceof ObjectNode)) {
          next = node.putObject(path[i]);
        }
        node = (ObjectNode) next;
      }
      JsonNode leaf = node.get(path[path.length - 1]);
      if (leaf == null || leaf.isContainerNode()) {
        node.put(path[path.length - 1], value);
      }
    }
    return out;
  }
}
