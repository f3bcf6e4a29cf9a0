package io.cosmolab.engine.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.store.ContainerStore;
import io.cosmolab.engine.store.StoredDocument;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The walk contract every store is held to (the in-memory one and RocksDB): key order, seeks.
 * Shared through the engine's test jar, in a package of its own so that modules patched with their
 * tests never see two owners of one package.
 */
public final class StoreWalks {
  private StoreWalks() {}

  public static final String EMOJI = new String(Character.toChars(0x1F600));

  public static StoredDocument doc(String epk, String id, long lsn) {
    return new StoredDocument(
        epk,
        id,
        PartitionKeyValue.of(epk),
        JsonNodeFactory.instance.objectNode().put("id", id).put("_etag", "\"" + lsn + "\""),
        10,
        1,
        lsn,
        0,
        lsn);
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

  /**
   * A walk that started before a batch sees the batch's logical partition whole, as it was before
   * (or after), even when the partition is longer than a store reads at once (RocksDB: 512 keys).
   */
  public static void checkBatchSeenWhole(ContainerStore s) {
    int n = 1200;
    List<ContainerStore.Write> load = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      load.add(new ContainerStore.Write.Put(doc("40", String.format("d%04d", i), i + 1)));
      if (load.size() == 100) {
        s.commit(List.copyOf(load));
        load.clear();
      }
    }
    Iterator<StoredDocument> during = s.scan(new EpkRange("40", "41"));
    assertThat(during.next().lsn()).isEqualTo(1);
    s.commit(
        List.of(
            new ContainerStore.Write.Put(doc("40", "d0000", 5000)),
            new ContainerStore.Write.Put(doc("40", String.format("d%04d", n - 1), 5001))));
    StoredDocument last = null;
    int seen = 1;
    while (during.hasNext()) {
      last = during.next();
      seen++;
    }
    assertThat(seen).isEqualTo(n);
    assertThat(last.lsn())
        .as("the batch's other half, seen by a walk that saw its first")
        .isEqualTo(n);
  }
}
