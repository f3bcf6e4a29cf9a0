package io.cosmolab.benchmarks;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.ItemResponse;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Point create and point read of ~1 KB documents in-process, on containers of 1, 2 and 16 physical
 * partitions. Run with {@code -t 1} and {@code -t 2} for one thread and two (scripts/bench): writes
 * lock their physical partition, so creates on 2 or 16 partitions should scale with threads, and on
 * 1 partition they cannot. Keys are random, so two threads on 2 partitions meet on the same
 * partition half the time. Throttling is observe mode, the plain emulator's default: budgets are
 * checked and metrics recorded on every operation, as a user would run it. Creates keep every
 * document they make, so on 2 cores they measure the collector as much as the engine; upserts over
 * the preloaded documents keep the heap the same size.
 *
 * <p>The {@code …OwnPartition} variants give each thread the keys of one physical partition of its
 * own (the n-th thread writes to partition n mod the partitions): the setting of "2 threads on 2
 * partitions scale", which random keys cannot show, as two threads then meet on one partition half
 * the time.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class PointOperationsBenchmark {
  private static final int PRELOADED = 100_000;
  private static final int KEYS = 10_000;
  // the documents' payload; RetentionControlBenchmark's documents carry the same
  static final String FILLER = "x".repeat(880);

  @Param({"1", "2", "16"})
  public int partitions;

  private Container container;
  private Container fresh;
  private final AtomicLong nextId = new AtomicLong();
  // by partition: the preloaded documents' indexes, and the keys, whose documents it holds
  private final java.util.Map<String, java.util.List<Integer>> preloadedBy =
      new java.util.TreeMap<>();
  private final java.util.Map<String, java.util.List<Integer>> keysBy = new java.util.TreeMap<>();
  private final java.util.concurrent.atomic.AtomicInteger threads =
      new java.util.concurrent.atomic.AtomicInteger();

  /** One thread's partition: the preloaded documents and keys it writes. */
  @State(Scope.Thread)
  public static class Own {
    int[] preloaded;
    int[] keys;

    @Setup(Level.Trial)
    public void choose(PointOperationsBenchmark b) {
      java.util.List<String> partitions = new java.util.ArrayList<>(b.preloadedBy.keySet());
      String mine = partitions.get(b.threads.getAndIncrement() % partitions.size());
      preloaded = b.preloadedBy.get(mine).stream().mapToInt(Integer::intValue).toArray();
      keys = b.keysBy.get(mine).stream().mapToInt(Integer::intValue).toArray();
    }
  }

  private Container newContainer() {
    return container(partitions);
  }

  /**
   * A container of {@code partitions} physical partitions with budgets in observe mode (checked and
   * recorded, never throttling), in an engine of its own: the benchmarks' set-up.
   */
  static Container container(int partitions) {
    CosmosEngine engine = CosmosEngine.builder().throttling(ThrottlingMode.OBSERVE).build();
    return engine
        .createDatabase("bench")
        .createContainer(
            ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                .withThroughput(Throughput.manual(1_000_000))
                .withPhysicalPartitions(partitions));
  }

  @Setup(Level.Trial)
  public void setUp() {
    container = newContainer();
    for (int i = 0; i < PRELOADED; i++) {
      String range = container.create(document("pre" + i, i % KEYS)).partitionKeyRangeId();
      preloadedBy.computeIfAbsent(range, r -> new java.util.ArrayList<>()).add(i);
      if (i < KEYS) {
        keysBy.computeIfAbsent(range, r -> new java.util.ArrayList<>()).add(i);
      }
    }
  }

  /** Creates go to an empty container each iteration, so memory stays bounded. */
  @Setup(Level.Iteration)
  public void freshContainerForCreates() {
    fresh = newContainer();
  }

  static ObjectNode document(String id, int key) {
    ObjectNode d = JsonNodeFactory.instance.objectNode();
    d.put("id", id);
    d.put("pk", "key-" + key);
    d.put("name", "benchmark document");
    d.put("n", key);
    d.put("payload", FILLER);
    return d;
  }

  @Benchmark
  public ItemResponse pointRead() {
    int i = ThreadLocalRandom.current().nextInt(PRELOADED);
    return container.read(PartitionKeyValue.of("key-" + (i % KEYS)), "pre" + i);
  }

  /**
   * Upserts over the preloaded documents: the data set stays the same size, so what it measures is
   * the write path, not the collector copying an ever-growing heap (as {@link #create} does).
   */
  @Benchmark
  public ItemResponse upsert() {
    int i = ThreadLocalRandom.current().nextInt(PRELOADED);
    return container.upsert(document("pre" + i, i % KEYS));
  }

  /** {@link #upsert} of the documents of this thread's own partition. */
  @Benchmark
  public ItemResponse upsertOwnPartition(Own own) {
    int i = own.preloaded[ThreadLocalRandom.current().nextInt(own.preloaded.length)];
    return container.upsert(document("pre" + i, i % KEYS));
  }

  /**
   * {@link #create} with the keys of this thread's own partition (of the preloaded container's
   * layout: the fresh one is made with the same number of partitions, so the same key ranges).
   */
  @Benchmark
  public ItemResponse createOwnPartition(Own own) {
    long n = nextId.getAndIncrement();
    return fresh.create(document("new" + n, own.keys[(int) (n % own.keys.length)]));
  }

  @Benchmark
  public ItemResponse create() {
    long n = nextId.getAndIncrement();
    return fresh.create(document("new" + n, (int) (n % KEYS)));
  }
}
