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
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code /dbs/{db}/colls[/{coll}]}: create with a {@code Hash} or {@code MultiHash} key (and
 * optional dedicated throughput), read, list, query, replace (time to live), delete.
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
        return Responses.feed(db.rid(), "DocumentCollections", all(db), Map.of());
      }
      case "POST" -> {
        if (Protocol.isQuery(request)) {
          List<JsonNode> rows =
              MetadataQuery.run(Requests.queryText(request), all(db), engine.clock().instant());
          return Responses.feed(db.rid(), "DocumentCollections", rows, Map.of());
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
        ContainerSettings.of(
                id.textValue(), PartitionKeyDefinition.fromJson(body.get("partitionKey")))
            .withThroughput(Requests.throughput(request))
            .withDefaultTimeToLive(ttl(body))
            .withChangeFeedRetentionMinutes(changeFeedRetention(body))
            .withIndexingPolicy(
                body.hasNonNull("indexingPolicy")
                    ? IndexingPolicy.fromJson(body.get("indexingPolicy"))
                    : null);
    Container c = db.createContainer(settings);
    return Responses.resource(201, ResourceJson.container(c), Map.of());
  }

  WireResponse item(WireRequest request) {
    Container c = resolver.container(request.path());
    switch (request.method()) {
      case "GET" -> {
        return Responses.resource(200, ResourceJson.container(c), ownerHeaders(c));
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
   * A replace may change the default time to live. The partition key can never change (as on the
   * service); a different indexing policy is refused, since cosmolab does not re-index in place.
   */
  private static WireResponse replace(WireRequest request, Container c) {
    ObjectNode body = Requests.object(request);
    if (!c.id().equals(body.path("id").asText())) {
      throw CosmosError.BAD_REQUEST.exception(
          "the body's id '%s' differs from the container '%s'", body.path("id").asText(), c.id());
    }
    if (body.hasNonNull("partitionKey")
        && !PartitionKeyDefinition.fromJson(body.get("partitionKey")).equals(c.partitionKey())) {
      throw CosmosError.BAD_REQUEST.exception(
          "Partition key paths can't be changed: container '%s' has %s; a new key needs a new"
              + " container and a migration",
          c.id(), c.partitionKey().toJson());
    }
    if (body.hasNonNull("indexingPolicy")
        && !IndexingPolicy.fromJson(body.get("indexingPolicy")).equals(c.indexingPolicy())) {
      throw CosmosError.NOT_SUPPORTED.exception(
          "changing the indexing policy of an existing container is not supported by cosmolab;"
              + " create the container with the policy you need");
    }
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
    h.put(io.cosmolab.gateway.wire.Headers.CONTENT_PATH, c.database().rid());
    h.put(
        io.cosmolab.gateway.wire.Headers.ALT_CONTENT_PATH,
        Responses.altPath("dbs/" + c.database().id()));
    return h;
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
    return out;
  }
}
