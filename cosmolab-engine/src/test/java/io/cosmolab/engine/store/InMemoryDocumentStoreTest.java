package io.cosmolab.engine.store;

import static io.cosmolab.engine.testing.StoreWalks.EMOJI;
import static io.cosmolab.engine.testing.StoreWalks.checkWalks;
import static io.cosmolab.engine.testing.StoreWalks.doc;
import static io.cosmolab.engine.testing.StoreWalks.fill;
import static io.cosmolab.engine.testing.StoreWalks.keys;
import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.partitioning.EpkRange;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The in-memory store's walks (the contract of {@link io.cosmolab.engine.testing.StoreWalks}) and
 * batches.
 */
class InMemoryDocumentStoreTest {
  @Test
  void scanAndScanFrom_walkInEpkThenUtf8IdOrder_andSeekToThePosition() {
    ContainerStore s = new InMemoryDocumentStore().open("c");
    fill(s);
    checkWalks(s);
  }

  @Test
  void aBatchOfSeveralDocuments_replacesItsLogicalPartitionAtOnce() {
    ContainerStore s = new InMemoryDocumentStore().open("c");
    fill(s);
    Iterator<StoredDocument> during = s.scan(new EpkRange("10", "11"));
    assertThat(during.next().id()).isEqualTo("a"); // a walk that started before the batch
    s.commit(
        List.of(
            new ContainerStore.Write.Put(doc("10", "a", 100)),
            new ContainerStore.Write.Put(doc("10", "b", 101)),
            new ContainerStore.Write.Delete("10", EMOJI)));
    // goes on over the state it started on, whole

    assertThat(keys(s.scan(new EpkRange("10", "11")))).containsExactly("10/a", "10/b", "10/\uFFFD");
    assertThat(s.getAll("10", List.of("a", "b", EMOJI)))
        .extracting(StoredDocument::lsn)
        .containsExactly(100L, 101L);
    assertThat(s.documentCount()).isEqualTo(8);
  }

  @Test
  void theLog_givesBackEveryRecordAsAppended_whetherItKeptACreateAsItsDocumentOrNot() {
    ContainerStore s = new InMemoryDocumentStore().open("c");
    StoredDocument a = doc("10", "a", 1);
    ChangeRecord created = change(ChangeRecord.Operation.CREATE, a, null);
    StoredDocument a2 = doc("10", "a", 2);
    ChangeRecord replaced = change(ChangeRecord.Operation.REPLACE, a2, a);
    StoredDocument b = doc("10", "b", 3);
    // a create whose document is another object than the one committed: kept as the record
    ChangeRecord createdElsewhere = change(ChangeRecord.Operation.CREATE, doc("10", "b", 3), null);
    StoredDocument c = doc("10", "c", 4);
    ChangeRecord createdOtherSize =
        new ChangeRecord(
            4,
            0,
            ChangeRecord.Operation.CREATE,
            "10",
            "c",
            c.partitionKey(),
            c.body(),
            null,
            0,
            99,
            false,
            4);
    s.commit(List.of(new ContainerStore.Write.Put(a), new ContainerStore.Write.Append(created)));
    s.commit(List.of(new ContainerStore.Write.Put(a2), new ContainerStore.Write.Append(replaced)));
    s.commit(
        List.of(
            new ContainerStore.Write.Put(b), new ContainerStore.Write.Append(createdElsewhere)));
    s.commit(
        List.of(
            new ContainerStore.Write.Put(c), new ContainerStore.Write.Append(createdOtherSize)));
    List<ChangeRecord> log = new java.util.ArrayList<>();
    s.changesAfter(0).forEachRemaining(log::add);
    assertThat(log).containsExactly(created, replaced, createdElsewhere, createdOtherSize);
    assertThat(log.get(0).current()).isSameAs(a.body());
    List<ChangeRecord> after = new java.util.ArrayList<>();
    s.changesAfter(1).forEachRemaining(after::add);
    assertThat(after).containsExactly(replaced, createdElsewhere, createdOtherSize);
  }

  private static ChangeRecord change(
      ChangeRecord.Operation op, StoredDocument d, StoredDocument previous) {
    return new ChangeRecord(
        d.lsn(),
        d.timestampMillis(),
        op,
        d.epk(),
        d.id(),
        d.partitionKey(),
        d.body(),
        previous == null ? null : previous.body(),
        previous == null ? 0 : previous.rangeLsn(),
        d.sizeBytes(),
        false,
        d.rangeLsn());
  }

  @Test
  void aWalkSeesABatchWhole_evenAcrossALongLogicalPartition() {
    io.cosmolab.engine.testing.StoreWalks.checkBatchSeenWhole(
        new InMemoryDocumentStore().open("c"));
  }
}
