package io.cosmolab.gateway;

import io.cosmolab.engine.CosmosEngine;
import java.time.Duration;

/** The connection limits over Netty: servers in this JVM, each with its own limits. */
class NettyConnectionLimitsTest extends ConnectionLimitsContract {
  @Override
  Server serve(int maxConnections, Duration requestReadTimeout, Duration idleTimeout) {
    CosmosEngine engine = CosmosEngine.builder().build();
    GatewayServer server =
        GatewayServer.builder(engine)
            .port(0)
            .plainHttp()
            .withoutAuthentication()
            .maxConnections(maxConnections)
            .requestReadTimeout(requestReadTimeout)
            .idleTimeout(idleTimeout)
            .start();
    return new Server() {
      @Override
      public int port() {
        return server.port();
      }

      @Override
      public void close() {
        server.close();
        engine.close();
      }
    };
  }

  @Override
  boolean refusalsAreAnswered() {
    return true;
  }
}
