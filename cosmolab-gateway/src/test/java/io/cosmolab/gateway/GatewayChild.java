package io.cosmolab.gateway;

import io.cosmolab.engine.CosmosEngine;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A gateway in a process of its own, for the tests that need one: the JDK transport's limits are
 * process-wide, and running out of file descriptors must not take the test JVM with it. Prints
 * {@code port <n>} once it serves plain HTTP on loopback, without authentication; stops on SIGTERM
 * as {@code cosmolab serve} does, printing {@code closed} when done.
 *
 * <p>Arguments, each optional: {@code --transport NETTY|JDK}, {@code --max-connections <n>}, {@code
 * --request-read-timeout-ms <ms>}, {@code --idle-timeout-ms <ms>}.
 */
public final class GatewayChild {
  private GatewayChild() {}

  public static void main(String[] args) throws InterruptedException {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    CosmosEngine engine = CosmosEngine.builder().build();
    GatewayServer.Builder b =
        GatewayServer.builder(engine).port(0).host("127.0.0.1").plainHttp().withoutAuthentication();
    for (int i = 0; i + 1 < args.length; i += 2) {
      String value = args[i + 1];
      switch (args[i]) {
        case "--transport" -> b.transport(GatewayServer.Transport.valueOf(value));
        case "--max-connections" -> b.maxConnections(Integer.parseInt(value));
        case "--request-read-timeout-ms" ->
            b.requestReadTimeout(Duration.ofMillis(Long.parseLong(value)));
        case "--idle-timeout-ms" -> b.idleTimeout(Duration.ofMillis(Long.parseLong(value)));
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    GatewayServer server = b.start();
    if (!LoggingWarmUp.awaitDone(10_000)) { // the JDK transport warms up in the background
      throw new IllegalStateException("the logging warm-up did not finish in 10 s");
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    server.close();
                    engine.close();
                    out.println("closed");
                  } finally {
                    stopped.countDown();
                  }
                },
                "gateway-child-shutdown"));
    out.println("cap " + server.connectionLimits().maxConnections());
    out.println("port " + server.port());
    stopped.await();
  }
}
