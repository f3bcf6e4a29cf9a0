package io.cosmolab.gateway.rntbd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.gateway.GatewayServer;
import io.cosmolab.gateway.TlsSockets;
import java.io.IOException;
import java.nio.file.Path;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --max-connections} bounds the direct-mode listener as it bounds the HTTP listener. */
class DirectListenerConnectionCapTest {
  @TempDir Path certs;

  @Test
  void aConnectionOverTheCap_isClosedBeforeItsHandshake_andOneFitsAgainOnceAnotherCloses()
      throws Exception {
    try (CosmosEngine engine = CosmosEngine.builder().build();
        GatewayServer server =
            GatewayServer.builder(engine)
                .port(0)
                .certificateDirectory(certs)
                .withoutAuthentication()
                .maxConnections(1)
                .start()) {
      assertThat(server.connectionLimits().maxConnections()).isEqualTo(1);
      SSLSocket first = TlsSockets.connect(server.directPort());
      assertThatThrownBy(() -> TlsSockets.connect(server.directPort()).close())
          .isInstanceOf(IOException.class);
      first.close();
      // the place is given back when the server's side of the channel has closed: soon, not at once
      long deadline = System.nanoTime() + 10_000_000_000L;
      SSLSocket again = null;
      while (again == null) {
        try {
          again = TlsSockets.connect(server.directPort());
        } catch (IOException e) {
          if (System.nanoTime() > deadline) {
            throw e;
          }
          Thread.sleep(50);
        }
      }
      again.close();
    }
  }
}
