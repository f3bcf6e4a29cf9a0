package io.cosmolab.benchmarks;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Queries through the engine (Container.query: scope, index, execution, RU, paging) on a container
 * of 1,000,000 documents of about 200 bytes over 4 physical partitions.
 *
 * <ul>
 *   <li>filterScan: a filter no index can serve ({@code c.n % 7 = 3}), counted: the time to scan
 *       all documents; documents/s = 1,000,000 ÷ the time.
 *   <li>indexedEquality: {@code c.sku = @v} for a random existing value, served by the index.
 *   <li>orderByTop10: {@code TOP 10 ... ORDER BY c.n DESC} over all documents.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms6g", "-Xmx6g"})
public class QueryBenchmark {
  static final int DOCUMENTS = 1_000_000;

  private Container container;

  @Setup(Level.Trial)
  public void setUp() {
    container =
        CosmosEngine.builder()
            .throttling(ThrottlingMode.OFF)
            .build()
            .createDatabase("bench")
            .createContainer(
                ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                    .withThroughput(Throughput.manual(1_000_000))
                    .withPhysicalPartitions(4));
    for (int i = 0; i < DOCUMENTS; i++) {
      ObjectNode d = JsonNodeFactory.instance.objectNode();
      d.put("id", "d" + i);
      d.put("pk", "k" + (i % 50_000));
      d.put("sku", "s" + i);
      d.put("n", (i * 7919L) % 1_000_003);
      d.put("name", "benchmark item");
      container.create(d);
    }
    container.query(QueryRequest.of("SELECT VALUE c.id FROM c WHERE c.sku = 's0'")); // builds it
  }

  @Benchmark
  public QueryPage filterScan() {
    return container.query(QueryRequest.of("SELECT VALUE COUNT(1) FROM c WHERE c.n % 7 = 3"));
  }

  @Benchmark
  public QueryPage indexedEquality() {
    int i = ThreadLocalRandom.current().nextInt(DOCUMENTS);
    return container.query(
        QueryRequest.of("SELECT * FROM c WHERE c.sku = @v")
            .withParameters(java.util.Map.of("@v", JsonNodeFactory.instance.textNode("s" + i))));
  }

  @Benchmark
  public QueryPage orderByTop10() {
    return container.query(QueryRequest.of("SELECT TOP 10 c.id, c.n FROM c ORDER BY c.n DESC"));
  }
}
