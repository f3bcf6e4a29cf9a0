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
