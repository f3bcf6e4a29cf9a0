package io.cosmolab.gateway.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.gateway.ConnectionLimits;
import io.cosmolab.gateway.wire.ErrorResponses;
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
 *
 * <p>Connection limits are the JDK server's own, which it reads from system properties once per
 * JVM, when its first server is created ({@link #configure}); so the first JDK-transport server
 * fixes them for every later one in the process. Over the cap the JDK's server closes a new
 * connection at once, without the 503 the Netty transport answers.
 */
public final class JdkHttpTransport implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.cosmolab.gateway");

  private final HttpServer server;
  private final ExecutorService threads;

  /** The limits the JDK's server was configured with in this JVM, or null before the first. */
  private static ConnectionLimits configured;

  /** The limits as the first server asked for them (its cap perhaps still the default). */
  private static ConnectionLimits configuredAs;

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

  /*
   * The JDK's server (sun.net.httpserver.ServerConfig, JDK 21 to 25) reads these once, when its
   * classes initialise:
   *
   *   jdk.httpserver.maxConnections       open connections at most; one more is closed at once
   *   sun.net.httpserver.maxReqTime       seconds to read a request, headers and body (the module
   *                                       docs say milliseconds; the code multiplies by 1000)
   *   sun.net.httpserver.idleInterval     seconds a kept-alive connection may idle; a new one that
   *                                       sends nothing is closed after the lesser of the two
   *   sun.net.httpserver.maxIdleConnections   idle connections kept, past which they are closed
   *   sun.net.httpserver.clockTick        ms between idle checks (default 10 s)
   *   sun.net.httpserver.timerMillis      ms between request-time checks (default 1 s)
   *
   * So they are set before the first server is created, and a later server asking for other
   * limits is refused rather than silently given the first one's.
   */

  /**
   * Sets the JDK server's limits for this JVM, the first time; later calls must ask for the same.
   *
   * @return the limits in force, the cap decided
   * @throws IllegalStateException if a server in this JVM already fixed other limits
   */
  public static synchronized ConnectionLimits configure(ConnectionLimits wanted) {
    if (configured != null) {
      if (!wanted.equals(configuredAs) && !wanted.equals(configured)) {
        throw new IllegalStateException(
            "the JDK transport's connection limits are process-wide (its HTTP server reads them"
                + " once per JVM) and were already set to "
                + configured
                + "; this server asks for "
                + wanted
                + ". Use the same limits, or the Netty transport, whose limits are per server");
      }
      return configured;
    }
    ConnectionLimits limits = wanted.resolved();
    long requestSeconds = ceilSeconds(limits.requestReadTimeout());
    long idleSeconds = ceilSeconds(limits.idleTimeout());
    long shorter = Math.min(requestSeconds, idleSeconds) * 1000;
    System.setProperty("jdk.httpserver.maxConnections", Integer.toString(limits.maxConnections()));
    System.setProperty(
        "sun.net.httpserver.maxIdleConnections", Integer.toString(limits.maxConnections()));
    System.setProperty("sun.net.httpserver.maxReqTime", Long.toString(requestSeconds));
    System.setProperty("sun.net.httpserver.idleInterval", Long.toString(idleSeconds));
    System.setProperty(
        "sun.net.httpserver.clockTick", Long.toString(clamp(shorter / 4, 100, 10_000)));
    System.setProperty(
        "sun.net.httpserver.timerMillis",
        Long.toString(clamp(requestSeconds * 1000 / 4, 100, 1000)));
    configured = limits;
    configuredAs = wanted;
    return limits;
  }

  private static long ceilSeconds(java.time.Duration d) {
    long s = d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
    return Math.max(1, s);
  }

  private static long clamp(long v, long min, long max) {
    return Math.max(min, Math.min(max, v));
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
    try {
      server.stop(0);
    } catch (RuntimeException e) { // closing must go on: the threads are released below
      LOG.log(Level.DEBUG, "stopping the JDK server: " + e);
    }
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

  /**
   * The request target as sent: the path and query, after the scheme and authority of an absolute
   * form, which {@link Exchanges} then reads as the Host.
   */
  private static String target(java.net.URI uri) {
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    String pathAndQuery = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
    return uri.isAbsolute() && uri.getRawAuthority() != null
        ? uri.getScheme() + "://" + uri.getRawAuthority() + pathAndQuery
        : pathAndQuery;
  }

  private static void serve(
      HttpExchange exchange,
      Function<WireRequest, WireResponse> protocol,
      String scheme,
      int maxBodyBytes) {
    long received = System.nanoTime(); // the latency's start: the JDK server hands over at once
    try {
      Map<String, String> headers = new HashMap<>();
      int hosts = 0;
      for (Map.Entry<String, List<String>> e : exchange.getRequestHeaders().entrySet()) {
        List<String> values = e.getValue();
        if (!values.isEmpty()) {
          headers.put(e.getKey().toLowerCase(Locale.ROOT), values.get(values.size() - 1));
        }
        if (e.getKey().equalsIgnoreCase("host")) {
          hosts += values.size();
        }
      }
      String activityId = Exchanges.activityIdOf(headers.get(Headers.ACTIVITY_ID));
      if (hosts > 1) { // RFC 9112 3.2: the DNS-rebinding guard reads one (RequestFraming for Netty)
        write(
            exchange,
            ErrorResponses.of(
                CosmosError.BAD_REQUEST,
                "the request is not valid HTTP/1.1: " + RequestFraming.tooManyHosts(hosts),
                activityId),
            activityId,
            false);
        return;
      }
      byte[] body = readBody(exchange.getRequestBody(), maxBodyBytes);
      if (body == null) {
        // Read (and drop) what the client is still sending before answering: a socket closed with
        // unread data sends a reset, which can discard the 413 before the client reads it. A body
        // longer than that is abuse, and gets the reset.
        drain(exchange.getRequestBody(), DRAIN_LIMIT_BYTES);
        write(exchange, Exchanges.tooLarge(maxBodyBytes, activityId), activityId, false);
        return;
      }
      WireResponse response =
          Exchanges.handle(
              protocol,
              exchange.getRequestMethod(),
              target(exchange.getRequestURI()),
              headers,
              body,
              scheme,
              activityId,
              received,
              exchange.getRemoteAddress(),
              // the JDK's server does not say when a client has gone: its queries run to the end
              // of their page (the Netty transport stops them)
              WireRequest.NEVER_ABANDONED);
      write(exchange, response, activityId, !Exchanges.closesConnection(response));
    } catch (IOException | UncheckedIOException e) {
      // The client went away mid-exchange: nothing to answer, nothing to keep.
      LOG.log(Level.DEBUG, "exchange ended after: " + e);
    } finally {
      exchange.close();
    }
  }

  /** How much of an oversized body is read and dropped so that its 413 arrives. */
  private static final long DRAIN_LIMIT_BYTES = 16L * 1024 * 1024;

  private static void drain(InputStream in, long limit) throws IOException {
    byte[] sink = new byte[64 * 1024];
    long left = limit;
    for (int n; left > 0 && (n = in.read(sink, 0, (int) Math.min(sink.length, left))) > 0; ) {
      left -= n;
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
    Exchanges.responseHeaders(response, activityId, h::set);
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
