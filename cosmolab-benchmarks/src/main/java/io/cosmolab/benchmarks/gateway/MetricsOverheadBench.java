package io.cosmolab.benchmarks.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * What metrics cost, measured on two servers at once: one with metrics on, one with {@code
 * --no-metrics}, both populated and warm, the same connections driving first one and then the other
 * in short slices (on, off, off, on, on, off, ... so that a drift of the machine's speed within a
 * run hits both sides alike). A scraper reads {@code /metrics} of both every second for the whole
 * run, as Prometheus would (the metrics-off server answers it 404), so the two differ only in what
 * metrics do.
 *
 * <p>For each slice it records the requests answered and the CPU time the measured server used
 * ({@code /proc/<pid>/stat}), so each side gets throughput and CPU per request over the same
 * stretch of time; the ratio of each adjacent on/off pair is reported too, and their median.
 *
 * <pre>
 *   MetricsOverheadBench &lt;slice seconds&gt; &lt;slices&gt; &lt;connections&gt; &lt;docs&gt; on:PORT:PID off:PORT:PID ...
 * </pre>
 *
 * Each server must already hold {@code docs} documents from {@code GatewayBench populate}. With two
 * servers per side, started on, off, off, on, the side of a server is not also the order in which
 * it was started (an A/A run of two metrics-off servers differed by up to 12 % on this host, the
 * first started being faster); a side's slices go to its servers in turn.
 */
public final class MetricsOverheadBench {
  private MetricsOverheadBench() {}

  public static void main(String[] args) throws Exception {
    int sliceSeconds = Integer.parseInt(args[0]);
    int slices = Integer.parseInt(args[1]);
    int connections = Integer.parseInt(args[2]);
    int docs = Integer.parseInt(args[3]);
    // on:PORT:PID or off:PORT:PID, each side once or more
    List<List<long[]>> servers = List.of(new ArrayList<>(), new ArrayList<>());
    for (int i = 4; i < args.length; i++) {
      String[] f = args[i].split(":", -1);
      int side =
          switch (f[0]) {
            case "on" -> 0;
            case "off" -> 1;
            default ->
                throw new IllegalArgumentException("not on:PORT:PID or off:PORT:PID: " + args[i]);
          };
      servers.get(side).add(new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])});
    }
    if (servers.get(0).isEmpty() || servers.get(1).isEmpty()) {
      throw new IllegalArgumentException("needs at least one on:PORT:PID and one off:PORT:PID");
    }
    List<long[]> all = new ArrayList<>(servers.get(0));
    all.addAll(servers.get(1));
    byte[][] reads = new byte[docs][];
    for (int i = 0; i < docs; i++) {
      reads[i] = GatewayBench.pointRead(i);
    }

    // -1 parks the threads; otherwise the index in `all` of the server they drive
    int[] target = {-1};
    LongAdder[] answered = new LongAdder[all.size()];
    Arrays.setAll(answered, i -> new LongAdder());
    ExecutorService pool = Executors.newFixedThreadPool(connections + 1);
    List<Future<?>> loops = new ArrayList<>();
    Object gate = new Object();
    boolean[] stop = {false};
    for (int t = 0; t < connections; t++) {
      int thread = t;
      loops.add(
          pool.submit(
              () -> {
                RawClient[] clients = new RawClient[all.size()];
                try {
                  for (int i = 0; i < clients.length; i++) {
                    clients[i] = new RawClient((int) all.get(i)[0]);
                  }
                  int next = thread * 7919;
                  while (true) {
                    int server;
                    synchronized (gate) {
                      while (target[0] < 0 && !stop[0]) {
                        gate.wait();
                      }
                      if (stop[0]) {
                        return null;
                      }
                      server = target[0];
                    }
                    // a burst between looks at the switch keeps the monitor off the hot path
                    for (int k = 0; k < 8; k++) {
                      int status = clients[server].exchange(reads[next++ % reads.length]);
                      if (status >= 300) {
                        throw new IllegalStateException("status " + status + " from " + server);
                      }
                    }
                    answered[server].add(8);
                  }
                } finally {
                  for (RawClient c : clients) {
                    if (c != null) {
                      c.close();
                    }
                  }
                }
              }));
    }
    Future<?> scraper = pool.submit(() -> scrape(all));

    // warm each: its JIT, outside the measurement
    for (int i = 0; i < 2 * all.size(); i++) {
      drive(gate, target, i % all.size(), 3);
    }
    double[] seconds = new double[2];
    long[] requests = new long[2];
    double[] cpu = new double[2];
    double[][] pairRatio = new double[slices / 2][2];
    double[][] sliceRate = new double[2][slices / 2];
    double[][] sliceCpu = new double[2][slices / 2];
    int[] turn = new int[2];
    for (int s = 0; s < slices; s++) {
      // on, off, off, on, on, off, ...; within a side, its servers in turn
      int side = ((s + 1) / 2) % 2;
      List<long[]> mine = servers.get(side);
      long[] server = mine.get(turn[side]++ % mine.size());
      int index = all.indexOf(server);
      long before = answered[index].sum();
      double cpuBefore = GatewayBench.processCpuSeconds(server[1]);
      long t0 = System.nanoTime();
      drive(gate, target, index, sliceSeconds);
      double dt = (System.nanoTime() - t0) / 1e9;
      long n = answered[index].sum() - before;
      double c = GatewayBench.processCpuSeconds(server[1]) - cpuBefore;
      seconds[side] += dt;
      requests[side] += n;
      cpu[side] += c;
      sliceRate[side][s / 2] = n / dt;
      sliceCpu[side][s / 2] = c * 1e6 / n;
    }
    synchronized (gate) {
      stop[0] = true;
      gate.notifyAll();
    }
    for (Future<?> f : loops) {
      f.get();
    }
    scraper.cancel(true);
    pool.shutdownNow();
    for (int i = 0; i < slices / 2; i++) {
      pairRatio[i][0] = sliceRate[0][i] / sliceRate[1][i];
      pairRatio[i][1] = sliceCpu[0][i] / sliceCpu[1][i];
    }
    double onRate = requests[0] / seconds[0];
    double offRate = requests[1] / seconds[1];
    double onCpu = cpu[0] * 1e6 / requests[0];
    double offCpu = cpu[1] * 1e6 / requests[1];
    System.out.printf(
        Locale.ROOT,
        "interleaved, %d servers, %d connections, %d slices of %d s: metrics on %,.0f/s %.1f us CPU/request"
            + "   off %,.0f/s %.1f us CPU/request   throughput on/off %.3f   CPU on/off %.3f"
            + "   pairs: median throughput %.3f, median CPU %.3f%n",
        all.size(),
        connections,
        slices,
        sliceSeconds,
        onRate,
        onCpu,
        offRate,
        offCpu,
        onRate / offRate,
        onCpu / offCpu,
        median(pairRatio, 0),
        median(pairRatio, 1));
    StringBuilder pairs = new StringBuilder("pairs (throughput, CPU on/off):");
    for (double[] r : pairRatio) {
      pairs.append(String.format(Locale.ROOT, " %.2f/%.2f", r[0], r[1]));
    }
    System.out.println(pairs);
    System.out.printf(
        Locale.ROOT,
        "pairs' geometric mean, with a 95 %% interval (t, %d pairs): throughput %s   CPU %s%n",
        pairRatio.length,
        interval(pairRatio, 0),
        interval(pairRatio, 1));
  }

  /** The geometric mean of a column of ratios and its 95 % interval, from the logs' t interval. */
  private static String interval(double[][] rows, int column) {
    double[] logs = Arrays.stream(rows).mapToDouble(r -> Math.log(r[column])).toArray();
    int n = logs.length;
    if (n < 2) {
      return "n/a";
    }
    double mean = Arrays.stream(logs).average().orElseThrow();
    double var = Arrays.stream(logs).map(x -> (x - mean) * (x - mean)).sum() / (n - 1);
    double half = T975[Math.min(n - 1, T975.length) - 1] * Math.sqrt(var / n);
    return String.format(
        Locale.ROOT,
        "%.3f [%.3f, %.3f]",
        Math.exp(mean),
        Math.exp(mean - half),
        Math.exp(mean + half));
  }

  /** Student's t, 97.5th percentile, for 1..30 degrees of freedom (30 stands for more). */
  private static final double[] T975 = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042
  };

  /** Points the connections at one server for the given seconds, then parks them. */
  private static void drive(Object gate, int[] target, int side, int seconds)
      throws InterruptedException {
    synchronized (gate) {
      target[0] = side;
      gate.notifyAll();
    }
    TimeUnit.SECONDS.sleep(seconds);
    synchronized (gate) {
      target[0] = -1;
    }
  }

  private static Void scrape(List<long[]> servers) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    try {
      while (!Thread.currentThread().isInterrupted()) {
        for (long[] server : servers) {
          HttpResponse<InputStream> r =
              http.send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server[0] + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofInputStream());
          try (InputStream in = r.body()) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
          }
        }
        TimeUnit.SECONDS.sleep(1);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return null;
  }

  private static double median(double[][] rows, int column) {
    double[] v = Arrays.stream(rows).mapToDouble(r -> r[column]).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
