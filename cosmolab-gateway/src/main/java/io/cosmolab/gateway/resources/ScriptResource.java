package io.cosmolab.gateway.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.script.ScriptKind;
import io.cosmolab.engine.script.Scripts;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.util.List;
import java.util.Map;

/**
 * {@code .../sprocs}, {@code .../triggers}, {@code .../udfs}: the scripts as resources (create,
 * read, list, query, replace, delete). Running a stored procedure ({@code POST .../sprocs/{id}}) is
 * refused with a message saying cosmolab does not execute JavaScript.
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
        return Responses.feed(c.rid(), FEED_KEYS.get(kind), scripts.list(kind), Map.of());
      }
      case "POST" -> {
        if (Protocol.isQuery(request)) {
          List<JsonNode> rows =
              MetadataQuery.run(
                  Requests.queryText(request), scripts.list(kind), engine.clock().instant());
          return Responses.feed(c.rid(), FEED_KEYS.get(kind), rows, Map.of());
        }
        return Responses.resource(201, scripts.create(kind, Requests.object(request)), Map.of());
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
          scripts.read(kind, id); // 404 first, if it does not exist
          throw CosmosError.NOT_SUPPORTED.exception(
              "executing stored procedure '%s' is not supported by cosmolab: it stores scripts"
                  + " but does not run JavaScript. Use a transactional batch for multi-document"
                  + " atomic writes.",
              id);
        }
        throw Protocol.methodNotAllowed(request);
      }
      default -> {
        throw Protocol.methodNotAllowed(request);
      }
    }
  }
}
