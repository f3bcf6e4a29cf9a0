package io.cosmolab.gateway.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.Database;
import io.cosmolab.engine.Permission;
import io.cosmolab.engine.PermissionSettings;
import io.cosmolab.engine.Upserted;
import io.cosmolab.engine.User;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.gateway.auth.ResourceTokens;
import io.cosmolab.gateway.wire.FeedPost;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.ResourcePath;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code /dbs/{db}/users[/{user}]} and {@code .../users/{user}/permissions[/{perm}]}: create (and
 * upsert), read, list, query, replace, delete. Every answer that carries a permission carries a
 * resource token issued for it then ({@code _token}): a create, read, replace, list or query, as on
 * the service, valid for {@code x-ms-documentdb-expiry-seconds} (default one hour).
 */
final class UserResource {
  /** [S] REST reference, Create Permission: a token is valid for one hour unless overridden. */
  static final long DEFAULT_VALIDITY_SECONDS = 3600;

  /**
   * The shortest and longest validity a client may ask for. [A] The REST reference says at most
   * 18,000 s (five hours); the .NET SDK's reference says 24 hours; clients measured the service
   * accepting 600 s to 86,400 s and answering 400 outside (azure-sdk-for-js#10077,
   * azure-docs-sdk-dotnet#576). cosmolab follows the measurements.
   */
  static final long MIN_VALIDITY_SECONDS = 600;

  static final long MAX_VALIDITY_SECONDS = 86_400;

  private final CosmosEngine engine;
  private final Resolver resolver;
  private final ResourceTokens tokens;

  UserResource(CosmosEngine engine, Resolver resolver, ResourceTokens tokens) {
    this.engine = engine;
    this.resolver = resolver;
    this.tokens = tokens;
  }

  WireResponse users(WireRequest request) {
    Database db = resolver.database(request.path());
    if (request.path().isFeed()) {
      switch (request.method()) {
        case "GET" -> {
          return Responses.pagedFeed(request, db.rid(), "Users", allUsers(db));
        }
        case "POST" -> {
          if (FeedPost.isQuery(request)) {
            List<JsonNode> rows =
                MetadataQuery.run(
                    Requests.queryText(request), allUsers(db), engine.clock().instant());
            return Responses.pagedFeed(request, db.rid(), "Users", rows);
          }
          String id = idOf(Requests.object(request), "user");
          if (request.flag(Headers.IS_UPSERT)) {
            Upserted<User> u = db.upsertUser(id);
            return Responses.resource(
                u.created() ? 201 : 200, ResourceJson.user(u.resource()), Map.of());
          }
          return Responses.resource(201, ResourceJson.user(db.createUser(id)), Map.of());
        }
        default -> {
          throw Protocol.methodNotAllowed(request);
        }
      }
    }
    String ref = request.path().segment(3);
    switch (request.method()) {
      case "GET" -> {
        return Responses.resource(200, ResourceJson.user(user(db, ref)), Map.of());
      }
      case "PUT" -> {
        String newId = idOf(Requests.object(request), "user");
        User u = db.replaceUser(ref, newId, request.header(Headers.IF_MATCH));
        return Responses.resource(200, ResourceJson.user(u), Map.of());
      }
      case "DELETE" -> {
        db.deleteUser(ref, request.header(Headers.IF_MATCH));
        return WireResponse.empty(204, Map.of());
      }
      default -> {
        throw Protocol.methodNotAllowed(request);
      }
    }
  }

  WireResponse permissions(WireRequest request) {
    ResourcePath path = request.path();
    Database db = resolver.database(path);
    User u =
        db.findUser(path.segment(3))
            .orElseThrow(
                () ->
                    CosmosError.OWNER_NOT_FOUND.exception(
                        "Resource Not Found. Entity with the specified id does not exist in the"
                            + " system: user '%s' in database '%s'",
                        path.segment(3), db.id()));
    long validity = validitySeconds(request);
    if (path.isFeed()) {
      switch (request.method()) {
        case "GET" -> {
          return Responses.pagedFeed(request, u.rid(), "Permissions", allPermissions(u, validity));
        }
        case "POST" -> {
          if (FeedPost.isQuery(request)) {
            List<JsonNode> rows =
                MetadataQuery.run(
                    Requests.queryText(request),
                    allPermissions(u, validity),
                    engine.clock().instant());
            return Responses.pagedFeed(request, u.rid(), "Permissions", rows);
          }
          PermissionSettings settings = PermissionSettings.fromJson(Requests.object(request));
          if (request.flag(Headers.IS_UPSERT)) {
            Upserted<Permission> p = u.upsertPermission(settings);
            return Responses.resource(
                p.created() ? 201 : 200, json(p.resource(), validity), Map.of());
          }
          return Responses.resource(201, json(u.createPermission(settings), validity), Map.of());
        }
        default -> {
          throw Protocol.methodNotAllowed(request);
        }
      }
    }
    String ref = path.segment(5);
    switch (request.method()) {
      case "GET" -> {
        Permission p =
            u.findPermission(ref)
                .orElseThrow(
                    () ->
                        CosmosError.NOT_FOUND.exception(
                            "Resource Not Found. Entity with the specified id does not exist in"
                                + " the system: permission '%s' of user '%s'",
                            ref, u.id()));
        return Responses.resource(200, json(p, validity), Map.of());
      }
      case "PUT" -> {
        PermissionSettings settings = PermissionSettings.fromJson(Requests.object(request));
        Permission p = u.replacePermission(ref, settings, request.header(Headers.IF_MATCH));
        return Responses.resource(200, json(p, validity), Map.of());
      }
      case "DELETE" -> {
        u.deletePermission(ref, request.header(Headers.IF_MATCH));
        return WireResponse.empty(204, Map.of());
      }
      default -> {
        throw Protocol.methodNotAllowed(request);
      }
    }
  }

  private ObjectNode json(Permission p, long validity) {
    return ResourceJson.permission(p, tokens.issue(p, engine.clock().instant(), validity));
  }

  private static List<ObjectNode> allUsers(Database db) {
    List<ObjectNode> out = new ArrayList<>();
    for (User u : db.users()) {
      out.add(ResourceJson.user(u));
    }
    out.sort(Responses.BY_ID);
    return out;
  }

  private List<ObjectNode> allPermissions(User u, long validity) {
    List<ObjectNode> out = new ArrayList<>();
    for (Permission p : u.permissions()) {
      out.add(json(p, validity));
    }
    out.sort(Responses.BY_ID);
    return out;
  }

  private static User user(Database db, String ref) {
    return db.findUser(ref)
        .orElseThrow(
            () ->
                CosmosError.NOT_FOUND.exception(
                    "Resource Not Found. Entity with the specified id does not exist in the system:"
                        + " user '%s' in database '%s'",
                    ref, db.id()));
  }

  private static String idOf(ObjectNode body, String kind) {
    JsonNode id = body.get("id");
    if (id == null || !id.isTextual()) {
      throw CosmosError.BAD_REQUEST.exception("a %s needs a string 'id'", kind);
    }
    return id.textValue();
  }

  /** {@code x-ms-documentdb-expiry-seconds}: how long the tokens of this answer stay valid. */
  static long validitySeconds(WireRequest request) {
    String v = request.header(Headers.RESOURCE_TOKEN_EXPIRY);
    if (v == null || v.isBlank()) {
      return DEFAULT_VALIDITY_SECONDS;
    }
    long seconds;
    try {
      seconds = Long.parseLong(v.strip());
    } catch (NumberFormatException e) {
      seconds = -1;
    }
    if (seconds < MIN_VALIDITY_SECONDS || seconds > MAX_VALIDITY_SECONDS) {
      throw CosmosError.BAD_REQUEST.exception(
          "Value '%s' specified for the header '%s' is invalid: a resource token's validity is"
              + " %d to %d seconds (10 minutes to 24 hours)",
          v, Headers.RESOURCE_TOKEN_EXPIRY, MIN_VALIDITY_SECONDS, MAX_VALIDITY_SECONDS);
    }
    return seconds;
  }
}
