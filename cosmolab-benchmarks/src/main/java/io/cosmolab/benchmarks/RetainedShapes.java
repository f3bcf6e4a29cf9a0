package io.cosmolab.benchmarks;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the collector charges for what a writer keeps, without the engine: each thread does a fixed
 * piece of arithmetic, makes 2 KB of garbage and keeps one item per step, as a create keeps its
 * document; the item's shape is the variable. Run one JVM per shape and thread count (the
 * collector's state is the measurement), with the benchmarks' heap:
 *
 * <pre>
 *   for s in tree array array-kb slab; do for t in 1 2; do
 *     java -Xms2g -Xmx2g -cp benchmarks.jar io.cosmolab.benchmarks.RetainedShapes $s $t 8
 *   done; done
 * </pre>
 *
 * <p>Shapes: {@code tree}, 13 small objects of about 480 bytes in all, made one after another (a
 * stored document as a tree); {@code array}, the same bytes in 2 objects (a holder and one byte
 * array); {@code array-kb}, 4 objects of about 1.3 KB (a holder, a 1.2 KB array, an id string);
 * {@code slab}, the same 460 bytes copied into a 1 MB array the thread shares among its items
 * (which G1 allocates in the old generation and never copies) and one 24-byte object saying where
 * (a store that keeps bodies as bytes in slabs). Each thread drops what it kept every 400,000
 * items, as the JMH benchmarks start a fresh container each iteration. Prints items per second and
 * the collector's time (docs/benchmarks.md).
 */
public final class RetainedShapes {
  private static final int KEEP_AT_MOST = 400_000;

  private RetainedShapes() {}

  /** An object of two references, the unit the shapes are made of. */
  private record Pair(Object left, Object right) {}

  /** Runs {@code SHAPE THREADS SECONDS} and prints the rate and the collector's time. */
  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      throw new IllegalArgumentException(
          "usage: RetainedShapes tree|array|array-kb|slab THREADS SECONDS");
    }
    String shape = args[0];
    int threads = Integer.parseInt(args[1]);
    int seconds = Integer.parseInt(args[2]);
    item(shape, 0); // rejects an unknown shape before anything runs
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    long gcBefore = gcMillis();
    long[][] results = new long[threads][]; // each thread's items and a checksum
    List<Thread> running = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int me = t;
      Thread thread = new Thread(() -> results[me] = write(shape, end));
      running.add(thread);
      thread.start();
    }
    long total = 0;
    long check = 0;
    for (int t = 0; t < threads; t++) {
      running.get(t).join();
      total += results[t][0];
      check ^= results[t][1];
    }
    if (check == 42) {
      System.out.print(""); // keeps the arithmetic and the garbage live
    }
    System.out.printf(
        Locale.ROOT,
        "%s, %d thread(s): %.0fk items/s, collector %d ms of %d s%n",
        shape,
        threads,
        total / 1000.0 / seconds,
        gcMillis() - gcBefore,
        seconds);
  }

  /** Where a {@code slab} item's bytes lie: its slab and offset. */
  private static final class Slot {
    final byte[] slab;
    final int offset;

    Slot(byte[] slab, int offset) {
      this.slab = slab;
      this.offset = offset;
    }

    byte first() {
      return slab[offset];
    }
  }

  private static final int SLAB = 1 << 20;
  private static final byte[] BODY = new byte[460];

  private static long[] write(String shape, long end) {
    List<Object> kept = new ArrayList<>();
    byte[] slab = new byte[SLAB];
    int used = 0;
    long n = 0;
    long work = 1;
    long check = 0;
    while (System.nanoTime() < end) {
      for (int k = 0; k < 256; k++) {
        for (int w = 0; w < 1_500; w++) {
          work = work * 6364136223846793005L + w;
        }
        byte[] garbage = new byte[2_000];
        garbage[(int) (work & 1023)] = 1;
        check += garbage[5];
        if (shape.equals("slab")) {
          if (used + BODY.length > SLAB) {
            slab = new byte[SLAB]; // humongous: allocated in the old generation, never copied
            used = 0;
          }
          System.arraycopy(BODY, 0, slab, used, BODY.length);
          Slot slot = new Slot(slab, used);
          check += slot.first();
          kept.add(slot);
          used += BODY.length;
          n++;
        } else {
          kept.add(item(shape, n++));
        }
        if (kept.size() >= KEEP_AT_MOST) {
          kept = new ArrayList<>();
        }
      }
    }
    return new long[] {n, check ^ work};
  }

  private static Object item(String shape, long n) {
    return switch (shape) {
      case "tree" -> {
        Object leaf = new byte[16];
        Object chain = null;
        for (int i = 0; i < 11; i++) {
          chain = new Pair(chain, i % 3 == 0 ? new byte[8] : leaf);
        }
        yield new Pair(chain, new Object[20]);
      }
      case "array" -> new Pair(new byte[460], null);
      case "array-kb" -> new Pair(new Pair(new byte[1_200], null), "id" + n);
      case "slab" -> null; // made in write(), which holds the thread's slab
      default -> throw new IllegalArgumentException("unknown shape: " + shape);
    };
  }

  private static long gcMillis() {
    long total = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      total += Math.max(0, gc.getCollectionTime());
    }
    return total;
  }
}
