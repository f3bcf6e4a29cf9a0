package io.cosmolab.benchmarks.gateway;

import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.gateway.GatewayServer;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The in-memory server under steady upserts of a fixed data set: 1,000 documents of about 1 KB,
 * upserted over and over through raw HTTP on loopback by a few connections, for {@code minutes}.
 * Every minute it prints the heap in use after a full collection and the upserts of that minute; at
 * the end, the largest heap after the first minute over the heap at the first minute. The change
 * log's retention is what keeps that ratio near 1 (before it, every version was kept).
 *
 * <pre>
 *   MemorySoak [minutes (30)] [connections (4)]
 * </pre>
 */
public final class MemorySoak {
  private static final int DOCUMENTS = 1_000;
  private static final String PAYLOAD = "x".repeat(900);

  private MemorySoak() {}

  public static void main(String[] args) throws Exception {
    int minutes = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    int connections = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    CosmosEngine engine = CosmosEngine.builder().throttling(ThrottlingMode.OBSERVE).build();
    engine
        .createDatabase("soak")
        .createContainer(
            ContainerSettings.of("items", PartitionKeyDefinition.hash("/pk"))
                .withThroughput(Throughput.manual(100_000)));
    try (GatewayServer server = GatewayServer.builder(engine).port(0).plainHttp().start()) {
      AtomicReference<byte[][]> requests = new AtomicReference<>(signed());
      AtomicBoolean running = new AtomicBoolean(true);
      AtomicLong upserts = new AtomicLong();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < connections; t++) {
        int offset = t * 251;
        Thread thread =
            new Thread(
                () -> {
                  try (RawClient c = new RawClient(server.port())) {
                    for (long i = offset; running.get(); i++) {
                      int status = c.exchange(requests.get()[(int) (i % DOCUMENTS)]);
                      if (status != 200 && status != 201) {
                        throw new IllegalStateException("upsert answered " + status);
                      }
                      upserts.incrementAndGet();
                    }
                  } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                  }
                },
                "soak-" + t);
        threads.add(thread);
        thread.start();
      }
      long[] heap = new long[minutes + 1];
      System.out.printf(Locale.ROOT, "%6s %14s %14s%n", "minute", "heap MB", "upserts/s");
      long before = 0;
      for (int m = 1; m <= minutes && failure.get() == null; m++) {
        Thread.sleep(60_000);
        requests.set(signed()); // signatures carry a date; the server refuses old ones
        long done = upserts.get();
        heap[m] = heapAfterGc();
        System.out.printf(
            Locale.ROOT, "%6d %14.1f %14.0f%n", m, heap[m] / 1e6, (done - before) / 60.0);
        before = done;
      }
      running.set(false);
      for (Thread t : threads) {
        t.join();
      }
      if (failure.get() != null) {
        throw new IllegalStateException("the soak failed", failure.get());
      }
      long max = 0;
      for (int m = 2; m <= minutes; m++) {
        max = Math.max(max, heap[m]);
      }
      System.out.printf(
          Locale.ROOT,
          "upserts %d; heap at minute 1 %.1f MB, largest after it %.1f MB: %.2fx%n",
          upserts.get(),
          heap[1] / 1e6,
          max / 1e6,
          minutes > 1 ? (double) max / heap[1] : 1.0);
    } finally {
      engine.close();
    }
  }

  private static long heapAfterGc() {
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static byte[][] signed() {
    byte[][] out = new byte[DOCUMENTS][];
    for (int i = 0; i < DOCUMENTS; i++) {
      String pk = "p" + (i % 100);
      out[i] =
          RawClient.request(
              "POST",
              "/dbs/soak/colls/items/docs",
              "docs",
              "dbs/soak/colls/items",
              "x-ms-documentdb-partitionkey: [\""
                  + pk
                  + "\"]\r\nx-ms-documentdb-is-upsert: True\r\nContent-Type: application/json\r\n",
              "{\"id\":\"d" + i + "\",\"pk\":\"" + pk + "\",\"payload\":\"" + PAYLOAD + "\"}");
    }
    return out;
  }
}
