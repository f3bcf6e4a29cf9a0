package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A server that runs out of file descriptors keeps serving once they are free, and stops on
 * SIGTERM. Regression: under {@code ulimit -n}, more idle connections than descriptors made {@code
 * accept()} fail; the warning logged for it loaded the time-zone file, whose {@code
 * NoClassDefFoundError} ended Netty's boss loop, so the server never accepted again and {@code
 * close()} threw on the dead loop. Each case runs a server in a child JVM under {@code ulimit -n
 * 256} and opens 300 connections to it.
 */
class DescriptorExhaustionTest {
  private static final int DESCRIPTOR_LIMIT = 256;
  private static final int CONNECTIONS = 300;

  @BeforeAll
  static void needsBashWithUlimit() throws InterruptedException {
    boolean available;
    try {
      Process p =
          new ProcessBuilder("bash", "-c", "ulimit -n " + DESCRIPTOR_LIMIT + " && ulimit -n")
              .redirectErrorStream(true)
              .start();
      available =
          p.waitFor(10, TimeUnit.SECONDS)
              && p.exitValue() == 0
              && new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)
                  .trim()
                  .equals(Integer.toString(DESCRIPTOR_LIMIT));
    } catch (IOException e) {
      available = false;
    }
    assumeTrue(available, "needs bash and ulimit -n to limit a child's descriptors");
  }

  @ParameterizedTest(name = "{0}, cap {1}")
  @CsvSource({
    // the cap far above the limit: accept() itself fails (EMFILE) and must survive it
    "NETTY, 10000",
    "JDK, 10000",
    // the default cap, which stays below the limit: refusals instead of failed accepts
    "NETTY, 0",
  })
  void moreConnectionsThanDescriptors_thenServedAgain_andSigtermStopsIt(String transport, int cap)
      throws Exception {
    List<String> args = new ArrayList<>(List.of("--transport", transport));
    if (cap > 0) {
      args.addAll(List.of("--max-connections", Integer.toString(cap)));
    }
    try (ChildGateway child = ChildGateway.start(DESCRIPTOR_LIMIT, args.toArray(String[]::new))) {
      assertThat(served(child.port(), 10_000)).as(child.output()).isTrue();
      int connected = 0;
      int refused = 0;
      List<Socket> flood = new ArrayList<>();
      try {
        for (int i = 0; i < CONNECTIONS; i++) {
          Socket s = new Socket();
          flood.add(s);
          try {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), child.port()), 2000);
            connected++;
          } catch (IOException e) {
            refused++; // the backlog may fill while accept() fails: that is the point
          }
        }
        Thread.sleep(1000); // the server meets the limit while all are open
      } finally {
        for (Socket s : flood) {
          s.close();
        }
      }
      assertThat(connected + refused).isEqualTo(CONNECTIONS);
      assertThat(served(child.port(), 15_000))
          .as("served again after the connections closed\n%s", child.output())
          .isTrue();
      long t0 = System.nanoTime();
      boolean exited = child.terminate(15);
      long stopMillis = (System.nanoTime() - t0) / 1_000_000;
      assertThat(exited).as("exited on SIGTERM\n%s", child.output()).isTrue();
      System.out.printf(
          "%s cap %d (decided %d): %d connected, %d refused; exit %d ms after SIGTERM%n",
          transport, cap, child.cap(), connected, refused, stopMillis);
      String output = child.output();
      assertThat(output).doesNotContain("NoClassDefFoundError", "ExceptionInInitializerError");
      if (transport.equals("NETTY")) {
        assertThat(output).contains("closed"); // the shutdown hook finished closing
      }
      if (cap == 0) {
        assertThat(child.cap()).isLessThan(DESCRIPTOR_LIMIT);
        assertThat(output).doesNotContain("Too many open files");
      }
    }
  }

  /** Whether {@code GET /} gets a 200 within {@code millis}, retrying on new connections. */
  private static boolean served(int port, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000;
    while (System.nanoTime() < deadline) {
      try (RawConnection c = new RawConnection(port)) {
        if (c.exchange(RawConnection.get("/")).status() == 200) {
          return true;
        }
      } catch (IOException e) {
        // not yet: the server may still be paused, or closing the last of the flood
      }
      Thread.sleep(100);
    }
    return false;
  }
}
