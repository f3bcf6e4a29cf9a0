package io.cosmolab.benchmarks;

import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.PartitionKeyComponent;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * EPK hashing of typical keys: V2 (one string), MultiHash (three strings), V1 (one string), and the
 * leading bits alone.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EpkHashingBenchmark {
  private final List<PartitionKeyComponent> single =
      PartitionKeyValue.of("tenant-00042-user-7d3f").components();
  private final List<PartitionKeyComponent> hierarchical =
      PartitionKeyValue.of("tenant-00042", "user-7d3f", "session-91ab2c").components();

  @Benchmark
  public String hashV2() {
    return EffectivePartitionKey.hashV2(single);
  }

  @Benchmark
  public String multiHash3Levels() {
    return EffectivePartitionKey.multiHash(hierarchical);
  }

  private final PartitionKeyDefinition singleDefinition = PartitionKeyDefinition.hash("/k");
  private final PartitionKeyValue singleValue = PartitionKeyValue.of("tenant-00042-user-7d3f");
  private final PartitionKeyDefinition hierarchicalDefinition =
      PartitionKeyDefinition.hierarchical("/t", "/u", "/s");
  private final PartitionKeyValue hierarchicalValue =
      PartitionKeyValue.of("tenant-00042", "user-7d3f", "session-91ab2c");

  /** Where a key falls in the hash space without its hex EPK: the advisor's per-key cost. */
  @Benchmark
  public long leadingBitsV2() {
    return EffectivePartitionKey.leadingBits(singleDefinition, singleValue);
  }

  @Benchmark
  public long leadingBitsMultiHash() {
    return EffectivePartitionKey.leadingBits(hierarchicalDefinition, hierarchicalValue);
  }

  @Benchmark
  public String hashV1() {
    return EffectivePartitionKey.hashV1(single);
  }
}
