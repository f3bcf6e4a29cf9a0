package io.cosmolab.gateway.rntbd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.gateway.GatewayServer;
import io.cosmolab.gateway.TlsSockets;
import io.cosmolab.gateway.tls.TlsEngine;
import io.netty.buffer.Unpooled;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each TLS engine a server can be asked for serves HTTPS and direct mode, with the same
 * certificate, to the JDK's client.
 */
class TlsEnginesTest {
  @TempDir Path certs;

  @ParameterizedTest
  @EnumSource(TlsEngine.class)
  void eachEngine_servesHttpsAndDirectMode(TlsEngine asked) throws Exception {
    if (asked != TlsEngine.JDK) {
      assumeTrue(TlsEngine.nativeAvailable(), "BoringSSL does not load on this platform");
    }
    try (CosmosEngine engine = CosmosEngine.builder().build();
        GatewayServer server =
            GatewayServer.builder(engine)
                .port(0)
                .certificateDirectory(certs)
                .withoutAuthentication()
                .tlsEngine(asked)
                .start()) {
      TlsEngine settled = server.tlsEngineSettled().get(30, TimeUnit.SECONDS);
      assertThat(settled).isEqualTo(asked == TlsEngine.JDK ? TlsEngine.JDK : TlsEngine.OPENSSL);
      assertThat(server.tlsEngine()).isEqualTo(settled);

      try (SSLSocket s = TlsSockets.connect(server.port())) {
        assertThat(s.getSession().getProtocol()).isEqualTo("TLSv1.3");
        s.getOutputStream()
            .write(
                "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        String statusLine =
            new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII))
                .readLine();
        assertThat(statusLine).isEqualTo("HTTP/1.1 200 OK");
      }
      try (SSLSocket s = TlsSockets.connect(server.directPort())) {
        s.getOutputStream().write(Frames.context());
        s.getOutputStream().flush();
        byte[] head = s.getInputStream().readNBytes(8); // length, then status
        assertThat(Unpooled.wrappedBuffer(head, 4, 4).readIntLE()).isEqualTo(200);
      }
    }
  }
}
