package io.cosmolab.advisor.input;

import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyBuilder;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.cosmos.models.PartitionKind;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import java.io.IOException;
import java.util.Base64;
import java.util.Locale;

/**
 * The engine's forms of partition keys, key definitions and EPK ranges, and the official Java
 * SDK's, one into the other: for the lab tools that talk to an endpoint through the SDK (the
 * migrator, the live rehearsal) and compute where a key lives with the engine's EPK code.
 */
public final class SdkForms {
  private static final ObjectMapper JSON = new ObjectMapper();

  private SdkForms() {}

  /**
   * The EPK range (upper-case hex, as the engine writes EPKs) of a feed range the SDK gave ({@link
   * FeedRange#toString}: base64url of {@code {"Range":{"min":"…","max":"…"}}}, which the SDK does
   * not document as a contract [A]).
   *
   * @throws IllegalStateException when the text is not of that form
   */
  public static EpkRange rangeOf(FeedRange r) {
    String text = r.toString();
    try {
      JsonNode range = JSON.readTree(Base64.getUrlDecoder().decode(text)).path("Range");
      JsonNode min = range.path("min");
      JsonNode max = range.path("max");
      if (!min.isTextual() || !max.isTextual()) {
        throw new IllegalStateException("no Range.min and Range.max in " + range);
      }
      return new EpkRange(
          min.textValue().toUpperCase(Locale.ROOT), max.textValue().toUpperCase(Locale.ROOT));
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalStateException(
          "cannot read the feed range "
              + text
              + " (the SDK's form is base64url of {\"Range\":{\"min\":…,\"max\":…}})",
          e);
    }
  }

  /** The SDK's partition key for a key given as its JSON array ({@code ["a", 1]}). */
  @SuppressWarnings("deprecation") // addNullValue: a JSON null in a key is still a value
  public static PartitionKey partitionKey(JsonNode array) {
    PartitionKeyBuilder b = new PartitionKeyBuilder();
    for (JsonNode v : array) {
      if (v.isTextual()) {
        b.add(v.textValue());
      } else if (v.isNumber()) {
        b.add(v.doubleValue());
      } else if (v.isBoolean()) {
        b.add(v.booleanValue());
      } else {
        b.addNullValue();
      }
    }
    return b.build();
  }

  /** The SDK's key definition for the engine's. */
  public static com.azure.cosmos.models.PartitionKeyDefinition definition(
      PartitionKeyDefinition d) {
    com.azure.cosmos.models.PartitionKeyDefinition out =
        new com.azure.cosmos.models.PartitionKeyDefinition();
    out.setPaths(d.paths());
    out.setKind(d.isHierarchical() ? PartitionKind.MULTI_HASH : PartitionKind.HASH);
    out.setVersion(
        d.version() == 1 ? PartitionKeyDefinitionVersion.V1 : PartitionKeyDefinitionVersion.V2);
    return out;
  }

  /** The engine's key definition for the SDK's (to hash keys as the service does). */
  public static PartitionKeyDefinition definition(
      com.azure.cosmos.models.PartitionKeyDefinition d) {
    com.fasterxml.jackson.databind.node.ObjectNode json = JSON.createObjectNode();
    d.getPaths().forEach(json.putArray("paths")::add);
    json.put("kind", d.getKind().toString());
    json.put("version", d.getVersion() == PartitionKeyDefinitionVersion.V2 ? 2 : 1);
    return PartitionKeyDefinition.fromJson(json);
  }

  /**
   * The SDK's indexing policy for the service's JSON form, read as the engine reads it (so the
   * service's implied {@code /"_etag"/?} exclusion is there too): mode, automatic, included and
   * excluded paths, composite indexes.
   */
  public static com.azure.cosmos.models.IndexingPolicy indexingPolicy(JsonNode json) {
    io.cosmolab.engine.index.IndexingPolicy p =
        io.cosmolab.engine.index.IndexingPolicy.fromJson(json);
    com.azure.cosmos.models.IndexingPolicy out = new com.azure.cosmos.models.IndexingPolicy();
    out.setIndexingMode(
        com.azure.cosmos.models.IndexingMode.valueOf(p.mode().toUpperCase(Locale.ROOT)));
    out.setAutomatic(json.path("automatic").asBoolean(true));
    out.setIncludedPaths(
        p.includedPaths().stream().map(com.azure.cosmos.models.IncludedPath::new).toList());
    out.setExcludedPaths(
        p.excludedPaths().stream().map(com.azure.cosmos.models.ExcludedPath::new).toList());
    java.util.List<java.util.List<com.azure.cosmos.models.CompositePath>> composites =
        new java.util.ArrayList<>();
    for (java.util.List<io.cosmolab.engine.index.IndexingPolicy.CompositePath> c :
        p.compositeIndexes()) {
      java.util.List<com.azure.cosmos.models.CompositePath> index = new java.util.ArrayList<>();
      for (io.cosmolab.engine.index.IndexingPolicy.CompositePath cp : c) {
        com.azure.cosmos.models.CompositePath sdk = new com.azure.cosmos.models.CompositePath();
        sdk.setPath(cp.path());
        sdk.setOrder(
            cp.ascending()
                ? com.azure.cosmos.models.CompositePathSortOrder.ASCENDING
                : com.azure.cosmos.models.CompositePathSortOrder.DESCENDING);
        index.add(sdk);
      }
      composites.add(index);
    }
    out.setCompositeIndexes(composites);
    return out;
  }
}
