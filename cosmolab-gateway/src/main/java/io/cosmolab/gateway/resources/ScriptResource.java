package io.cosmolab.gateway.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.ScriptResponse;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.script.ScriptKind;
import io.cosmolab.engine.script.Scripts;
import io.cosmolab.gateway.wire.FeedPost;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.util.List;
import java.util.Map;

/**
 * {@code .../sprocs}, {@code .../triggers}, {@code .../udfs}: the scripts as resources (create,
 * read, list, query, replace, delete), and running a stored procedure ({@code POST
 * .../sprocs/{id}}) on the engine's script runtime.
 */
final class ScriptResource {
  private static final Map<ScriptKind, String> FEED_KEYS =
      Map.of(
          ScriptKind.STORED_PROCEDURE, "StoredProcedures",
          ScriptKind.TRIGGER, "Triggers",
          ScriptKind.USER_DEFINED_FUNCTION, "UserDefinedFunctions");

  private final CosmosEngine engine;

  ScriptResource(CosmosEngine engine) {
    this.engine = engine;
  }

  WireResponse feed(WireRequest request, Container c, ScriptKind kind) {
    Scripts scripts = c.scripts();
    switch (request.method()) {
      case "GET" -> {
        return Responses.pagedFeed(request, c.rid(), FEED_KEYS.get(kind), scripts.list(kind));
      }
      case "POST" -> {
        // decided as the resource-token check decides it (FeedPost), so the two cannot disagree
        return switch (FeedPost.of(request)) {
          case QUERY -> {
            List<JsonNode> rows =
                MetadataQuery.run(
                    Requests.queryText(request), scripts.list(kind), engine.clock().instant());
            yield Responses.pagedFeed(request, c.rid(), FEED_KEYS.get(kind), rows);
          }
          case WRITE ->
              Responses.resource(201, scripts.create(kind, Requests.object(request)), Map.of());
          case BATCH, QUERY_PLAN ->
              throw CosmosError.BAD_REQUEST.exception(
                  "%s %s: a batch or a query plan is for documents, not for %s",
                  request.method(), request.path(), FEED_KEYS.get(kind));
        };
      }
      default -> {
        throw Protocol.methodNotAllowed(request);
      }
    }
  }

  /** The id a path segment names: an id, or (as the SDKs' self links do) a script's RID. */
  private static String idOf(Scripts scripts, ScriptKind kind, String segment) {
    for (ObjectNode s : scripts.list(kind)) {
      if (s.path("id").asText().equals(segment)) {
        return segment;
      }
    }
    for (ObjectNode s : scripts.list(kind)) {
      if (s.path("_rid").asText().equals(segment)) {
        return s.path("id").asText();
      }
    }
    return segment; // unknown: the operation answers 404 naming it
  }

  /**
   * Runs a stored procedure: the body is the JSON array of its arguments, the partition key header
   * names the logical partition it runs in; the response body is what it set, its charge and (when
   * asked) its log in the headers.
   */
  private static WireResponse execute(WireRequest request, Container c, String id) {
    JsonNode params = request.body().length == 0 ? null : Requests.json(request);
    if (params != null && !params.isArray() && !params.isNull()) {
      JsonNode single = params;
      params = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode().add(single);
    }
    boolean logging = "true".equalsIgnoreCase(request.header(Headers.SCRIPT_ENABLE_LOGGING));
    ScriptResponse r =
        c.executeStoredProcedure(
            Requests.requiredPartitionKey(request),
            id,
            params,
            logging,
            Requests.scriptHeaders(request));
    Map<String, String> h =
        Responses.containerHeaders(c, r.requestCharge(), r.partitionKeyRangeId());
    h.put(Headers.SESSION_TOKEN, Responses.sessionToken(r.partitionKeyRangeId(), r.lsn()));
    if (r.log() != null) {
      h.put(
          Headers.SCRIPT_LOG_RESULTS,
          java.net.URLEncoder.encode(r.log(), java.nio.charset.StandardCharsets.UTF_8)
              .replace("+", "%20"));
    }
    return r.body() == null
        ? WireResponse.json(200, com.fasterxml.jackson.databind.node.TextNode.valueOf(""), h)
        : WireResponse.json(200, r.body(), h);
  }

  WireResponse item(WireRequest request, Container c, ScriptKind kind) {
    Scripts scripts = c.scripts();
    String id = idOf(scripts, kind, request.path().segment(5));
    switch (request.method()) {
      case "GET" -> {
        return Responses.resource(200, scripts.read(kind, id), Map.of());
      }
      case "PUT" -> {
        ObjectNode body = Requests.object(request);
        return Responses.resource(200, scripts.replace(kind, id, body), Map.of());
      }
      case "DELETE" -> {
        scripts.delete(kind, id);
        return WireResponse.empty(204, Map.of());
      }
      case "POST" -> {
        if (kind == ScriptKind.STORED_PROCEDURE) {
          return execute(request, c, id);
        }
        throw Protocol.methodNotAllowed(request);
      }
      default -> {
        throw Protocol.methodNotAllowed(request);
      }
    }
  }
}
