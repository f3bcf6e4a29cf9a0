package io.cosmolab.gateway.rntbd;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.gateway.GatewayServer;
import io.cosmolab.gateway.TlsSockets;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.Map;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The direct-mode listener over TLS on loopback: the context negotiation, a request answered with
 * the transport id it carried, and a malformed frame that ends its own connection only.
 */
class DirectListenerTest {
  @TempDir static Path certs;
  private static CosmosEngine engine;
  private static GatewayServer server;

  @BeforeAll
  static void start() {
    engine = CosmosEngine.builder().build();
    server =
        GatewayServer.builder(engine)
            .port(0)
            .certificateDirectory(certs)
            .withoutAuthentication()
            .start();
  }

  @AfterAll
  static void stop() {
    server.close();
    engine.close();
  }

  /** A decoded response frame: status and tokens. */
  record Answer(int status, Map<Integer, Object> tokens) {}

  private static SSLSocket connect() throws Exception {
    return TlsSockets.connect(server.directPort());
  }

  private static Answer read(InputStream in) throws IOException {
    byte[] lengthBytes = in.readNBytes(4);
    if (lengthBytes.length < 4) {
      return null;
    }
    int length = Unpooled.wrappedBuffer(lengthBytes).readIntLE();
    ByteBuf head = Unpooled.wrappedBuffer(in.readNBytes(length - 4));
    int status = head.readIntLE();
    head.skipBytes(16);
    Map<Integer, Object> tokens = FrameDecoder.readTokens(head);
    if (tokens.get(Tokens.Response.PAYLOAD_PRESENT) instanceof Byte b && b != 0) {
      byte[] n = in.readNBytes(4);
      in.readNBytes(Unpooled.wrappedBuffer(n).readIntLE());
    }
    return new Answer(status, tokens);
  }

  private static Answer exchange(SSLSocket s, byte[] frame) throws IOException {
    s.getOutputStream().write(frame);
    s.getOutputStream().flush();
    return read(s.getInputStream());
  }

  @Test
  void contextNegotiation_answers200WithTheServersAgent() throws Exception {
    try (SSLSocket s = connect()) {
      Answer context = exchange(s, Frames.context());
      assertThat(context.status()).isEqualTo(200);
      assertThat(context.tokens()).containsEntry(Tokens.Context.SERVER_AGENT, "cosmolab");
    }
  }

  @Test
  void aRequest_isAnsweredWithItsTransportIdAndTheGatewaysError() throws Exception {
    try (SSLSocket s = connect()) {
      exchange(s, Frames.context());
      Answer missing = exchange(s, Frames.readDatabase("no-such-db", 42));
      assertThat(missing.status()).isEqualTo(404);
      assertThat(missing.tokens()).containsEntry(Tokens.Response.TRANSPORT_REQUEST_ID, 42L);
      assertThat(missing.tokens()).containsKey(Tokens.Response.LSN);
    }
  }

  @Test
  void aMalformedFrame_closesItsConnection_andTheOthersKeepServing() throws Exception {
    try (SSLSocket healthy = connect();
        SSLSocket broken = connect()) {
      exchange(healthy, Frames.context());
      exchange(broken, Frames.context());
      broken.getOutputStream().write(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x7F, 1});
      broken.getOutputStream().flush();
      assertThat(endOfStream(broken.getInputStream())).isTrue();
      Answer after = exchange(healthy, Frames.readDatabase("still-here", 7));
      assertThat(after.status()).isEqualTo(404);
      assertThat(after.tokens()).containsEntry(Tokens.Response.TRANSPORT_REQUEST_ID, 7L);
    }
  }

  @Test
  void aMalformedFrame_afterRequests_isPrecededByTheirAnswers() throws Exception {
    try (SSLSocket s = connect()) {
      exchange(s, Frames.context());
      java.io.ByteArrayOutputStream burst = new java.io.ByteArrayOutputStream();
      for (long id = 1; id <= 20; id++) {
        burst.write(Frames.readDatabase("missing-" + id, id)); // answered by workers
      }
      burst.write(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x7F, 1}); // then garbage
      s.getOutputStream().write(burst.toByteArray()); // in one write: one read on the server
      s.getOutputStream().flush();
      java.util.Set<Object> answered = new java.util.TreeSet<>();
      for (Answer a; (a = readOrEnd(s.getInputStream())) != null; ) {
        assertThat(a.status()).isEqualTo(404);
        answered.add(a.tokens().get(Tokens.Response.TRANSPORT_REQUEST_ID));
      }
      assertThat(answered).hasSize(20); // every one answered, then the connection ended
    }
  }

  /** The next answer, or null once the server has closed the connection. */
  private static Answer readOrEnd(InputStream in) throws IOException {
    try {
      return read(in);
    } catch (javax.net.ssl.SSLException | java.net.SocketException e) {
      return null; // TLS's close, or a reset: closed all the same
    }
  }

  private static boolean endOfStream(InputStream in) throws IOException {
    try {
      return in.read() == -1;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) { // a reset, or TLS's close: closed all the same
      return true;
    }
  }
}
