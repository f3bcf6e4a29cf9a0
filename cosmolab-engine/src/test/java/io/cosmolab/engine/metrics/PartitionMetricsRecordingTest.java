package io.cosmolab.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Recording never waits for a reader, and what many threads record adds up exactly. */
class PartitionMetricsRecordingTest {
  private static final long T0 = 1_767_225_600_000L; // a second boundary

  @Test
  void recording_completes_whileAReaderHoldsTheSeries_andIsCountedOnceItLetsGo() throws Exception {
    PartitionMetrics m = new PartitionMetrics();
    m.recordOperation("0", T0, 1.0, "k"); // the series exists
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread reader =
        new Thread(
            () ->
                m.holdSeries(
                    "0",
                    () -> {
                      held.countDown();
                      try {
                        release.await();
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      }
                    }));
    reader.start();
    try {
      held.await();
      assertTimeoutPreemptively(
          Duration.ofSeconds(20),
          () -> {
            for (int i = 0; i < 1_000; i++) {
              m.recordOperation("0", T0 + i, 2.0, "hot");
            }
            m.recordThrottle("0", T0, true);
            m.recordThrottle("0", T0, false);
          });
    } finally {
      release.countDown();
      reader.join();
    }
    // nothing recorded while the reader held the series was lost: the next reader applies it
    assertThat(m.totals("0")).containsExactly(2_001, 1_001, 1, 1);
    assertThat(m.seconds("0", T0 / 1000, T0 / 1000 + 1).get(0))
        .isEqualTo(new PartitionMetrics.Second(T0 / 1000, 2_001, 1_001, 1, 1));
    assertThat(m.hottestKeysByRu(1).get(0).epk()).isEqualTo("hot");
    assertThat(m.hottestKeysByRu(1).get(0).ru()).isEqualTo(2_000);
  }

  @Test
  void recordingsFromManyThreads_addUpExactly_whileReadersRead() throws Exception {
    PartitionMetrics m = new PartitionMetrics();
    int threads = 4;
    int each = 20_000;
    AtomicBoolean done = new AtomicBoolean();
    Thread readerThread =
        new Thread(
            () -> {
              while (!done.get()) {
                m.hottestKeysByRu(3);
                m.recentlyHottestKeysByRu(3, T0);
                m.totals("0");
                m.seconds("1", T0 / 1000, T0 / 1000 + 2);
              }
            });
    readerThread.start();
    List<Thread> writers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int n = t;
      Thread w =
          new Thread(
              () -> {
                for (int i = 0; i < each; i++) {
                  String range = Integer.toString(i % 2);
                  m.recordOperation(range, T0 + (i % 2_000), 1.0, i % 4 == 0 ? "hot" : "k" + n);
                  if (i % 100 == 0) {
                    m.recordThrottle(range, T0, i % 200 == 0);
                  }
                }
              });
      writers.add(w);
      w.start();
    }
    for (Thread w : writers) {
      w.join();
    }
    done.set(true);
    readerThread.join();
    double[] zero = m.totals("0");
    double[] one = m.totals("1");
    assertThat(zero[1] + one[1]).isEqualTo(threads * each);
    assertThat(zero[0] + one[0]).isEqualTo(threads * each);
    assertThat(zero[2] + one[2] + zero[3] + one[3]).isEqualTo(threads * each / 100.0);
    long opsBySecond = 0;
    for (String range : List.of("0", "1")) {
      for (PartitionMetrics.Second s : m.seconds(range, T0 / 1000, T0 / 1000 + 2)) {
        opsBySecond += s.operations();
      }
    }
    assertThat(opsBySecond).isEqualTo((long) threads * each);
    // "hot" is one call in four: 20,000 RU across both ranges; the sketch keeps a few keys exactly
    PartitionMetrics.HotKey hot = m.hottestKeysByRu(1).get(0);
    assertThat(hot.epk()).isEqualTo("hot");
    assertThat(hot.ru()).isEqualTo(threads * each / 4.0);
  }
}
