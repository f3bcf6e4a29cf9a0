package io.cosmolab.gateway.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import javax.net.ssl.SSLContext;

/**
 * The gateway over the JDK's own HTTP server ({@code com.sun.net.httpserver}): the light transport,
 * for embedding. It loads about a tenth of the classes Netty does, so a test JVM's first server
 * starts in roughly half the time; Netty stays the transport of {@code cosmolab serve}, for its
 * throughput. Both answer through {@link Exchanges}, so a request gets the same response from
 * either.
 *
 * <p>One difference shows: a request that cannot be parsed as HTTP at all is answered by the JDK's
 * server itself, before any handler, with a 400 and its own short HTML body rather than the
 * service's JSON error. Every request that parses gets the same answer as over Netty.
 *
 * <p>Each exchange runs on a thread of a cached pool (daemon threads): the JDK server reads a
 * connection's next request only after the previous response, so responses stay in order.
 */
public final class JdkHttpTransport implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.cosmolab.gateway");

  private final HttpServer server;
  private final ExecutorService threads;

  private JdkHttpTransport(HttpServer server, ExecutorService threads) {
    this.server = server;
    this.threads = threads;
  }

  /**
   * Binds and starts serving.
   *
   * @param tls the server's TLS context, or null for plain HTTP
   * @param maxBodyBytes larger request bodies are answered with 413 and the connection closed
   * @throws IOException if the address cannot be bound
   */
  public static JdkHttpTransport start(
      InetSocketAddress bindTo,
      SSLContext tls,
      int maxBodyBytes,
      Function<WireRequest, WireResponse> protocol)
      throws IOException {
    HttpServer server;
    if (tls != null) {
      HttpsServer https = HttpsServer.create(bindTo, 1024);
      https.setHttpsConfigurator(new HttpsConfigurator(tls));
      server = https;
    } else {
      server = HttpServer.create(bindTo, 1024);
    }
    ExecutorService threads = Executors.newCachedThreadPool(daemonThreads());
    server.setExecutor(threads);
    String scheme = tls != null ? "https" : "http";
    server.createContext("/", exchange -> serve(exchange, protocol, scheme, maxBodyBytes));
    server.start();
    return new JdkHttpTransport(server, threads);
  }

  private static ThreadFactory daemonThreads() {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "cosmolab-http-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** The bound port (the one chosen when 0 was asked for). */
  public int port() {
    return server.getAddress().getPort();
  }

  /** Stops accepting, lets exchanges in flight finish for up to two seconds, ends the threads. */
  @Override
  public void close() {
    server.stop(0);
    threads.shutdown();
    try {
      if (!threads.awaitTermination(2, TimeUnit.SECONDS)) {
        threads.shutdownNow();
      }
    } catch (InterruptedException e) {
      threads.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  private static void serve(
      HttpExchange exchange,
      Function<WireRequest, WireResponse> protocol,
      String scheme,
      int maxBodyBytes) {
    try {
      Map<String, String> headers = new HashMap<>();
      for (Map.Entry<String, List<String>> e : exchange.getRequestHeaders().entrySet()) {
        List<String> values = e.getValue();
        if (!values.isEmpty()) {
          headers.put(e.getKey().toLowerCase(Locale.ROOT), values.get(values.size() - 1));
        }
      }
      String activityId = Exchanges.activityIdOf(headers.get(Headers.ACTIVITY_ID));
      byte[] body = readBody(exchange.getRequestBody(), maxBodyBytes);
      if (body == null) {
        write(exchange, Exchanges.tooLarge(maxBodyBytes, activityId), activityId, false);
        return;
      }
      WireResponse response =
          Exchanges.handle(
              protocol,
              exchange.getRequestMethod(),
              exchange.getRequestURI().getRawPath(),
              headers,
              body,
              scheme,
              activityId);
      write(exchange, response, activityId, !Exchanges.closesConnection(response));
    } catch (IOException | UncheckedIOException e) {
      // The client went away mid-exchange: nothing to answer, nothing to keep.
      LOG.log(Level.DEBUG, "exchange ended after: " + e);
    } finally {
      exchange.close();
    }
  }

  /** The whole body, or null when it is longer than {@code max} (the rest is left unread). */
  private static byte[] readBody(InputStream in, int max) throws IOException {
    byte[] body = in.readNBytes(max + 1);
    return body.length > max ? null : body;
  }

  private static void write(
      HttpExchange exchange, WireResponse response, String activityId, boolean keepAlive)
      throws IOException {
    com.sun.net.httpserver.Headers h = exchange.getResponseHeaders();
    Exchanges.responseHeaders(response, activityId).forEach(h::set);
    if (!keepAlive) {
      h.set("connection", "close");
    }
    byte[] body = response.body();
    boolean noBody = body.length == 0 || response.status() == 204 || response.status() == 304;
    exchange.sendResponseHeaders(response.status(), noBody ? -1 : body.length);
    if (!noBody) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }
}
