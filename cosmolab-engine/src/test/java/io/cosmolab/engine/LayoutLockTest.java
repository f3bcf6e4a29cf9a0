package io.cosmolab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The layout lock: document writes (shared) run side by side, a layout change (exclusive) runs
 * alone, and neither ever sees the other inside.
 */
class LayoutLockTest {
  private final LayoutLock lock = new LayoutLock();

  private static Thread start(Runnable r) {
    Thread t = new Thread(r);
    t.start();
    return t;
  }

  @Test
  void sharedHolders_runSideBySide() throws Exception {
    CyclicBarrier bothInside = new CyclicBarrier(2);
    AtomicReference<Throwable> failed = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      threads.add(
          start(
              () -> {
                int token = lock.lockShared();
                try {
                  bothInside.await(10, TimeUnit.SECONDS); // both hold it at once
                } catch (Exception e) {
                  failed.set(e);
                } finally {
                  lock.unlockShared(token);
                }
              }));
    }
    for (Thread t : threads) {
      t.join(10_000);
    }
    assertThat(failed.get()).isNull();
  }

  @Test
  void anExclusiveHolder_waitsForTheSharedHoldersInside_andThenRunsAlone() throws Exception {
    int token = lock.lockShared();
    CountDownLatch changed = new CountDownLatch(1);
    Thread change =
        start(
            () -> {
              lock.lockExclusive();
              changed.countDown();
              lock.unlockExclusive();
            });
    assertThat(changed.await(100, TimeUnit.MILLISECONDS)).isFalse();
    lock.unlockShared(token);
    assertThat(changed.await(10, TimeUnit.SECONDS)).isTrue();
    change.join(10_000);
  }

  @Test
  void aSharedHolder_waitsWhileAChangeRuns_includingAReentrantOne() throws Exception {
    lock.lockExclusive();
    lock.lockExclusive(); // a change inside a change
    CountDownLatch wrote = new CountDownLatch(1);
    Thread write =
        start(
            () -> {
              int token = lock.lockShared();
              wrote.countDown();
              lock.unlockShared(token);
            });
    assertThat(wrote.await(100, TimeUnit.MILLISECONDS)).isFalse();
    lock.unlockExclusive();
    assertThat(wrote.await(100, TimeUnit.MILLISECONDS)).isFalse(); // the outer change still runs
    lock.unlockExclusive();
    assertThat(wrote.await(10, TimeUnit.SECONDS)).isTrue();
    write.join(10_000);
  }

  @Test
  void theExclusiveHolder_mayTakeTheSharedSide() {
    lock.lockExclusive();
    int token = lock.lockShared(); // a change that runs a write: no deadlock
    lock.unlockShared(token);
    lock.unlockExclusive();
    lock.lockExclusive(); // and nothing was left counted
    lock.unlockExclusive();
  }

  /**
   * Four writers and a changer, a bounded number of rounds: a change never finds a write inside,
   * and a write never finds a change inside.
   */
  @Test
  void underContention_writesAndChangesNeverOverlap() throws Exception {
    AtomicInteger writesInside = new AtomicInteger();
    AtomicInteger changesInside = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    AtomicInteger writes = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < 4; w++) {
      threads.add(
          start(
              () -> {
                for (int i = 0; i < 20_000; i++) {
                  int token = lock.lockShared();
                  writesInside.incrementAndGet();
                  if (changesInside.get() != 0) {
                    overlaps.incrementAndGet();
                  }
                  writes.incrementAndGet();
                  writesInside.decrementAndGet();
                  lock.unlockShared(token);
                }
              }));
    }
    threads.add(
        start(
            () -> {
              for (int i = 0; i < 300; i++) {
                lock.lockExclusive();
                changesInside.incrementAndGet();
                if (writesInside.get() != 0) {
                  overlaps.incrementAndGet();
                }
                Thread.onSpinWait();
                changesInside.decrementAndGet();
                lock.unlockExclusive();
              }
            }));
    for (Thread t : threads) {
      t.join(60_000);
    }
    assertThat(writes.get()).isEqualTo(80_000);
    assertThat(overlaps.get()).isZero();
  }
}
