package io.cosmolab.gateway.rntbd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.gateway.GatewayServer;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
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
      SSLSocket first = connect(server.directPort());
      assertThatThrownBy(() -> connect(server.directPort()).close())
          .isInstanceOf(IOException.class);
      first.close();
      // the place is given back when the server's side of the channel has closed: soon, not at once
      long deadline = System.nanoTime() + 10_000_000_000L;
      SSLSocket again = null;
      while (again == null) {
        try {
          again = connect(server.directPort());
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

  private static SSLSocket connect(int port) throws Exception {
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, new TrustManager[] {new TrustAll()}, null);
    SSLSocket s =
        (SSLSocket) tls.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(), port);
    s.setSoTimeout(10_000);
    try {
      s.startHandshake();
    } catch (IOException e) {
      s.close();
      throw e;
    }
    return s;
  }

  private static final class TrustAll implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
