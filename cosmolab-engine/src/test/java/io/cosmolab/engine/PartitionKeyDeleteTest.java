package io.cosmolab.engine;

import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.time.ManualClock;
import org.junit.jupiter.api.Test;

class PartitionKeyDeleteTest {
  private final ManualClock clock = ManualClock.startingAtEpoch2026();

  @Test
  void aFullKeyDeletesItsLogicalPartitionOnlyWithAChangeRecordAndAChargeForEach() {
    Container c = Engines.container(clock, 4);
    for (int i = 0; i < 6; i++) {
      c.create(obj("{'id':'d" + i + "','pk':'" + (i % 2 == 0 ? "a" : "b") + "'}"));
    }
    long lsnBefore = c.lsn();
    PartitionKeyDelete.Result r = PartitionKeyDelete.run(c, PartitionKeyValue.of("a"));
    assertThat(r.deleted()).isEqualTo(3);
    assertThat(r.requestCharge()).isPositive();
    assertThat(c.lsn()).isEqualTo(lsnBefore + 3); // one delete record each
    assertThat(c.logicalPartitionBytes(PartitionKeyValue.of("a"))).isZero();
    assertThat(c.logicalPartitionBytes(PartitionKeyValue.of("b"))).isPositive();
    assertThat(PartitionKeyDelete.run(c, PartitionKeyValue.of("a")).deleted()).isZero();
  }

  @Test
  void aHierarchicalPrefixDeletesEveryKeyUnderItAndNoOther() {
    Container c =
        Engines.onClock(clock, ThrottlingMode.OFF)
            .createDatabase("db")
            .createContainer(
                ContainerSettings.of("h", PartitionKeyDefinition.hierarchical("/t", "/u"))
                    .withPhysicalPartitions(3));
    c.create(obj("{'id':'1','t':'acme','u':'x'}"));
    c.create(obj("{'id':'2','t':'acme','u':'y'}"));
    c.create(obj("{'id':'3','t':'other','u':'x'}"));
    assertThat(PartitionKeyDelete.run(c, PartitionKeyValue.of("acme")).deleted()).isEqualTo(2);
    assertThat(PartitionKeyDelete.run(c, PartitionKeyValue.of("other", "x")).deleted())
        .isEqualTo(1);
  }
}
