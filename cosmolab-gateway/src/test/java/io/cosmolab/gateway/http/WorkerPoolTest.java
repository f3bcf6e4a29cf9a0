package io.cosmolab.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The worker pool's starvation check, called by hand: no timing in the test. */
class WorkerPoolTest {

  @Test
  void allThreadsBlockedWithTasksWaiting_startsOneMorePerCheck_thenShrinksBackWhenIdle()
      throws InterruptedException {
    WorkerPool pool = WorkerPool.unchecked(1);
    CountDownLatch blocked = new CountDownLatch(2);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch ran = new CountDownLatch(1);
    try {
      Runnable stall =
          () -> {
            blocked.countDown();
            await(release);
          };
      pool.execute(stall);
      pool.execute(stall);
      pool.execute(ran::countDown);
      pool.check(); // its one thread blocked, nothing completed, two tasks waiting: a second
      assertThat(pool.size()).isEqualTo(2);
      assertThat(blocked.await(5, TimeUnit.SECONDS)).isTrue();
      pool.check(); // both blocked, a task still waiting: a third
      assertThat(pool.size()).isEqualTo(3);
      assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
      awaitActive(pool, 2);
      pool.check(); // nothing waits and the third is idle: back to two
      assertThat(pool.size()).isEqualTo(2);
      release.countDown();
      awaitActive(pool, 0);
      pool.check();
      assertThat(pool.size()).isEqualTo(1);
      pool.check(); // never below the base size
      assertThat(pool.size()).isEqualTo(1);
    } finally {
      release.countDown();
      pool.close(Duration.ofSeconds(1));
    }
  }

  @Test
  void busyThreadsThatComplete_areNotMistakenForBlockedOnes() throws InterruptedException {
    WorkerPool pool = WorkerPool.unchecked(1);
    try {
      for (int round = 0; round < 3; round++) {
        CountDownLatch done = new CountDownLatch(100);
        for (int i = 0; i < 100; i++) {
          pool.execute(done::countDown);
        }
        assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
        pool.check();
      }
      assertThat(pool.size()).isEqualTo(1);
    } finally {
      pool.close(Duration.ofSeconds(1));
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void awaitActive(WorkerPool pool, int threads) throws InterruptedException {
    for (int i = 0; i < 500 && pool.active() != threads; i++) {
      Thread.sleep(10);
    }
    assertThat(pool.active()).isEqualTo(threads);
  }
}
