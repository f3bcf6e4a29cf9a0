package io.cosmolab.engine;

import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;

/** Test fixtures: engines on a manual clock. */
public final class Engines {
  private Engines() {}

  public static CosmosEngine onClock(ManualClock clock, ThrottlingMode mode) {
    return CosmosEngine.builder().clock(clock).throttling(mode).build();
  }

  /** Every row of a query, following continuations page by page ({@code pageSize} rows each). */
  public static java.util.List<com.fasterxml.jackson.databind.JsonNode> drainQuery(
      Container c, io.cosmolab.engine.query.QueryRequest request, int pageSize) {
    java.util.List<com.fasterxml.jackson.databind.JsonNode> out = new java.util.ArrayList<>();
    pages(c, request, pageSize).forEach(p -> out.addAll(p.rows()));
    return out;
  }

  /** Every page of a query, following continuations ({@code pageSize} rows each at most). */
  public static java.util.List<io.cosmolab.engine.query.QueryPage> pages(
      Container c, io.cosmolab.engine.query.QueryRequest request, int pageSize) {
    java.util.List<io.cosmolab.engine.query.QueryPage> out = new java.util.ArrayList<>();
    io.cosmolab.engine.query.QueryRequest r = request.withMaxItemCount(pageSize);
    for (int guard = 0; guard < 10_000; guard++) {
      io.cosmolab.engine.query.QueryPage page = c.query(r);
      out.add(page);
      if (page.continuation() == null) {
        return out;
      }
      r = r.withContinuation(page.continuation());
    }
    throw new AssertionError("paging did not end");
  }

  /**
   * An empty container keyed by {@code /pk} with {@code partitions} physical partitions (10,000
   * RU/s), on an engine whose query pages end at {@code pageTime}, throttling off.
   */
  public static Container withPageTime(
      ManualClock clock, java.time.Duration pageTime, int partitions) {
    return CosmosEngine.builder()
        .clock(clock)
        .throttling(ThrottlingMode.OFF)
        .queryPageTime(pageTime)
        .build()
        .createDatabase("db")
        .createContainer(
            ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                .withThroughput(Throughput.manual(10_000))
                .withPhysicalPartitions(partitions));
  }

  /** A container keyed by {@code /pk} with {@code partitions} physical partitions. */
  public static Container container(ManualClock clock, int partitions) {
    return onClock(clock, ThrottlingMode.OFF)
        .createDatabase("db")
        .createContainer(
            ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                .withThroughput(Throughput.manual(400))
                .withPhysicalPartitions(partitions));
  }
}
