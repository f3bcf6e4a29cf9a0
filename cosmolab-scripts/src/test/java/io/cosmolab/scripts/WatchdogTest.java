package io.cosmolab.scripts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.graalvm.polyglot.Context;
import org.junit.jupiter.api.Test;

/**
 * The watchdog's shared bound: executions that each stay under their own bound are stopped, the one
 * that allocated most first, once together they pass the bound they share. Each execution here is a
 * thread that allocates in Java while watched, as a script's thread does in the engine.
 */
class WatchdogTest {
  private static final long MB = 1 << 20;

  @Test
  void executionsPastTheirSharedBound_stopTheOneThatAllocatedMost_andOnlyIt() throws Exception {
    Watchdog watchdog = new Watchdog(60 * MB);
    CyclicBarrier bothWatched = new CyclicBarrier(2);
    CountDownLatch smallDone = new CountDownLatch(1);
    CountDownLatch bigDone = new CountDownLatch(1);
    Watchdog.Stop[] stopped = new Watchdog.Stop[2];
    long[] allocatedWhenStopped = new long[1];

    Thread small =
        watched(
            watchdog,
            bothWatched,
            w -> {
              keep(20 * MB, w);
              smallDone.countDown();
              await(bigDone); // still running while the big one allocates
              stopped[0] = w.stopped();
            });
    Thread big =
        watched(
            watchdog,
            bothWatched,
            w -> {
              await(smallDone);
              keep(400 * MB, w); // until stopped, well before 400 MB
              allocatedWhenStopped[0] = w.allocatedSinceStart();
              stopped[1] = w.stopped();
              bigDone.countDown();
            });
    small.join(30_000);
    big.join(30_000);

    assertThat(stopped[1]).isEqualTo(Watchdog.Stop.SHARED_MEMORY);
    assertThat(allocatedWhenStopped[0]).isLessThan(400 * MB);
    assertThat(stopped[0]).isNull();
  }

  @Test
  void aWatchWithinAnotherOnTheSameThread_countsOnce() throws Exception {
    // a procedure's query calling a UDF: the thread's bytes are both watches' bytes
    Watchdog watchdog = new Watchdog(60 * MB);
    Watchdog.Stop[] stopped = new Watchdog.Stop[2];
    Thread t =
        watched(
            watchdog,
            new CyclicBarrier(1),
            outer -> {
              try (Context context = Context.create("js");
                  Watchdog.Watch inner = watchdog.watch(context, TimeUnit.SECONDS.toNanos(30), 0)) {
                keep(40 * MB, inner);
                sleep(3 * Watchdog.TICK_MILLIS);
                stopped[0] = outer.stopped();
                stopped[1] = inner.stopped();
              }
            });
    t.join(30_000);
    assertThat(stopped).containsOnlyNulls();
  }

  @Test
  void noSharedBound_stopsNothingThatStaysUnderItsOwn() throws Exception {
    Watchdog watchdog = new Watchdog(0);
    CyclicBarrier watchedAlone = new CyclicBarrier(1);
    Watchdog.Stop[] stopped = new Watchdog.Stop[1];
    Thread t =
        watched(
            watchdog,
            watchedAlone,
            w -> {
              keep(80 * MB, w);
              stopped[0] = w.stopped();
            });
    t.join(30_000);
    assertThat(stopped[0]).isNull();
  }

  /**
   * Starts a thread that runs {@code body} under a watch of its own (no bound of its own), once
   * every such thread has its watch ({@code start}).
   */
  private static Thread watched(
      Watchdog watchdog, CyclicBarrier start, java.util.function.Consumer<Watchdog.Watch> body) {
    return Thread.ofPlatform()
        .start(
            () -> {
              try (Context context = Context.create("js");
                  Watchdog.Watch w = watchdog.watch(context, TimeUnit.SECONDS.toNanos(30), 0)) {
                start.await(10, TimeUnit.SECONDS);
                body.accept(w);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
  }

  /** Allocates and keeps {@code bytes} in 1 MB arrays, pausing so the watchdog ticks between. */
  private static List<byte[]> keep(long bytes, Watchdog.Watch w) {
    List<byte[]> kept = new ArrayList<>();
    for (long done = 0; done < bytes && w.stopped() == null; done += MB) {
      kept.add(new byte[(int) MB]);
      sleep(1);
    }
    return kept;
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
