package io.cosmolab.engine;

import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.batch.BatchOperation;
import io.cosmolab.engine.batch.BatchResult;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.time.ManualClock;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The unique key policy: values unique per logical partition, on every kind of write. */
class UniqueKeysTest {
  private final ManualClock clock = ManualClock.startingAtEpoch2026();

  private Container container(List<List<String>> keys) {
    return Engines.onClock(clock, ThrottlingMode.OFF)
        .createDatabase("u")
        .createContainer(
            ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                .withPhysicalPartitions(3)
                .withUniqueKeys(keys));
  }

  @Test
  void aCompositeUniqueKey_conflictsOnlyWhenEveryPathMatches() {
    Container c = container(List.of(List.of("/first", "/last")));
    c.create(obj("{'id':'1','pk':'p','first':'ada','last':'lovelace'}"));
    c.create(obj("{'id':'2','pk':'p','first':'ada','last':'byron'}"));
    ContainerDocumentsTest.assertCosmosError(
        () -> c.create(obj("{'id':'3','pk':'p','first':'ada','last':'lovelace'}")),
        CosmosError.CONFLICT,
        "Unique index constraint violation.");
  }

  @Test
  void patchAndReplace_intoAnothersValue_conflict_butKeepingOnesOwnDoesNot() {
    Container c = container(List.of(List.of("/email")));
    c.create(obj("{'id':'1','pk':'p','email':'a'}"));
    c.create(obj("{'id':'2','pk':'p','email':'b'}"));
    c.replace(PartitionKeyValue.of("p"), "1", obj("{'id':'1','pk':'p','email':'a','n':1}"));
    ContainerDocumentsTest.assertCosmosError(
        () ->
            c.patch(
                PartitionKeyValue.of("p"),
                "2",
                List.of(
                    io.cosmolab.engine.document.PatchOperation.set("/email", Json.node("'a'")))),
        CosmosError.CONFLICT,
        "Unique index constraint violation.");
  }

  @Test
  void aBatch_seesItsOwnWrites_andFailsWholeOnADuplicate() {
    Container c = container(List.of(List.of("/email")));
    BatchResult r =
        c.executeBatch(
            PartitionKeyValue.of("p"),
            List.of(
                new BatchOperation.Create(obj("{'id':'1','pk':'p','email':'a'}")),
                new BatchOperation.Create(obj("{'id':'2','pk':'p','email':'a'}"))));
    assertThat(r.status()).isEqualTo(207);
    assertThat(r.operations().get(1).status()).isEqualTo(409);
    assertThat(c.documentCount()).isZero();
  }
}
