package io.cosmolab.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A request is from loopback only when its connection's peer is a loopback address. */
class ExchangesPeerTest {

  private static boolean fromLoopback(SocketAddress peer) {
    AtomicReference<WireRequest> seen = new AtomicReference<>();
    Exchanges.handle(
        r -> {
          seen.set(r);
          return WireResponse.json(200, null, Map.of());
        },
        "GET",
        "/_explorer/api/account",
        Map.of("host", "localhost"),
        new byte[0],
        "http",
        "a",
        System.nanoTime(),
        peer,
        WireRequest.NEVER_ABANDONED);
    return seen.get().fromLoopback();
  }

  private static InetSocketAddress peer(int... bytes) throws UnknownHostException {
    byte[] b = new byte[bytes.length];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) bytes[i];
    }
    return new InetSocketAddress(InetAddress.getByAddress(b), 5000);
  }

  @Test
  void loopbackPeers_areFromLoopback() throws UnknownHostException {
    assertThat(fromLoopback(peer(127, 0, 0, 1))).isTrue();
    assertThat(fromLoopback(peer(127, 8, 9, 10))).isTrue();
    assertThat(fromLoopback(peer(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))).isTrue();
  }

  @Test
  void otherPeers_orNone_areNot() throws UnknownHostException {
    assertThat(fromLoopback(peer(10, 1, 2, 3))).isFalse();
    assertThat(fromLoopback(peer(192, 168, 0, 7))).isFalse();
    assertThat(fromLoopback(InetSocketAddress.createUnresolved("localhost", 5000))).isFalse();
    assertThat(fromLoopback(null)).isFalse();
  }
}
