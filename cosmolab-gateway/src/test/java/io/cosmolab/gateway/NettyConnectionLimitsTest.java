package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.gateway.RawConnection.Ending;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

  @Test
  void aTlsHandshakeNeverStarted_isClosedAfterTheHandshakeTimeout_onBothListeners(
      @TempDir Path certs) throws Exception {
    try (CosmosEngine engine = CosmosEngine.builder().build();
        GatewayServer server =
            GatewayServer.builder(engine)
                .port(0)
                .certificateDirectory(certs)
                .tlsHandshakeTimeout(Duration.ofSeconds(1))
                .requestReadTimeout(Duration.ofSeconds(60))
                .start();
        RawConnection c = new RawConnection(server.port());
        RawConnection direct = new RawConnection(server.directPort())) {
      long t0 = System.nanoTime();
      assertThat(c.awaitEnd(10_000)).isIn(Ending.CLOSED, Ending.RESET);
      assertThat((System.nanoTime() - t0) / 1_000_000).isBetween(500L, 6_000L);
      // direct mode's listener honours the same setting (it held a fixed 10 s before)
      assertThat(direct.awaitEnd(10_000)).isIn(Ending.CLOSED, Ending.RESET);
      assertThat((System.nanoTime() - t0) / 1_000_000).isBetween(500L, 6_000L);
    }
  }
}
