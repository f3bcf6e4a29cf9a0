package io.cosmolab.cli.commands;

import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.gateway.GatewayServer;
import io.cosmolab.gateway.auth.MasterKeyAuthenticator;
import io.cosmolab.store.rocksdb.RocksDbDocumentStore;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cosmolab serve}: the emulator server, until SIGINT or SIGTERM. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the Cosmos DB emulator: the NoSQL REST API (what the official SDKs speak) on"
          + " loopback, HTTPS with a self-signed certificate for localhost by default. Containers"
          + " get physical partitions, request-unit charges and per-partition RU/s budgets like the"
          + " service. Stops cleanly on Ctrl-C or SIGTERM."
    })
public final class ServeCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--port",
      defaultValue = "8081",
      description = "Port to listen on; 0 picks a free one (${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--host",
      defaultValue = "127.0.0.1",
      description =
          "Address to bind (${DEFAULT-VALUE}). Any address beyond loopback (0.0.0.0 exposes it to"
              + " your network) needs a --key of your own: the default key is public.")
  String host;

  @Option(
      names = "--allow-host",
      paramLabel = "NAME",
      description =
          "A host name clients may use besides localhost, IP addresses and --host (repeatable)."
              + " Requests naming any other Host get 403: a guard against DNS rebinding, by which"
              + " a web page in your browser could otherwise drive the emulator.")
  java.util.List<String> allowHosts = new java.util.ArrayList<>();

  @Option(
      names = "--max-connections",
      paramLabel = "N",
      description =
          "Most connections served at once; one more gets a 503 ServiceUnavailable (closed over"
              + " TLS) until others close (default 1000, fewer when ulimit -n leaves less room)."
              + " Requests must arrive within 30 s and idle connections close after 120 s."
              + " The direct-mode listener serves at most as many, its own count.")
  Integer maxConnections;

  @Option(
      names = "--event-loops",
      paramLabel = "N",
      description =
          "Threads that read and write the connections, for HTTP and as many again for direct"
              + " mode; they also answer point reads (default twice the cores). With fewer, on a"
              + " machine the clients share, one thread that loses its core stalls more"
              + " connections.")
  Integer eventLoops;

  @Option(
      names = "--script-timeout",
      paramLabel = "MS",
      defaultValue = "5000",
      description =
          "How long a stored procedure or trigger may run before it is stopped and its writes"
              + " rolled back, in milliseconds (${DEFAULT-VALUE}, as the service).")
  long scriptTimeoutMillis;

  @Option(
      names = "--query-page-time",
      paramLabel = "MS",
      defaultValue = "5000",
      description =
          "How long one query page may run before it ends with the rows it has, possibly none, and"
              + " a continuation, in milliseconds (${DEFAULT-VALUE}, as the service). A short one"
              + " shows whether an application keeps following continuations past empty pages.")
  long queryPageTimeMillis;

  @Option(
      names = "--direct-port",
      description =
          "Port for direct mode (RNTBD over TLS), the Java SDK's default connection mode; 0 picks"
              + " a free one (default: --port + 1, or a free one with --port 0).")
  Integer directPort;

  @Option(
      names = "--http",
      description = "Plain HTTP instead of HTTPS (and so no direct mode, which is TLS only).")
  boolean http;

  @Option(
      names = "--key",
      description = "Master key clients sign with (default: the well-known emulator key).")
  String key = MasterKeyAuthenticator.EMULATOR_KEY;

  @Option(
      names = "--throttling",
      defaultValue = "observe",
      description =
          "enforce (429s when a partition's RU/s budget is spent), observe (count would-be 429s),"
              + " or off (${DEFAULT-VALUE}).")
  String throttling;

  @Option(
      names = "--scale",
      defaultValue = "1",
      description =
          "Divide the service's partition limits (50 GB, 20 GB, 10,000 RU/s) by this factor"
              + " (${DEFAULT-VALUE}).")
  double scale;

  @Option(
      names = "--partitions",
      description = "Physical partitions for new containers (default: from their throughput).")
  Integer partitions;

  @Option(
      names = "--data-dir",
      description =
          "Keep everything here (RocksDB): databases, containers, throughput, partition layout,"
              + " documents and change feeds survive restarts, and an acknowledged write survives"
              + " the process being killed. Also holds the TLS certificate. Without it, data is"
              + " in memory and the certificate is in ~/.cosmolab.")
  Path dataDir;

  @Option(
      names = "--sync-writes",
      description =
          "With --data-dir: fsync every write, so writes also survive a power cut (slower).")
  boolean syncWrites;

  @Option(
      names = "--change-feed-retention",
      paramLabel = "DURATION",
      defaultValue = "PT10M",
      description =
          "How long the all-versions-and-deletes change feed keeps replaced versions and deletes"
              + " (ISO-8601, e.g. PT10M, PT1H; at most 100,000 LSNs, one a write, either way; default"
              + " ${DEFAULT-VALUE}). The latest version of every document is always kept.")
  java.time.Duration changeFeedRetention;

  @Option(
      names = "--change-feed-previous-images",
      description =
          "Give replaces and deletes in the all-versions-and-deletes change feed their previous"
              + " image, as a container that opted in to the service's preview does. Off by"
              + " default, as on the service: a delete then names its document in its metadata"
              + " (id, partitionKey) only.")
  boolean changeFeedPreviousImages;

  @Option(
      names = "--alert-rules",
      paramLabel = "FILE",
      description =
          "Alert rules to use instead of the defaults (80 %% normalized RU for 5 min, a logical"
              + " partition past 16 GB scaled, 429s above 1 %%, cross-partition queries above"
              + " 5 %%, a retrieved/output ratio above 50): a .yaml or .json file that changes"
              + " some of them (docs/observability.md). Alerts show on /_explorer, in /metrics"
              + " and as a line here when they start and stop.")
  Path alertRules;

  @Option(
      names = "--no-metrics",
      description =
          "Serve no /metrics and count no requests (to measure what metrics cost); the"
              + " explorer page and the alert rules still work.")
  boolean noMetrics;

  @Option(
      names = "--exit-when-ready",
      hidden = true,
      description =
          "Stop as soon as the server listens: the launcher runs this once to record a class-data"
              + " archive that makes later starts faster.")
  boolean exitWhenReady;

  /** Called once the server listens (tests use it); the default does nothing. */
  Consumer<GatewayServer> onStarted = s -> {};

  /** The engine's settings from the options (all but the store). */
  CosmosEngine.Builder engineSettings() {
    return CosmosEngine.builder()
        .throttling(mode(throttling))
        .scale(scale)
        .defaultPhysicalPartitions(partitions)
        .scriptLimits(
            io.cosmolab.engine.script.ScriptLimits.DEFAULT.withTimeout(
                java.time.Duration.ofMillis(scriptTimeoutMillis)))
        .queryPageTime(java.time.Duration.ofMillis(queryPageTimeMillis))
        .changeFeedRetention(
            new io.cosmolab.engine.changefeed.Retention(
                changeFeedRetention, io.cosmolab.engine.changefeed.Retention.DEFAULT.maxHistory()))
        .changeFeedPreviousImages(changeFeedPreviousImages);
  }

  /** A usage error unless {@code value} (in {@code unit}, which follows the 1) is at least 1. */
  private static void atLeastOne(String option, long value, String unit) {
    if (value < 1) {
      throw new IllegalArgumentException(option + " must be at least 1" + unit + ", was " + value);
    }
  }

  /** Released to stop the server; the JVM's shutdown hook releases it on SIGINT/SIGTERM. */
  final CountDownLatch stop = new CountDownLatch(1);

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    refuseAPublicKeyBeyondLoopback(host, key);
    atLeastOne("--script-timeout", scriptTimeoutMillis, " ms");
    atLeastOne("--query-page-time", queryPageTimeMillis, " ms");
    if (maxConnections != null) {
      atLeastOne("--max-connections", maxConnections, "");
    }
    if (eventLoops != null) {
      atLeastOne("--event-loops", eventLoops, "");
    }
    io.cosmolab.engine.alerts.AlertRules rules = io.cosmolab.engine.alerts.AlertRules.defaults();
    if (alertRules != null) {
      try {
        rules = io.cosmolab.engine.alerts.AlertRules.load(alertRules);
      } catch (io.cosmolab.engine.alerts.AlertRulesException e) {
        throw new IllegalArgumentException(e.getMessage(), e);
      }
    }
    long started = System.nanoTime();
    CosmosEngine.Builder engineBuilder = engineSettings();
    if (dataDir != null) {
      engineBuilder.store(RocksDbDocumentStore.open(dataDir.resolve("data"), syncWrites));
    }
    CosmosEngine engine = engineBuilder.build();
    GatewayServer server;
    try {
      GatewayServer.Builder b =
          GatewayServer.builder(engine)
              .port(port)
              .host(host)
              .masterKey(key)
              .allowHosts(allowHosts)
              .metrics(!noMetrics)
              .alertRules(rules)
              .alertListener(
                  e -> {
                    out.printf(
                        "%s cosmolab: %s%n",
                        java.time.Instant.ofEpochMilli(e.atMillis()),
                        io.cosmolab.engine.alerts.AlertEvaluator.describe(e));
                    out.flush();
                  });
      if (http) {
        b.plainHttp();
      }
      if (directPort != null) {
        b.directPort(directPort);
      }
      if (maxConnections != null) {
        b.maxConnections(maxConnections);
      }
      if (eventLoops != null) {
        b.eventLoopThreads(eventLoops);
      }
      if (dataDir != null) {
        b.certificateDirectory(dataDir);
      }
      server = b.start();
    } catch (RuntimeException e) {
      engine.close();
      throw e;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    // On SIGTERM the JVM exits when this hook returns: it waits for the close below, but not
    // forever — the server's close is bounded, the store's is quick, and a stuck close must not
    // turn a SIGTERM into a hang.
    Thread hook =
        new Thread(
            () -> {
              stop.countDown();
              try {
                if (!stopped.await(SHUTDOWN_WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS)) {
                  System.err.println(
                      "cosmolab: still stopping after "
                          + SHUTDOWN_WAIT_SECONDS
                          + " s; exiting anyway");
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "cosmolab-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    printBanner(out, server, Duration.ofNanos(System.nanoTime() - started));
    onStarted.accept(server);
    if (exitWhenReady) {
      // One signed request to itself first, so a training run records the request path too.
      long t0 = System.nanoTime();
      String status = selfRequest(server);
      out.printf(
          Locale.ROOT,
          "cosmolab: self-check %s in %d ms%n",
          status,
          (System.nanoTime() - t0) / 1_000_000);
      stop.countDown();
    }
    try {
      stop.await();
    } finally {
      // each step in its own finally: a failure in one must not leave the engine open or the
      // shutdown hook waiting
      try {
        out.println("cosmolab: stopping");
        out.flush();
        server.close(); // returns within 10 s and does not throw
      } finally {
        try {
          engine.close(); // with --data-dir, closes RocksDB
        } finally {
          stopped.countDown();
          try {
            Runtime.getRuntime().removeShutdownHook(hook);
          } catch (IllegalStateException shuttingDown) {
            // the hook itself is running: nothing to remove
          }
        }
      }
    }
    return 0;
  }

  /** How long the shutdown hook waits for the server and the engine to close. */
  static final long SHUTDOWN_WAIT_SECONDS = 20;

  private void printBanner(PrintWriter out, GatewayServer server, Duration startup) {
    String endpoint = server.endpoint().toString();
    out.printf(
        Locale.ROOT,
        "cosmolab emulator listening on %s (started in %d ms)%n",
        endpoint,
        startup.toMillis());
    out.printf("  key         %s%n", key);
    out.printf(
        "  throttling  %s, scale %s, partitions %s%n",
        throttling, scale, partitions == null ? "from throughput" : partitions);
    out.println(
        dataDir == null
            ? "  storage     in memory (lost when the server stops; --data-dir keeps it)"
            : "  storage     " + dataDir.resolve("data").toAbsolutePath() + " (RocksDB)");
    out.printf(
        "  observe     %s_explorer/index.html%s; alert rules %s%n",
        endpoint,
        server.metricsEnabled() ? ", " + endpoint + "metrics" : " (metrics off)",
        alertRules == null ? "built in" : "from " + alertRules);
    var limits = server.connectionLimits();
    out.printf(
        Locale.ROOT,
        "  connections at most %d (--max-connections); a request within %d s, idle for %d s%n",
        limits.maxConnections(),
        limits.requestReadTimeout().toSeconds(),
        limits.idleTimeout().toSeconds());
    out.printf(
        Locale.ROOT,
        "  threads     %d event loops per listener (--event-loops)%n",
        server.eventLoopThreads());
    out.println(
        server.directPort() > 0
            ? "  direct mode rntbd://localhost:"
                + server.directPort()
                + "/ (RNTBD over TLS, --direct-port)"
            : "  direct mode off (plain HTTP): Java clients need gatewayMode()");
    if (server.isTls()) {
      out.printf(
          "  TLS         self-signed for localhost, kept in %s%n", server.certificate().file());
      out.println("              export it: cosmolab cert pem  |  cosmolab cert truststore <file>");
    }
    out.println();
    out.println(
        server.directPort() > 0
            ? "Java (azure-cosmos 4.64+), direct mode (its default) or gateway mode:"
            : "Java (azure-cosmos 4.64+), gateway mode:");
    out.printf(
        "  -D%s=true%n",
        server.isTls()
            ? "COSMOS.EMULATOR_SERVER_CERTIFICATE_VALIDATION_DISABLED"
            : "COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED");
    if (server.directPort() > 0) {
      // without it a share of direct-mode requests waits up to 100 ms inside the SDK
      // (docs/direct-mode.md, "Latency"); what CosmosLab's clients get (SdkDirectMode)
      out.println(
          "  '-Dazure.cosmos.directTcp.defaultOptions={\"idleChannelTimerResolution\":\"PT0.001S\"}'"
              + "  (direct mode: no 100 ms waits in the SDK)");
    }
    out.printf(
        "  new CosmosClientBuilder().endpoint(\"%s\").key(KEY)%s.buildClient()%n",
        endpoint, server.directPort() > 0 ? "" : ".gatewayMode()");
    out.println("JavaScript (@azure/cosmos):");
    if (server.isTls()) {
      out.printf(
          "  new CosmosClient({ endpoint: \"%s\", key: KEY,"
              + " agent: new https.Agent({ rejectUnauthorized: false }) })%n",
          endpoint.replace("localhost", "127.0.0.1"));
    } else {
      out.println(
          "  not over plain HTTP: @azure/cosmos 4.9 refuses it (allowInsecureConnection);"
              + " run without --http");
    }
    out.println();
    out.println("Stop with Ctrl-C.");
    out.flush();
  }

  /** A signed {@code GET /} over the server's own endpoint; returns the status line. */
  @io.cosmolab.engine.internal.SuppressForbidden(
      "signs as a client does, with the wall clock the server checks signatures against")
  private String selfRequest(GatewayServer server) {
    MasterKeyAuthenticator signer =
        new MasterKeyAuthenticator(key, java.time.Clock.systemUTC(), Duration.ofMinutes(15));
    String date =
        java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(
            java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC));
    String request =
        "GET / HTTP/1.1\r\nHost: localhost\r\nx-ms-date: "
            + date
            + "\r\nauthorization: "
            + signer.sign("GET", "", "", date)
            + "\r\nConnection: close\r\n\r\n";
    try (java.net.Socket socket = open(server)) {
      socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      byte[] answer = socket.getInputStream().readAllBytes();
      String text = new String(answer, java.nio.charset.StandardCharsets.ISO_8859_1);
      return text.lines().findFirst().orElse("");
    } catch (java.io.IOException | java.security.GeneralSecurityException e) {
      return "self-request failed: " + e.getMessage();
    }
  }

  private static java.net.Socket open(GatewayServer server)
      throws java.io.IOException, java.security.GeneralSecurityException {
    java.net.InetAddress loopback = java.net.InetAddress.getLoopbackAddress();
    if (!server.isTls()) {
      return new java.net.Socket(loopback, server.port());
    }
    java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("cosmolab", server.certificate().certificate());
    javax.net.ssl.TrustManagerFactory tmf =
        javax.net.ssl.TrustManagerFactory.getInstance(
            javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    javax.net.ssl.SSLContext ctx = javax.net.ssl.SSLContext.getInstance("TLS");
    ctx.init(null, tmf.getTrustManagers(), null);
    return ctx.getSocketFactory().createSocket(loopback, server.port());
  }

  static ThrottlingMode mode(String text) {
    try {
      return ThrottlingMode.valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "--throttling must be enforce, observe or off, was '" + text + "'", e);
    }
  }

  /**
   * The emulator key is printed in every SDK's documentation: on an address others can reach, it
   * hands them the account. So binding beyond loopback needs a key of the user's own, as the
   * classic emulator's /AllowNetworkAccess needs /Key.
   */
  static void refuseAPublicKeyBeyondLoopback(String host, String key) {
    boolean loopback;
    try {
      loopback = java.net.InetAddress.getByName(host).isLoopbackAddress();
    } catch (java.net.UnknownHostException e) {
      throw new IllegalArgumentException(
          "--host '" + host + "' is not an address of this machine", e);
    }
    if (!loopback && MasterKeyAuthenticator.EMULATOR_KEY.equals(key)) {
      throw new IllegalArgumentException(
          "--host "
              + host
              + " would let anyone who can reach this machine use the emulator with its public"
              + " default key; give a key of your own with --key (for example `openssl rand"
              + " -base64 64`), or bind to 127.0.0.1");
    }
  }
}
