package io.cosmolab.gateway;

/**
 * Stalled requests over the JDK's HTTP server: its one dispatcher thread reads every connection,
 * and each exchange runs on a pooled thread of its own.
 */
class JdkStalledRequestTest extends StalledRequestContract {
  @Override
  GatewayServer.Builder configure(GatewayServer.Builder builder) {
    return builder.transport(GatewayServer.Transport.JDK);
  }
}
