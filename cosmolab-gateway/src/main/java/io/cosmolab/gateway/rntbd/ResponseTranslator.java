package io.cosmolab.gateway.rntbd;

import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.WireResponse;
import java.util.Map;
import java.util.UUID;

/**
 * A gateway response as a response frame: the status, and each header the SDK reads in direct mode
 * as its token ({@code RntbdResponseHeaders} in azure-cosmos maps the tokens back to the same
 * header names, so the SDK's code above the transport sees what gateway mode shows it).
 *
 * <p>What the SDK needs beyond the gateway's headers, and why ({@code StoreReader}, {@code
 * StoreClient}, {@code ConsistencyReader} in azure-cosmos):
 *
 * <ul>
 *   <li>{@code TransportRequestID}, echoed: it is how the SDK matches a response to its request on
 *       a connection that carries many at once.
 *   <li>An {@code LSN} on every response, errors included, and the same as {@code LocalLSN}: every
 *       read but a Strong one validates the local LSN ({@code useLocalLSNBasedHeaders} in {@code
 *       StoreReader}), and a 404 answered without one is "not a valid LSN", so the read is retried
 *       as a stale session (404/1002) for seconds before it fails. Responses about a container
 *       carry its LSN already; {@link DirectDispatcher} adds it to the others.
 *   <li>{@code QuorumAckedLSN}, {@code CurrentReplicaSetSize}, {@code CurrentWriteQuorum} and
 *       {@code NumberOfReadRegions}: read by the quorum reader of Strong and Bounded Staleness.
 *       Assumption: one engine is every replica, so each write is acknowledged by all of them at
 *       once: the quorum-acked LSN is the LSN, the replica set is the one {@code /addresses} lists.
 * </ul>
 *
 * The session token travels without its range prefix, which the SDK takes from the {@code
 * PartitionKeyRangeId} token.
 *
 * <p>Headers with no token ({@code x-ms-content-path}, {@code x-ms-alt-content-path}) are not sent;
 * in direct mode the SDK keys its session tokens by the container it resolved itself.
 *
 * <p>Stateless and thread-safe.
 */
final class ResponseTranslator {
  private ResponseTranslator() {}

  /** The replicas {@code /addresses} lists per partition, and so the size of its replica set. */
  static final int REPLICAS = io.cosmolab.gateway.resources.Addresses.REPLICAS;

  static Outbound translate(WireResponse response, UUID activityId, Long transportRequestId) {
    Map<String, String> h = response.headers();
    Outbound.Builder b = new Outbound.Builder();
    b.add(Tokens.Response.TRANSPORT_REQUEST_ID, TokenType.ULONG, transportRequestId);
    b.add(Tokens.Response.REQUEST_CHARGE, TokenType.DOUBLE, decimal(h.get(Headers.REQUEST_CHARGE)));
    Long lsn = integer(h.get(Headers.LSN));
    b.add(Tokens.Response.LSN, TokenType.LONGLONG, lsn);
    b.add(Tokens.Response.QUORUM_ACKED_LSN, TokenType.LONGLONG, lsn);
    b.add(Tokens.Response.LOCAL_LSN, TokenType.LONGLONG, lsn);
    b.add(Tokens.Response.QUORUM_ACKED_LOCAL_LSN, TokenType.LONGLONG, lsn);
    b.add(
        Tokens.Response.GLOBAL_COMMITTED_LSN,
        TokenType.LONGLONG,
        integer(h.get(Headers.GLOBAL_COMMITTED_LSN)));
    // RNTBD carries the session token without its range: the SDK joins the PartitionKeyRangeId
    // token, a colon and this one ("0" + ":" + "-1#12"), so both go separately
    String session = h.get(Headers.SESSION_TOKEN);
    String range = h.get(Headers.PARTITION_KEY_RANGE_ID);
    if (session != null) {
      int colon = session.lastIndexOf(':');
      if (range == null) {
        range = colon > 0 ? session.substring(0, colon) : "0";
      }
      b.add(Tokens.Response.SESSION_TOKEN, TokenType.STRING, session.substring(colon + 1));
    }
    b.add(Tokens.Response.ETAG, TokenType.STRING, h.get(Headers.ETAG));
    b.add(Tokens.Response.CONTINUATION, TokenType.STRING, h.get(Headers.CONTINUATION));
    b.add(Tokens.Response.ITEM_COUNT, TokenType.ULONG, integer(h.get(Headers.ITEM_COUNT)));
    b.add(Tokens.Response.RETRY_AFTER_MS, TokenType.ULONG, integer(h.get(Headers.RETRY_AFTER_MS)));
    b.add(Tokens.Response.SUB_STATUS, TokenType.ULONG, integer(h.get(Headers.SUB_STATUS)));
    b.add(Tokens.Response.PARTITION_KEY_RANGE_ID, TokenType.STRING, range);
    b.add(Tokens.Response.QUERY_METRICS, TokenType.STRING, h.get(Headers.QUERY_METRICS));
    b.add(Tokens.Response.INDEX_UTILIZATION, TokenType.STRING, h.get(Headers.INDEX_UTILIZATION));
    b.add(Tokens.Response.QUERY_ADVICE, TokenType.STRING, h.get(Headers.QUERY_ADVICE));
    b.add(Tokens.Response.LOG_RESULTS, TokenType.STRING, h.get(Headers.SCRIPT_LOG_RESULTS));
    b.add(
        Tokens.Response.STORAGE_MAX_RESOURCE_QUOTA,
        TokenType.STRING,
        h.get(Headers.RESOURCE_QUOTA));
    b.add(
        Tokens.Response.STORAGE_RESOURCE_QUOTA_USAGE,
        TokenType.STRING,
        h.get(Headers.RESOURCE_USAGE));
    String pending = h.get(Headers.OFFER_REPLACE_PENDING);
    if (pending != null) {
      b.add(
          Tokens.Response.OFFER_REPLACE_PENDING,
          TokenType.BYTE,
          (byte) (pending.equalsIgnoreCase("true") ? 1 : 0));
    }
    b.add(Tokens.Response.CURRENT_REPLICA_SET_SIZE, TokenType.ULONG, (long) REPLICAS);
    b.add(Tokens.Response.CURRENT_WRITE_QUORUM, TokenType.ULONG, (long) (REPLICAS / 2 + 1));
    b.add(Tokens.Response.NUMBER_OF_READ_REGIONS, TokenType.ULONG, 0L);
    return b.build(activityId, response.status(), response.body());
  }

  private static Double decimal(String v) {
    if (v == null) {
      return null;
    }
    try {
      return Double.parseDouble(v.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Long integer(String v) {
    if (v == null) {
      return null;
    }
    try {
      return Long.parseLong(v.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
