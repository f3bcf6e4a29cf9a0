package io.cosmolab.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Error reports from event loops: queued without waiting, written in order, drops counted. */
class OffLoopLogTest {

  @Test
  void aReport_returnsAtOnce_whileTheLogItGoesToIsStalled() throws Exception {
    CountDownLatch stalled = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<String> written = new CopyOnWriteArrayList<>();
    OffLoopLog log =
        new OffLoopLog(
            r -> {
              stalled.countDown();
              awaitQuietly(release);
              written.add(r.message());
            },
            4);

    log.error("first", null);
    assertThat(stalled.await(10, TimeUnit.SECONDS)).isTrue(); // the writer is stuck in the sink
    for (int i = 0; i < 10; i++) {
      log.error("more " + i, new IllegalStateException()); // returns: nothing here waits
    }
    assertThat(log.dropped()).isEqualTo(6); // 4 queued behind the stuck one, 6 dropped

    release.countDown();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (written.size() < 6 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(written)
        .containsExactly(
            "first",
            "6 error report(s) dropped: they came faster than the log was written",
            "more 0",
            "more 1",
            "more 2",
            "more 3");
  }

  @Test
  void aSinkThatThrows_doesNotStopLaterReports() throws Exception {
    List<String> written = new CopyOnWriteArrayList<>();
    CountDownLatch two = new CountDownLatch(2);
    OffLoopLog log =
        new OffLoopLog(
            r -> {
              if (r.message().equals("boom")) {
                two.countDown();
                throw new IllegalStateException("the sink failed");
              }
              written.add(r.message());
              two.countDown();
            },
            8);
    log.error("boom", null);
    log.error("after", null);
    assertThat(two.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(written).containsExactly("after");
  }

  @Test
  void runningOutOfMemoryWhileWritingAReport_writesItsMessageWithoutTheTrace_andGoesOn()
      throws Exception {
    List<String> written = new CopyOnWriteArrayList<>();
    CountDownLatch two = new CountDownLatch(2);
    OffLoopLog log =
        new OffLoopLog(
            r -> {
              if (r.cause() != null) { // formatting a stack trace: as when the heap is full
                throw new OutOfMemoryError("Java heap space");
              }
              written.add(r.message());
              two.countDown();
            },
            8);
    log.error("activity 42: POST /dbs failed", new IllegalStateException("the cause"));
    log.error("after", null);
    assertThat(two.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(written)
        .containsExactly(
            "activity 42: POST /dbs failed (java.lang.IllegalStateException: the cause; stack"
                + " trace not written: java.lang.OutOfMemoryError: Java heap space)",
            "after");
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
