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
 * A logical partition's documents, as an array while few and in chunks while many, behave as one
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
  void largePartitions_ofAppendedPrependedAndRandomIds_areTheSortedMap_inChunksKeptFull() {
    for (String order : new String[] {"ascending", "descending", "random"}) {
      Random random = new Random(order.hashCode());
      LogicalDocuments docs = LogicalDocuments.EMPTY;
      TreeMap<String, StoredDocument> model = new TreeMap<>(Utf8Order.COMPARATOR);
      int n = 5_000;
      for (int i = 0; i < n; i++) {
        int k =
            switch (order) {
              case "ascending" -> i;
              case "descending" -> n - i;
              default -> random.nextInt(1_000_000);
            };
        StoredDocument d = doc("e", String.format("d%07d", k), i);
        docs = docs.with(d);
        model.put(d.id(), d);
      }
      assertThat(list(docs.from(null))).as(order).isEqualTo(new ArrayList<>(model.values()));
      // appends and prepends fill their chunks; random inserts split them, half full at worst
      int full = (model.size() + 63) / 64;
      assertThat(docs.arrays())
          .as("%s: %d documents", order, model.size())
          .isLessThanOrEqualTo(order.equals("random") ? 2 * full : full + 1);

      // deletes of most, spread out: emptied and small chunks merge, the directory shrinks
      List<String> ids = new ArrayList<>(model.keySet());
      for (int i = 0; i < ids.size(); i++) {
        if (i % 10 != 0) {
          docs = docs.without(ids.get(i));
          model.remove(ids.get(i));
        }
        if (i % 487 == 0) {
          String probe = ids.get(random.nextInt(ids.size()));
          assertThat(docs.get(probe)).isSameAs(model.get(probe));
          assertThat(list(docs.from(probe)))
              .isEqualTo(new ArrayList<>(model.tailMap(probe).values()));
        }
      }
      assertThat(list(docs.from(null))).as(order).isEqualTo(new ArrayList<>(model.values()));
      assertThat(docs.arrays())
          .as("%s after deletes: %d documents", order, model.size())
          .isLessThanOrEqualTo(model.size() / 8);
    }
  }

  @Test
  @org.junit.jupiter.api.Timeout(120)
  void aWalkDuringWrites_seesEveryDocumentThatStayed_onceAndInOrder() throws Exception {
    LogicalDocuments start = LogicalDocuments.EMPTY;
    List<String> stay = new ArrayList<>();
    for (int i = 0; i < 400; i += 2) { // even ids stay (rewritten); odd ones come and go
      String id = String.format("d%05d", i);
      stay.add(id);
      start = start.with(doc("e", id, i));
    }
    LogicalDocuments docs = start; // over FEW_AGAIN throughout: writes change it in place
    java.util.concurrent.FutureTask<Void> writer =
        new java.util.concurrent.FutureTask<>(
            () -> {
              Random random = new Random(7);
              for (int step = 0; step < 200_000; step++) {
                int k = random.nextInt(400);
                String id = String.format("d%05d", k);
                LogicalDocuments after =
                    k % 2 == 0 || random.nextBoolean()
                        ? docs.with(doc("e", id, step))
                        : docs.without(id);
                assertThat(after).isSameAs(docs);
              }
              return null;
            });
    new Thread(writer).start();
    int walks = 0;
    while (!writer.isDone() || walks < 10) {
      List<String> seen = new ArrayList<>();
      docs.from(null).forEachRemaining(d -> seen.add(d.id()));
      assertThat(seen).isSorted().doesNotHaveDuplicates().containsAll(stay);
      walks++;
    }
    writer.get(60, java.util.concurrent.TimeUnit.SECONDS); // the writer's own checks
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
