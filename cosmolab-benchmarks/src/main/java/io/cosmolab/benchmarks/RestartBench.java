package io.cosmolab.benchmarks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.store.rocksdb.RocksDbDocumentStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * How long a durable engine (RocksDB, {@code serve --data-dir}) takes to open again, against the
 * history its documents have: the same documents written once, and rewritten many times over.
 * Restart time should follow the data, not the history (issue 13 item 7): the high-water marks are
 * saved, so opening reads the documents once and no change record, and the write-ahead log RocksDB
 * replays at an open is bounded. The directory's size is printed after the fill (write-ahead log
 * included) and after the opens (which flushed it).
 *
 * <pre>
 *   java -cp benchmarks.jar io.cosmolab.benchmarks.RestartBench DOCS REOPENS REWRITES...
 *   java -cp benchmarks.jar io.cosmolab.benchmarks.RestartBench 20000 7 0 5 20
 * </pre>
 *
 * For each REWRITES count a data directory is filled first: DOCS documents of about 1 KB, then
 * every document upserted REWRITES times, and the engine closed. Then each directory is opened
 * REOPENS times, the directories taking turns so the machine's drift hits all alike; a reopen is
 * timed from opening the store to the answer of a point read (which needs the container recovered).
 * Prints, per directory, the median and range of the reopen times and its size on disk.
 */
public final class RestartBench {
  private static final String FILLER = "x".repeat(880);

  private RestartBench() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 3 || Integer.parseInt(args[1]) < 2) {
      System.err.println("usage: RestartBench DOCS REOPENS REWRITES... (REOPENS at least 2)");
      System.exit(2);
    }
    int docs = Integer.parseInt(args[0]);
    int reopens = Integer.parseInt(args[1]);
    int[] rewrites = Arrays.stream(args, 2, args.length).mapToInt(Integer::parseInt).toArray();
    Path root = Files.createTempDirectory("cosmolab-restart-");
    try {
      List<Path> dirs = new ArrayList<>();
      long[] filledBytes = new long[rewrites.length];
      for (int i = 0; i < rewrites.length; i++) {
        int k = rewrites[i];
        Path dir = root.resolve("rewrites-" + k);
        long t0 = System.nanoTime();
        fill(dir, docs, k);
        filledBytes[i] = sizeOf(dir);
        System.out.printf(
            "filled %,d documents, each rewritten %d times (%,d writes) in %.1f s%n",
            docs, k, (long) docs * (k + 1), (System.nanoTime() - t0) / 1e9);
        dirs.add(dir);
      }
      long[][] millis = new long[rewrites.length][reopens];
      long[][] storeMillis = new long[rewrites.length][reopens];
      for (int round = 0; round < reopens; round++) {
        for (int i = 0; i < rewrites.length; i++) {
          int at = round % 2 == 0 ? i : rewrites.length - 1 - i; // the order reversed every round
          long[] t = reopen(dirs.get(at), docs);
          millis[at][round] = t[0];
          storeMillis[at][round] = t[1];
        }
      }
      System.out.printf("%n%,d documents of ~1 KB, %d reopens each%n", docs, reopens);
      for (int i = 0; i < rewrites.length; i++) {
        long[] m = Arrays.copyOfRange(millis[i], 1, reopens);
        long[] s = Arrays.copyOfRange(storeMillis[i], 1, reopens);
        Arrays.sort(m);
        Arrays.sort(s);
        System.out.printf(
            "rewritten %3d times: first open %,6d ms (the store's %,d); later opens median %,6d"
                + " ms (%,d to %,d; the store's %,d); on disk %,.1f MB after the fill, %,.1f MB"
                + " after the opens%n",
            rewrites[i],
            millis[i][0],
            storeMillis[i][0],
            m[m.length / 2],
            m[0],
            m[m.length - 1],
            s[s.length / 2],
            filledBytes[i] / 1e6,
            sizeOf(dirs.get(i)) / 1e6);
      }
    } finally {
      delete(root);
    }
  }

  private static CosmosEngine engineOn(RocksDbDocumentStore store) {
    return CosmosEngine.builder().throttling(ThrottlingMode.OBSERVE).store(store).build();
  }

  private static void fill(Path dir, int docs, int rewrites) {
    try (CosmosEngine engine = engineOn(RocksDbDocumentStore.open(dir))) {
      Container c =
          engine
              .createDatabase("bench")
              .createContainer(
                  ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                      .withThroughput(Throughput.manual(1_000_000)));
      for (int round = 0; round <= rewrites; round++) {
        for (int i = 0; i < docs; i++) {
          c.upsert(document(i, round));
        }
      }
    }
  }

  /**
   * Milliseconds from opening the store to a point read's answer, and of them those the store's own
   * open took (RocksDB: its files, its write-ahead log).
   */
  private static long[] reopen(Path dir, int docs) {
    long t0 = System.nanoTime();
    RocksDbDocumentStore store = RocksDbDocumentStore.open(dir);
    long opened = System.nanoTime();
    try (CosmosEngine engine = engineOn(store)) {
      Container c = engine.database("bench").container("c");
      int i = docs / 2;
      c.read(PartitionKeyValue.of("key-" + (i % 1000)), "d" + i);
      long end = System.nanoTime();
      return new long[] {(end - t0) / 1_000_000, (opened - t0) / 1_000_000};
    }
  }

  private static ObjectNode document(int i, int version) {
    ObjectNode d = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    d.put("id", "d" + i);
    d.put("pk", "key-" + (i % 1000));
    d.put("version", version);
    d.put("payload", FILLER);
    return d;
  }

  private static long sizeOf(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(RestartBench::size).sum();
    }
  }

  private static long size(Path f) {
    try {
      return Files.size(f);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void delete(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
