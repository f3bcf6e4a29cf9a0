package io.cosmolab.gateway.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.Database;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.index.IndexingPolicy;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.gateway.wire.FeedPost;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code /dbs/{db}/colls[/{coll}]}: create with a {@code Hash} or {@code MultiHash} key (and
 * optional dedicated throughput), read, list, query, replace, delete.
 *
 * <p>Every property of the body is applied, kept and echoed as sent, or refused naming it: the
 * unique keys are enforced (and fixed at creation); the indexing policy is applied, on replace too;
 * {@code conflictResolutionPolicy}, {@code geospatialConfig}, {@code analyticalStorageTtl}, {@code
 * partitionKey.systemKey}, the vector and full-text policies, and the indexing policy's {@code
 * automatic}, spatial, vector and full-text index entries are kept and echoed as sent, without
 * effect here [A]; computed properties are kept, checked as the service checks them, and read by
 * queries ({@code io.cosmolab.query.ComputedProperties}); client encryption and materialized views
 * are refused with 501.
 */
final class ContainerResource {
  private final CosmosEngine engine;
  private final Resolver resolver;

  ContainerResource(CosmosEngine engine, Resolver resolver) {
    this.engine = engine;
    this.resolver = resolver;
  }

  WireResponse feed(WireRequest request) {
    Database db = resolver.database(request.path());
    switch (request.method()) {
      case "GET" -> {
        return Responses.pagedFeed(request, db.rid(), "DocumentCollections", all(db));
      }
      case "POST" -> {
        if (FeedPost.isQuery(request)) {
          List<JsonNode> rows =
              MetadataQuery.run(Requests.queryText(request), all(db), engine.clock().instant());
          return Responses.pagedFeed(request, db.rid(), "DocumentCollections", rows);
        }
        return create(request, db);
      }
      default -> {
        throw Protocol.methodNotAllowed(request);
      }
    }
  }

  private WireResponse create(WireRequest request, Database db) {
    ObjectNode body = Requests.object(request);
    JsonNode id = body.get("id");
    if (id == null || !id.isTextual()) {
      throw CosmosError.BAD_REQUEST.exception("a container needs a string 'id'");
    }
    ContainerSettings settings =
        ContainerSettings.of(id.textValue(), partitionKey(request, body))
            .withThroughput(Requests.throughput(request, engine.limits()))
            .withDefaultTimeToLive(ttl(body))
            .withChangeFeedRetentionMinutes(changeFeedRetention(body))
            .withIndexingPolicy(
                body.hasNonNull("indexingPolicy")
                    ? IndexingPolicy.fromJson(body.get("indexingPolicy"))
                    : null)
            .withUniqueKeys(uniqueKeys(body))
            .withStoredProperties(storedProperties(body));
    Container c = db.createContainer(settings);
    return Responses.resource(201, ResourceJson.container(c), Map.of());
  }

  WireResponse item(WireRequest request) {
    Container c = resolver.container(request.path());
    switch (request.method()) {
      case "GET" -> {
        Map<String, String> h = ownerHeaders(c);
        if (request.flag(io.cosmolab.gateway.wire.Headers.POPULATE_QUOTA_INFO)) {
          QuotaHeaders.put(h, c);
        }
        return Responses.resource(200, ResourceJson.container(c), h);
      }
      case "PUT" -> {
        return replace(request, c);
      }
      case "DELETE" -> {
        c.database().deleteContainer(c.id());
        return WireResponse.empty(204, Map.of());
      }
      default -> {
        throw Protocol.methodNotAllowed(request);
      }
    }
  }

  /**
   * The partition key a create asks for. Before API version 2018-12-31 a container could be created
   * without one (the REST reference's "partitionKey ... required from 2018-12-31"); the service
   * then gives it a system key, {@code /_partitionKey} ({@link PartitionKeyDefinition#legacy}),
   * under which a document without that property is addressed by the empty key ({@code
   * PartitionKey.NONE} in the SDKs). From that version on, the key is required.
   */
  private static PartitionKeyDefinition partitionKey(WireRequest request, ObjectNode body) {
    JsonNode key = body.get("partitionKey");
    String version = request.header("x-ms-version");
    boolean none = key == null || key.isNull();
    if (none && version != null && version.compareTo(FIRST_VERSION_REQUIRING_A_KEY) < 0) {
      return PartitionKeyDefinition.legacy();
    }
    if (none) {
      throw CosmosError.BAD_REQUEST.exception(
          "a container needs a partitionKey such as {\"paths\": [\"/tenantId\"], \"kind\":"
              + " \"Hash\", \"version\": 2} (API version %s; only versions before %s could"
              + " create a container without one)",
          version, FIRST_VERSION_REQUIRING_A_KEY);
    }
    return PartitionKeyDefinition.fromJson(key);
  }

  /**
   * Whether a replace's partition key is the container's: the same paths and kind, and the same
   * version unless the body states none (a body built by hand often leaves it out).
   */
  private static boolean sameKey(JsonNode asked, PartitionKeyDefinition has) {
    PartitionKeyDefinition d = PartitionKeyDefinition.fromJson(asked);
    boolean versionStated = asked.hasNonNull("version");
    return d.paths().equals(has.paths())
        && d.kind() == has.kind()
        && (!versionStated || d.version() == has.version());
  }

  /** The API version from which a container must be created with a partition key. */
  private static final String FIRST_VERSION_REQUIRING_A_KEY = "2018-12-31";

  /**
   * A replace may change the default time to live, the change feed policy, the indexing policy
   * (applied at once: {@code x-ms-documentdb-collection-index-transformation-progress} says 100)
   * and the properties kept as sent. The partition key and the unique keys can never change, as on
   * the service.
   */
  private static WireResponse replace(WireRequest request, Container c) {
    ObjectNode body = Requests.object(request);
    if (!c.id().equals(body.path("id").asText())) {
      throw CosmosError.BAD_REQUEST.exception(
          "the body's id '%s' differs from the container '%s'", body.path("id").asText(), c.id());
    }
    if (body.hasNonNull("partitionKey") && !sameKey(body.get("partitionKey"), c.partitionKey())) {
      throw CosmosError.BAD_REQUEST.exception(
          "Partition key paths can't be changed: container '%s' has %s; a new key needs a new"
              + " container and a migration",
          c.id(), c.partitionKey().toJson());
    }
    if (body.has("uniqueKeyPolicy") && !uniqueKeys(body).equals(c.uniqueKeys())) {
      throw CosmosError.BAD_REQUEST.exception(
          "The unique key policy of container '%s' can't be changed: unique keys are set when a"
              + " container is created; a new policy needs a new container and a migration",
          c.id());
    }
    ObjectNode stored = storedProperties(body);
    if (body.hasNonNull("indexingPolicy")) {
      IndexingPolicy policy = IndexingPolicy.fromJson(body.get("indexingPolicy"));
      if (!policy.equals(c.indexingPolicy())) {
        c.setIndexingPolicy(policy);
      }
    }
    c.setStoredProperties(stored);
    c.setDefaultTimeToLive(ttl(body));
    if (body.has("changeFeedPolicy")) {
      c.setChangeFeedRetentionMinutes(changeFeedRetention(body));
    }
    return Responses.resource(200, ResourceJson.container(c), ownerHeaders(c));
  }

  /**
   * For a container itself, the content paths name its owner, the database: the Java SDK builds a
   * resource's alt link as the alt content path plus {@code /colls/<id>}.
   */
  private static Map<String, String> ownerHeaders(Container c) {
    Map<String, String> h = new java.util.LinkedHashMap<>();
    // indexing policy changes apply at once (ContainerIndex), so the transformation is done
    h.put("x-ms-documentdb-collection-index-transformation-progress", "100");
    h.put(io.cosmolab.gateway.wire.Headers.CONTENT_PATH, c.database().rid());
    h.put(
        io.cosmolab.gateway.wire.Headers.ALT_CONTENT_PATH,
        Responses.altPath("dbs/" + c.database().id()));
    return h;
  }

  /**
   * Container properties the gateway has no way to apply: refused rather than dropped. ({@code
   * ttlPropertyPath}, the .NET SDK's obsolete TimeToLivePropertyPath, takes a document's time to
   * live from another property; the service keeps it, cosmolab's expiry reads {@code ttl} only.)
   */
  private static final List<String> REFUSED =
      List.of("clientEncryptionPolicy", "materializedViewDefinition", "ttlPropertyPath");

  /** Properties kept and echoed as sent, at the top level of a container. */
  private static final List<String> STORED =
      List.of(
          "computedProperties",
          "conflictResolutionPolicy",
          "geospatialConfig",
          "analyticalStorageTtl",
          "vectorEmbeddingPolicy",
          "fullTextPolicy");

  /** Indexing policy entries kept and echoed as sent. */
  private static final List<String> STORED_INDEXING =
      List.of("automatic", "spatialIndexes", "vectorIndexes", "fullTextIndexes");

  /**
   * What the body asks to keep as sent: the properties above, {@code partitionKey.systemKey} and
   * the indexing policy's entries above ({@code {"partitionKey": {...}, "indexingPolicy": {...}}}
   * inside). Refuses a property cosmolab cannot apply.
   */
  static ObjectNode storedProperties(ObjectNode body) {
    for (String name : REFUSED) {
      if (body.hasNonNull(name) && !(body.get(name).isArray() && body.get(name).isEmpty())) {
        throw CosmosError.NOT_SUPPORTED.exception(
            "the container property '%s' is not supported by cosmolab yet; create the container"
                + " without it",
            name);
      }
    }
    ObjectNode out = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    for (String name : STORED) {
      if (body.has(name)) {
        out.set(name, body.get(name).deepCopy());
      }
    }
    // 400 for a computed property, vector or full-text policy the service refuses
    io.cosmolab.engine.StoredProperties.of(out);
    if (body.path("partitionKey").has("systemKey")) {
      out.putObject("partitionKey").set("systemKey", body.get("partitionKey").get("systemKey"));
    }
    JsonNode indexing = body.get("indexingPolicy");
    if (indexing != null && indexing.isObject()) {
      checkSpatialIndexes(indexing.get("spatialIndexes"), body.path("geospatialConfig"));
      ObjectNode kept = out.putObject("indexingPolicy");
      for (String name : STORED_INDEXING) {
        if (indexing.has(name)) {
          kept.set(name, indexing.get(name).deepCopy());
        }
      }
      if (kept.path("spatialIndexes").isArray()) {
        kept.set("spatialIndexes", withEverySpatialType(kept.get("spatialIndexes")));
      }
    }
    return out;
  }

  /**
   * A spatial index takes a {@code boundingBox} ({@code xmin}, {@code ymin}, {@code xmax}, {@code
   * ymax}, each min below its max) when the container's {@code geospatialConfig} is {@code
   * Geometry}, where it is required, and none when it is {@code Geography}, the default: 400 naming
   * both otherwise, as the service answers (the JavaScript SDK's spatialIndexBoundingBox tests).
   */
  private static void checkSpatialIndexes(JsonNode spatial, JsonNode geospatialConfig) {
    if (spatial == null || spatial.isNull()) {
      return;
    }
    if (!spatial.isArray()) {
      throw CosmosError.BAD_REQUEST.exception(
          "indexingPolicy.spatialIndexes must be an array, was %s", spatial.getNodeType());
    }
    boolean geometry = "Geometry".equals(geospatialConfig.path("type").asText("Geography"));
    for (JsonNode index : spatial) {
      String path = index.path("path").asText("?");
      JsonNode types = index.get("types");
      if (types == null || !types.isArray() || types.isEmpty()) {
        // the service's words (the .NET SDK's ContainerNegativeSpatialIndexTest)
        throw CosmosError.BAD_REQUEST.exception(
            "The spatial data types array cannot be empty. Assign at least one spatial type for"
                + " the 'types' array for the path %s",
            path);
      }
      for (JsonNode t : types) {
        if (!SPATIAL_TYPES.contains(t.asText())) {
          throw CosmosError.BAD_REQUEST.exception(
              "The spatial index on %s names the type %s; the types are %s",
              path, t, SPATIAL_TYPES);
        }
      }
      JsonNode box = index.get("boundingBox");
      boolean hasBox = box != null && !box.isNull();
      if (geometry && !hasBox) {
        throw CosmosError.BAD_REQUEST.exception(
            "The spatial index on %s needs a boundingBox: the container's geospatialConfig type is"
                + " Geometry",
            path);
      }
      if (!geometry && hasBox) {
        throw CosmosError.BAD_REQUEST.exception(
            "The spatial index on %s has a boundingBox, which only a Geometry container takes: the"
                + " container's geospatialConfig type is Geography",
            path);
      }
      if (hasBox) {
        for (String axis : List.of("x", "y")) {
          JsonNode min = box.get(axis + "min");
          JsonNode max = box.get(axis + "max");
          if (min == null
              || max == null
              || !min.isNumber()
              || !max.isNumber()
              || min.doubleValue() >= max.doubleValue()) {
            throw CosmosError.BAD_REQUEST.exception(
                "The boundingBox of the spatial index on %s needs numbers %smin < %smax, was %s",
                path, axis, axis, box);
          }
        }
      }
    }
  }

  /** The spatial types, all of which the service lists on every spatial index it returns. */
  private static final List<String> SPATIAL_TYPES =
      List.of("Point", "LineString", "Polygon", "MultiPolygon");

  /**
   * The spatial indexes as the service returns them: each with every spatial type, whichever it was
   * created with ({@code ContainerContractTest}: "All SpatialTypes are returned").
   */
  private static JsonNode withEverySpatialType(JsonNode spatial) {
    com.fasterxml.jackson.databind.node.ArrayNode out =
        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
    for (JsonNode index : spatial) {
      ObjectNode copy = ((ObjectNode) index).deepCopy();
      SPATIAL_TYPES.forEach(copy.putArray("types")::add);
      out.add(copy);
    }
    return out;
  }

  /** {@code uniqueKeyPolicy.uniqueKeys[].paths}, as lists of paths. */
  private static List<List<String>> uniqueKeys(ObjectNode body) {
    JsonNode policy = body.get("uniqueKeyPolicy");
    List<List<String>> out = new ArrayList<>();
    if (policy == null || policy.isNull()) {
      return out;
    }
    JsonNode keys = policy.get("uniqueKeys");
    if (!policy.isObject() || (keys != null && !keys.isNull() && !keys.isArray())) {
      throw CosmosError.BAD_REQUEST.exception(
          "uniqueKeyPolicy must be {\"uniqueKeys\": [{\"paths\": [\"/a\", ...]}, ...]}, was %s",
          policy);
    }
    if (keys == null || keys.isNull()) {
      return out;
    }
    for (JsonNode key : keys) {
      JsonNode paths = key.get("paths");
      if (paths == null || !paths.isArray()) {
        throw CosmosError.BAD_REQUEST.exception(
            "a unique key needs \"paths\": [\"/a\", ...], was %s", key);
      }
      List<String> list = new ArrayList<>();
      for (JsonNode p : paths) {
        list.add(p.isTextual() ? p.textValue() : null);
      }
      out.add(list);
    }
    return out;
  }

  /** {@code changeFeedPolicy.retentionDuration}, in minutes; null without a policy. */
  private static Integer changeFeedRetention(ObjectNode body) {
    JsonNode policy = body.get("changeFeedPolicy");
    if (policy == null || policy.isNull()) {
      return null;
    }
    JsonNode minutes = policy.get("retentionDuration");
    if (!policy.isObject()
        || minutes == null
        || !minutes.canConvertToInt()
        || minutes.intValue() < 0) {
      throw CosmosError.BAD_REQUEST.exception(
          "changeFeedPolicy must be {\"retentionDuration\": minutes} with 0 (latest version only) or"
              + " more minutes, was %s",
          policy);
    }
    return minutes.intValue();
  }

  private static Integer ttl(ObjectNode body) {
    JsonNode ttl = body.get("defaultTtl");
    if (ttl == null || ttl.isNull()) {
      return null;
    }
    if (!ttl.canConvertToInt()) {
      throw CosmosError.BAD_REQUEST.exception(
          "defaultTtl must be an integer (-1 or seconds), was %s", ttl);
    }
    return ttl.intValue();
  }

  private static List<ObjectNode> all(Database db) {
    List<ObjectNode> out = new ArrayList<>();
    for (Container c : db.containers()) {
      out.add(ResourceJson.container(c));
    }
    out.sort(Responses.BY_ID);
    return out;
  }
}
