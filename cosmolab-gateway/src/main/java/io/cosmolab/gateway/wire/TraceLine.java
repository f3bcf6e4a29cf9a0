package io.cosmolab.gateway.wire;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The one line {@code -Dcosmolab.trace=true} prints on stderr per request, for diagnosing a client:
 * what was asked, what it was answered, what it cost and which physical partition served it.
 *
 * <pre>
 * cosmolab http GET /dbs/db/colls/c/docs/d1 x-ms-documentdb-partitionkey=["a"] -> 200 charge=1 served-by=0
 * cosmolab rntbd POST /dbs/db/colls/c/docs range=3 x-ms-documentdb-partitionkey=["a"] -> 429 charge=0 served-by=3 {"code":…}
 * </pre>
 *
 * Only the request headers that say where a request goes and how it resumes are shown (never the
 * signature); an error's body follows, since it names what was wrong.
 */
public final class TraceLine {
  private TraceLine() {}

  /** Whether tracing is on ({@code -Dcosmolab.trace=true}). */
  public static final boolean ENABLED = Boolean.getBoolean("cosmolab.trace");

  private static final String[] REQUEST_HEADERS = {
    Headers.PARTITION_KEY,
    Headers.PARTITION_KEY_RANGE_ID,
    Headers.IF_NONE_MATCH,
    Headers.A_IM,
    Headers.START_EPK,
    Headers.END_EPK,
    Headers.CONTINUATION,
    Headers.CHANGE_FEED_WIRE_FORMAT,
    Headers.PRIORITY_LEVEL,
    Headers.THROUGHPUT_BUCKET
  };

  /**
   * The line for one request.
   *
   * @param transport "http" or "rntbd"
   * @param target the path, or for RNTBD the path and the replica's range ({@code range=3})
   * @param requestHeaders the request's headers (case as the transport delivers them: lower case)
   */
  public static String of(
      String transport,
      String method,
      String target,
      Map<String, String> requestHeaders,
      WireResponse response) {
    StringBuilder b = new StringBuilder("cosmolab ");
    b.append(transport).append(' ').append(method).append(' ').append(target);
    for (String h : REQUEST_HEADERS) {
      String v = requestHeaders.get(h);
      if (v != null) {
        b.append(' ').append(h).append('=').append(v);
      }
    }
    b.append(" -> ").append(response.status());
    String charge = response.headers().get(Headers.REQUEST_CHARGE);
    if (charge != null) {
      b.append(" charge=").append(charge);
    }
    String served = response.headers().get(Headers.PARTITION_KEY_RANGE_ID);
    if (served != null) {
      b.append(" served-by=").append(served);
    }
    String subStatus = response.headers().get(Headers.SUB_STATUS);
    if (subStatus != null && !subStatus.equals("0")) {
      b.append(" substatus=").append(subStatus);
    }
    if (response.status() >= 400 && response.body() != null) {
      b.append(' ').append(new String(response.body(), StandardCharsets.UTF_8));
    }
    return b.toString();
  }
}
