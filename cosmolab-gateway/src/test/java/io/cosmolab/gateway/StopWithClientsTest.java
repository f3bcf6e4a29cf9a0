package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.CosmosEngine;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Stopping the server while clients are leaving is quiet: a connection whose client closed it is
 * answered and closed on the worker after its requests, and when that comes after the event loops
 * have stopped, the server has closed the connection already; nothing fails and nothing is logged
 * as a failure. (Found by a write benchmark that stopped its server right after its clients closed:
 * Netty logged "Failed to submit a listener notification task" with a stack.)
 */
class StopWithClientsTest {
  @Test
  void stoppingTheServer_asClientsCloseTheirConnections_logsNoFailure() throws Exception {
    Logger netty = Logger.getLogger("io.netty");
    List<LogRecord> failures = new CopyOnWriteArrayList<>();
    Handler watch =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
              failures.add(r);
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    netty.addHandler(watch);
    try {
      for (int round = 0; round < 100; round++) {
        try (CosmosEngine engine = CosmosEngine.builder().build()) {
          GatewayServer server = GatewayServer.builder(engine).port(0).plainHttp().start();
          for (int c = 0; c < 4; c++) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
              OutputStream out = s.getOutputStream();
              out.write(
                  "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n"
                      .getBytes(StandardCharsets.UTF_8));
              out.flush();
              s.getInputStream().read(new byte[256]); // its answer, begun
            } // closed: the server sees its input end, answers what it has, and closes
          }
          server.close();
        }
      }
    } finally {
      netty.removeHandler(watch);
    }
    assertThat(failures).extracting(LogRecord::getMessage).isEmpty();
  }
}
