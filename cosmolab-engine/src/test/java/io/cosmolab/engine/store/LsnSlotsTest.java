package io.cosmolab.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The change log's slots by LSN, against a sorted map as the oracle. */
class LsnSlotsTest {
  private static final int SIZE = LsnSlots.SIZE;

  @Test
  void randomPutsDropsAndReplaces_readAsASortedMapWould_overManySeeds() {
    for (long seed = 1; seed <= 40; seed++) {
      Random random = new Random(seed);
      LsnSlots<String> slots = new LsnSlots<>();
      TreeMap<Long, String> oracle = new TreeMap<>();
      long next = 1L + random.nextInt(3 * SIZE); // a log may start anywhere (a restart)
      for (int step = 0; step < 20_000; step++) {
        int op = random.nextInt(10);
        if (op < 5) { // appends, a few out of order (writers to other partitions)
          long lsn = Math.max(1, next - random.nextInt(random.nextInt(8) + 1));
          next++;
          String v = "v" + step;
          slots.put(lsn, v);
          oracle.put(lsn, v);
        } else if (op < 9 && !oracle.isEmpty()) { // drop a superseded record, anywhere
          long lsn = oracle.firstKey() + random.nextInt((int) (next - oracle.firstKey()));
          slots.remove(lsn);
          oracle.remove(lsn);
        } else if (!oracle.isEmpty()) { // unlog: replace one value by another, if it is the one
          Long lsn = oracle.ceilingKey(oracle.firstKey() + random.nextInt((int) (next - 1)));
          if (lsn != null) {
            boolean current = random.nextBoolean(); // else an equal value, not the same object
            String expected = current ? oracle.get(lsn) : new String(oracle.get(lsn));
            String value = "r" + step;
            boolean replaced = slots.replace(lsn, expected, value);
            assertThat(replaced).as("seed %d step %d", seed, step).isEqualTo(current);
            if (replaced) {
              oracle.put(lsn, value);
            }
          }
        }
        if (step % 997 == 0) {
          long from = random.nextInt((int) next + SIZE);
          assertThat(list(slots.after(from)))
              .as("seed %d step %d after %d", seed, step, from)
              .containsExactlyElementsOf(oracle.tailMap(from, false).values());
        }
      }
      assertThat(list(slots.after(0))).containsExactlyElementsOf(oracle.values());
      for (long lsn = 0; lsn < next + 2; lsn += 1 + random.nextInt(5)) {
        assertThat(slots.get(lsn)).as("seed %d get %d", seed, lsn).isEqualTo(oracle.get(lsn));
      }
    }
  }

  @Test
  void blocksLeftWithFewRecords_becomeSparse_andEmptiedBlocksGo() {
    LsnSlots<String> slots = new LsnSlots<>();
    int blocks = 20;
    for (long lsn = 0; lsn < (long) blocks * SIZE; lsn++) {
      slots.put(lsn, "v" + lsn);
    }
    // steady upserts over a fixed set: every record superseded but one in 100 (never rewritten)
    for (long lsn = 0; lsn < (long) blocks * SIZE; lsn++) {
      if (lsn % 100 != 0) {
        slots.remove(lsn);
      }
    }
    int[] shape = slots.shape();
    assertThat(shape[0]).as("blocks").isEqualTo(blocks);
    // all but the two newest, which writers have not moved past, keep only their survivors
    assertThat(shape[1]).as("sparse blocks").isEqualTo(blocks - 2);
    List<String> left = list(slots.after(-1));
    assertThat(left).hasSize(blocks * SIZE / 100 + 1);
    assertThat(left.subList(0, 2)).containsExactly("v0", "v100");
    assertThat(list(slots.after(150))).first().isEqualTo("v200");

    for (long lsn = 0; lsn < (long) blocks * SIZE; lsn += 100) {
      slots.remove(lsn);
    }
    assertThat(slots.shape()[0]).as("blocks once empty").isZero();
    assertThat(list(slots.after(-1))).isEmpty();
    slots.put(5, "again"); // an emptied block comes back when written again
    assertThat(list(slots.after(0))).containsExactly("again");
  }

  @Test
  void blocksEmptiedAtTheHead_becomeSparseOnceWritersAreTwoBlocksPast() {
    // latest-version retention drops a superseded record at once: a hot document rewritten at
    // every LSN, and a create (never rewritten) every 500 LSNs that stays
    LsnSlots<String> slots = new LsnSlots<>();
    long blocks = 100;
    long hot = -1;
    for (long lsn = 0; lsn < blocks * SIZE; lsn++) {
      slots.put(lsn, "v" + lsn);
      if (lsn % 500 != 0) {
        if (hot >= 0) {
          slots.remove(hot);
        }
        hot = lsn;
      }
    }
    int[] shape = slots.shape();
    assertThat(shape[0]).isEqualTo((int) blocks);
    assertThat(shape[1]).as("sparse blocks of %d", shape[0]).isEqualTo((int) blocks - 2);
    assertThat(list(slots.after(-1))).hasSize((int) (blocks * SIZE / 500) + 2);
  }

  @Test
  void aLatePutIntoASparseBlock_isKept_andEnoughOfThemMakeItDenseAgain() {
    LsnSlots<String> slots = new LsnSlots<>();
    for (long lsn = 0; lsn < 4L * SIZE; lsn++) {
      slots.put(lsn, "v" + lsn);
    }
    for (long lsn = 0; lsn < SIZE; lsn++) {
      if (lsn % 32 != 0) {
        slots.remove(lsn);
      }
    }
    assertThat(slots.shape()[1]).isEqualTo(1);
    TreeMap<Long, String> oracle = new TreeMap<>();
    for (long lsn = 0; lsn < 4L * SIZE; lsn++) {
      if (lsn >= SIZE || lsn % 32 == 0) {
        oracle.put(lsn, "v" + lsn);
      }
    }
    for (long lsn = 1; lsn < SIZE; lsn += 4) {
      slots.put(lsn, "late" + lsn);
      oracle.put(lsn, "late" + lsn);
      assertThat(slots.get(lsn)).isEqualTo("late" + lsn);
    }
    assertThat(slots.shape()[1]).as("dense again").isZero();
    assertThat(list(slots.after(-1))).containsExactlyElementsOf(oracle.values());
  }

  @Test
  void writersOnSeveralThreads_appendAndDropAtOnce_andTheLogHoldsExactlyWhatWasNotDropped()
      throws Exception {
    for (int round = 0; round < 5; round++) {
      LsnSlots<Long> slots = new LsnSlots<>();
      java.util.concurrent.atomic.AtomicLong lsns = new java.util.concurrent.atomic.AtomicLong();
      Map<Long, Boolean> kept = new ConcurrentHashMap<>();
      int threads = 4;
      int perThread = 30_000;
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      long seed = round;
      for (int t = 0; t < threads; t++) {
        Random random = new Random(seed * 31 + t);
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  List<Long> mine = new ArrayList<>();
                  for (int i = 0; i < perThread; i++) {
                    long lsn = lsns.incrementAndGet();
                    slots.put(lsn, lsn);
                    mine.add(lsn);
                    if (random.nextInt(10) < 9) { // supersede one of its own, old or new
                      long drop = mine.remove(random.nextInt(mine.size()));
                      slots.remove(drop);
                    }
                  }
                  mine.forEach(l -> kept.put(l, true));
                  return null;
                }));
      }
      // a reader walking meanwhile sees every LSN at most once, in order
      Future<?> reader =
          pool.submit(
              () -> {
                start.await();
                for (int i = 0; i < 50; i++) {
                  long last = 0;
                  for (Iterator<Long> it = slots.after(0); it.hasNext(); ) {
                    long lsn = it.next();
                    assertThat(lsn).isGreaterThan(last);
                    last = lsn;
                  }
                }
                return null;
              });
      start.countDown();
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
      reader.get(60, TimeUnit.SECONDS);
      pool.shutdown();
      assertThat(list(slots.after(0))).containsExactlyElementsOf(new TreeMap<>(kept).keySet());
    }
  }

  private static <V> List<V> list(Iterator<V> it) {
    List<V> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }
}
