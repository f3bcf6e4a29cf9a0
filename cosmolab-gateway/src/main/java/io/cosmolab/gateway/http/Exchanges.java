package io.cosmolab.gateway.http;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.gateway.wire.ErrorResponses;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.ResourcePath;
import io.cosmolab.gateway.wire.TraceLine;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * What both transports do with an exchange, so they answer alike: decode it into a {@link
 * WireRequest}, hand it to the protocol, turn failures into the service's error bodies (never a
 * stack trace on the wire), and add the headers every response carries.
 */
final class Exchanges {
  // loaded with the first request, so its writer runs before any failure needs it
  private static final OffLoopLog ERRORS = OffLoopLog.GATEWAY;

  private Exchanges() {}

  /**
   * The protocol's answer to one request, or the error response it failed with.
   *
   * @param headers the request headers, names lower case, the last value of each
   * @param uri the request target as sent: its path, then perhaps a query
   * @param peer the client's address, or null when the transport does not know it
   * @param abandoned true once the client's connection has closed ({@link WireRequest#abandoned})
   */
  static WireResponse handle(
      Function<WireRequest, WireResponse> protocol,
      String method,
      String uri,
      Map<String, String> headers,
      byte[] body,
      String scheme,
      String activityId,
      long receivedNanos,
      java.net.SocketAddress peer,
      java.util.function.BooleanSupplier abandoned) {
    WireResponse response =
        answer(
            protocol,
            method,
            uri,
            headers,
            body,
            scheme,
            activityId,
            receivedNanos,
            peer,
            abandoned);
    if (TraceLine.ENABLED) {
      System.err.println(TraceLine.of("http", method, uri, headers, response));
    }
    return response;
  }

  private static WireResponse answer(
      Function<WireRequest, WireResponse> protocol,
      String method,
      String uri,
      Map<String, String> headers,
      byte[] body,
      String scheme,
      String activityId,
      long receivedNanos,
      java.net.SocketAddress peer,
      java.util.function.BooleanSupplier abandoned) {
    try {
      int authority = absoluteFormAuthority(uri);
      if (authority > 0) {
        // RFC 9112 3.2.2: a server MUST accept the absolute form, and then uses its authority in
        // place of the Host header (which the DNS-rebinding guard then checks)
        int end = originFormStart(uri, authority);
        headers = new java.util.HashMap<>(headers);
        headers.put("host", uri.substring(authority, end));
        uri =
            end == uri.length() || uri.charAt(end) != '/'
                ? "/" + uri.substring(end)
                : uri.substring(end);
      }
      String host = headers.get("host");
      WireRequest request =
          new WireRequest(
              method.toUpperCase(Locale.ROOT),
              ResourcePath.parse(rawPath(uri)),
              headers,
              body,
              host == null ? null : scheme + "://" + host + "/",
              rawQuery(uri),
              receivedNanos,
              peer instanceof java.net.InetSocketAddress a
                  && a.getAddress() != null
                  && a.getAddress().isLoopbackAddress(),
              abandoned);
      return protocol.apply(request);
    } catch (CosmosException e) {
      return ErrorResponses.of(e, activityId);
    } catch (RuntimeException e) {
      ERRORS.error("activity " + activityId + ": " + method + " " + uri, e);
      return ErrorResponses.internal(activityId);
    } catch (Error e) {
      // An Error escaping a request must not end the thread that serves this connection and the
      // others on its lane: the request gets its 500 and the connection is closed, since state
      // shared with the failed request (a half-read stream, a half-built answer) can't be trusted.
      // The report is queued (OffLoopLog: this may be an event loop); its writer formats it.
      ERRORS.error("activity " + activityId + ": " + method + " " + uri + " failed", e);
      return ErrorResponses.internal(activityId).withHeader(CONNECTION, "close");
    }
  }

  /**
   * Where the authority of an absolute-form request target ({@code http://host:port/path}) starts,
   * or -1 for the usual origin form ({@code /path}).
   */
  static int absoluteFormAuthority(String uri) {
    if (uri.startsWith("/")) {
      return -1; // the origin form: every request the SDKs send
    }
    for (String scheme : new String[] {"http://", "https://"}) {
      if (uri.regionMatches(true, 0, scheme, 0, scheme.length())) {
        return scheme.length();
      }
    }
    return -1;
  }

  /** Where the path (or query) of an absolute-form target begins: the authority's end. */
  private static int originFormStart(String uri, int authority) {
    int end = authority;
    while (end < uri.length() && "/?#".indexOf(uri.charAt(end)) < 0) {
      end++;
    }
    return end;
  }

  /** A response header the transports honour: {@code close} ends the connection after it. */
  static final String CONNECTION = "connection";

  /** True when the response asks for its connection to be closed after it is written. */
  static boolean closesConnection(WireResponse response) {
    return "close".equalsIgnoreCase(response.headers().get(CONNECTION));
  }

  /** The answer to a body over {@code maxBodyBytes}: the service's 413; the caller closes. */
  static WireResponse tooLarge(int maxBodyBytes, String activityId) {
    return ErrorResponses.of(
        CosmosError.REQUEST_ENTITY_TOO_LARGE,
        "Request size is too large: the body exceeds " + maxBodyBytes + " bytes",
        activityId);
  }

  /** The query of a request target, without {@code ?} or fragment, still percent-encoded. */
  static String rawQuery(String uri) {
    int query = uri.indexOf('?');
    if (query < 0) {
      return "";
    }
    int fragment = uri.indexOf('#', query);
    return uri.substring(query + 1, fragment < 0 ? uri.length() : fragment);
  }

  /** The path of a request target, without its query or fragment, still percent-encoded. */
  static String rawPath(String uri) {
    int end = uri.length();
    int query = uri.indexOf('?');
    if (query >= 0) {
      end = query;
    }
    int fragment = uri.indexOf('#');
    if (fragment >= 0 && fragment < end) {
      end = fragment;
    }
    return uri.substring(0, end);
  }

  /**
   * The headers to send, each once, in this order: the response's own, then the activity id, a
   * request charge (0 when the handler set none), the content type of a body, and the gateway
   * version the SDKs log. Handed to {@code out} one by one, without a map of their own.
   */
  static void responseHeaders(
      WireResponse response, String activityId, BiConsumer<String, String> out) {
    Map<String, String> own = response.headers();
    own.forEach(
        (name, value) -> {
          if (!name.equals(Headers.ACTIVITY_ID) && !name.equals(GATEWAY_VERSION)) {
            out.accept(name, value);
          }
        });
    out.accept(Headers.ACTIVITY_ID, activityId);
    if (!own.containsKey(Headers.REQUEST_CHARGE)) {
      out.accept(Headers.REQUEST_CHARGE, "0.00");
    }
    if (response.body().length > 0 && !own.containsKey(CONTENT_TYPE)) {
      out.accept(CONTENT_TYPE, "application/json");
    }
    out.accept(GATEWAY_VERSION, "version=2.14.0");
  }

  private static final String CONTENT_TYPE = "content-type";

  private static final String GATEWAY_VERSION = "x-ms-gatewayversion";

  /** The client's activity id, or a fresh one. */
  static String activityIdOf(String sent) {
    return sent == null || sent.isBlank() ? activityId() : sent;
  }

  /**
   * A fresh activity id. Not {@link UUID#randomUUID()}: its secure random is a shared, contended
   * source, and an activity id only has to be unique enough to find a request in a log.
   */
  @io.cosmolab.engine.internal.SuppressForbidden(
      "an activity id must be unique in a log, not replayable: a seeded source would repeat ids"
          + " across runs")
  static String activityId() {
    java.util.concurrent.ThreadLocalRandom r = java.util.concurrent.ThreadLocalRandom.current();
    return new UUID((r.nextLong() & ~0xF000L) | 0x4000L, (r.nextLong() & ~(3L << 62)) | (2L << 62))
        .toString();
  }
}
