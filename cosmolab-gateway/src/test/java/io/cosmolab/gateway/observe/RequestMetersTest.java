package io.cosmolab.gateway.observe;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The request counters are per thread: every request counted once, whichever thread answered it,
 * threads that end included, while scrapes run meanwhile. The oracle is the same requests summed by
 * the test.
 */
class RequestMetersTest {

  private static final String[] RANGES = {"0", "1", "2"};
  private static final String[] OPERATIONS = {"Read", "Create", "Query"};

  @Test
  void everyRequestIsCountedOnce_acrossThreadsThatComeAndGo_whileScrapesRun() throws Exception {
    RequestMeters meters = new RequestMeters();
    Map<String, long[]> expected = new HashMap<>(); // range/op/status -> {requests, micro-RU}
    Map<String, Long> latencyCounts = new HashMap<>();
    AtomicBoolean stop = new AtomicBoolean();
    List<Long> scraped = new ArrayList<>();
    Thread scraper =
        new Thread(
            () -> {
              while (!stop.get()) {
                scraped.add(total(meters.collector().collect(), "cosmolab_requests"));
              }
            });
    scraper.start();
    // 12 waves of 4 threads; each wave's threads end before the next starts
    for (int wave = 0; wave < 12; wave++) {
      List<Thread> threads = new ArrayList<>();
      List<Map<String, long[]>> perThread = new ArrayList<>();
      CountDownLatch go = new CountDownLatch(1);
      for (int t = 0; t < 4; t++) {
        Map<String, long[]> mine = new HashMap<>();
        perThread.add(mine);
        long seed = wave * 31L + t;
        threads.add(
            new Thread(
                () -> {
                  Random r = new Random(seed);
                  try {
                    go.await();
                  } catch (InterruptedException e) {
                    return;
                  }
                  for (int i = 0; i < 5_000; i++) {
                    String range = RANGES[r.nextInt(3)];
                    String op = OPERATIONS[r.nextInt(3)];
                    int status = r.nextInt(10) == 0 ? 429 : 200;
                    double ru = status == 429 ? 0 : 1 + r.nextInt(20) / 4.0;
                    meters.record("db", "c", range, op, status, 0, ru, 100_000L * r.nextInt(50));
                    long[] e =
                        mine.computeIfAbsent(range + "/" + op + "/" + status, k -> new long[2]);
                    e[0]++;
                    e[1] += Math.round(ru * 1e6);
                  }
                }));
      }
      threads.forEach(Thread::start);
      go.countDown();
      for (Thread t : threads) {
        t.join();
      }
      for (Map<String, long[]> m : perThread) {
        m.forEach(
            (k, v) -> {
              long[] e = expected.computeIfAbsent(k, x -> new long[2]);
              e[0] += v[0];
              e[1] += v[1];
              latencyCounts.merge(
                  k.substring(k.indexOf('/') + 1, k.lastIndexOf('/')), v[0], Long::sum);
            });
      }
    }
    stop.set(true);
    scraper.join();

    MetricSnapshots s = meters.collector().collect();
    Map<String, long[]> seen = new HashMap<>();
    for (MetricSnapshot m : s) {
      if (m instanceof CounterSnapshot c) {
        int column = c.getMetadata().getName().equals("cosmolab_requests") ? 0 : 1;
        for (CounterSnapshot.CounterDataPointSnapshot p : c.getDataPoints()) {
          String key =
              p.getLabels().get("partition_key_range_id")
                  + "/"
                  + p.getLabels().get("operation_type")
                  + "/"
                  + p.getLabels().get("status_code");
          seen.computeIfAbsent(key, k -> new long[2])[column] =
              column == 0 ? (long) p.getValue() : Math.round(p.getValue() * 1e6);
        }
      }
      if (m instanceof HistogramSnapshot h) {
        for (HistogramSnapshot.HistogramDataPointSnapshot p : h.getDataPoints()) {
          assertThat(p.getCount())
              .as("latency count of %s", p.getLabels().get("operation_type"))
              .isEqualTo(latencyCounts.get(p.getLabels().get("operation_type")));
        }
      }
    }
    assertThat(seen.keySet()).isEqualTo(expected.keySet());
    for (Map.Entry<String, long[]> e : expected.entrySet()) {
      assertThat(seen.get(e.getKey())[0]).as("requests %s", e.getKey()).isEqualTo(e.getValue()[0]);
      assertThat(seen.get(e.getKey())[1]).as("RU %s", e.getKey()).isEqualTo(e.getValue()[1]);
    }
    // a scrape never saw more than there was, and counts never went back
    for (int i = 1; i < scraped.size(); i++) {
      assertThat(scraped.get(i)).isGreaterThanOrEqualTo(scraped.get(i - 1));
    }
    assertThat(scraped).allMatch(x -> x <= 12 * 4 * 5_000);
  }

  private static long total(MetricSnapshots s, String name) {
    long n = 0;
    for (MetricSnapshot m : s) {
      if (m instanceof CounterSnapshot c && c.getMetadata().getName().equals(name)) {
        for (CounterSnapshot.CounterDataPointSnapshot p : c.getDataPoints()) {
          n += (long) p.getValue();
        }
      }
    }
    return n;
  }
}
