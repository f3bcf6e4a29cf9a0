package io.cosmolab.gateway;

import java.time.Duration;

/**
 * The connection limits over the JDK's HTTP server. Its limits are process-wide (it reads them once
 * per JVM), so each server runs in a child process of its own.
 */
class JdkConnectionLimitsTest extends ConnectionLimitsContract {
  @Override
  Server serve(int maxConnections, Duration requestReadTimeout, Duration idleTimeout) {
    ChildGateway child =
        ChildGateway.start(
            0,
            "--transport",
            "JDK",
            "--max-connections",
            Integer.toString(maxConnections),
            "--request-read-timeout-ms",
            Long.toString(requestReadTimeout.toMillis()),
            "--idle-timeout-ms",
            Long.toString(idleTimeout.toMillis()));
    return new Server() {
      @Override
      public int port() {
        return child.port();
      }

      @Override
      public void close() {
        child.close();
      }
    };
  }

  /** The JDK's server closes a connection over its cap without answering. */
  @Override
  boolean refusalsAreAnswered() {
    return false;
  }
}
