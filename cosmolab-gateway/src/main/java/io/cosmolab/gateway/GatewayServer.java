package io.cosmolab.gateway;

import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.alerts.AlertEvaluator;
import io.cosmolab.engine.alerts.AlertEvent;
import io.cosmolab.engine.alerts.AlertRules;
import io.cosmolab.engine.limits.Limits;
import io.cosmolab.gateway.auth.HostCheck;
import io.cosmolab.gateway.auth.MasterKeyAuthenticator;
import io.cosmolab.gateway.http.GatewayChannelInitializer;
import io.cosmolab.gateway.http.GuardedServerSocketChannel;
import io.cosmolab.gateway.http.JdkHttpTransport;
import io.cosmolab.gateway.http.WorkerPool;
import io.cosmolab.gateway.observe.Observability;
import io.cosmolab.gateway.observe.ObservedProtocol;
import io.cosmolab.gateway.resources.LoopPolicy;
import io.cosmolab.gateway.resources.Protocol;
import io.cosmolab.gateway.tls.GatewayCertificate;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;

/**
 * The cosmolab server: the Cosmos DB REST protocol over HTTP/1.1 (HTTPS by default) in front of a
 * {@link CosmosEngine}, so the official SDKs connect to it with only their endpoint changed.
 *
 * <pre>{@code
 * try (GatewayServer server = GatewayServer.builder(engine).port(0).start()) {
 *   URI endpoint = server.endpoint();   // https://localhost:<port>/
 * }
 * }</pre>
 *
 * Over HTTPS it also listens for the Java SDK's default connection mode, direct (RNTBD over TLS),
 * on {@link #directPort()}, which {@code /addresses} names ({@code docs/direct-mode.md}).
 *
 * <p>Binds to loopback unless told otherwise. {@link #close()} stops accepting, lets requests in
 * flight finish, and releases the threads; it does not close the engine, which the caller owns.
 *
 * <p>Connections are limited ({@link ConnectionLimits}, {@code docs/gateway.md} "Connections"): a
 * request must be sent within 30 s, a kept-alive connection may be idle 120 s, a TLS handshake may
 * take 10 s, and at most 1,000 connections are served at once (fewer when the descriptor limit
 * leaves less room); one more gets a 503.
 */
public final class GatewayServer implements AutoCloseable {

  /** How the server speaks HTTP. Both answer every request alike (through the same code). */
  public enum Transport {
    /** Netty: the throughput of {@code cosmolab serve} (the default). */
    NETTY,
    /**
     * The JDK's own HTTP server: far fewer classes, so a JVM's first server starts in about half
     * the time. For embedding in tests; its throughput is lower.
     */
    JDK
  }

  /** A running transport. */
  private interface Listener {
    int port();

    /** The event-loop threads it reads and writes its connections on (none on the JDK's). */
    int eventLoops();

    void close();
  }

  private final Listener listener;
  private final URI endpoint;
  private final GatewayCertificate certificate;
  private final Transport transport;
  private final ConnectionLimits limits;
  private final Observability observability;

  /** The direct-mode listener and the workers it owns (null when it shares the gateway's). */
  private io.cosmolab.gateway.rntbd.DirectListener direct;

  private WorkerPool directWorkers;

  private GatewayServer(
      Listener listener,
      URI endpoint,
      GatewayCertificate certificate,
      Transport transport,
      ConnectionLimits limits,
      Observability observability) {
    this.listener = listener;
    this.endpoint = endpoint;
    this.certificate = certificate;
    this.transport = transport;
    this.limits = limits;
    this.observability = observability;
  }

  public static Builder builder(CosmosEngine engine) {
    return new Builder(engine);
  }

  /** The endpoint clients use, {@code https://localhost:<port>/} (or http with plain HTTP). */
  public URI endpoint() {
    return endpoint;
  }

  /** The port the server listens on (the one chosen when 0 was asked for). */
  public int port() {
    return listener.port();
  }

  /**
   * The port of the direct-mode (RNTBD) listener, which the Java SDK's default connection mode
   * uses; 0 when direct mode is off (plain HTTP, or {@link Builder#withoutDirectMode()}).
   */
  public int directPort() {
    return direct == null ? 0 : direct.port();
  }

  /**
   * The event-loop threads each Netty listener runs, the HTTP one and the direct-mode one alike
   * ({@link Builder#eventLoopThreads}), as their groups were made.
   */
  public int eventLoopThreads() {
    return direct != null ? direct.eventLoops() : listener.eventLoops();
  }

  /** The TLS certificate served, or null with plain HTTP. */
  public GatewayCertificate certificate() {
    return certificate;
  }

  public boolean isTls() {
    return certificate != null;
  }

  public Transport transport() {
    return transport;
  }

  /** The connection limits in force, the cap decided. */
  public ConnectionLimits connectionLimits() {
    return limits;
  }

  /** The alert rules being evaluated, once a second on the engine's clock, and their alerts. */
  public io.cosmolab.engine.alerts.AlertEvaluator alerts() {
    return observability.alerts();
  }

  /** True unless the server was built {@link Builder#metrics(boolean) without metrics}. */
  public boolean metricsEnabled() {
    return observability.metricsEnabled();
  }

  /**
   * Stops the server, within about {@value #CLOSE_SECONDS} seconds whatever state its threads are
   * in, and never throws: a server whose event loop has died is closed all the same.
   */
  @Override
  public void close() {
    try {
      if (direct != null) {
        direct.closeConnections();
      }
      listener.close();
    } finally {
      // the direct workers before the direct loops: a request a worker still holds writes its
      // answer through its connection's loop
      if (directWorkers != null) {
        directWorkers.close(Duration.ofSeconds(1));
      }
      if (direct != null) {
        direct.closeLoops();
      }
      observability.close();
    }
  }

  /** The longest {@link #close()} takes. */
  static final long CLOSE_SECONDS = 10;

  /** The Netty transport's channel and threads. */
  private record NettyListener(
      GuardedServerSocketChannel channel,
      ChannelGroup connections,
      EventLoopGroup boss,
      EventLoopGroup io,
      WorkerPool workers)
      implements Listener {

    @Override
    public int port() {
      return channel.localAddress().getPort();
    }

    @Override
    public int eventLoops() {
      return ((io.netty.channel.MultithreadEventLoopGroup) io).executorCount();
    }

    @Override
    public void close() {
      // In order: stop accepting, close open connections (their handlers still run on the
      // workers), then stop the workers, then the event loops. The workers go first because a
      // request one still holds writes its answer through its connection's loop: handed to a
      // loop that is stopping, that write stays in the loop's queue unrun, and Netty logs "An
      // event executor terminated with non-empty task queue" (StopWithClientsTest saw it once
      // in CI). Each step waits at most its share of the time left and fails quietly: a loop
      // that has died rejects the close task, and the steps after it must run regardless.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLOSE_SECONDS);
      if (!Waits.await(() -> channel.close(), deadline, 2)) {
        channel.closeSocketNow(); // the boss loop is gone: release the port without it
      }
      Waits.await(connections::close, deadline, 3);
      workers.close(
          Duration.ofNanos(
              Math.max(0, Math.min(TimeUnit.SECONDS.toNanos(3), deadline - System.nanoTime()))));
      var bossDone = Waits.start(() -> boss.shutdownGracefully(0, 1, TimeUnit.SECONDS));
      var ioDone = Waits.start(() -> io.shutdownGracefully(0, 1, TimeUnit.SECONDS));
      Waits.await(() -> bossDone, deadline, 2);
      Waits.await(() -> ioDone, deadline, 2);
    }
  }

  /** Bounded waits that tolerate executors which have stopped. */
  private static final class Waits {
    private Waits() {}

    /** The future {@code start} returns, or null when starting it failed. */
    static io.netty.util.concurrent.Future<?> start(
        java.util.function.Supplier<io.netty.util.concurrent.Future<?>> start) {
      try {
        return start.get();
      } catch (RuntimeException e) { // a terminated executor rejects the task
        return null;
      }
    }

    /**
     * Starts an operation and waits for it, at most {@code seconds} and never past {@code
     * deadline}.
     *
     * @return true when it completed successfully in time
     */
    static boolean await(
        java.util.function.Supplier<io.netty.util.concurrent.Future<?>> operation,
        long deadline,
        long seconds) {
      io.netty.util.concurrent.Future<?> f = start(operation);
      if (f == null) {
        return false;
      }
      long wait = Math.min(TimeUnit.SECONDS.toNanos(seconds), deadline - System.nanoTime());
      return f.awaitUninterruptibly(Math.max(0, wait), TimeUnit.NANOSECONDS) && f.isSuccess();
    }
  }

  /** Configures and starts a server. */
  public static final class Builder {
    private final CosmosEngine engine;
    private int port = 8081;
    private String host = "127.0.0.1";
    private boolean tls = true;
    private Path certificateDirectory;
    private String masterKey = MasterKeyAuthenticator.EMULATOR_KEY;
    private boolean authenticate = true;
    private InstantSource authClock = wallClock();
    private Duration clockSkew = MasterKeyAuthenticator.DEFAULT_SKEW;
    private int workerThreads = Math.max(2, Runtime.getRuntime().availableProcessors() * 2);
    // twice the cores, Netty's own default: the loops run point reads, and an emulator shares its
    // cores with its clients; on 2 cores shared with a driver, one loop per core gave point reads a
    // p99 of about 2 ms, twice as many 0.7 ms (docs/benchmarks.md, "How many event loops")
    private int eventLoopThreads = Math.max(2, Runtime.getRuntime().availableProcessors() * 2);
    private Transport transport = Transport.NETTY;
    private ConnectionLimits limits = ConnectionLimits.DEFAULTS;
    private final java.util.Set<String> allowedHosts = new java.util.TreeSet<>();
    private boolean metrics = true;
    private AlertRules alertRules = AlertRules.defaults();
    private java.util.function.Consumer<AlertEvent> alertListener = AlertEvaluator.log();
    private Integer directPort; // null: the port after the gateway's, or any when that is 0
    private boolean directMode = true;

    private Builder(CosmosEngine engine) {
      if (engine == null) {
        throw new IllegalArgumentException("a gateway needs an engine to serve");
      }
      this.engine = engine;
    }

    /** The port; 0 picks a free one. Default 8081, the emulator's. */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be 0..65535, was " + port);
      }
      this.port = port;
      return this;
    }

    /**
     * The port of the direct-mode (RNTBD) listener; 0 picks a free one. Default: the gateway's port
     * + 1 (8082 beside 8081; the classic emulator also listens for direct mode on ports just above
     * its gateway's), or a free one when the gateway's port is 0.
     */
    public Builder directPort(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("directPort must be 0..65535, was " + port);
      }
      this.directPort = port;
      return this;
    }

    /**
     * Serves gateway mode only: {@code /addresses} then answers 501, telling a direct-mode client
     * to switch to gateway mode. Direct mode is also off with {@link #plainHttp()}: the SDK speaks
     * RNTBD over TLS only.
     */
    public Builder withoutDirectMode() {
      this.directMode = false;
      return this;
    }

    /** The address to bind; default 127.0.0.1 (loopback only). */
    public Builder host(String host) {
      this.host = host;
      return this;
    }

    /**
     * Plain HTTP instead of HTTPS (the Java SDK then needs
     * COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED).
     */
    public Builder plainHttp() {
      this.tls = false;
      return this;
    }

    /** Where the self-signed certificate is kept (created on first start). */
    public Builder certificateDirectory(Path dir) {
      this.certificateDirectory = dir;
      return this;
    }

    /** The master key clients sign with; default the well-known emulator key. */
    public Builder masterKey(String key) {
      this.masterKey = key;
      return this;
    }

    /** Turns signature checks off (for load tests that do not sign). */
    public Builder withoutAuthentication() {
      this.authenticate = false;
      return this;
    }

    /** The clock request dates are checked against (default: the system clock). */
    @io.cosmolab.engine.internal.SuppressForbidden(
        "clients sign x-ms-date with their wall clock, so signatures are checked against one,"
            + " whatever clock the engine runs on (a lab in virtual time included)")
    private static InstantSource wallClock() {
      return Clock.systemUTC();
    }

    public Builder authClock(InstantSource clock, Duration skew) {
      this.authClock = clock;
      this.clockSkew = skew;
      return this;
    }

    /**
     * Host names to answer besides {@code localhost}, IP addresses and the bind host: requests
     * naming any other host get 403 (the DNS-rebinding guard of {@link HostCheck}).
     */
    public Builder allowHosts(java.util.Collection<String> names) {
      for (String n : names) {
        if (n == null || n.isBlank() || n.contains("/") || n.contains(" ")) {
          throw new IllegalArgumentException(
              "an allowed host must be a host name, was '" + n + "'");
        }
        allowedHosts.add(n);
      }
      return this;
    }

    /** How to speak HTTP; default {@link Transport#NETTY}. */
    public Builder transport(Transport transport) {
      if (transport == null) {
        throw new IllegalArgumentException("transport must be NETTY or JDK, was null");
      }
      this.transport = transport;
      return this;
    }

    /**
     * The most connections served at once; one more is refused (a 503 over plain HTTP, closed over
     * TLS). Default 1,000, or fewer when the process's descriptor limit leaves less room.
     */
    public Builder maxConnections(int n) {
      this.limits = limits.withMaxConnections(n);
      return this;
    }

    /**
     * How long a client has to send a whole request: from the connect for its first request, from
     * the first byte for later ones. Default 30 s; a slower connection is closed.
     */
    public Builder requestReadTimeout(Duration timeout) {
      this.limits = limits.withRequestReadTimeout(timeout);
      return this;
    }

    /** How long a kept-alive connection may wait for its next request. Default 120 s. */
    public Builder idleTimeout(Duration timeout) {
      this.limits = limits.withIdleTimeout(timeout);
      return this;
    }

    /**
     * How long a TLS handshake may take, on the Netty gateway and on the direct-mode listener.
     * Default 10 s. The JDK transport has no separate limit: its handshake counts against the
     * request read timeout.
     */
    public Builder tlsHandshakeTimeout(Duration timeout) {
      this.limits = limits.withTlsHandshakeTimeout(timeout);
      return this;
    }

    /**
     * Netty: the threads that run requests (default twice the cores). While they are all blocked
     * and requests wait, more start, one each 50 ms, so requests that block do not hold up other
     * connections for long; the pool shrinks back once they are idle.
     */
    public Builder workerThreads(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("workerThreads must be >= 1, was " + n);
      }
      this.workerThreads = n;
      return this;
    }

    /**
     * Netty: the event loops that read, decode and write the connections (default twice the cores),
     * for the HTTP listener and, as many again, for the direct-mode listener. Of the requests they
     * run only the point reads that never wait (docs/gateway.md, "Threads and ordering").
     */
    public Builder eventLoopThreads(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("eventLoopThreads must be >= 1, was " + n);
      }
      this.eventLoopThreads = n;
      return this;
    }

    /**
     * Whether {@code /metrics} is served and requests are counted (default true). Off, the request
     * path runs without any metric code (to measure what it costs); the alert rules and the
     * explorer still work.
     */
    public Builder metrics(boolean enabled) {
      this.metrics = enabled;
      return this;
    }

    /** The alert rules to evaluate (default {@link AlertRules#defaults()}). */
    public Builder alertRules(AlertRules rules) {
      if (rules == null) {
        throw new IllegalArgumentException("alert rules must not be null; use the defaults");
      }
      this.alertRules = rules;
      return this;
    }

    /** Told of every alert start and stop (default: one line in the log for each). */
    public Builder alertListener(java.util.function.Consumer<AlertEvent> listener) {
      this.alertListener = listener;
      return this;
    }

    /**
     * Binds and starts serving.
     *
     * @throws IllegalStateException if the port is taken, naming it
     */
    public GatewayServer start() {
      if (transport == Transport.NETTY) {
        ClassPreload.startOnce(); // a cold start's class loading, on a second core
      }
      LoggingWarmUp.once();
      MasterKeyAuthenticator auth =
          authenticate ? new MasterKeyAuthenticator(masterKey, authClock, clockSkew) : null;
      // TLS set-up (crypto providers, key, SSL context) is the slowest part of a cold start; it
      // runs on its own thread while Netty's event loops come up on this one.
      Path certDir =
          certificateDirectory != null ? certificateDirectory : defaultCertificateDirectory();
      java.util.concurrent.CompletableFuture<GatewayCertificate> certFuture =
          tls
              ? java.util.concurrent.CompletableFuture.supplyAsync(
                  () -> {
                    GatewayCertificate c = GatewayCertificate.loadOrCreate(certDir);
                    c.serverContext(); // warms the JDK's TLS classes; cheap to build again
                    // one in-memory handshake, while the server binds: the first client's
                    // handshake then runs on loaded classes
                    Thread warm = new Thread(c::warmUp, "cosmolab-tls-warm-up");
                    warm.setDaemon(true);
                    warm.start();
                    return c;
                  })
              : java.util.concurrent.CompletableFuture.completedFuture(null);
      String scheme = tls ? "https" : "http";
      // The body limit leaves room around the 2 MB document limit, which the engine enforces
      // with its own 413 naming the document.
      int maxBody = (int) Math.min(Integer.MAX_VALUE, Limits.MAX_ITEM_BYTES * 2L + 64 * 1024);
      java.util.concurrent.atomic.AtomicReference<String> endpointText =
          new java.util.concurrent.atomic.AtomicReference<>(scheme + "://localhost:" + port + "/");
      java.util.Set<String> hosts = new java.util.TreeSet<>(allowedHosts);
      hosts.add(host);
      HostCheck hostCheck = new HostCheck(hosts);
      Observability observability =
          new Observability(engine, alertRules, metrics, alertListener).start();
      java.util.concurrent.atomic.AtomicInteger directPortNow =
          new java.util.concurrent.atomic.AtomicInteger();
      java.util.function.Function<WireRequest, WireResponse> protocol =
          new ObservedProtocol(
              new Protocol(
                  engine, auth, hostCheck, endpointText::get, directPortNow::get, masterKey),
              hostCheck,
              observability);
      GatewayServer server;
      try {
        server = bindAndServe(protocol, certFuture, maxBody, endpointText, scheme, observability);
      } catch (RuntimeException | Error e) {
        observability.close();
        throw e;
      }
      if (tls && directMode) {
        try {
          startDirect(server, protocol, maxBody);
        } catch (RuntimeException | Error e) {
          server.close();
          throw e;
        }
        directPortNow.set(server.directPort());
      }
      return server;
    }

    /** The direct-mode listener beside the gateway, on its certificate and its protocol. */
    private void startDirect(
        GatewayServer server,
        java.util.function.Function<WireRequest, WireResponse> protocol,
        int maxBody) {
      java.util.concurrent.Executor workers;
      if (server.listener instanceof NettyListener n) {
        workers = n.workers();
      } else {
        server.directWorkers = WorkerPool.start(workerThreads);
        workers = server.directWorkers;
      }
      int chosen = directPort != null ? directPort : port == 0 ? 0 : Math.min(65535, port + 1);
      InetSocketAddress at = new InetSocketAddress(bindAddress().getAddress(), chosen);
      server.direct =
          io.cosmolab.gateway.rntbd.DirectListener.start(
              at,
              java.util.concurrent.CompletableFuture.completedFuture(
                  server.certificate.serverContext()),
              protocol,
              engine,
              workers,
              maxBody,
              server.connectionLimits().maxConnections(),
              limits.idleTimeout(),
              limits.tlsHandshakeTimeout(),
              eventLoopThreads);
    }

    private GatewayServer bindAndServe(
        java.util.function.Function<WireRequest, WireResponse> protocol,
        java.util.concurrent.CompletableFuture<GatewayCertificate> certFuture,
        int maxBody,
        java.util.concurrent.atomic.AtomicReference<String> endpointText,
        String scheme,
        Observability observability) {
      InetSocketAddress bindTo = bindAddress();
      if (transport == Transport.JDK) {
        return startJdk(bindTo, certFuture, maxBody, protocol, endpointText, scheme, observability);
      }
      ConnectionLimits resolved = limits.resolved();
      EventLoopGroup boss = new NioEventLoopGroup(1);
      EventLoopGroup io = new NioEventLoopGroup(eventLoopThreads);
      WorkerPool workers = WorkerPool.start(workerThreads);
      ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
      // The port opens before TLS is ready: a client's connect and hello then overlap the rest
      // of the TLS set-up, and its connection waits in initChannel until the context exists.
      java.util.concurrent.CompletableFuture<SslContext> ssl =
          certFuture.thenApply(c -> c == null ? null : c.serverContext());
      try {
        GatewayChannelInitializer connectionSetUp =
            new GatewayChannelInitializer(
                tls, ssl, maxBody, workers, connections, protocol, resolved, LoopPolicy.of(engine));
        Channel ch =
            new ServerBootstrap()
                .group(boss, io)
                .channelFactory(connectionSetUp.serverChannels())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childHandler(connectionSetUp)
                .bind(bindTo)
                .syncUninterruptibly()
                .channel();
        URI endpoint =
            URI.create(
                scheme + "://localhost:" + ((InetSocketAddress) ch.localAddress()).getPort() + "/");
        endpointText.set(endpoint.toString());
        GatewayCertificate cert;
        try {
          cert = await(certFuture);
        } catch (RuntimeException e) {
          ch.close().syncUninterruptibly();
          throw e;
        }
        return new GatewayServer(
            new NettyListener((GuardedServerSocketChannel) ch, connections, boss, io, workers),
            endpoint,
            cert,
            transport,
            resolved,
            observability);
      } catch (Exception e) { // Netty rethrows the bind failure (a checked exception) as is
        shutdown(boss, io, workers);
        if (e instanceof java.net.BindException) {
          throw portInUse(e);
        }
        if (e instanceof RuntimeException re) {
          throw re;
        }
        throw new IllegalStateException("cannot start the gateway: " + e.getMessage(), e);
      }
    }

    /** The JDK transport: TLS is ready before the port opens (its server takes the context). */
    private GatewayServer startJdk(
        InetSocketAddress bindTo,
        java.util.concurrent.CompletableFuture<GatewayCertificate> certFuture,
        int maxBody,
        java.util.function.Function<WireRequest, WireResponse> protocol,
        java.util.concurrent.atomic.AtomicReference<String> endpointText,
        String scheme,
        Observability observability) {
      GatewayCertificate cert = await(certFuture);
      JdkHttpTransport http;
      ConnectionLimits resolved;
      try {
        resolved = JdkHttpTransport.configure(limits);
        http =
            JdkHttpTransport.start(
                bindTo, cert == null ? null : cert.jdkServerContext(), maxBody, protocol);
      } catch (java.net.BindException e) {
        throw portInUse(e);
      } catch (java.io.IOException e) {
        throw new IllegalStateException("cannot start the gateway: " + e.getMessage(), e);
      }
      URI endpoint = URI.create(scheme + "://localhost:" + http.port() + "/");
      endpointText.set(endpoint.toString());
      Listener listener =
          new Listener() {
            @Override
            public int port() {
              return http.port();
            }

            @Override
            public int eventLoops() {
              return 0; // a dispatcher thread, and a thread per exchange in progress
            }

            @Override
            public void close() {
              http.close();
            }
          };
      return new GatewayServer(listener, endpoint, cert, transport, resolved, observability);
    }

    /** The address to bind, resolved before any thread or socket exists. */
    private InetSocketAddress bindAddress() {
      try {
        return new InetSocketAddress(InetAddress.getByName(host), port);
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException("cannot bind: unknown host '" + host + "'", e);
      }
    }

    /** The certificate (null with plain HTTP), or the failure that kept it from being made. */
    private static GatewayCertificate await(
        java.util.concurrent.CompletableFuture<GatewayCertificate> certFuture) {
      try {
        return certFuture.join();
      } catch (java.util.concurrent.CompletionException e) {
        throw e.getCause() instanceof RuntimeException re ? re : e;
      }
    }

    private IllegalStateException portInUse(Exception e) {
      return new IllegalStateException(
          "port "
              + port
              + " on "
              + host
              + " is in use; pick another with --port, or 0 for any free port",
          e);
    }

    private static void shutdown(EventLoopGroup boss, EventLoopGroup io, WorkerPool workers) {
      var bossDone = boss.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      var ioDone = io.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      workers.close(Duration.ZERO);
      ioDone.syncUninterruptibly();
      bossDone.syncUninterruptibly();
    }
  }

  /** {@code ~/.cosmolab}: where the certificate lives when no data directory is given. */
  public static Path defaultCertificateDirectory() {
    return Path.of(System.getProperty("user.home"), ".cosmolab");
  }
}
