package io.cosmolab.gateway.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The headers and bodies every resource shares ({@code gateway-protocol.md} §3.1, §9.1, §11). */
final class Responses {
  private Responses() {}

  /**
   * A charge as {@code %.2f} formats it. Most charges are whole hundredths (a point read's 1 RU),
   * which are written without the formatter, the costliest call of a point read's headers.
   */
  static String charge(double ru) {
    double hundredths = ru * 100;
    long whole = Math.round(hundredths);
    if (ru >= 0 && ru < 1e12 && Math.abs(hundredths - whole) < 1e-6) {
      long cents = whole % 100;
      return (whole / 100) + (cents < 10 ? ".0" : ".") + cents;
    }
    return String.format(Locale.ROOT, "%.2f", ru);
  }

  /**
   * A session token the SDKs parse: {@code <rangeId>:-1#<lsn>}. The short form {@code 0:0} breaks
   * them (§11).
   */
  static String sessionToken(String rangeId, long lsn) {
    return io.cosmolab.gateway.wire.SessionTokens.of(rangeId, lsn);
  }

  /**
   * The headers of a response about a container's contents: the content paths the Java SDK keys its
   * session tokens by (the container RID, which it parses, and the name path), the charge, and the
   * LSN: the highest of the container's physical partitions, for a response that no one partition
   * served (at or above the LSN of each, so no session token a client holds is above it).
   */
  static Map<String, String> containerHeaders(Container c, double charge) {
    return containerHeaders(c, charge, null);
  }

  /**
   * The same headers for a response that the physical partition {@code rangeId} served: its LSN, in
   * its own numbering, as the service's replica answers (null: the highest of all).
   */
  static Map<String, String> containerHeaders(Container c, double charge, String rangeId) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put(Headers.REQUEST_CHARGE, charge(charge));
    h.put(Headers.CONTENT_PATH, c.rid());
    h.put(Headers.ALT_CONTENT_PATH, altPath("dbs/" + c.database().id() + "/colls/" + c.id()));
    String lsn = Long.toString(c.lsn(rangeId));
    h.put(Headers.LSN, lsn);
    h.put(Headers.GLOBAL_COMMITTED_LSN, lsn);
    return h;
  }

  /**
   * A name path for {@code x-ms-alt-content-path} ({@code dbs/<db>[/colls/<coll>]}),
   * percent-encoded where the names need it (rarely), slashes kept.
   */
  static String altPath(String path) {
    for (int i = 0; i < path.length(); i++) {
      char ch = path.charAt(i);
      boolean plain =
          (ch >= 'a' && ch <= 'z')
              || (ch >= 'A' && ch <= 'Z')
              || (ch >= '0' && ch <= '9')
              || ch == '-'
              || ch == '_'
              || ch == '.'
              || ch == '/';
      if (!plain) {
        return URLEncoder.encode(path, StandardCharsets.UTF_8).replace("%2F", "/");
      }
    }
    return path;
  }

  /**
   * The physical partition that owns a full key, or null for no key or a hierarchical prefix (which
   * may span several).
   */
  static String ownerRange(Container c, PartitionKeyValue key) {
    if (key == null || key.size() != c.partitionKey().paths().size()) {
      return null;
    }
    return c.routing().rangeFor(EffectivePartitionKey.of(c.partitionKey(), key)).id();
  }

  /** A feed body {@code {"_rid": owner, "<Key>": [...], "_count": n}} with its item count. */
  static WireResponse feed(
      String ownerRid, String key, List<? extends JsonNode> items, Map<String, String> headers) {
    ObjectNode body = JsonNodeFactory.instance.objectNode();
    body.put("_rid", ownerRid);
    ArrayNode array = body.putArray(key);
    items.forEach(array::add);
    body.put("_count", items.size());
    Map<String, String> h = new LinkedHashMap<>(headers);
    h.put(Headers.ITEM_COUNT, Integer.toString(items.size()));
    return WireResponse.json(200, body, h);
  }

  /**
   * The order of a list of databases, containers, users, permissions or offers: by id, so that a
   * list (and a query over it) comes in the same order on every page, whatever order the engine's
   * maps hold them in. [A] The service lists in its own (creation) order.
   */
  static final java.util.Comparator<JsonNode> BY_ID =
      java.util.Comparator.comparing(n -> n.path("id").asText());

  /** The continuation of a metadata list: where its next page starts. */
  private static final String LIST_TOKEN = "list:";

  /**
   * A page of a list of databases, containers, users, permissions, scripts or offers, or of a query
   * over one: at most {@code x-ms-max-item-count} items (all when it is absent or -1), and {@code
   * x-ms-continuation} when more follow, as the service pages them (the Java SDK's
   * ReadFeedCollectionsTest reads 3 containers in 2 pages of 2). [A] The token is the next item's
   * position in the list, so an item created or deleted between pages can shift what the next page
   * starts with; the service's tokens are its own.
   */
  static WireResponse pagedFeed(
      WireRequest request, String ownerRid, String key, List<? extends JsonNode> items) {
    int from = 0;
    String token = request.header(Headers.CONTINUATION);
    if (token != null && !token.isBlank()) {
      String t = token.strip();
      try {
        from = t.startsWith(LIST_TOKEN) ? Integer.parseInt(t.substring(LIST_TOKEN.length())) : -1;
      } catch (NumberFormatException e) {
        from = -1;
      }
      if (from < 0) {
        throw CosmosError.BAD_REQUEST.exception(
            "Invalid Continuation Token: '%s' was not issued by this server for a %s list",
            t.length() > 80 ? t.substring(0, 80) + "..." : t, key);
      }
    }
    int max = Requests.maxItemCount(request);
    int to = max <= 0 ? items.size() : (int) Math.min(items.size(), (long) from + max);
    from = Math.min(from, items.size());
    Map<String, String> h = new LinkedHashMap<>();
    if (to < items.size()) {
      h.put(Headers.CONTINUATION, LIST_TOKEN + to);
    }
    return feed(ownerRid, key, items.subList(from, to), h);
  }

  /** One resource, with its etag header equal to its {@code _etag}. */
  static WireResponse resource(int status, ObjectNode body, Map<String, String> headers) {
    Map<String, String> h = new LinkedHashMap<>(headers);
    JsonNode etag = body.get("_etag");
    if (etag != null && etag.isTextual()) {
      h.put(Headers.ETAG, etag.textValue());
    }
    return WireResponse.json(status, body, h);
  }
}
