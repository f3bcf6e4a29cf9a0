package io.cosmolab.engine;

import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.routing.LayoutModel;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.routing.RoutingMap;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The layout model the advisor runs reaches the engine's own layout: the same writes, the same
 * ranges, split for split. The engine is the oracle.
 */
class LayoutModelTest {
  // a physical partition holds 53,687 bytes at this scale: a few dozen 1 KB documents
  private static final double SCALE = 1_000_000;

  private static CosmosEngine engine(double scale) {
    return CosmosEngine.builder()
        .clock(ManualClock.startingAtEpoch2026())
        .throttling(ThrottlingMode.OFF)
        .scale(scale)
        .build();
  }

  @Property(tries = 25)
  void fedTheEngineWrites_theModelReachesTheEngineRanges(
      @ForAll long seed,
      @ForAll boolean hierarchical,
      @ForAll @IntRange(min = 1, max = 3) int startPartitions) {
    PartitionKeyDefinition key =
        hierarchical
            ? PartitionKeyDefinition.hierarchical("/t", "/u")
            : PartitionKeyDefinition.hash("/t");
    CosmosEngine engine = engine(SCALE);
    Container c =
        engine
            .createDatabase("db")
            .createContainer(
                ContainerSettings.of("c", key).withPhysicalPartitions(startPartitions));
    LayoutModel model = new LayoutModel(key, c.routing(), engine.limits().physicalPartitionBytes());
    Random random = new Random(seed);
    for (int i = 0; i < 600; i++) {
      // a whale tenant with half the writes, the rest spread: the whale must span partitions
      String t = random.nextBoolean() ? "whale" : "t" + random.nextInt(40);
      String u = "u" + random.nextInt(hierarchical ? 30 : 1);
      PartitionKeyValue value = hierarchical ? PartitionKeyValue.of(t, u) : PartitionKeyValue.of(t);
      long before = c.logicalPartitionBytes(value);
      int size = 200 + random.nextInt(600);
      String body =
          hierarchical
              ? "{'id':'d" + i + "','t':'" + t + "','u':'" + u + "','f':'" + "x".repeat(size) + "'}"
              : "{'id':'d" + i + "','t':'" + t + "','f':'" + "x".repeat(size) + "'}";
      try {
        c.create(value, obj(body));
      } catch (CosmosException full) {
        // a logical partition at its 20 GB limit (scaled): nothing stored, nothing to model
        assertThat(full.error()).isEqualTo(CosmosError.PARTITION_KEY_QUOTA_EXCEEDED);
        continue;
      }
      model.add(EffectivePartitionKey.of(key, value), c.logicalPartitionBytes(value) - before);
      assertThat(ranges(model.routing())).as("after write %d", i).isEqualTo(ranges(c.routing()));
    }
    assertThat(model.splits()).isNotEmpty(); // storage splits happened, as intended
  }

  @Test
  void aHierarchicalPrefix_spansPartitions_whenStorageSplitsAtItsMedian() {
    PartitionKeyDefinition key = PartitionKeyDefinition.hierarchical("/t", "/u");
    LayoutModel model = new LayoutModel(key, RoutingMap.of(List.of()), 1_000);
    for (int u = 0; u < 100; u++) {
      model.place(EffectivePartitionKey.of(key, PartitionKeyValue.of("acme", "u" + u)), 40);
    }
    model.settle();
    String prefixStart = EffectivePartitionKey.of(key, PartitionKeyValue.of("acme", "u0"));
    long spanned =
        model.routing().ranges().stream()
            .filter(r -> r.range().min().length() > 32 || r.range().max().length() > 32)
            .count();
    assertThat(model.routing().size()).isGreaterThanOrEqualTo(4); // 4,000 bytes, 1,000 each
    assertThat(spanned).isGreaterThan(1); // cut inside the first level's value
    assertThat(prefixStart).isNotEmpty();
    for (PartitionKeyRange r : model.routing().ranges()) {
      assertThat(model.bytes(r.id())).isLessThanOrEqualTo(1_000);
    }
    assertThat(model.blocked()).isEmpty();
    assertThat(model.splits()).allMatch(s -> s.cause() == LayoutModel.Cause.STORAGE);
  }

  @Test
  void oneLogicalPartitionOverTheLimit_isBlocked_notSplit() {
    PartitionKeyDefinition key = PartitionKeyDefinition.hash("/t");
    LayoutModel model = new LayoutModel(key, RoutingMap.of(List.of()), 1_000);
    model.add(EffectivePartitionKey.of(key, PartitionKeyValue.of("whale")), 5_000);
    assertThat(model.routing().size()).isEqualTo(1);
    assertThat(model.blocked()).containsExactly("0");
  }

  @Test
  void raiseTo_splitsTheWidestRangeAtItsMidpoint_asTheEngineDoes() {
    PartitionKeyDefinition key = PartitionKeyDefinition.hash("/t");
    Container c =
        engine(1)
            .createDatabase("db")
            .createContainer(
                ContainerSettings.of("c", key).withThroughput(Throughput.manual(10_000)));
    LayoutModel model = new LayoutModel(key, c.routing(), 1_000_000);
    c.replaceThroughput(Throughput.manual(30_000));
    model.raiseTo(3);
    assertThat(ranges(model.routing())).isEqualTo(ranges(c.routing()));
    assertThat(model.splits()).allMatch(s -> s.cause() == LayoutModel.Cause.THROUGHPUT);
  }

  private static List<String> ranges(RoutingMap map) {
    return map.ranges().stream().map(r -> r.range().min() + ".." + r.range().max()).toList();
  }
}
