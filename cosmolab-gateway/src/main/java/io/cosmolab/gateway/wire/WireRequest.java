package io.cosmolab.gateway.wire;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * One decoded HTTP request, independent of Netty: what the resource handlers see.
 *
 * @param method the HTTP method, upper case
 * @param path the decoded resource path
 * @param headers the request headers, names lower case; the last value wins
 * @param body the request body (empty when there is none)
 * @param baseUri the endpoint as the client addressed it ({@code https://host:port/}), from the
 *     {@code Host} header, so the account document sends clients back to the same place
 * @param query the request target's query, still percent-encoded, without the {@code ?}; empty when
 *     there is none
 * @param receivedNanos {@link System#nanoTime} when the transport had the request whole (on the
 *     event loop, before it waited for its connection's lane): where its latency starts
 * @param fromLoopback true when the client is on this machine (its connection's peer is a loopback
 *     address, or the request was made in this process): what the explorer, which takes no
 *     signature, is served to
 * @param abandoned true once the client has gone (its connection closed) while the request runs:
 *     work that reads a lot (a query page) asks it now and then and stops; a transport that can't
 *     tell says false
 */
// The body and the headers are handed over without a copy (requests and responses can be
// megabytes; a point read's header map was copied twice on its way here); nobody writes to
// either after construction, and the headers are seen through a read-only view.
@SuppressWarnings("ArrayRecordComponent")
public record WireRequest(
    String method,
    ResourcePath path,
    Map<String, String> headers,
    byte[] body,
    String baseUri,
    String query,
    long receivedNanos,
    boolean fromLoopback,
    BooleanSupplier abandoned) {

  /** For a transport that can't tell when its client has gone. */
  public static final BooleanSupplier NEVER_ABANDONED = () -> false;

  public WireRequest {
    headers = Collections.unmodifiableMap(headers);
    query = query == null ? "" : query;
    abandoned = abandoned == null ? NEVER_ABANDONED : abandoned;
  }

  /** A request received now, made in this process. */
  public WireRequest(
      String method,
      ResourcePath path,
      Map<String, String> headers,
      byte[] body,
      String baseUri,
      String query) {
    this(method, path, headers, body, baseUri, query, System.nanoTime(), true, NEVER_ABANDONED);
  }

  /** The first value of the query parameter {@code name}, percent-decoded; null when absent. */
  public String queryParameter(String name) {
    for (String pair : query.split("&", -1)) {
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      if (decode(key).equals(name)) {
        return eq < 0 ? "" : decode(pair.substring(eq + 1));
      }
    }
    return null;
  }

  private static String decode(String s) {
    try {
      return java.net.URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw io.cosmolab.engine.error.CosmosError.BAD_REQUEST.exception(
          "the query string part '%s' is not valid percent-encoding", s);
    }
  }

  /** The header's value, or null. {@code name} must be lower case. */
  public String header(String name) {
    return headers.get(name);
  }

  /** The header as a boolean: {@code true}/{@code True} (any case) is true, anything else false. */
  public boolean flag(String name) {
    String v = headers.get(name);
    return v != null && v.strip().toLowerCase(Locale.ROOT).equals("true");
  }

  public String bodyText() {
    return new String(body, StandardCharsets.UTF_8);
  }

  /** The activity id the client sent, to echo back; null if none. */
  public String activityId() {
    return headers.get(Headers.ACTIVITY_ID);
  }
}
