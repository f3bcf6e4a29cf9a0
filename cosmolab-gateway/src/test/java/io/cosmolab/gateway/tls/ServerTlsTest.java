package io.cosmolab.gateway.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cosmolab.gateway.tls.internal.ServerTls;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.OpenSslContext;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which TLS engine a server's connections get, and when: the choices and the move of auto. */
class ServerTlsTest {
  @TempDir Path certs;

  @Test
  void aChoiceParses_inAnyCase_andAnUnknownOneNamesTheChoices() {
    assertThat(TlsEngine.parse("auto")).isEqualTo(TlsEngine.AUTO);
    assertThat(TlsEngine.parse(" JDK ")).isEqualTo(TlsEngine.JDK);
    assertThat(TlsEngine.parse("OpenSSL")).isEqualTo(TlsEngine.OPENSSL);
    assertThatThrownBy(() -> TlsEngine.parse("boringssl"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("TLS engine must be auto, jdk or openssl, was 'boringssl'");
    assertThatThrownBy(() -> TlsEngine.parse(null)).hasMessageContaining("auto, jdk or openssl");
  }

  @Test
  void auto_opensOnTheJdksEngine_andMovesToBoringSslInTheBackground() throws Exception {
    assumeTrue(TlsEngine.nativeAvailable(), "BoringSSL does not load on this platform");
    ServerTls tls =
        ServerTls.of(
            CompletableFuture.completedFuture(GatewayCertificate.loadOrCreate(certs)),
            TlsEngine.AUTO);

    assertThat(tls.current()).isInstanceOf(JdkSslContext.class);
    assertThat(tls.serving()).isEqualTo(TlsEngine.JDK);
    assertThat(tls.settled()).isNotDone(); // nothing moves until the server is up

    tls.upgradeInBackground();

    assertThat(tls.settled().get(30, TimeUnit.SECONDS)).isEqualTo(TlsEngine.OPENSSL);
    assertThat(tls.serving()).isEqualTo(TlsEngine.OPENSSL);
    assertThat(tls.current()).isInstanceOf(OpenSslContext.class);
  }

  @Test
  void jdkAndOpenssl_serveTheirEngineFromTheStart_andNeverMove() throws Exception {
    CompletableFuture<GatewayCertificate> cert =
        CompletableFuture.completedFuture(GatewayCertificate.loadOrCreate(certs));
    ServerTls jdk = ServerTls.of(cert, TlsEngine.JDK);
    jdk.upgradeInBackground();
    assertThat(jdk.settled().get(10, TimeUnit.SECONDS)).isEqualTo(TlsEngine.JDK);
    assertThat(jdk.current()).isInstanceOf(JdkSslContext.class);

    assumeTrue(TlsEngine.nativeAvailable(), "BoringSSL does not load on this platform");
    ServerTls openssl = ServerTls.of(cert, TlsEngine.OPENSSL);
    assertThat(openssl.current()).isInstanceOf(OpenSslContext.class);
    assertThat(openssl.settled().get(10, TimeUnit.SECONDS)).isEqualTo(TlsEngine.OPENSSL);
  }
}
