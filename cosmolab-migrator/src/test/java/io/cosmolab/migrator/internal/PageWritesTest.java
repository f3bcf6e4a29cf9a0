package io.cosmolab.migrator.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.migrator.TargetKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The reduction that lets a page's writes go to the bulk executor in any order: the last write per
 * target document, applied in any order, leaves the target as the writes applied one by one in
 * order do. Checked against a plain map applied in order; seeded (replay with {@code
 * -Dcosmolab.seed=N}).
 */
class PageWritesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TargetKey KEY = TargetKey.parse("/region");
  private static final String[] REGIONS = {"eu", "us", "asia"};

  @Test
  void aCreateThenUpdatesOfOneId_becomeTheLastUpdate() {
    PageWrites w = new PageWrites(KEY);
    w.upsert(doc("x", "eu", 1));
    w.upsert(doc("x", "eu", 2));
    w.upsert(doc("x", "eu", 3));
    assertThat(w.added()).isEqualTo(3);
    assertThat(w.writes())
        .singleElement()
        .satisfies(
            x -> assertThat(((TargetWrite.Upsert) x).body().get("total").asInt()).isEqualTo(3));
  }

  @Test
  void aCreateThenItsDelete_becomesTheDelete() {
    PageWrites w = new PageWrites(KEY);
    w.upsert(doc("y", "eu", 1));
    w.delete("y", "[\"eu\"]");
    assertThat(w.writes()).containsExactly(new TargetWrite.Delete("y", "[\"eu\"]"));
  }

  @Test
  void aMoveToAnotherKeyAndBack_becomesAnUpsertUnderTheFirstKeyAndADeleteUnderTheOther() {
    PageWrites w = new PageWrites(KEY);
    w.upsert(doc("z", "eu", 1));
    w.delete("z", "[\"eu\"]"); // moved to us: the old copy deleted
    w.upsert(doc("z", "us", 2));
    w.delete("z", "[\"us\"]"); // moved back to eu
    w.upsert(doc("z", "eu", 3));
    assertThat(w.writes())
        .extracting(x -> x.step() + " " + x.keyText())
        .containsExactlyInAnyOrder("upsert [\"eu\"]", "delete [\"us\"]");
  }

  @Test
  void theReducedWritesInAnyOrder_leaveTheTargetAsTheWritesInOrderDo() {
    long seed = Long.getLong("cosmolab.seed", System.nanoTime());
    System.out.println(
        "PageWritesTest seed " + seed + " (replay with -Dcosmolab.seed=" + seed + ")");
    Random random = new Random(seed);
    for (int trial = 0; trial < 500; trial++) {
      Map<String, Integer> sequential = new HashMap<>(); // target document -> total
      for (int i = 0; i < 5; i++) { // what the target held before the page
        if (random.nextBoolean()) {
          sequential.put(docKey("d" + random.nextInt(4), REGIONS[random.nextInt(3)]), -1);
        }
      }
      Map<String, Integer> reduced = new HashMap<>(sequential);
      PageWrites w = new PageWrites(KEY);
      int n = 1 + random.nextInt(30);
      for (int i = 0; i < n; i++) {
        String id = "d" + random.nextInt(4);
        String region = REGIONS[random.nextInt(3)];
        if (random.nextInt(3) == 0) {
          sequential.remove(docKey(id, region));
          w.delete(id, "[\"" + region + "\"]");
        } else {
          sequential.put(docKey(id, region), i);
          w.upsert(doc(id, region, i));
        }
      }
      List<TargetWrite> writes = w.writes();
      assertThat(writes.stream().map(TargetWrite::document).distinct())
          .as("seed %d trial %d: one write per target document", seed, trial)
          .hasSameSizeAs(writes);
      List<TargetWrite> shuffled = new ArrayList<>(writes);
      Collections.shuffle(shuffled, random); // the bulk executor keeps no order
      for (TargetWrite x : shuffled) {
        if (x instanceof TargetWrite.Upsert u) {
          reduced.put(x.document(), u.body().get("total").asInt());
        } else {
          reduced.remove(x.document());
        }
      }
      assertThat(reduced).as("seed %d trial %d", seed, trial).isEqualTo(sequential);
    }
  }

  private static String docKey(String id, String region) {
    return id + '\u0000' + "[\"" + region + "\"]";
  }

  private static ObjectNode doc(String id, String region, int total) {
    ObjectNode d = JSON.createObjectNode();
    d.put("id", id);
    d.put("region", region);
    d.put("total", total);
    return d;
  }
}
