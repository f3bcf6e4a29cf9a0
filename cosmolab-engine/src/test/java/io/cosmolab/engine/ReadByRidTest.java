package io.cosmolab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The primitive map of a page's reads agrees with a HashMap, for any RID part, growing. */
class ReadByRidTest {
  @Test
  void itAgreesWithAHashMap_forAnyRidPart_acrossGrowth() {
    Random random = new Random(5);
    ReadByRid map = new ReadByRid();
    Map<Long, Long> model = new HashMap<>();
    long[] special = {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 63 >>> 1};
    for (int i = 0; i < 20_000; i++) {
      long rid =
          i < special.length
              ? special[i]
              : random.nextBoolean() ? random.nextLong() : random.nextInt(5_000); // repeats too
      long value = random.nextLong() >>> 1;
      map.put(rid, value);
      model.put(rid, value);
    }
    assertThat(map.size()).isEqualTo(model.size());
    model.forEach((rid, value) -> assertThat(map.get(rid, -1)).isEqualTo(value));
    for (int i = 0; i < 1_000; i++) {
      long absent = random.nextLong();
      if (!model.containsKey(absent)) {
        assertThat(map.get(absent, -1)).isEqualTo(-1);
      }
    }
  }
}
