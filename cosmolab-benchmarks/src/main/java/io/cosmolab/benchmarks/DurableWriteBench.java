package io.cosmolab.benchmarks;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.benchmarks.gateway.RawClient;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.gateway.GatewayServer;
import io.cosmolab.store.rocksdb.RocksDbDocumentStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * Write throughput of the engine on each of its stores, side by side: in memory, RocksDB ({@code
 * serve --data-dir}) and RocksDB syncing every commit ({@code --sync-writes}), with 1 and 2 writer
 * threads, each thread on a physical partition of its own (2 partitions, as the gateway's workers
 * would write). Creates of documents of about 1 KB, then upserts of the same documents (the steady
 * state of a fixed data set: each upsert replaces a version and drops one from the change log).
 *
 * <pre>
 *   java -cp benchmarks.jar io.cosmolab.benchmarks.DurableWriteBench SECONDS ROUNDS [ONLY] [--http]
 *   java -cp benchmarks.jar io.cosmolab.benchmarks.DurableWriteBench 5 3
 *   java -cp benchmarks.jar io.cosmolab.benchmarks.DurableWriteBench 10 5 "upsert, rocksdb, 1
 * </pre>
 *
 * Each round runs every configuration once, in an order reversed every other round, so the
 * machine's drift hits all of them alike (ONLY keeps the configurations whose name contains it); a
 * configuration starts on a new engine in a new directory, writes for one untimed second (the JIT),
 * then for SECONDS timed. Prints per configuration the median and range of the rounds' rates, and
 * the ratio to the in-memory store's median.
 *
 * <p>With {@code --http} the writes go through the gateway as {@code serve} runs it (plain HTTP on
 * loopback, one keep-alive connection per writer thread, its requests signed before the timed run),
 * so the client's sending and reading share the two cores with the server, as a test suite's does.
 */
public final class DurableWriteBench {
  private static final String FILLER = "x".repeat(880);
  // creates signed ahead per writer through the gateway: 15 s at 10,000/s
  private static final int SIGNED_CREATES = 150_000;
  private static final String[] STORES = {"memory", "rocksdb", "rocksdb --sync-writes"};
  private static final String[] OPS = {"create", "upsert"};

  private DurableWriteBench() {}

  public static void main(String[] args) throws Exception {
    boolean http = Arrays.asList(args).contains("--http");
    args = Arrays.stream(args).filter(a -> !a.equals("--http")).toArray(String[]::new);
    if (args.length < 2) {
      System.err.println("usage: DurableWriteBench SECONDS ROUNDS [ONLY] [--http]");
      System.exit(2);
    }
    double seconds = Double.parseDouble(args[0]);
    int rounds = Integer.parseInt(args[1]);
    List<String> names = new ArrayList<>();
    for (String op : OPS) {
      for (String store : STORES) {
        for (int threads = 1; threads <= 2; threads++) {
          names.add(op + ", " + store + ", " + threads + (threads == 1 ? " thread" : " threads"));
        }
      }
    }
    double[][] rates = new double[names.size()][rounds];
    Path root = Files.createTempDirectory("cosmolab-writes-");
    try {
      for (int round = 0; round < rounds; round++) {
        for (int n = 0; n < names.size(); n++) {
          int k = round % 2 == 0 ? n : names.size() - 1 - n;
          if (args.length > 2 && !names.get(k).contains(args[2])) {
            continue;
          }
          String op = OPS[k / (STORES.length * 2)];
          int store = (k / 2) % STORES.length;
          int threads = k % 2 + 1;
          Path dir = root.resolve("r" + round + "-" + k);
          rates[k][round] = run(op.equals("upsert"), store, threads, dir, seconds, http);
          delete(dir);
          System.out.printf(
              "round %d: %-40s %,10.0f writes/s%n", round + 1, names.get(k), rates[k][round]);
        }
      }
      System.out.printf(
          "%n%.0f s a run, %d rounds, %s (median, range, ÷ in memory with as many threads)%n",
          seconds, rounds, http ? "through the gateway (HTTP)" : "in-process");
      for (int k = 0; k < names.size(); k++) {
        if (args.length > 2 && !names.get(k).contains(args[2])) {
          continue;
        }
        double[] r = rates[k].clone();
        Arrays.sort(r);
        int memory = (k / (STORES.length * 2)) * STORES.length * 2 + k % 2;
        double[] m = rates[memory].clone();
        Arrays.sort(m);
        double base = m[m.length / 2];
        System.out.printf(
            "%-40s %,10.0f writes/s  (%,.0f to %,.0f)  %s%n",
            names.get(k),
            r[r.length / 2],
            r[0],
            r[r.length - 1],
            base == 0 ? "" : String.format(java.util.Locale.ROOT, "%.2f", r[r.length / 2] / base));
      }
    } finally {
      delete(root);
    }
  }

  /** Writes per second of one configuration on a new engine. */
  private static double run(
      boolean upserts, int store, int threads, Path dir, double seconds, boolean http)
      throws Exception {
    CosmosEngine.Builder b = CosmosEngine.builder().throttling(ThrottlingMode.OFF);
    if (store > 0) {
      b.store(RocksDbDocumentStore.open(dir, store == 2));
    }
    try (CosmosEngine engine = b.build()) {
      Container c =
          engine
              .createDatabase("bench")
              .createContainer(
                  ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                      .withThroughput(Throughput.manual(20_000))
                      .withPhysicalPartitions(2));
      String[] keys = keysOnTwoPartitions(c);
      int fixedSet = 2_000; // documents per thread that upserts rewrite
      if (upserts) {
        for (int t = 0; t < threads; t++) {
          for (int i = 0; i < fixedSet; i++) {
            c.upsert(document(keys[t], t, i));
          }
        }
      }
      GatewayServer server =
          http ? GatewayServer.builder(engine).port(0).plainHttp().start() : null;
      // through the gateway, each writer's requests are signed before the clock starts, as the
      // read drivers' are: the run measures the server, not the client's signing (a create's
      // document is new each time: a pool as large as a run at the in-memory rate can use)
      byte[][][] signed = new byte[threads][][];
      for (int t = 0; http && t < threads; t++) {
        signed[t] = new byte[upserts ? fixedSet : SIGNED_CREATES][];
        for (int i = 0; i < signed[t].length; i++) {
          signed[t][i] = upsertRequest(keys[t], document(keys[t], t, upserts ? i : fixedSet + i));
        }
      }
      try {
        LongAdder done = new LongAdder();
        AtomicBoolean timing = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch finished = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
          int thread = t;
          Thread w =
              new Thread(
                  () -> {
                    try (RawClient client = server == null ? null : new RawClient(server.port())) {
                      for (long i = 0; !stop.get(); i++) {
                        int id = upserts ? (int) (i % fixedSet) : (int) (fixedSet + i);
                        if (client == null) {
                          c.upsert(document(keys[thread], thread, id));
                        } else {
                          if (!upserts && i >= SIGNED_CREATES) {
                            throw new IllegalStateException(
                                "the run outgrew its " + SIGNED_CREATES + " signed creates");
                          }
                          int status =
                              client.exchange(signed[thread][(int) (i % signed[thread].length)]);
                          if (status != 200 && status != 201) {
                            throw new IllegalStateException("an upsert answered " + status);
                          }
                        }
                        if (timing.get()) {
                          done.increment();
                        }
                      }
                    } catch (Throwable e) {
                      failure.compareAndSet(null, e);
                    } finally {
                      finished.countDown();
                    }
                  });
          w.start();
        }
        Thread.sleep(1000); // the JIT's warm-up, untimed
        timing.set(true);
        long t0 = System.nanoTime();
        Thread.sleep((long) (seconds * 1000));
        long n = done.sum();
        long t1 = System.nanoTime();
        stop.set(true);
        finished.await();
        if (failure.get() != null) {
          throw new IllegalStateException("a writer failed", failure.get());
        }
        return n / ((t1 - t0) / 1e9);
      } finally {
        if (server != null) {
          server.close();
        }
      }
    }
  }

  /** The signed upsert of {@code d} into the benchmark's container, as an SDK sends it. */
  private static byte[] upsertRequest(String key, ObjectNode d) {
    return RawClient.request(
        "POST",
        "/dbs/bench/colls/c/docs",
        "docs",
        "dbs/bench/colls/c",
        "x-ms-documentdb-partitionkey: [\""
            + key
            + "\"]\r\nx-ms-documentdb-is-upsert: True\r\nContent-Type: application/json\r\n",
        d.toString());
  }

  /** A partition key value in each of the container's two physical partitions. */
  private static String[] keysOnTwoPartitions(Container c) {
    String[] keys = new String[2];
    List<String> seen = new ArrayList<>();
    for (int i = 0; keys[1] == null; i++) {
      String key = "key-" + i;
      String range =
          c.routing()
              .rangeFor(
                  io.cosmolab.engine.partitioning.EffectivePartitionKey.of(
                      c.partitionKey(), io.cosmolab.engine.partitioning.PartitionKeyValue.of(key)))
              .id();
      if (!seen.contains(range)) {
        keys[seen.size()] = key;
        seen.add(range);
      }
    }
    return keys;
  }

  private static ObjectNode document(String key, int thread, int i) {
    ObjectNode d = JsonNodeFactory.instance.objectNode();
    d.put("id", "t" + thread + "-" + i);
    d.put("pk", key);
    d.put("payload", FILLER);
    return d;
  }

  private static void delete(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
