package io.cosmolab.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What the gone-range-requests rule reads: counts per replaced range and second, bounded. */
class GoneRangeRequestsTest {
  private static final long T = 1_700_000_000_000L; // a second boundary

  @Test
  void onlyReplacedRangesAreCounted_perSecond_fromTheSecondTheDelayHadPassed() {
    GoneRangeRequests g = new GoneRangeRequests();
    g.record("0", T); // not replaced (yet): a client's mistake
    g.retired("0", T + 400);
    g.record("0", T + 500);
    g.record("0", T + 900);
    g.record("0", T + 1_000);
    g.record("7", T + 1_000); // never this container's
    long now = T / 1000 + 1;
    assertThat(g.asked(now - 59, now + 1, 0))
        .containsExactly(new GoneRangeRequests.Asked("0", T + 400, 3, 2));
    // 600 ms after: from the second in which they had passed, T + 1 s
    assertThat(g.asked(now - 59, now + 1, 600))
        .containsExactly(new GoneRangeRequests.Asked("0", T + 400, 1, 1));
    assertThat(g.asked(now + 1, now + 2, 0)).as("a window after them").isEmpty();
  }

  @Test
  void aClockSetBack_dropsTheSecondsNowInItsFuture() {
    GoneRangeRequests g = new GoneRangeRequests();
    g.retired("1", T);
    g.record("1", T + 10_000);
    g.record("1", T + 10_000);
    g.record("1", T + 2_000); // set back 8 s
    long at = T / 1000 + 2;
    assertThat(g.asked(at - 59, at + 1, 0))
        .containsExactly(new GoneRangeRequests.Asked("1", T, 1, 1));
  }

  @Test
  void memoryIsBounded_anHourOfSecondsPerRange_andTheLastReplacedRanges() {
    GoneRangeRequests g = new GoneRangeRequests();
    g.retired("1", T);
    for (long s = 0; s < PartitionMetrics.WINDOW_SECONDS + 100; s++) {
      g.record("1", T + s * 1000);
    }
    long last = T / 1000 + PartitionMetrics.WINDOW_SECONDS + 99;
    List<GoneRangeRequests.Asked> all = g.asked(Long.MIN_VALUE, last + 1, 0);
    assertThat(all).hasSize(1);
    assertThat(all.get(0).requests()).isEqualTo(PartitionMetrics.WINDOW_SECONDS);
    for (int i = 0; i < GoneRangeRequests.RETIRED_KEPT; i++) {
      g.retired("r" + i, T);
    }
    g.record("1", T + 1_000); // forgotten: the oldest replaced range made room
    g.record("r0", T + 1_000);
    assertThat(g.asked(Long.MIN_VALUE, Long.MAX_VALUE, 0))
        .extracting(GoneRangeRequests.Asked::rangeId)
        .containsExactly("r0");
  }
}
