package io.cosmolab.benchmarks.gateway;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.GatewayConnectionConfig;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.gateway.GatewayServer;
import io.cosmolab.gateway.auth.MasterKeyAuthenticator;
import io.cosmolab.testkit.SdkDirectMode;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.HdrHistogram.Histogram;

/**
 * The gateway's speed and memory, measured the way a user meets them.
 *
 * <pre>
 *   startup &lt;cosmolab.jar&gt; [runs]   new JVM running `serve` → first signed 200, median of runs
 *   embed [runs]                   in-process engine + server → first signed 200, in new JVMs:
 *                                  no class archive, an auto-created CDS archive, an AOT cache
 *   rss &lt;cosmolab.jar&gt;             resident memory of an idle `serve` after 5 s
 *   load [seconds] [threads]       point reads and creates over raw HTTP, then through the SDK
 *   populate &lt;port&gt; http|https &lt;docs&gt;
 *                                  a database, a container and docs ~1 KB documents, in a
 *                                  server of another process (as {@code serve} runs it)
 *   reads &lt;port&gt; http|https &lt;seconds&gt; &lt;connections&gt; &lt;docs&gt; [server pid]
 *                                  raw-HTTP point reads of those documents; with the server's
 *                                  pid, the CPU it and this driver used in the measured seconds
 *   reads-mux &lt;port&gt; &lt;seconds&gt; &lt;connections&gt; &lt;threads&gt; &lt;docs&gt; [server pid]
 *                                  the same over plain HTTP, the connections multiplexed over
 *                                  a few threads as pgbench does ({@link MultiplexedReads})
 *   reads-direct &lt;direct port&gt; &lt;seconds&gt; &lt;connections&gt; &lt;threads&gt; &lt;docs&gt; [server pid]
 *                                  the same in direct mode: RNTBD over TLS to the server's
 *                                  direct port, prebuilt frames ({@link DirectReads})
 * </pre>
 *
 * The load runs the server in this JVM on plain HTTP (loopback), so server and driver share the
 * machine's cores, as they would on a developer's laptop or a CI runner. {@code populate} and
 * {@code reads} drive a server in another process, as {@code scripts/bench-gateway-vs-postgres}
 * does beside PostgreSQL.
 */
public final class GatewayBench {
  private GatewayBench() {}

  public static void main(String[] args) throws Exception {
    String mode = args.length > 0 ? args[0] : "load";
    switch (mode) {
      case "startup" -> startup(Path.of(args[1]), args.length > 2 ? Integer.parseInt(args[2]) : 5);
      case "embed" -> embed(args.length > 1 ? Integer.parseInt(args[1]) : 5);
      case "embed-once" -> embedOnce();
      case "rss" -> rss(Path.of(args[1]));
      case "load" ->
          load(
              args.length > 1 ? Integer.parseInt(args[1]) : 10,
              args.length > 2 ? Integer.parseInt(args[2]) : 4);
      case "populate" ->
          populate(Integer.parseInt(args[1]), isTls(args[2]), Integer.parseInt(args[3]));
      case "reads" ->
          reads(
              Integer.parseInt(args[1]),
              isTls(args[2]),
              Integer.parseInt(args[3]),
              Integer.parseInt(args[4]),
              Integer.parseInt(args[5]),
              args.length > 6 ? Long.parseLong(args[6]) : -1);
      case "reads-mux", "reads-direct" ->
          readsMultiplexed(
              mode.equals("reads-direct"),
              Integer.parseInt(args[1]),
              Integer.parseInt(args[2]),
              Integer.parseInt(args[3]),
              Integer.parseInt(args[4]),
              Integer.parseInt(args[5]),
              args.length > 6 ? Long.parseLong(args[6]) : -1);
      case "sdk-modes" ->
          sdkModes(
              args.length > 1 ? Integer.parseInt(args[1]) : 10,
              args.length > 2 ? Integer.parseInt(args[2]) : 4);
      default -> throw new IllegalArgumentException("unknown mode " + mode);
    }
  }

  private static final byte[] ACCOUNT = RawClient.request("GET", "/", "", "", "", null);

  // ------------------------------------------------------------------ start-up

  private static void startup(Path jar, int runs) throws Exception {
    train(jar);
    for (boolean tls : new boolean[] {false, true}) {
      long[] ms = new long[runs];
      for (int i = 0; i < runs; i++) {
        int port = freePort();
        long t0 = System.nanoTime();
        Process p =
            tls
                ? launch(jar, "serve", "--port", Integer.toString(port))
                : launch(jar, "serve", "--port", Integer.toString(port), "--http");
        try {
          waitForOk(port, tls);
          ms[i] = (System.nanoTime() - t0) / 1_000_000;
        } finally {
          p.destroy();
          p.waitFor(10, TimeUnit.SECONDS);
        }
      }
      report("serve (new JVM, " + (tls ? "HTTPS" : "plain HTTP") + ") → first 200", ms);
    }
  }

  /**
   * How long a test that embeds cosmolab waits for it, in a new JVM each time, side by side for
   * both transports (the JDK's HTTP server, the testkit's default, and Netty) in three set-ups a
   * user can choose: no class archive; the CDS archive the JVM creates itself on the first run
   * ({@code -XX:+AutoCreateSharedArchive}, JDK 19+); the AOT cache (JDK 25+, created by one
   * training run). Each archive is made first by one run whose time is not counted; then the
   * set-ups take turns, run by run, so the machine's drift hits all of them alike.
   */
  private static void embed(int runs) throws Exception {
    Path dir = Files.createTempDirectory("cosmolab-embed-bench");
    List<String> names = new ArrayList<>();
    List<List<String>> flags = new ArrayList<>();
    for (String transport : new String[] {"jdk", "netty"}) {
      String t = "-Dcosmolab.transport=" + transport;
      String label = transport.equals("jdk") ? "JDK HttpServer" : "Netty";
      Path jsa = dir.resolve(transport + ".jsa");
      Path aot = dir.resolve(transport + ".aot");
      names.add(label + ", no class archive");
      flags.add(List.of(t));
      names.add(label + ", CDS archive (auto-created)");
      flags.add(List.of(t, "-XX:+AutoCreateSharedArchive", "-XX:SharedArchiveFile=" + jsa));
      embedChild(flags.get(flags.size() - 1)); // creates the CDS archive
      if (AOT) {
        names.add(label + ", AOT cache (JDK 25)");
        flags.add(List.of(t, "-XX:AOTCache=" + aot));
        embedChild(List.of(t, "-XX:AOTCacheOutput=" + aot));
      }
    }
    long[][] ms = new long[names.size()][runs];
    long[][] warm = new long[2][runs];
    for (int i = 0; i < runs; i++) {
      for (int c = 0; c < names.size(); c++) {
        long[] both = embedChild(flags.get(c));
        ms[c][i] = both[0];
        if (c == 0) {
          warm[0][i] = both[1];
        } else if (flags.get(c).size() == 1) {
          warm[1][i] = both[1];
        }
      }
    }
    for (int c = 0; c < names.size(); c++) {
      report("in-process engine + server → first 200, new JVM, " + names.get(c), ms[c]);
    }
    report("in-process, a second server in the same JVM (warm), JDK HttpServer", warm[0]);
    report("in-process, a second server in the same JVM (warm), Netty", warm[1]);
    try (var files = Files.list(dir)) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    Files.delete(dir);
  }

  /** Runs {@code embed-once} in a new JVM with {@code flags}: its cold and warm times in ms. */
  private static long[] embedChild(List<String> flags) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(flags);
    cmd.addAll(List.of("-Xlog:cds=off", "-Xlog:aot=off", "-Xlog:cds+dynamic=off"));
    if (Runtime.version().feature() >= 24) {
      cmd.add("--sun-misc-unsafe-memory-access=allow");
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(GatewayBench.class.getName());
    cmd.add("embed-once");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    java.util.Optional<String> line =
        out.lines().filter(l -> l.matches("embed-once \\d+ \\d+")).findFirst();
    if (p.waitFor() != 0 || line.isEmpty()) {
      throw new IllegalStateException("embed-once failed: " + out);
    }
    String[] times = line.get().split(" ", -1);
    return new long[] {Long.parseLong(times[1]), Long.parseLong(times[2])};
  }

  /**
   * In this JVM: starts an engine and a server and waits for a signed 200, twice; prints both
   * times. The first is what a test class pays; the second, what each further server costs.
   */
  private static void embedOnce() throws Exception {
    long[] ms = new long[2];
    for (int i = 0; i < 2; i++) {
      long t0 = System.nanoTime();
      CosmosEngine engine = CosmosEngine.builder().build();
      try (GatewayServer server =
          GatewayServer.builder(engine).port(0).plainHttp().transport(transport()).start()) {
        waitForOk(server.port());
        ms[i] = (System.nanoTime() - t0) / 1_000_000;
      } finally {
        engine.close();
      }
    }
    System.out.println("embed-once " + ms[0] + " " + ms[1]);
  }

  /** {@code -Dcosmolab.transport=jdk|netty} (default netty), as the testkit reads it. */
  private static GatewayServer.Transport transport() {
    return GatewayServer.Transport.valueOf(
        System.getProperty("cosmolab.transport", "netty").toUpperCase(Locale.ROOT));
  }

  private static void rss(Path jar) throws Exception {
    int port = freePort();
    Process p = launch(jar, "serve", "--port", Integer.toString(port));
    try {
      waitForOk(port, true);
      Thread.sleep(5000);
      String status = Files.readString(Path.of("/proc/" + p.pid() + "/status"));
      String rss = status.lines().filter(l -> l.startsWith("VmRSS")).findFirst().orElse("VmRSS: ?");
      System.out.println(
          "idle `serve` (HTTPS, launcher's JVM flags) " + rss.replaceAll("\\s+", " "));
    } finally {
      p.destroy();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** JDK 25+: an AOT cache (JEPs 483, 514, 515), as the launcher uses; else a CDS archive. */
  private static final boolean AOT = Runtime.version().feature() >= 25;

  /** Records the start-up cache the way the launcher does: one start that stops at once. */
  private static void train(Path jar) throws Exception {
    String cache =
        AOT
            ? "-XX:AOTCacheOutput=" + jar.resolveSibling("cosmolab-bench.aot")
            : "-XX:ArchiveClassesAtExit=" + jar.resolveSibling("cosmolab-bench.jsa");
    java(jar, List.of(cache), "serve", "--port", "0", "--exit-when-ready")
        .waitFor(60, TimeUnit.SECONDS);
  }

  private static Process launch(Path jar, String... args) throws IOException {
    String cache =
        AOT
            ? "-XX:AOTCache=" + jar.resolveSibling("cosmolab-bench.aot")
            : "-XX:SharedArchiveFile=" + jar.resolveSibling("cosmolab-bench.jsa");
    return java(
        jar, List.of(cache, "-Xlog:cds=off", "-Xlog:aot=off", "-Xlog:cds+dynamic=off"), args);
  }

  /**
   * {@code java} with the launcher's flags plus {@code flags}, running the jar with {@code args}.
   */
  private static Process java(Path jar, List<String> flags, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-XX:+UseSerialGC");
    cmd.addAll(flags);
    if (Runtime.version().feature() >= 24) {
      cmd.add("--sun-misc-unsafe-memory-access=allow");
    }
    cmd.add("-jar");
    cmd.add(jar.toString());
    cmd.addAll(Arrays.asList(args));
    return new ProcessBuilder(cmd)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  private static void waitForOk(int port) throws InterruptedException {
    waitForOk(port, false);
  }

  private static void waitForOk(int port, boolean tls) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      try (RawClient c = new RawClient(port, tls)) {
        if (c.exchange(ACCOUNT) == 200) {
          return;
        }
      } catch (IOException notYet) {
        Thread.sleep(2);
      }
    }
    throw new IllegalStateException("the server on port " + port + " did not answer in 60 s");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static void report(String what, long[] ms) {
    long[] sorted = ms.clone();
    Arrays.sort(sorted);
    System.out.printf(
        Locale.ROOT,
        "%s: median %d ms, runs %s%n",
        what,
        sorted[sorted.length / 2],
        Arrays.toString(ms));
  }

  // ------------------------------------------------------------------ load

  private static void load(int seconds, int threads) throws Exception {
    CosmosEngine engine = CosmosEngine.builder().throttling(ThrottlingMode.OFF).build();
    engine
        .createDatabase("bench")
        .createContainer(
            ContainerSettings.of("items", PartitionKeyDefinition.hash("/pk"))
                .withThroughput(Throughput.manual(100_000)));
    var container = engine.database("bench").container("items");
    int docs = 10_000;
    for (int i = 0; i < docs; i++) {
      container.create(
          (ObjectNode)
              io.cosmolab.engine.document.JsonTrees.read(
                  "{\"id\":\"d"
                      + i
                      + "\",\"pk\":\"p"
                      + (i % 1000)
                      + "\",\"n\":"
                      + i
                      + ",\"payload\":\""
                      + "x".repeat(200)
                      + "\"}"));
    }
    try (GatewayServer server = GatewayServer.builder(engine).port(0).plainHttp().start()) {
      int port = server.port();
      IntFunction<byte[]> read =
          i ->
              RawClient.request(
                  "GET",
                  "/dbs/bench/colls/items/docs/d" + i,
                  "docs",
                  "dbs/bench/colls/items/docs/d" + i,
                  "x-ms-documentdb-partitionkey: [\"p" + (i % 1000) + "\"]\r\n",
                  null);
      byte[][] reads = new byte[docs][];
      for (int i = 0; i < docs; i++) {
        reads[i] = read.apply(i);
      }
      raw("raw HTTP point reads", port, seconds, threads, t -> reads);
      // Each create needs a new id, and the requests are signed ahead: enough for the 3 s
      // warm-up and the measured seconds at ~20,000 creates a second per thread (100,000 ran
      // out at ~7,000 a second, 13 s and a start offset of 7,919, and answered 409).
      int perThread = (seconds + 3) * 20_000 + 7919;
      raw("raw HTTP creates", port, seconds, threads, t -> creates(t, perThread));
      sdk(server, seconds, threads);
    } finally {
      engine.close();
    }
  }

  // ------------------------------------------------------------------ SDK: gateway vs direct

  /**
   * The Java SDK's point reads and creates in gateway mode and in direct mode (RNTBD), against one
   * HTTPS server in this JVM, in the same run: reads, then creates, each mode in turn.
   */
  private static void sdkModes(int seconds, int threads) throws Exception {
    CosmosEngine engine = CosmosEngine.builder().throttling(ThrottlingMode.OFF).build();
    engine
        .createDatabase("bench")
        .createContainer(
            ContainerSettings.of("items", PartitionKeyDefinition.hash("/pk"))
                .withThroughput(Throughput.manual(100_000)));
    var container = engine.database("bench").container("items");
    for (int i = 0; i < 10_000; i++) {
      container.create(
          (ObjectNode)
              io.cosmolab.engine.document.JsonTrees.read(
                  "{\"id\":\"d"
                      + i
                      + "\",\"pk\":\"p"
                      + (i % 1000)
                      + "\",\"payload\":\""
                      + "x".repeat(200)
                      + "\"}"));
    }
    System.setProperty("COSMOS.EMULATOR_SERVER_CERTIFICATE_VALIDATION_DISABLED", "true");
    // as CosmosLab's clients: the SDK's RNTBD idle timer at 1 ms, unless the command line sets
    // -Dazure.cosmos.directTcp.defaultOptions={"idleChannelTimerResolution":"PT0.1S"} (the SDK's
    // default) to measure without it
    SdkDirectMode.prepare();
    System.out.println(
        "SDK direct-mode options: " + System.getProperty(SdkDirectMode.PROPERTY, "(SDK defaults)"));
    try (GatewayServer server = GatewayServer.builder(engine).port(0).start()) {
      java.util.concurrent.atomic.AtomicLong ids = new java.util.concurrent.atomic.AtomicLong();
      for (String op : new String[] {"point reads", "creates"}) {
        for (boolean direct : new boolean[] {false, true}) {
          CosmosClientBuilder b =
              new CosmosClientBuilder()
                  .endpoint(server.endpoint().toString())
                  .key(MasterKeyAuthenticator.EMULATOR_KEY)
                  .contentResponseOnWriteEnabled(false);
          if (!direct) {
            b.gatewayMode(new GatewayConnectionConfig());
          }
          try (CosmosClient client = b.buildClient()) {
            CosmosContainer c = client.getDatabase("bench").getContainer("items");
            run(
                "Java SDK " + op + ", " + (direct ? "direct mode (RNTBD)" : "gateway mode"),
                seconds,
                threads,
                t -> {
                  int[] next = {t * 7919};
                  return () -> {
                    if (op.equals("creates")) {
                      long n = ids.incrementAndGet();
                      ObjectNode d =
                          com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                              .objectNode()
                              .put("id", "c" + n)
                              .put("pk", "p" + (n % 1000))
                              .put("payload", "x".repeat(200));
                      c.createItem(d, new PartitionKey("p" + (n % 1000)), null);
                    } else {
                      int i = next[0]++ % 10_000;
                      c.readItem("d" + i, new PartitionKey("p" + (i % 1000)), ObjectNode.class);
                    }
                  };
                });
          }
        }
      }
    } finally {
      engine.close();
    }
  }

  // ------------------------------------------------------------------ a server in another process

  private static boolean isTls(String scheme) {
    return switch (scheme) {
      case "http" -> false;
      case "https" -> true;
      default -> throw new IllegalArgumentException("scheme must be http or https, was " + scheme);
    };
  }

  /**
   * A document of about 1 KB, the shape {@code scripts/bench-gateway-vs-postgres} stores in
   * PostgreSQL too (the service adds its system properties, about 150 bytes, to this one).
   */
  private static String document(int i) {
    return "{\"id\":\"d"
        + i
        + "\",\"pk\":\"p"
        + (i % 1000)
        + "\",\"n\":"
        + i
        + ",\"payload\":\""
        + "x".repeat(950)
        + "\"}";
  }

  static byte[] pointRead(int i) {
    return RawClient.request(
        "GET",
        "/dbs/bench/colls/items/docs/d" + i,
        "docs",
        "dbs/bench/colls/items/docs/d" + i,
        "x-ms-documentdb-partitionkey: [\"p" + (i % 1000) + "\"]\r\n",
        null);
  }

  /** Creates database {@code bench}, container {@code items} (100,000 RU/s) and the documents. */
  private static void populate(int port, boolean tls, int docs) throws Exception {
    waitForOk(port, tls);
    try (RawClient c = new RawClient(port, tls)) {
      expect(
          201,
          c.exchange(
              RawClient.request(
                  "POST",
                  "/dbs",
                  "dbs",
                  "",
                  "Content-Type: application/json\r\n",
                  "{\"id\":\"bench\"}")));
      expect(
          201,
          c.exchange(
              RawClient.request(
                  "POST",
                  "/dbs/bench/colls",
                  "colls",
                  "dbs/bench",
                  "Content-Type: application/json\r\nx-ms-offer-throughput: 100000\r\n",
                  "{\"id\":\"items\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\"}}")));
    }
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        done.add(
            pool.submit(
                () -> {
                  try (RawClient c = new RawClient(port, tls)) {
                    for (int i = first; i < docs; i += threads) {
                      expect(
                          201,
                          c.exchange(
                              RawClient.request(
                                  "POST",
                                  "/dbs/bench/colls/items/docs",
                                  "docs",
                                  "dbs/bench/colls/items",
                                  "x-ms-documentdb-partitionkey: [\"p"
                                      + (i % 1000)
                                      + "\"]\r\nContent-Type: application/json\r\n",
                                  document(i))));
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static void expect(int status, int got) {
    if (got != status) {
      throw new IllegalStateException("expected status " + status + ", got " + got);
    }
  }

  /**
   * Point reads of the documents {@link #populate} made, over {@code connections} keep-alive
   * connections, one thread each; with the server's pid, the CPU seconds it and this driver used
   * while measured.
   */
  private static void reads(
      int port, boolean tls, int seconds, int connections, int docs, long serverPid)
      throws Exception {
    byte[][] reads = pointReads(docs);
    CpuWindow cpu = new CpuWindow(serverPid);
    run(
        "raw HTTP point reads",
        seconds,
        connections,
        t -> rawReads(port, tls, t, reads),
        cpu::open,
        cpu::close);
    cpu.print();
  }

  /**
   * As {@link #reads}, with a cheap driver: connections multiplexed over {@code threads}, plain
   * HTTP ({@link MultiplexedReads}) or, {@code direct}, RNTBD over TLS ({@link DirectReads}).
   */
  private static void readsMultiplexed(
      boolean direct, int port, int seconds, int connections, int threads, int docs, long serverPid)
      throws Exception {
    CpuWindow cpu = new CpuWindow(serverPid);
    MultiplexedReads.Result r =
        direct
            ? DirectReads.run(
                port,
                connections,
                threads,
                seconds,
                requests(docs, DirectReads::pointRead),
                cpu::open,
                cpu::close)
            : MultiplexedReads.run(
                port,
                connections,
                threads,
                seconds,
                requests(docs, GatewayBench::pointRead),
                cpu::open,
                cpu::close);
    r.print(direct ? "direct-mode RNTBD reads" : "multiplexed HTTP reads", connections, threads);
    if (direct) {
      System.out.println(DirectReads.stack());
    }
    cpu.print();
  }

  private static byte[][] pointReads(int docs) {
    return requests(docs, GatewayBench::pointRead);
  }

  private static byte[][] requests(int docs, IntFunction<byte[]> request) {
    byte[][] out = new byte[docs][];
    for (int i = 0; i < docs; i++) {
      out[i] = request.apply(i);
    }
    return out;
  }

  /** The CPU this driver and (given its pid, else none) the server used in a measured window. */
  private static final class CpuWindow {
    private final long serverPid;
    private double client;
    private double server;

    CpuWindow(long serverPid) {
      this.serverPid = serverPid;
    }

    void open() {
      client = -clientCpuSeconds();
      server = -serverCpuSeconds();
    }

    void close() {
      client += clientCpuSeconds();
      server += serverCpuSeconds();
    }

    private double serverCpuSeconds() {
      return serverPid > 0 ? processCpuSeconds(serverPid) : 0;
    }

    void print() {
      System.out.printf(
          Locale.ROOT,
          "cpu during the measured run: client %.2f s server %.2f s%n",
          client,
          server);
    }
  }

  private static Op rawReads(int port, boolean tls, int thread, byte[][] reads) throws IOException {
    RawClient c = new RawClient(port, tls);
    int[] next = {thread * 7919};
    return () -> {
      int status = c.exchange(reads[next[0]++ % reads.length]);
      if (status >= 300) {
        throw new IllegalStateException("status " + status);
      }
    };
  }

  private static double clientCpuSeconds() {
    return ((com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime()
        / 1e9;
  }

  /** User and system CPU of a process, from {@code /proc/<pid>/stat} (Linux), in seconds. */
  static double processCpuSeconds(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ", -1);
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / (double) CLOCK_TICKS;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** {@code getconf CLK_TCK}: 100 on every Linux the JDK runs on. */
  private static final int CLOCK_TICKS = 100;

  private static byte[][] creates(int thread, int count) {
    byte[][] out = new byte[count][];
    for (int i = 0; i < count; i++) {
      String id = "c" + thread + "-" + i;
      String pk = "q" + (i % 1000);
      out[i] =
          RawClient.request(
              "POST",
              "/dbs/bench/colls/items/docs",
              "docs",
              "dbs/bench/colls/items",
              "x-ms-documentdb-partitionkey: [\""
                  + pk
                  + "\"]\r\nContent-Type: application/json\r\n",
              "{\"id\":\""
                  + id
                  + "\",\"pk\":\""
                  + pk
                  + "\",\"payload\":\""
                  + "x".repeat(200)
                  + "\"}");
    }
    return out;
  }

  private interface Requests {
    byte[][] forThread(int thread);
  }

  private static void raw(String what, int port, int seconds, int threads, Requests requests)
      throws Exception {
    raw(what, port, false, seconds, threads, requests);
  }

  private static void raw(
      String what, int port, boolean tls, int seconds, int threads, Requests requests)
      throws Exception {
    run(
        what,
        seconds,
        threads,
        t -> {
          byte[][] mine = requests.forThread(t);
          RawClient c = new RawClient(port, tls);
          int[] next = {t * 7919};
          return () -> {
            int status = c.exchange(mine[next[0]++ % mine.length]);
            if (status >= 300) {
              throw new IllegalStateException("status " + status);
            }
          };
        });
  }

  private static void sdk(GatewayServer server, int seconds, int threads) throws Exception {
    System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
    try (CosmosClient client =
        new CosmosClientBuilder()
            .endpoint(server.endpoint().toString())
            .key(MasterKeyAuthenticator.EMULATOR_KEY)
            .gatewayMode(new GatewayConnectionConfig())
            .buildClient()) {
      CosmosContainer c = client.getDatabase("bench").getContainer("items");
      run(
          "Java SDK point reads",
          seconds,
          threads,
          t -> {
            int[] next = {t * 7919};
            return () -> {
              int i = next[0]++ % 10_000;
              c.readItem("d" + i, new PartitionKey("p" + (i % 1000)), ObjectNode.class);
            };
          });
    }
  }

  private interface Op {
    void run() throws Exception;
  }

  private interface OpFactory {
    Op create(int thread) throws Exception;
  }

  /** Runs {@code threads} loops for a warm-up of 3 s, then {@code seconds} measured. */
  private static void run(String what, int seconds, int threads, OpFactory factory)
      throws Exception {
    run(what, seconds, threads, factory, () -> {}, () -> {});
  }

  /** As above, calling {@code atStart} when the measured seconds start and {@code atEnd} after. */
  private static void run(
      String what, int seconds, int threads, OpFactory factory, Runnable atStart, Runnable atEnd)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      // Every thread builds its operation first; the clock starts when all are ready. (It used to
      // start when the threads were submitted: 16 threads signing their creates took longer than
      // the warm-up and the window together, and measured nothing.)
      long[] window = new long[2];
      java.util.concurrent.CyclicBarrier ready =
          new java.util.concurrent.CyclicBarrier(
              threads + 1,
              () -> {
                window[0] = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                window[1] = window[0] + TimeUnit.SECONDS.toNanos(seconds);
              });
      List<Future<Histogram>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        results.add(
            pool.submit(
                () -> {
                  Op op = factory.create(thread);
                  Histogram h = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
                  ready.await();
                  long warmEnd = window[0];
                  long end = window[1];
                  long now;
                  while ((now = System.nanoTime()) < end) {
                    op.run();
                    long done = System.nanoTime();
                    if (now >= warmEnd) {
                      h.recordValue(done - now);
                    }
                  }
                  return h;
                }));
      }
      ready.await();
      TimeUnit.NANOSECONDS.sleep(window[0] - System.nanoTime());
      atStart.run();
      TimeUnit.NANOSECONDS.sleep(window[1] - System.nanoTime());
      atEnd.run();
      Histogram all = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
      for (Future<Histogram> f : results) {
        all.add(f.get());
      }
      System.out.printf(
          Locale.ROOT,
          // the mean and the top after p99: a rate far below threads ÷ p50 is a tail beyond p99
          "%-24s %2d threads: %,9.0f ops/s   p50 %7.3f ms   p90 %7.3f ms   p99 %7.3f ms"
              + "   p99.9 %7.3f ms   max %7.3f ms   mean %7.3f ms%n",
          what,
          threads,
          all.getTotalCount() / (double) seconds,
          all.getValueAtPercentile(50) / 1e6,
          all.getValueAtPercentile(90) / 1e6,
          all.getValueAtPercentile(99) / 1e6,
          all.getValueAtPercentile(99.9) / 1e6,
          all.getMaxValue() / 1e6,
          all.getMean() / 1e6);
    } finally {
      pool.shutdownNow();
    }
  }
}
