package io.cosmolab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A partition's write lock: one holder at a time, reentrant for that holder (a stored procedure's
 * writes run inside its transaction), a bounded wait that gives up, and no letting go of a hold
 * another thread has.
 */
@Timeout(60) // a lock that failed its holder's second take would wait forever
class PartitionLockTest {
  private final PartitionLock lock = new PartitionLock();

  private boolean triedFromAnotherThread() throws Exception {
    return CompletableFuture.supplyAsync(
            () -> {
              boolean took = lock.tryLock();
              if (took) {
                lock.unlock();
              }
              return took;
            })
        .get(10, TimeUnit.SECONDS);
  }

  @Test
  void itsHolder_mayTakeItAgain_andItIsFreeOnlyWhenEveryHoldIsLetGo() throws Exception {
    lock.lock();
    lock.lock();
    assertThat(lock.tryLock()).isTrue();
    assertThat(lock.isHeldByCurrentThread()).isTrue();
    lock.unlock();
    lock.unlock();
    assertThat(triedFromAnotherThread()).isFalse(); // one hold left
    lock.unlock();
    assertThat(lock.isHeldByCurrentThread()).isFalse();
    assertThat(triedFromAnotherThread()).isTrue();
  }

  @Test
  void aBoundedWait_givesUpWhileAnotherHoldsIt_andTakesItOnceLetGo() throws Exception {
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread holder =
        new Thread(
            () -> {
              lock.lock();
              try {
                held.countDown();
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } finally {
                lock.unlock();
              }
            });
    holder.start();
    assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(lock.tryLock(50, TimeUnit.MILLISECONDS)).isFalse();
    assertThat(lock.isHeldByCurrentThread()).isFalse();
    release.countDown();
    assertThat(lock.tryLock(10, TimeUnit.SECONDS)).isTrue();
    lock.unlock();
    holder.join(10_000);
  }

  @Test
  void aThreadThatDoesNotHoldIt_cannotLetItGo() throws Exception {
    assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
    lock.lock();
    CompletableFuture<Void> other = CompletableFuture.runAsync(lock::unlock);
    assertThatThrownBy(() -> other.get(10, TimeUnit.SECONDS))
        .hasCauseInstanceOf(IllegalMonitorStateException.class);
    assertThat(lock.isHeldByCurrentThread()).isTrue(); // still this thread's
    lock.unlock();
  }

  /** Four threads add to a plain counter under the lock, a bounded number of times: none lost. */
  @Test
  void underContention_itsHoldersNeverOverlap() throws Exception {
    long[] counter = new long[1];
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Thread thread =
          new Thread(
              () -> {
                for (int i = 0; i < 50_000; i++) {
                  lock.lock();
                  try {
                    counter[0]++;
                  } finally {
                    lock.unlock();
                  }
                }
              });
      thread.start();
      threads.add(thread);
    }
    for (Thread t : threads) {
      t.join(60_000);
    }
    lock.lock();
    try {
      assertThat(counter[0]).isEqualTo(200_000);
    } finally {
      lock.unlock();
    }
  }
}
