package io.cosmolab.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The in-memory store's walks: key order, seeks and batches. {@link #fill} and {@link #checkWalks}
 * are the contract the RocksDB store is held to as well.
 */
public class InMemoryDocumentStoreTest {
  private static final String EMOJI = new String(Character.toChars(0x1F600));

  public static StoredDocument doc(String epk, String id, long lsn) {
    return new StoredDocument(
        epk,
        id,
        PartitionKeyValue.of(epk),
        JsonNodeFactory.instance.objectNode().put("id", id),
        10,
        1,
        lsn,
        0);
  }

  public static List<String> keys(Iterator<StoredDocument> it) {
    List<String> out = new ArrayList<>();
    it.forEachRemaining(d -> out.add(d.epk() + "/" + d.id()));
    return out;
  }

  /** Writes a, b, U+FFFD and an emoji under EPKs 10 and 20, and x under 30. */
  public static void fill(ContainerStore s) {
    long lsn = 0;
    List<ContainerStore.Write> writes = new ArrayList<>();
    for (String epk : List.of("10", "20")) {
      for (String id : List.of("b", "a", EMOJI, "\uFFFD")) {
        writes.add(new ContainerStore.Write.Put(doc(epk, id, ++lsn)));
      }
    }
    writes.add(new ContainerStore.Write.Put(doc("30", "x", ++lsn)));
    for (ContainerStore.Write w : writes) {
      s.commit(List.of(w));
    }
  }

  public static void checkWalks(ContainerStore s) {
    EpkRange all = new EpkRange("", "FF");
    assertThat(keys(s.scan(all)))
        .containsExactly(
            "10/a",
            "10/b",
            "10/\uFFFD",
            "10/" + EMOJI,
            "20/a",
            "20/b",
            "20/\uFFFD",
            "20/" + EMOJI,
            "30/x");
    assertThat(keys(s.scanFrom(new EpkRange("", "30"), "20", "\uFFFD")))
        .containsExactly("20/\uFFFD", "20/" + EMOJI);
    assertThat(keys(s.scanFrom(all, "10", "b")))
        .startsWith("10/b", "10/\uFFFD", "10/" + EMOJI, "20/a")
        .hasSize(8);
  }

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
}
