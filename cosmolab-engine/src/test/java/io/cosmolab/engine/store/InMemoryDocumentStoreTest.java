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
  void aWalkSeesABatchWhole_evenAcrossALongLogicalPartition() {
    io.cosmolab.engine.testing.StoreWalks.checkBatchSeenWhole(
        new InMemoryDocumentStore().open("c"));
  }
}
