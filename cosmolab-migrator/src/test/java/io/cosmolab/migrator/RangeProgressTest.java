package io.cosmolab.migrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import io.cosmolab.migrator.internal.StateStore;
import io.cosmolab.testkit.CosmosLab;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Progress per source feed range: positions, counts and lag, through a split and a resume. */
class RangeProgressTest {
  private static CosmosLab lab;
  private static CosmosClient client;

  @BeforeAll
  static void start() {
    lab = CosmosLab.builder().start();
    client = lab.clientBuilder().buildClient();
  }

  @AfterAll
  static void stop() {
    client.close();
    lab.close();
  }

  private static long copied(List<RangeProgress> ranges) {
    return ranges.stream().mapToLong(RangeProgress::copied).sum();
  }

  private static long applied(List<RangeProgress> ranges) {
    return ranges.stream().mapToLong(RangeProgress::applied).sum();
  }

  @Test
  void eachSourceRange_hasItsPositionAndCounts_summingToTheTotals_throughASplitAndAResume(
      @TempDir Path tmp) {
    CosmosContainer source = Lab.orders(client, "r1", "orders", 300); // two physical partitions
    MigrationSpec spec = Lab.spec(lab, "r1", "orders", "byRegion", "/region");
    AtomicInteger pages = new AtomicInteger();
    MigrationState s;
    try (Lab.Writer writer = new Lab.Writer(source, 11, 100);
        Migrator m = Migrator.open(spec, tmp, Lab.options())) {
      s =
          m.run(
              false,
              () -> {
                int n = pages.incrementAndGet();
                if (n == 3) {
                  MigrationState now = m.status();
                  assertThat(now.phase()).isEqualTo(MigrationState.Phase.COPYING);
                  assertThat(now.ranges()).hasSize(2).allMatch(r -> r.position() != null);
                  assertThat(copied(now.ranges())).isEqualTo(now.copied()).isPositive();
                }
                if (n == 10) {
                  split("r1", "orders"); // during the catch-up
                }
                return n > 16 && writer.writes() > 300;
              });
    }
    // what the file holds, as a resumed run reads it
    s = new StateStore(tmp).loadOrNull();
    assertThat(s.phase()).isEqualTo(MigrationState.Phase.CATCHING_UP);
    assertThat(copied(s.ranges())).isEqualTo(s.copied());
    assertThat(applied(s.ranges())).isEqualTo(s.applied()).isPositive();
    try (Migrator m = Migrator.open(spec, tmp, Lab.options())) {
      s = m.run(true, () -> false);
      assertThat(m.verify().equal()).isTrue();
    }
    assertThat(copied(s.ranges())).isEqualTo(s.copied()).isGreaterThanOrEqualTo(300);
    assertThat(applied(s.ranges())).isEqualTo(s.applied());
    List<RangeProgress> open = s.ranges().stream().filter(r -> !r.split()).toList();
    List<RangeProgress> gone = s.ranges().stream().filter(RangeProgress::split).toList();
    assertThat(open).hasSize(3).allMatch(r -> r.position() != null && r.lagDocuments() == 0);
    assertThat(gone).hasSize(1);
    assertThat(gone.get(0).copied()).isPositive(); // the parent keeps what was counted in it
    assertThat(open.stream().filter(r -> r.applied() > 0).count()).isGreaterThanOrEqualTo(2);
    // the open ranges tile the key space
    assertThat(open.get(0).min()).isEmpty();
    assertThat(open.get(open.size() - 1).max()).isEqualTo("FF");
    for (int i = 1; i < open.size(); i++) {
      assertThat(open.get(i).min()).isEqualTo(open.get(i - 1).max());
    }
    assertThat(s.lagDocuments()).isZero();
  }

  @Test
  void aRunStoppedWithTheFeedBehind_reportsTheLagInDocuments(@TempDir Path tmp) {
    CosmosContainer source = Lab.orders(client, "r2", "orders", 20);
    MigrationSpec spec = Lab.spec(lab, "r2", "orders", "byRegion", "/region");
    try (Migrator m = Migrator.open(spec, tmp, Lab.options())) {
      m.run(true, () -> false);
      for (int i = 0; i < 120; i++) {
        source.upsertItem(Lab.order("n" + i, "t1", "eu", i)); // one source partition
      }
      AtomicInteger pages = new AtomicInteger();
      MigrationState s = m.run(false, () -> pages.incrementAndGet() >= 1);
      // a page of 50 records read of 120 written: 70 behind in that range
      assertThat(s.applied()).isEqualTo(50);
      assertThat(s.lagDocuments()).isEqualTo(70);
      // the range of tenant t1 is behind; the other one has not been read since it was drained
      assertThat(s.ranges()).hasSize(2);
      assertThat(s.ranges())
          .filteredOn(r -> r.applied() > 0)
          .singleElement()
          .extracting(RangeProgress::lagDocuments)
          .isEqualTo(70L);
      s = m.run(true, () -> false);
      assertThat(s.lagDocuments()).isZero();
      assertThat(s.applied()).isEqualTo(120);
    }
  }

  private static void split(String db, String container) {
    var c = lab.engine().database(db).container(container);
    c.splitPartition(c.routing().ranges().get(0).id());
  }
}
