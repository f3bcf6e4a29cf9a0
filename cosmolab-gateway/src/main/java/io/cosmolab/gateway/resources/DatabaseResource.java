package io.cosmolab.gateway.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.Database;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.gateway.wire.FeedPost;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code /dbs[/{db}]}: create (with optional shared throughput), read, list, query, delete. */
final class DatabaseResource {
  private final CosmosEngine engine;
  private final Resolver resolver;

  DatabaseResource(CosmosEngine engine, Resolver resolver) {
    this.engine = engine;
    this.resolver = resolver;
  }

  WireResponse feed(WireRequest request) {
    switch (request.method()) {
      case "GET" -> {
        return Responses.pagedFeed(request, "", "Databases", all());
      }
      case "POST" -> {
        if (FeedPost.isQuery(request)) {
          List<JsonNode> rows =
              MetadataQuery.run(Requests.queryText(request), all(), engine.clock().instant());
          return Responses.pagedFeed(request, "", "Databases", rows);
        }
        ObjectNode body = Requests.object(request);
        JsonNode id = body.get("id");
        if (id == null || !id.isTextual()) {
          throw CosmosError.BAD_REQUEST.exception("a database needs a string 'id'");
        }
        Database db =
            engine.createDatabase(id.textValue(), Requests.throughput(request, engine.limits()));
        return Responses.resource(201, ResourceJson.database(db), Map.of());
      }
      default -> {
        throw Protocol.methodNotAllowed(request);
      }
    }
  }

  WireResponse item(WireRequest request) {
    Database db = resolver.database(request.path());
    switch (request.method()) {
      case "GET" -> {
        return Responses.resource(200, ResourceJson.database(db), Map.of());
      }
      case "DELETE" -> {
        engine.deleteDatabase(db.id());
        return WireResponse.empty(204, Map.of());
      }
      default -> {
        throw Protocol.methodNotAllowed(request);
      }
    }
  }

  private List<ObjectNode> all() {
    List<ObjectNode> out = new ArrayList<>();
    for (Database d : engine.databases()) {
      out.add(ResourceJson.database(d));
    }
    out.sort(Responses.BY_ID);
    return out;
  }
}
