package io.cosmolab.engine;

import static io.cosmolab.engine.ContainerDocumentsTest.assertCosmosError;
import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.metrics.PartitionEvent;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.routing.RoutingMap;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Physical partitions: the initial count, throughput and storage splits, merges. */
class PartitionLayoutTest {
  private final ManualClock clock = ManualClock.startingAtEpoch2026();

  private Database db(double scale) {
    return CosmosEngine.builder()
        .clock(clock)
        .throttling(ThrottlingMode.OFF)
        .scale(scale)
        .build()
        .createDatabase("db");
  }

  private static Container keyed(Database db, String id, Throughput t) {
    return db.createContainer(
        ContainerSettings.of(id, PartitionKeyDefinition.hash("/pk")).withThroughput(t));
  }

  private static Container onePartition(Database db) {
    return db.createContainer(
        ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")).withPhysicalPartitions(1));
  }

  @Test
  void initialPartitions_followTheServiceRule() {
    Database db = db(1);
    assertThat(keyed(db, "m400", Throughput.manual(400)).routing().size()).isEqualTo(1);
    assertThat(keyed(db, "m6000", Throughput.manual(6_000)).routing().size()).isEqualTo(1);
    assertThat(keyed(db, "m6001", Throughput.manual(6_001)).routing().size()).isEqualTo(2);
    assertThat(keyed(db, "m18000", Throughput.manual(18_000)).routing().size()).isEqualTo(3);
    assertThat(keyed(db, "a40000", Throughput.autoscale(40_000)).routing().size()).isEqualTo(4);
    assertThat(keyed(db, "a10000", Throughput.autoscale(10_000)).routing().size()).isEqualTo(1);
  }

  @Test
  void initialRanges_tileTheKeySpaceEvenly() {
    Container c =
        db(1)
            .createContainer(
                ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                    .withPhysicalPartitions(4));
    List<PartitionKeyRange> ranges = c.routing().ranges();
    assertThat(ranges)
        .extracting(r -> r.range().min())
        .containsExactly(
            "",
            "10000000000000000000000000000000",
            "20000000000000000000000000000000",
            "30000000000000000000000000000000");
    assertThat(ranges.get(3).range().max()).isEqualTo("FF");
    assertThat(ranges).extracting(PartitionKeyRange::id).containsExactly("0", "1", "2", "3");
  }

  @Test
  void raisingThroughputAbovePTimes10000_splitsUntilCeilOfRuOver10000() {
    Container c = keyed(db(1), "c", Throughput.manual(12_000)); // 2 partitions
    for (int i = 0; i < 200; i++) {
      c.create(obj("{'id':'d" + i + "','pk':'k" + i + "'}"));
    }
    assertThat(c.routing().size()).isEqualTo(2);
    c.replaceThroughput(Throughput.manual(20_000));
    assertThat(c.routing().size()).isEqualTo(2); // within P x 10,000: instant, no split
    RoutingMap after = c.replaceThroughput(Throughput.manual(30_000));
    assertThat(after.size()).isEqualTo(3);
    // one half and two quarters, as the service documents for 20,000 -> 30,000
    assertThat(after.ranges())
        .extracting(r -> r.range().min())
        .containsExactly(
            "", "10000000000000000000000000000000", "20000000000000000000000000000000");
    assertThat(after.ranges().get(1).parents()).containsExactly("0");
    assertThat(c.partitionStats()).allMatch(s -> s.budgetRuPerSecond() == 10_000);
    for (int i = 0; i < 200; i++) {
      assertThat(c.read(PartitionKeyValue.of("k" + i), "d" + i).status()).isEqualTo(200);
    }
    assertThat(c.partitionEvents())
        .extracting(PartitionEvent::kind)
        .containsExactly(PartitionEvent.Kind.SPLIT);
    assertThat(c.partitionStats().stream().mapToLong(s -> s.documents()).sum()).isEqualTo(200);
  }

  @Test
  void throughput_belowMinimumOrAboveMaximum_isRejected() {
    Container c = keyed(db(1), "c", Throughput.manual(400));
    assertCosmosError(
        () -> c.replaceThroughput(Throughput.manual(300)),
        CosmosError.BAD_REQUEST,
        "300 RU/s",
        "minimum of 400");
    assertCosmosError(
        () -> c.replaceThroughput(Throughput.manual(2_000_000)),
        CosmosError.BAD_REQUEST,
        "maximum");
    assertCosmosError(
        () -> keyed(db(1), "a", Throughput.autoscale(500)),
        CosmosError.BAD_REQUEST,
        "minimum of 1000");
  }

  @Test
  void storageSplit_happensAtTheMedianOfStoredBytes_onALogicalPartitionBoundary() {
    // scale 1,000,000: a physical partition holds 53,687 bytes, a logical one 21,474
    Container c = onePartition(db(1_000_000));
    String filler = "x".repeat(900);
    for (int i = 0; i < 70; i++) {
      c.create(obj("{'id':'d" + i + "','pk':'k" + (i % 10) + "','f':'" + filler + "'}"));
    }
    assertThat(c.routing().size()).isGreaterThan(1);
    assertThat(c.partitionStats()).allMatch(s -> s.storageBytes() <= 53_687);
    PartitionEvent split = c.partitionEvents().get(0);
    assertThat(split.kind()).isEqualTo(PartitionEvent.Kind.SPLIT);
    assertThat(split.reason()).contains("storage");
    for (int i = 0; i < 70; i++) {
      String epk =
          io.cosmolab.engine.partitioning.EffectivePartitionKey.of(
              c.partitionKey(), PartitionKeyValue.of("k" + (i % 10)));
      // the whole logical partition sits in one physical partition
      assertThat(c.routing().rangeFor(epk).range().contains(epk)).isTrue();
      assertThat(c.read(PartitionKeyValue.of("k" + (i % 10)), "d" + i).status()).isEqualTo(200);
    }
  }

  @Test
  void aPartitionFullOfOneLogicalKey_cannotSplit_andTheKeyHitsItsLimitWith403() {
    Container c = onePartition(db(1_000_000));
    String filler = "x".repeat(900);
    CosmosError seen = null;
    int written = 0;
    for (int i = 0; i < 100 && seen == null; i++) {
      try {
        c.create(obj("{'id':'d" + i + "','pk':'vip','f':'" + filler + "'}"));
        written++;
      } catch (io.cosmolab.engine.error.CosmosException e) {
        seen = e.error();
        assertThat(e.status()).isEqualTo(403);
        assertThat(e.subStatus()).isEqualTo(1014);
        assertThat(e.getMessage()).contains("Partition key reached maximum size").contains("vip");
      }
    }
    assertThat(seen).isEqualTo(CosmosError.PARTITION_KEY_QUOTA_EXCEEDED);
    assertThat(c.logicalPartitionBytes(PartitionKeyValue.of("vip"))).isLessThanOrEqualTo(21_474);
    assertThat(c.documentCount()).isEqualTo(written);
    assertThat(c.routing().size()).isEqualTo(1);
  }

  @Test
  void splitOnDemand_atAGivenEpk_andMerge_keepEveryDocumentFindable() {
    Container c = keyed(db(1), "c", Throughput.manual(400));
    for (int i = 0; i < 100; i++) {
      c.create(obj("{'id':'d" + i + "','pk':'k" + i + "'}"));
    }
    c.splitPartition("0", "07E4D14180A45153F00B44907886F856");
    assertThat(c.routing().ranges())
        .extracting(r -> r.range().max())
        .containsExactly("07E4D14180A45153F00B44907886F856", "FF");
    c.splitPartition("2");
    assertThat(c.routing().size()).isEqualTo(3);
    RoutingMap merged = c.mergePartitions("1", "3");
    assertThat(merged.size()).isEqualTo(2);
    assertThat(merged.ranges().get(0).id()).isEqualTo("5");
    assertThat(merged.ranges().get(0).parents()).contains("1", "3");
    for (int i = 0; i < 100; i++) {
      assertThat(c.read(PartitionKeyValue.of("k" + i), "d" + i).status()).isEqualTo(200);
    }
    assertThat(c.partitionStats().stream().mapToLong(s -> s.documents()).sum()).isEqualTo(100);
    assertThat(c.partitionEvents())
        .extracting(PartitionEvent::kind)
        .containsExactly(
            PartitionEvent.Kind.SPLIT, PartitionEvent.Kind.SPLIT, PartitionEvent.Kind.MERGE);
  }

  @Test
  void removedRange_answers410With1002() {
    Container c = keyed(db(1), "c", Throughput.manual(400));
    c.splitPartition("0");
    assertCosmosError(() -> c.routing().require("0"), CosmosError.PARTITION_KEY_RANGE_GONE, "'0'");
    assertCosmosError(
        () -> c.splitPartition("0"), CosmosError.PARTITION_KEY_RANGE_GONE, "/pkranges");
    assertCosmosError(
        () -> c.mergePartitions("1", "7"), CosmosError.PARTITION_KEY_RANGE_GONE, "'7'");
  }

  @Test
  void hierarchicalContainer_splitsAtFirstLevelBoundaries_thenInsideAPrefix() {
    Container c =
        db(1)
            .createContainer(
                ContainerSettings.of("h", PartitionKeyDefinition.hierarchical("/t", "/u")));
    c.splitPartition("0");
    assertThat(c.routing().ranges().get(0).range().max()).hasSize(32);
    String prefix =
        io.cosmolab.engine.partitioning.EffectivePartitionKey.of(
            c.partitionKey(), PartitionKeyValue.of("acme"));
    // a big tenant: split inside its prefix range (a 64-character boundary)
    String inside = prefix + "20000000000000000000000000000000";
    PartitionKeyRange owner = c.routing().rangeFor(prefix);
    c.splitPartition(owner.id(), prefix);
    c.splitPartition(c.routing().rangeFor(inside).id(), inside);
    EpkRange tenant = new EpkRange(prefix, prefix + "FF");
    assertThat(c.routing().overlapping(tenant)).hasSize(2);
  }
}
