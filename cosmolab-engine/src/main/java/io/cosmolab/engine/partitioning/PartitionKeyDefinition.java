package io.cosmolab.engine.partitioning;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.limits.Limits;
import java.util.ArrayList;
import java.util.List;

/**
 * A container's partition key: its paths, its kind and its hash version. The version is always
 * explicit, because a definition without one is hashed with V1 by both SDKs ({@code
 * gateway-protocol.md} §4.1).
 *
 * @param paths the key paths, e.g. {@code /tenantId} or {@code /address/city}
 * @param kind {@link PartitionKind#HASH} (one path) or {@link PartitionKind#MULTI_HASH} (2–3)
 * @param version 1 or 2; {@code MultiHash} requires 2
 * @param systemKey the key of a container created without one under an API version before
 *     2018-12-31 ({@link #legacy}): its path is {@code /_partitionKey}, and a document without that
 *     property has the empty key {@code []} (EPK ""), which the SDKs send for {@code
 *     PartitionKey.NONE} on such a container (azure-cosmos {@code
 *     PartitionKeyDefinition.getNonePartitionKeyValue})
 */
public record PartitionKeyDefinition(
    List<String> paths, PartitionKind kind, int version, boolean systemKey) {

  /** The path of a system key. */
  public static final String SYSTEM_KEY_PATH = "/_partitionKey";

  /** A definition the user chose. */
  public PartitionKeyDefinition(List<String> paths, PartitionKind kind, int version) {
    this(paths, kind, version, false);
  }

  /**
   * The key the service gives a container created without one under an API version before
   * 2018-12-31: {@code {"paths": ["/_partitionKey"], "kind": "Hash", "systemKey": true}}, hashed
   * with V1 as the containers of that time are [A: the version such a container reports is not
   * documented].
   */
  public static PartitionKeyDefinition legacy() {
    return new PartitionKeyDefinition(List.of(SYSTEM_KEY_PATH), PartitionKind.HASH, 1, true);
  }

  public PartitionKeyDefinition {
    paths = List.copyOf(paths);
    if (paths.isEmpty()) {
      throw CosmosError.BAD_REQUEST.exception(
          "a container needs a partition key with at least one path, e.g. \"/tenantId\"");
    }
    for (String path : paths) {
      segmentsOf(path); // validates
    }
    if (version != 1 && version != 2) {
      throw CosmosError.BAD_REQUEST.exception(
          "partition key version must be 1 or 2, was %d", version);
    }
    if (kind == PartitionKind.HASH && paths.size() != 1) {
      throw CosmosError.BAD_REQUEST.exception(
          "a \"Hash\" partition key has exactly one path, got %d %s; use \"MultiHash\" for a"
              + " hierarchical key",
          paths.size(), paths);
    }
    if (kind == PartitionKind.MULTI_HASH) {
      // one path is allowed: the service accepts a single-level MultiHash key
      if (paths.size() > Limits.MAX_HIERARCHY_LEVELS) {
        throw CosmosError.BAD_REQUEST.exception(
            "a \"MultiHash\" (hierarchical) partition key has 1 to %d paths, got %d %s",
            Limits.MAX_HIERARCHY_LEVELS, paths.size(), paths);
      }
      if (version != 2) {
        throw CosmosError.BAD_REQUEST.exception(
            "a \"MultiHash\" partition key requires version 2, was %d", version);
      }
    }
    if (paths.stream().distinct().count() != paths.size()) {
      throw CosmosError.BAD_REQUEST.exception("partition key paths repeat a path: %s", paths);
    }
  }

  /** A single-path V2 key (large partition keys), what the portal creates. */
  public static PartitionKeyDefinition hash(String path) {
    return new PartitionKeyDefinition(List.of(path), PartitionKind.HASH, 2);
  }

  /** A hierarchical key of 2 or 3 paths. */
  public static PartitionKeyDefinition hierarchical(String... paths) {
    return new PartitionKeyDefinition(List.of(paths), PartitionKind.MULTI_HASH, 2);
  }

  /**
   * Parses the REST form {@code {"paths": [...], "kind": "Hash", "version": 2}}. The version may be
   * {@code 2}, {@code "2"} or {@code "V2"}. Without one a {@code Hash} key is version 1, as on the
   * service: the Java SDK's emulator tests create {@code new PartitionKeyDefinition()} with a path
   * and no version and expect the V1 hash ("Hello World" at {@code 05C1C5D58F13B008...}, three
   * ranges split at {@code 05C1D5AB55AB54} and {@code 05C1E5AB55AB54}), and "Create containers with
   * large partition key" has SDK users ask for V2. The Java and JavaScript SDKs send no version
   * unless asked, so their containers are V1; the portal's are V2. A {@code MultiHash} key exists
   * only in version 2. Stated from then on.
   */
  public static PartitionKeyDefinition fromJson(JsonNode json) {
    if (json == null || !json.isObject()) {
      throw CosmosError.BAD_REQUEST.exception(
          "partitionKey must be an object like {\"paths\":[\"/tenantId\"],\"kind\":\"Hash\"}");
    }
    JsonNode pathsNode = json.get("paths");
    if (pathsNode == null || !pathsNode.isArray()) {
      throw CosmosError.BAD_REQUEST.exception("partitionKey.paths must be an array of paths");
    }
    List<String> paths = new ArrayList<>();
    for (JsonNode p : pathsNode) {
      if (!p.isTextual()) {
        throw CosmosError.BAD_REQUEST.exception("partitionKey.paths holds a non-string: %s", p);
      }
      paths.add(p.textValue());
    }
    JsonNode kindNode = json.get("kind");
    PartitionKind kind =
        kindNode == null || kindNode.isNull()
            ? (paths.size() > 1 ? PartitionKind.MULTI_HASH : PartitionKind.HASH)
            : PartitionKind.fromWireName(kindNode.asText());
    JsonNode system = json.get("systemKey");
    return new PartitionKeyDefinition(
        paths,
        kind,
        parseVersion(json.get("version"), kind == PartitionKind.MULTI_HASH ? 2 : 1),
        system != null && system.asBoolean(false));
  }

  private static int parseVersion(JsonNode node, int absent) {
    if (node == null || node.isNull()) {
      return absent;
    }
    String text = node.asText().trim();
    if (text.startsWith("V") || text.startsWith("v")) {
      text = text.substring(1);
    }
    return switch (text) {
      case "1" -> 1;
      case "2" -> 2;
      default ->
          throw CosmosError.BAD_REQUEST.exception(
              "partitionKey.version must be 1 or 2 (or \"V1\"/\"V2\"), was %s", node);
    };
  }

  /** The REST form, always with a numeric version. */
  public ObjectNode toJson() {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    paths.forEach(node.putArray("paths")::add);
    node.put("kind", kind.wireName());
    node.put("version", version);
    if (systemKey) {
      node.put("systemKey", true);
    }
    return node;
  }

  public boolean isHierarchical() {
    return kind == PartitionKind.MULTI_HASH;
  }

  /**
   * The largest partition key value in UTF-8 bytes: 2,048 whatever the version. Hash V1 reads only
   * the first 100 characters of a longer string and accepts it [D] LPK ("If there are multiple
   * partition keys that have the same first 101 bytes, then those logical partitions are considered
   * as the same logical partition"), so such keys share a logical partition ({@link
   * EffectivePartitionKey}). It does not refuse them: the Java SDK's change feed processor names
   * its EPK-based leases with ids past 101 bytes, in lease containers its users create as V1.
   */
  public int maxKeyBytes() {
    return Limits.MAX_PARTITION_KEY_BYTES;
  }

  /**
   * The partition key value of a document: the value at each path, undefined where the document has
   * none.
   *
   * <p>(an object or an array at a path is undefined too, as the service files it).
   */
  public PartitionKeyValue extract(JsonNode document) {
    if (systemKey && (document == null || !document.has("_partitionKey"))) {
      return new PartitionKeyValue(List.of()); // the empty key, PartitionKey.NONE
    }
    List<PartitionKeyComponent> components = new ArrayList<>(paths.size());
    for (String path : paths) {
      JsonNode node = document;
      for (String segment : segmentsOf(path)) {
        node = node == null || !node.isObject() ? null : node.get(segment);
      }
      // An object or array at the path is no key value: the service files such a document under
      // the undefined key, as if the property were absent (issue 14; [A] beyond that report)
      components.add(
          PartitionKeyComponent.fromJson(node != null && node.isContainerNode() ? null : node));
    }
    return new PartitionKeyValue(components);
  }

  /**
   * The property name a key path goes by where the service names key values by property, as a
   * delete's {@code metadata.partitionKey} in the change feed does: its last segment ({@code
   * /tenantId} → tenantId, {@code /address/city} → city). [A: the service's name for a nested path
   * was not found]
   */
  public static String propertyNameOf(String path) {
    List<String> segments = segmentsOf(path);
    return segments.get(segments.size() - 1);
  }

  /** The segments of a path: {@code /address/city} → [address, city]. */
  public static List<String> segmentsOf(String path) {
    if (path == null || path.length() < 2 || path.charAt(0) != '/') {
      throw CosmosError.BAD_REQUEST.exception(
          "partition key path '%s' is invalid: it must start with '/' and name a property, e.g."
              + " \"/tenantId\" or \"/address/city\"",
          path);
    }
    List<String> segments = new ArrayList<>(2);
    int i = 1;
    while (i <= path.length()) {
      if (i < path.length() && path.charAt(i) == '"') {
        int end = path.indexOf('"', i + 1);
        if (end < 0 || (end + 1 < path.length() && path.charAt(end + 1) != '/')) {
          throw CosmosError.BAD_REQUEST.exception(
              "partition key path '%s' has an unterminated quoted segment", path);
        }
        segments.add(path.substring(i + 1, end));
        i = end + 2;
        continue;
      }
      int end = path.indexOf('/', i);
      if (end < 0) {
        end = path.length();
      }
      String segment = path.substring(i, end);
      if (segment.isEmpty() || segment.contains("*") || segment.contains("[")) {
        throw CosmosError.BAD_REQUEST.exception(
            "partition key path '%s' is invalid: segment '%s' must be a property name (no empty"
                + " segments, '*' or '[')",
            path, segment);
      }
      segments.add(segment);
      i = end + 1;
    }
    return segments;
  }
}
