package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.gateway.RawConnection.Ending;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The connection limits over real loopback sockets, for each transport (the subclasses name it and
 * say how they start a server): a slow request and an idle connection are closed after their
 * timeouts, and a connection over the cap is refused until others close. The timeouts are a second
 * or two, so the suite takes seconds.
 */
abstract class ConnectionLimitsContract {
  /** A server under test. */
  interface Server extends AutoCloseable {
    int port();

    @Override
    void close();
  }

  abstract Server serve(int maxConnections, Duration requestReadTimeout, Duration idleTimeout);

  /** Whether a connection over the cap gets a 503 before it is closed (else it is only closed). */
  abstract boolean refusalsAreAnswered();

  private static final Duration SHORT = Duration.ofSeconds(1);
  private static final Duration LONG = Duration.ofSeconds(60);

  @Test
  void halfARequestLine_isClosedAfterTheRequestReadTimeout() throws IOException {
    try (Server server = serve(100, SHORT, LONG);
        RawConnection c = new RawConnection(server.port())) {
      long t0 = System.nanoTime();
      c.send("GET /dbs HT");
      assertThat(c.awaitEnd(10_000)).isEqualTo(Ending.CLOSED);
      assertThat(millisSince(t0)).isBetween(500L, 6_000L);
    }
  }

  @Test
  void aKeptAliveConnection_isServedAgain_thenClosedCleanlyAfterTheIdleTimeout()
      throws IOException {
    try (Server server = serve(100, LONG, SHORT);
        RawConnection c = new RawConnection(server.port())) {
      assertThat(c.exchange(RawConnection.get("/")).status()).isEqualTo(200);
      assertThat(c.exchange(RawConnection.get("/")).status()).isEqualTo(200);
      long t0 = System.nanoTime();
      assertThat(c.awaitEnd(10_000)).isEqualTo(Ending.CLOSED);
      assertThat(millisSince(t0)).isBetween(500L, 6_000L);
    }
  }

  @Test
  void overTheCap_aConnectionIsRefused_andOnceOthersCloseNewOnesAreServed() throws Exception {
    try (Server server = serve(5, LONG, LONG)) {
      List<RawConnection> open = new ArrayList<>();
      try {
        for (int i = 0; i < 5; i++) {
          RawConnection c = new RawConnection(server.port());
          open.add(c);
          assertThat(c.exchange(RawConnection.get("/")).status()).isEqualTo(200);
        }
        try (RawConnection sixth = new RawConnection(server.port())) {
          if (refusalsAreAnswered()) {
            RawConnection.Response r = sixth.read(); // sent without waiting for a request
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.headers()).containsEntry("retry-after", "1");
            assertThat(r.headers()).containsEntry("connection", "close");
            assertThat(SignedClient.JSON.readTree(r.body()).get("code").asText())
                .isEqualTo("ServiceUnavailable");
            assertThat(r.body()).contains("maximum of 5 connections");
          }
          assertThat(sixth.awaitEnd(5_000)).isIn(Ending.CLOSED, Ending.RESET);
        }
        open.remove(0).close();
        open.remove(0).close();
        assertThat(servedWithin(server, 10_000)).isTrue();
        for (RawConnection c : open) { // the ones kept are still served
          assertThat(c.exchange(RawConnection.get("/")).status()).isEqualTo(200);
        }
      } finally {
        for (RawConnection c : open) {
          c.close();
        }
      }
    }
  }

  /** Whether a new connection gets a 200 within {@code millis} (the count falls on close). */
  private static boolean servedWithin(Server server, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000;
    while (System.nanoTime() < deadline) {
      try (RawConnection c = new RawConnection(server.port())) {
        if (c.exchange(RawConnection.get("/")).status() == 200) {
          return true;
        }
      } catch (IOException refused) {
        // closed while the server still counts the old ones: try again
      }
      Thread.sleep(50);
    }
    return false;
  }

  private static long millisSince(long t0) {
    return (System.nanoTime() - t0) / 1_000_000;
  }
}
