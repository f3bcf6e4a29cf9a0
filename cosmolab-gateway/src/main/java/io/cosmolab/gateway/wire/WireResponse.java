package io.cosmolab.gateway.wire;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.document.JsonTrees;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One response, independent of Netty. Handlers build it; the HTTP stage adds the headers every
 * response carries (activity id, request charge, content type and length) and writes it.
 *
 * @param status the HTTP status
 * @param headers response headers, names lower case, in insertion order
 * @param body the body; empty for 204 and 304
 */
// The body is handed over without a copy (requests and responses can be megabytes); nobody
// writes to it after construction.
@SuppressWarnings("ArrayRecordComponent")
public record WireResponse(int status, Map<String, String> headers, byte[] body) {

  private static final byte[] EMPTY = new byte[0];

  public WireResponse {
    headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
  }

  /** A JSON response. */
  public static WireResponse json(int status, JsonNode body, Map<String, String> headers) {
    return new WireResponse(status, headers, JsonTrees.write(body));
  }

  /** A response without a body (204, 304, or a write with {@code Prefer: return=minimal}). */
  public static WireResponse empty(int status, Map<String, String> headers) {
    return new WireResponse(status, headers, EMPTY);
  }

  /** A copy with one more header. */
  public WireResponse withHeader(String name, String value) {
    Map<String, String> h = new LinkedHashMap<>(headers);
    h.put(name, value);
    return new WireResponse(status, h, body);
  }

  /** A copy without the body, for writes the client asked to answer minimally. */
  public WireResponse withoutBody() {
    return new WireResponse(status, headers, EMPTY);
  }
}
