package io.cosmolab.engine;

import static io.cosmolab.engine.testing.StoreWalks.doc;
import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.store.StoredDocument;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A transaction's staged writes answer as two maps would (the versions by document, the deleted
 * documents), whether they hold one version or many: held to that model over seeded sequences of
 * puts and deletes.
 */
class StagedWritesTest {
  private static final String[] EPKS = {"10", "20"};
  private static final String[] IDS = {"a", "b", "c"};

  @Test
  void aPointWrite_isSeenAsItsOneVersion_andNothingElse() {
    StagedWrites s = new StagedWrites();
    assertThat(s.isEmpty()).isTrue();
    StoredDocument a = doc("10", "a", 1);
    s.put(a);
    assertThat(s.isEmpty()).isFalse();
    assertThat(s.get("10", "a")).isSameAs(a);
    assertThat(s.get("10", "b")).isNull();
    assertThat(s.get("20", "a")).isNull(); // the same id in another logical partition
    assertThat(s.versions()).containsExactly(a);
    assertThat(s.isDeleted("10", "a")).isFalse();
  }

  @Test
  void aDocumentDeletedThenStagedAgain_isNoLongerDeleted() {
    StagedWrites s = new StagedWrites();
    s.put(doc("10", "a", 1));
    s.delete("10", "a");
    assertThat(s.get("10", "a")).isNull();
    assertThat(s.isDeleted("10", "a")).isTrue();
    assertThat(s.deletedIds("10")).containsExactly("a");
    assertThat(s.deletedIds("20")).isEmpty();
    assertThat(s.isEmpty()).isFalse(); // a deletion is a write
    StoredDocument again = doc("10", "a", 3);
    s.put(again);
    assertThat(s.isDeleted("10", "a")).isFalse();
    assertThat(s.get("10", "a")).isSameAs(again);
  }

  @Test
  void seededSequences_answerAsTheModel() {
    for (long seed = 1; seed <= 200; seed++) {
      Random r = new Random(seed);
      StagedWrites s = new StagedWrites();
      Map<String, StoredDocument> versions = new HashMap<>();
      Set<String> deleted = new HashSet<>();
      for (int step = 0; step < 12; step++) {
        String epk = EPKS[r.nextInt(EPKS.length)];
        String id = IDS[r.nextInt(IDS.length)];
        String k = epk + "/" + id;
        if (r.nextInt(3) == 0) {
          s.delete(epk, id);
          versions.remove(k);
          deleted.add(k);
        } else {
          StoredDocument d = doc(epk, id, step + 1);
          s.put(d);
          versions.put(k, d);
          deleted.remove(k);
        }
        String because = "seed " + seed + " step " + step;
        assertThat(s.isEmpty()).as(because).isEqualTo(versions.isEmpty() && deleted.isEmpty());
        assertThat(s.versions()).as(because).containsExactlyInAnyOrderElementsOf(versions.values());
        for (String e : EPKS) {
          List<String> gone = new ArrayList<>();
          for (String i : IDS) {
            String key = e + "/" + i;
            assertThat(s.get(e, i)).as(because + " " + key).isSameAs(versions.get(key));
            assertThat(s.isDeleted(e, i)).as(because + " " + key).isEqualTo(deleted.contains(key));
            if (deleted.contains(key)) {
              gone.add(i);
            }
          }
          assertThat(s.deletedIds(e)).as(because).containsExactlyInAnyOrderElementsOf(gone);
        }
      }
    }
  }
}
