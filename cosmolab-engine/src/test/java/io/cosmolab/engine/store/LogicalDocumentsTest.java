package io.cosmolab.engine.store;

import static io.cosmolab.engine.testing.StoreWalks.doc;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A logical partition's documents, as an array while few and a skip list while many, behave as one
 * sorted map in UTF-8 order: a model test against a {@code TreeMap}, across the change of form both
 * ways.
 */
class LogicalDocumentsTest {
  /** Ids that sort differently in UTF-16 and UTF-8 among plain ones. */
  private static String id(Random random) {
    int n = random.nextInt(160);
    return switch (n % 8) {
      case 0 -> "\uE000" + n;
      case 1 -> new String(Character.toChars(0x1F600 + n % 3)) + n;
      default -> "d" + n;
    };
  }

  @Test
  void underRandomPutsAndDeletes_acrossBothForms_isTheSortedMapOfItsDocuments() {
    for (long seed = 1; seed <= 60; seed++) {
      Random random = new Random(seed);
      LogicalDocuments docs = LogicalDocuments.EMPTY;
      TreeMap<String, StoredDocument> model = new TreeMap<>(Utf8Order.COMPARATOR);
      boolean wasMany = false;
      boolean becameFewAgain = false;
      // puts win at first (the partition grows past FEW), deletes later (it shrinks back)
      for (int step = 0; step < 1_500; step++) {
        String id = id(random);
        boolean growing = step < 700;
        if (random.nextInt(10) < (growing ? 8 : 1)) {
          StoredDocument d = doc("e", id, step);
          docs = docs.with(d);
          model.put(id, d);
        } else {
          docs = docs.without(id);
          model.remove(id);
        }
        boolean many = docs.toString().startsWith("Many");
        becameFewAgain |= wasMany && !many;
        wasMany |= many;
        assertThat(docs.size()).as("seed %d step %d", seed, step).isEqualTo(model.size());
        String probe = id(random);
        assertThat(docs.get(probe)).isSameAs(model.get(probe));
        assertThat(list(docs.from(probe)))
            .isEqualTo(new ArrayList<>(model.tailMap(probe).values()));
        if (step % 50 == 0) {
          assertThat(list(docs.from(null))).isEqualTo(new ArrayList<>(model.values()));
        }
      }
      assertThat(wasMany).as("seed %d grew past %d", seed, LogicalDocuments.FEW).isTrue();
      assertThat(becameFewAgain).as("seed %d shrank back to an array", seed).isTrue();
    }
  }

  @Test
  void aBatchCopy_changesWithoutTheOriginal_inBothForms() {
    for (int size : new int[] {10, LogicalDocuments.FEW + 10}) {
      LogicalDocuments docs = LogicalDocuments.EMPTY;
      for (int i = 0; i < size; i++) {
        docs = docs.with(doc("e", String.format("d%03d", i), i));
      }
      List<StoredDocument> before = list(docs.from(null));
      LogicalDocuments batch = docs.forBatch();
      batch = batch.with(doc("e", "new", 1_000)).without("d000").with(doc("e", "d001", 1_001));

      assertThat(list(docs.from(null))).isEqualTo(before);
      assertThat(docs.size()).isEqualTo(size);
      assertThat(batch.size()).isEqualTo(size);
      assertThat(batch.get("d001").lsn()).isEqualTo(1_001);
      assertThat(batch.get("d000")).isNull();
    }
  }

  @Test
  void anArray_isNeverChangedByAWrite_soAWalkGoesOnOverTheStateItStartedOn() {
    LogicalDocuments docs = LogicalDocuments.EMPTY;
    for (int i = 0; i < 10; i++) {
      docs = docs.with(doc("e", "d" + i, i));
    }
    Iterator<StoredDocument> walk = docs.from(null);
    walk.next();
    LogicalDocuments after = docs.without("d5").with(doc("e", "d55", 99));
    assertThat(list(walk)).extracting(StoredDocument::id).contains("d5").doesNotContain("d55");
    assertThat(list(after.from(null))).extracting(StoredDocument::id).contains("d55");
  }

  private static List<StoredDocument> list(Iterator<StoredDocument> it) {
    List<StoredDocument> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }
}
