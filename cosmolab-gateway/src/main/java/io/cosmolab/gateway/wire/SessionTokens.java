package io.cosmolab.gateway.wire;

/**
 * The session token a response carries ({@code x-ms-session-token}): {@code <range id>:-1#<LSN>},
 * the service's "simple" form that the SDKs parse, naming the physical partition that served the
 * request and its LSN then ({@code gateway-protocol.md}, session tokens).
 */
public final class SessionTokens {
  private SessionTokens() {}

  /** The token of partition {@code rangeId} at {@code lsn} (a negative LSN is written as 0). */
  public static String of(String rangeId, long lsn) {
    return rangeId + ":-1#" + Math.max(lsn, 0);
  }
}
