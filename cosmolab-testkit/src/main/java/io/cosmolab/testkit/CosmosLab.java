package io.cosmolab.testkit;

import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.GatewayConnectionConfig;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.gateway.GatewayServer;
import io.cosmolab.gateway.auth.MasterKeyAuthenticator;
import java.net.URI;
import java.nio.file.Path;

/**
 * cosmolab in-process: an engine behind the gateway on a loopback port, for tests.
 *
 * <pre>{@code
 * try (CosmosLab lab = CosmosLab.builder().throttling(ThrottlingMode.ENFORCE).start();
 *     CosmosClient client = lab.clientBuilder().buildClient()) {
 *   ...
 * }
 * }</pre>
 *
 * The client builder is set up the way the Java SDK needs for an emulator: the endpoint and key,
 * and (over HTTPS) the SDK's switch that accepts the emulator's self-signed certificate on {@code
 * localhost}, in the SDK's default connection mode, direct, which the lab serves beside gateway
 * mode; over plain HTTP, gateway mode (direct mode is TLS only) and the switch that allows it.
 */
public final class CosmosLab implements AutoCloseable {
  /** The SDK's switch for the emulator's self-signed certificate (azure-cosmos 4.64+). */
  public static final String CERT_VALIDATION_DISABLED =
      "COSMOS.EMULATOR_SERVER_CERTIFICATE_VALIDATION_DISABLED";

  /** The SDK's switch for plain HTTP in gateway mode (azure-cosmos 4.64+). */
  public static final String HTTP_WITHOUT_TLS_ALLOWED =
      "COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED";

  private final CosmosEngine engine;
  private final GatewayServer server;
  private final String key;

  private CosmosLab(CosmosEngine engine, GatewayServer server, String key) {
    this.engine = engine;
    this.server = server;
    this.key = key;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The endpoint, {@code https://localhost:<port>/}. */
  public URI endpoint() {
    return server.endpoint();
  }

  public int port() {
    return server.port();
  }

  /** The master key clients sign with. */
  public String key() {
    return key;
  }

  /** The engine behind the server, for direct inspection (partition stats, splits, clocks). */
  public CosmosEngine engine() {
    return engine;
  }

  public GatewayServer server() {
    return server;
  }

  /** The port of the direct-mode (RNTBD) listener; 0 over plain HTTP, which has none. */
  public int directPort() {
    return server.directPort();
  }

  /**
   * A client builder for this lab: endpoint, key, and the TLS switch the SDK needs, in the SDK's
   * default connection mode (direct) — or gateway mode over plain HTTP, or when {@code
   * -Dcosmolab.connection=gateway} asks for it (how the compatibility suite runs both). Sets the
   * SDK's system properties as a side effect (the SDK reads them from there): the certificate or
   * plain-HTTP switch, and where direct mode is served the short RNTBD idle timer of {@link
   * SdkDirectMode}, without which a share of direct-mode requests waits up to 100 ms inside the
   * SDK.
   */
  public CosmosClientBuilder clientBuilder() {
    System.setProperty(
        server.isTls() ? CERT_VALIDATION_DISABLED : HTTP_WITHOUT_TLS_ALLOWED, "true");
    CosmosClientBuilder b =
        new CosmosClientBuilder()
            .endpoint(endpoint().toString())
            .key(key)
            .contentResponseOnWriteEnabled(true);
    if (server.directPort() > 0) {
      SdkDirectMode.prepare(); // also for a builder a test switches to directMode() itself
    }
    if (server.directPort() == 0 || gatewayRequested()) {
      b.gatewayMode(new GatewayConnectionConfig());
    }
    return b;
  }

  /** {@code -Dcosmolab.connection}: {@code direct} (default) or {@code gateway}. */
  private static boolean gatewayRequested() {
    String mode = System.getProperty("cosmolab.connection", "direct").strip();
    if (mode.equalsIgnoreCase("gateway")) {
      return true;
    }
    if (mode.equalsIgnoreCase("direct")) {
      return false;
    }
    throw new IllegalArgumentException(
        "-Dcosmolab.connection must be direct or gateway, was '" + mode + "'");
  }

  /** Stops the server and the engine. */
  @Override
  public void close() {
    try {
      server.close();
    } finally {
      engine.close();
    }
  }

  /** Configures a lab; every option has the emulator's default. */
  public static final class Builder {
    private int port;
    private ThrottlingMode throttling = ThrottlingMode.OBSERVE;
    private Integer defaultPartitions;
    private double scale = 1;
    private boolean tls = true;
    private Path certificateDirectory;
    private String key = MasterKeyAuthenticator.EMULATOR_KEY;
    private Path dataDirectory;
    private GatewayServer.Transport transport = defaultTransport();
    private io.cosmolab.engine.alerts.AlertRules alertRules =
        io.cosmolab.engine.alerts.AlertRules.defaults();
    private java.time.InstantSource clock;
    private io.cosmolab.engine.script.ScriptLimits scriptLimits;
    private java.time.Duration queryPageTime;
    private boolean changeFeedPreviousImages;

    private Builder() {}

    /**
     * Whether the all-versions-and-deletes change feed gives replaces and deletes their {@code
     * previous} image (default: false, as the service, unless a container opted in to its preview;
     * see {@link CosmosEngine.Builder#changeFeedPreviousImages}).
     */
    public Builder changeFeedPreviousImages(boolean on) {
      this.changeFeedPreviousImages = on;
      return this;
    }

    /**
     * How long one query page may run before it ends with the rows it has, possibly none, and a
     * continuation (default: 5 s, as the service). A short one shows whether code that pages
     * through queries keeps following continuations past empty pages, as the service may make it
     * (see {@link CosmosEngine.Builder#queryPageTime}).
     */
    public Builder queryPageTime(java.time.Duration time) {
      this.queryPageTime = java.util.Objects.requireNonNull(time, "time");
      return this;
    }

    /**
     * What one stored procedure or trigger execution may use (default: 5 s, as the service).
     * Scripts run when {@code io.cosmolab:cosmolab-scripts} (Java 21+) is on the test class path;
     * without it, running one answers 501 saying so.
     */
    public Builder scriptLimits(io.cosmolab.engine.script.ScriptLimits limits) {
      this.scriptLimits = limits;
      return this;
    }

    /**
     * The clock the engine reads for budgets, time to live, {@code _ts}, change-feed times and
     * metrics (default: the system clock). With a {@link io.cosmolab.engine.time.ManualClock}, a
     * test runs throttling and expiry in virtual time: advance it instead of sleeping. Request
     * signatures are still checked against the wall clock, as the SDKs sign with it.
     */
    public Builder clock(java.time.InstantSource clock) {
      this.clock = java.util.Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The JDK's HTTP server unless {@code -Dcosmolab.transport=netty} says otherwise: it starts in
     * about half the time in a new JVM, which is what a test run pays once.
     */
    private static GatewayServer.Transport defaultTransport() {
      String name = System.getProperty("cosmolab.transport", "jdk");
      try {
        return GatewayServer.Transport.valueOf(name.strip().toUpperCase(java.util.Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "-Dcosmolab.transport must be jdk or netty, was '" + name + "'", e);
      }
    }

    /**
     * How the server speaks HTTP: {@link GatewayServer.Transport#JDK} (default, the quickest to
     * start) or {@link GatewayServer.Transport#NETTY} (what {@code cosmolab serve} runs).
     */
    public Builder transport(GatewayServer.Transport transport) {
      this.transport = transport;
      return this;
    }

    /** The port; default 0, a free one. */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /** enforce (429s), observe (default: counts would-be 429s) or off. */
    public Builder throttling(ThrottlingMode mode) {
      this.throttling = mode;
      return this;
    }

    /** Physical partitions for new containers, overriding the throughput rule. */
    public Builder defaultPartitions(int n) {
      this.defaultPartitions = n;
      return this;
    }

    /** Divides the service's storage and RU limits, so small data behaves like big. */
    public Builder scale(double factor) {
      this.scale = factor;
      return this;
    }

    /** Plain HTTP instead of HTTPS. */
    public Builder plainHttp() {
      this.tls = false;
      return this;
    }

    /** Where the self-signed certificate is kept; default {@code ~/.cosmolab}. */
    public Builder certificateDirectory(Path dir) {
      this.certificateDirectory = dir;
      return this;
    }

    public Builder key(String key) {
      this.key = key;
      return this;
    }

    /**
     * Keeps the data in {@code directory} (RocksDB), so a lab started again on it finds its
     * databases, containers and documents; default: in memory.
     */
    public Builder persistence(Path directory) {
      this.dataDirectory = directory;
      return this;
    }

    /**
     * The alert rules the server evaluates once a second (default {@link
     * io.cosmolab.engine.alerts.AlertRules#defaults()}); their alerts are in {@code
     * server().alerts()} and the explorer API.
     */
    public Builder alertRules(io.cosmolab.engine.alerts.AlertRules rules) {
      if (rules == null) {
        throw new IllegalArgumentException("alert rules must not be null; use the defaults");
      }
      this.alertRules = rules;
      return this;
    }

    /** Starts the engine and the server. */
    public CosmosLab start() {
      CosmosEngine.Builder eb =
          CosmosEngine.builder()
              .throttling(throttling)
              .scale(scale)
              .defaultPhysicalPartitions(defaultPartitions)
              .changeFeedPreviousImages(changeFeedPreviousImages);
      if (clock != null) {
        eb.clock(clock);
      }
      if (scriptLimits != null) {
        eb.scriptLimits(scriptLimits);
      }
      if (queryPageTime != null) {
        eb.queryPageTime(queryPageTime);
      }
      if (dataDirectory != null) {
        eb.store(io.cosmolab.store.rocksdb.RocksDbDocumentStore.open(dataDirectory));
      }
      CosmosEngine engine = eb.build();
      try {
        GatewayServer.Builder server =
            GatewayServer.builder(engine)
                .port(port)
                .masterKey(key)
                .transport(transport)
                .alertRules(alertRules);
        if (!tls) {
          server.plainHttp();
        }
        if (certificateDirectory != null) {
          server.certificateDirectory(certificateDirectory);
        }
        return new CosmosLab(engine, server.start(), key);
      } catch (RuntimeException e) {
        engine.close();
        throw e;
      }
    }
  }
}
