package io.cosmolab.engine.store;

import static io.cosmolab.engine.testing.StoreWalks.doc;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Documents by id, one entry per id whatever the logical partitions that use it, behave as a map by
 * (EPK, id): a model test against a {@code HashMap} of the pair, and writers in different logical
 * partitions racing on the same ids.
 */
class ByIdTest {
  private static final String[] EPKS = {"e1", "e2", "e3", "e4"};

  private record Pair(String epk, String id) {}

  @Test
  void underRandomPutsAndRemoves_ofIdsSharedByLogicalPartitions_isTheMapByEpkAndId() {
    for (long seed = 1; seed <= 40; seed++) {
      Random random = new Random(seed);
      ById byId = new ById();
      Map<Pair, StoredDocument> model = new HashMap<>();
      for (int step = 0; step < 2_000; step++) {
        String epk = EPKS[random.nextInt(EPKS.length)];
        String id = "d" + random.nextInt(12); // few ids: most are in several logical partitions
        Pair pair = new Pair(epk, id);
        if (random.nextInt(3) > 0) {
          StoredDocument d = doc(epk, id, step);
          assertThat(byId.put(d)).as("seed %d step %d", seed, step).isSameAs(model.put(pair, d));
        } else {
          assertThat(byId.remove(epk, id))
              .as("seed %d step %d", seed, step)
              .isSameAs(model.remove(pair));
        }
        for (String e : EPKS) {
          assertThat(byId.get(e, id)).isSameAs(model.get(new Pair(e, id)));
        }
      }
    }
  }

  @Test
  @org.junit.jupiter.api.Timeout(60) // a probe that never meets an empty slot would spin
  void manyIds_growTheTable_churnThroughRemovedSlots_andShrinkItBack() {
    Random random = new Random(3);
    ById byId = new ById();
    Map<Pair, StoredDocument> model = new HashMap<>();
    int initial = byId.capacity();
    for (int step = 0; step < 200_000; step++) {
      String epk = EPKS[random.nextInt(2)];
      // a sliding window of ids: old ones leave, new ones come, so removed slots pile up
      String id = "d" + (step / 4 + random.nextInt(5_000));
      Pair pair = new Pair(epk, id);
      if (random.nextInt(2) == 0) {
        StoredDocument d = doc(epk, id, step);
        assertThat(byId.put(d)).as("step %d", step).isSameAs(model.put(pair, d));
      } else {
        String old = "d" + (step / 4 - random.nextInt(5_000));
        assertThat(byId.remove(epk, old))
            .as("step %d", step)
            .isSameAs(model.remove(new Pair(epk, old)));
      }
      if (step % 1_009 == 0) {
        model.forEach((p, d) -> assertThat(byId.get(p.epk(), p.id())).isSameAs(d));
      }
    }
    model.forEach((p, d) -> assertThat(byId.get(p.epk(), p.id())).isSameAs(d));
    // a stripe's array is rebuilt for its entries to fill a quarter, and shrinks at a sixteenth
    assertThat(byId.capacity()).isLessThanOrEqualTo(initial + 16 * model.size());
    for (Pair p : new ArrayList<>(model.keySet())) {
      assertThat(byId.remove(p.epk(), p.id())).isSameAs(model.remove(p));
    }
    assertThat(byId.capacity()).as("emptied").isEqualTo(initial);
  }

  @Test
  @org.junit.jupiter.api.Timeout(120)
  void readersDuringWritesThatGrowTheTable_alwaysFindWhatStaysThere() throws Exception {
    ById byId = new ById();
    List<StoredDocument> stay = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      StoredDocument d = doc(EPKS[i % 2], "s" + i, i);
      stay.add(d);
      byId.put(d);
    }
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      java.util.concurrent.atomic.AtomicBoolean writing =
          new java.util.concurrent.atomic.AtomicBoolean(true);
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        String epk = EPKS[2 + w];
        writers.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 100_000; i++) { // grows every stripe, then empties it
                    byId.put(doc(epk, "w" + i, i));
                    if (i >= 1_000) {
                      byId.remove(epk, "w" + (i - 1_000));
                    }
                  }
                  return null;
                }));
      }
      Future<?> reader =
          pool.submit(
              () -> {
                Random random = new Random(11);
                int reads = 0;
                while (writing.get() || reads < 10_000) {
                  StoredDocument d = stay.get(random.nextInt(stay.size()));
                  assertThat(byId.get(d.epk(), d.id())).isSameAs(d);
                  assertThat(byId.get(EPKS[3], d.id())).isNull();
                  reads++;
                }
                return null;
              });
      for (Future<?> w : writers) {
        w.get(60, TimeUnit.SECONDS);
      }
      writing.set(false);
      reader.get(60, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void writersInDifferentLogicalPartitions_racingOnTheSameIds_loseNoDocument() throws Exception {
    ById byId = new ById();
    ExecutorService pool = Executors.newFixedThreadPool(EPKS.length);
    try {
      List<Future<Map<String, StoredDocument>>> writers = new ArrayList<>();
      for (String epk : EPKS) {
        // each writer owns one logical partition, as the engine's partition lock makes it
        writers.add(
            pool.submit(
                () -> {
                  Random random = new Random(epk.hashCode());
                  Map<String, StoredDocument> mine = new HashMap<>();
                  for (int step = 0; step < 20_000; step++) {
                    String id = "d" + random.nextInt(8);
                    if (random.nextInt(4) > 0) {
                      StoredDocument d = doc(epk, id, step);
                      assertThat(byId.put(d)).isSameAs(mine.put(id, d));
                    } else {
                      assertThat(byId.remove(epk, id)).isSameAs(mine.remove(id));
                    }
                  }
                  return mine;
                }));
      }
      for (int w = 0; w < EPKS.length; w++) {
        Map<String, StoredDocument> mine = writers.get(w).get();
        for (int i = 0; i < 8; i++) {
          assertThat(byId.get(EPKS[w], "d" + i)).isSameAs(mine.get("d" + i));
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
