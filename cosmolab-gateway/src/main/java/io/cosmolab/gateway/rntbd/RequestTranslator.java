package io.cosmolab.gateway.rntbd;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.resource.ResourceIds;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.ResourcePath;
import io.cosmolab.gateway.wire.WireRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A request frame as the HTTP request the gateway would have received for the same SDK call, so
 * that one body of code ({@code resources}) answers both modes, with the same authentication,
 * errors, charges and budgets.
 *
 * <p>How: the SDK builds one set of HTTP headers per operation and, in direct mode, turns them into
 * tokens ({@code RntbdRequestHeaders} in azure-cosmos); this class turns the tokens back. The
 * method comes from the operation type (a create or query is a POST, a replace a PUT, ...), the
 * path from the name tokens ({@code DatabaseName}, {@code CollectionName}, {@code DocumentName},
 * ...) or, for a request addressed by RID, from the binary {@code ResourceId}, whose first 4 bytes
 * are the database's RID and first 8 the container's. The signature the SDK sends was computed over
 * that same verb and link, so {@code auth} checks it as it checks HTTP.
 *
 * <p>Stateless and thread-safe.
 */
final class RequestTranslator {
  private RequestTranslator() {}

  /**
   * @throws io.cosmolab.engine.error.CosmosException 501 for an operation direct mode does not
   *     serve here, naming it and suggesting gateway mode
   */
  static WireRequest translate(Inbound.Request r, java.util.function.BooleanSupplier abandoned) {
    Map<String, String> h = new HashMap<>(32);
    String method = method(r, h);
    copyHeaders(r, h);
    // direct mode carries Cosmos operations only, never the explorer's paths
    return new WireRequest(
        method, path(r), h, r.payload(), null, "", r.receivedNanos(), false, abandoned);
  }

  private static String method(Inbound.Request r, Map<String, String> h) {
    switch (r.operationType()) {
      case Tokens.Operation.CREATE, Tokens.Operation.EXECUTE_JAVASCRIPT -> {
        return "POST";
      }
      case Tokens.Operation.UPSERT -> {
        h.put(Headers.IS_UPSERT, "true");
        return "POST";
      }
      case Tokens.Operation.SQL_QUERY, Tokens.Operation.QUERY -> {
        h.put(Headers.IS_QUERY, "true");
        h.put(Headers.CONTENT_TYPE, "application/query+json");
        return "POST";
      }
      case Tokens.Operation.BATCH -> {
        h.put(Headers.IS_BATCH, "true");
        return "POST";
      }
      case Tokens.Operation.READ, Tokens.Operation.READ_FEED -> {
        return "GET";
      }
      case Tokens.Operation.HEAD, Tokens.Operation.HEAD_FEED -> {
        return "HEAD";
      }
      case Tokens.Operation.REPLACE -> {
        return "PUT";
      }
      case Tokens.Operation.DELETE -> {
        return "DELETE";
      }
      case Tokens.Operation.PATCH -> {
        return "PATCH";
      }
      default -> {
        throw CosmosError.NOT_SUPPORTED.exception(
            "cosmolab does not serve operation type 0x%04X (resource type 0x%04X) in direct mode;"
                + " use gateway mode for it: new CosmosClientBuilder()...gatewayMode()",
            r.operationType(), r.resourceType());
      }
    }
  }

  /** The tokens the gateway reads, under the HTTP header names the SDK would have sent. */
  private static void copyHeaders(Inbound.Request r, Map<String, String> h) {
    put(h, Headers.AUTHORIZATION, r.string(Tokens.Request.AUTHORIZATION));
    put(h, Headers.X_MS_DATE, r.string(Tokens.Request.DATE));
    put(h, Headers.SESSION_TOKEN, r.string(Tokens.Request.SESSION_TOKEN));
    put(h, Headers.CONTINUATION, r.string(Tokens.Request.CONTINUATION));
    put(h, Headers.PARTITION_KEY, r.string(Tokens.Request.PARTITION_KEY));
    put(h, Headers.PARTITION_KEY_RANGE_ID, r.string(Tokens.Request.PARTITION_KEY_RANGE_ID));
    put(h, Headers.A_IM, r.string(Tokens.Request.A_IM));
    put(h, Headers.IF_MODIFIED_SINCE, r.string(Tokens.Request.IF_MODIFIED_SINCE));
    put(
        h,
        Headers.CHANGE_FEED_WIRE_FORMAT,
        r.string(Tokens.Request.CHANGE_FEED_WIRE_FORMAT_VERSION));
    put(h, "x-ms-documentdb-pre-trigger-include", r.string(Tokens.Request.PRE_TRIGGER_INCLUDE));
    put(h, "x-ms-documentdb-post-trigger-include", r.string(Tokens.Request.POST_TRIGGER_INCLUDE));
    String match = r.string(Tokens.Request.MATCH);
    if (match != null) {
      boolean read =
          r.operationType() == Tokens.Operation.READ
              || r.operationType() == Tokens.Operation.READ_FEED;
      h.put(read ? Headers.IF_NONE_MATCH : Headers.IF_MATCH, match);
    }
    Long pageSize = r.number(Tokens.Request.PAGE_SIZE);
    if (pageSize != null) {
      h.put(Headers.MAX_ITEM_COUNT, pageSize == 0xFFFFFFFFL ? "-1" : Long.toString(pageSize));
    }
    Long expiry = r.number(Tokens.Request.RESOURCE_TOKEN_EXPIRY);
    if (expiry != null) {
      h.put(Headers.RESOURCE_TOKEN_EXPIRY, Long.toString(expiry));
    }
    Long directive = r.number(Tokens.Request.INDEXING_DIRECTIVE);
    if (directive != null) {
      h.put(
          Headers.INDEXING_DIRECTIVE,
          switch (directive.intValue()) {
            case 1 -> "Include";
            case 2 -> "Exclude";
            default -> "Default";
          });
    }
    Long priority = r.number(Tokens.Request.PRIORITY_LEVEL);
    if (priority != null) {
      // the SDK's PriorityLevel bytes; another value is passed on as a number, which the gateway's
      // check refuses by name
      h.put(
          Headers.PRIORITY_LEVEL,
          priority == 1 ? "High" : priority == 2 ? "Low" : Long.toString(priority));
    }
    Long bucket = r.number(Tokens.Request.THROUGHPUT_BUCKET);
    if (bucket != null) {
      h.put(Headers.THROUGHPUT_BUCKET, Long.toString(bucket)); // checked by the gateway, by name
    }
    Long level = r.number(Tokens.Request.CONSISTENCY_LEVEL);
    if (level != null && level >= 0 && level < CONSISTENCY.length) {
      h.put(Headers.CONSISTENCY_LEVEL, CONSISTENCY[level.intValue()]);
    }
    epk(h, Headers.START_EPK, r.bytes(Tokens.Request.START_EPK));
    epk(h, Headers.END_EPK, r.bytes(Tokens.Request.END_EPK));
    flag(h, Headers.POPULATE_QUERY_METRICS, r, Tokens.Request.POPULATE_QUERY_METRICS);
    flag(h, Headers.BATCH_ATOMIC, r, Tokens.Request.IS_BATCH_ATOMIC);
    flag(h, Headers.BATCH_CONTINUE_ON_ERROR, r, Tokens.Request.SHOULD_BATCH_CONTINUE_ON_ERROR);
    flag(h, "x-ms-cosmos-batch-ordered", r, Tokens.Request.IS_BATCH_ORDERED);
    flag(h, Headers.POPULATE_INDEX_METRICS, r, Tokens.Request.POPULATE_INDEX_METRICS);
    flag(h, Headers.POPULATE_QUERY_ADVICE, r, Tokens.Request.POPULATE_QUERY_ADVICE);
    put(h, Headers.INTENDED_COLLECTION_RID, r.string(Tokens.Request.INTENDED_COLLECTION_RID));
    flag(h, "x-ms-documentdb-query-enable-scan", r, Tokens.Request.ENABLE_SCAN_IN_QUERY);
    flag(h, Headers.SCRIPT_ENABLE_LOGGING, r, Tokens.Request.ENABLE_LOGGING);
    if (r.flag(Tokens.Request.RETURN_PREFERENCE)) {
      h.put(Headers.PREFER, "return=minimal");
    }
  }

  /** {@code RntbdConsistencyLevel} ids 0..4. */
  private static final String[] CONSISTENCY = {
    "Strong", "BoundedStaleness", "Session", "Eventual", "ConsistentPrefix"
  };

  private static void put(Map<String, String> h, String name, String value) {
    if (value != null) {
      h.put(name, value);
    }
  }

  private static void flag(Map<String, String> h, String name, Inbound.Request r, int token) {
    if (r.tokens().containsKey(token)) {
      h.put(name, r.flag(token) ? "true" : "false");
    }
  }

  private static void epk(Map<String, String> h, String name, byte[] value) {
    if (value != null) {
      h.put(name, new String(value, StandardCharsets.UTF_8));
    }
  }

  /**
   * The path the request addresses, as the HTTP request line would have named it: the resource type
   * says how deep it goes ({@code dbs}, {@code dbs/{db}/colls}, {@code .../docs}); each id is its
   * name token or, without one, the matching prefix of the binary RID.
   */
  static ResourcePath path(Inbound.Request r) {
    if (r.resourceType() == Tokens.ResourceType.USER
        || r.resourceType() == Tokens.ResourceType.PERMISSION) {
      return userPath(r);
    }
    String child = childSegment(r.resourceType());
    int depth =
        switch (r.resourceType()) {
          case Tokens.ResourceType.DATABASE -> 1;
          case Tokens.ResourceType.COLLECTION -> 2;
          default -> child == null ? -1 : 3;
        };
    if (depth < 0) {
      throw CosmosError.NOT_SUPPORTED.exception(
          "cosmolab does not serve resource type 0x%04X in direct mode; use gateway mode for it:"
              + " new CosmosClientBuilder()...gatewayMode()",
          r.resourceType());
    }
    byte[] rid = r.bytes(Tokens.Request.RESOURCE_ID);
    String db = r.string(Tokens.Request.DATABASE_NAME);
    String coll = r.string(Tokens.Request.COLLECTION_NAME);
    boolean byName = db != null;
    if (!byName && rid != null) {
      db = rid.length >= 4 ? ResourceIds.encode(Arrays.copyOf(rid, 4)) : null;
      coll = rid.length >= 8 ? ResourceIds.encode(Arrays.copyOf(rid, 8)) : null;
    }
    List<String> s = new ArrayList<>(6);
    s.add("dbs");
    if (depth == 1) {
      addIf(s, db, ridFor(rid, byName, 4, r));
      return new ResourcePath(s);
    }
    s.add(required(db, "database (the DatabaseName token)", r));
    s.add("colls");
    if (depth == 2) {
      addIf(s, coll, ridFor(rid, byName, 8, r));
      return new ResourcePath(s);
    }
    s.add(required(coll, "container (the CollectionName token)", r));
    s.add(child);
    String name = childName(r);
    if (name != null) {
      s.add(name);
    } else if (!byName && rid != null && rid.length > 8 && isItemOperation(r)) {
      s.add(ResourceIds.encode(rid));
    }
    return new ResourcePath(s);
  }

  /**
   * {@code dbs/{db}/users[/{user}]} or {@code dbs/{db}/users/{user}/permissions[/{perm}]}: the SDK
   * sends users and permissions, master resources, to the master partition in direct mode. Names
   * come from the {@code DatabaseName}, {@code UserName} and {@code PermissionName} tokens, or the
   * ids from the RID (4 bytes database, 8 user, 16 permission).
   */
  private static ResourcePath userPath(Inbound.Request r) {
    boolean permission = r.resourceType() == Tokens.ResourceType.PERMISSION;
    byte[] rid = r.bytes(Tokens.Request.RESOURCE_ID);
    String db = r.string(Tokens.Request.DATABASE_NAME);
    String user = r.string(Tokens.Request.USER_NAME);
    String perm = r.string(Tokens.Request.PERMISSION_NAME);
    boolean byName = db != null;
    if (!byName && rid != null) {
      db = rid.length >= 4 ? ResourceIds.encode(Arrays.copyOf(rid, 4)) : null;
      user = rid.length >= 8 ? ResourceIds.encode(Arrays.copyOf(rid, 8)) : null;
      perm = rid.length >= 16 ? ResourceIds.encode(Arrays.copyOf(rid, 16)) : null;
    }
    List<String> s = new ArrayList<>(6);
    s.add("dbs");
    s.add(required(db, "database (the DatabaseName token)", r));
    s.add("users");
    if (!permission) {
      addIf(s, user, ridFor(rid, byName, 8, r));
      return new ResourcePath(s);
    }
    s.add(required(user, "user (the UserName token)", r));
    s.add("permissions");
    addIf(s, perm, ridFor(rid, byName, 16, r));
    return new ResourcePath(s);
  }

  /** The id of the addressed resource itself at this depth, when it is an item: a name or RID. */
  private static boolean ridFor(byte[] rid, boolean byName, int length, Inbound.Request r) {
    return isItemOperation(r) && (byName || (rid != null && rid.length == length));
  }

  private static void addIf(List<String> s, String id, boolean item) {
    if (item && id != null) {
      s.add(id);
    }
  }

  private static String required(String id, String what, Inbound.Request r) {
    if (id == null) {
      throw CosmosError.BAD_REQUEST.exception(
          "a direct-mode request (resource type 0x%04X, operation 0x%04X) must name its %s or"
              + " carry a ResourceId",
          r.resourceType(), r.operationType(), what);
    }
    return id;
  }

  private static boolean isItemOperation(Inbound.Request r) {
    return switch (r.operationType()) {
      case Tokens.Operation.READ,
          Tokens.Operation.REPLACE,
          Tokens.Operation.DELETE,
          Tokens.Operation.PATCH,
          Tokens.Operation.EXECUTE_JAVASCRIPT ->
          true;
      default -> false;
    };
  }

  private static String childSegment(int resourceType) {
    return switch (resourceType) {
      case Tokens.ResourceType.DOCUMENT -> "docs";
      case Tokens.ResourceType.STORED_PROCEDURE -> "sprocs";
      case Tokens.ResourceType.TRIGGER -> "triggers";
      case Tokens.ResourceType.USER_DEFINED_FUNCTION -> "udfs";
      case Tokens.ResourceType.CONFLICT -> "conflicts";
      case Tokens.ResourceType.PARTITION_KEY_RANGE -> "pkranges";
      default -> null;
    };
  }

  private static String childName(Inbound.Request r) {
    return switch (r.resourceType()) {
      case Tokens.ResourceType.DOCUMENT -> r.string(Tokens.Request.DOCUMENT_NAME);
      case Tokens.ResourceType.STORED_PROCEDURE -> r.string(Tokens.Request.STORED_PROCEDURE_NAME);
      case Tokens.ResourceType.TRIGGER -> r.string(Tokens.Request.TRIGGER_NAME);
      case Tokens.ResourceType.USER_DEFINED_FUNCTION -> r.string(Tokens.Request.UDF_NAME);
      case Tokens.ResourceType.CONFLICT -> r.string(Tokens.Request.CONFLICT_NAME);
      case Tokens.ResourceType.PARTITION_KEY_RANGE ->
          r.string(Tokens.Request.PARTITION_KEY_RANGE_NAME);
      default -> null;
    };
  }
}
