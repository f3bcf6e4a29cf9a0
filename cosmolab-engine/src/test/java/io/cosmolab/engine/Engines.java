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
