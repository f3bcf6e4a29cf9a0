package io.cosmolab.rehearsal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Each built-in scenario shows its failure and its fix in numbers. */
class LibraryTest {

  private static RehearsalReport run(Library l) {
    long t0 = System.nanoTime();
    RehearsalReport r = Rehearsal.run(l.scenario());
    System.out.printf("%s in %.1f s%n", l.cliName(), (System.nanoTime() - t0) / 1e9);
    System.out.print(TerminalSummary.render(r));
    return r;
  }

  @Test
  void blackFriday_userIdThrottlesOnTheResellersPartition_bucketsSpreadIt() {
    RehearsalReport r = run(Library.BLACK_FRIDAY);
    assertThat(r.candidates()).hasSize(2);
  }

  @Test
  void vipTenant() {
    RehearsalReport r = run(Library.VIP_TENANT);
    assertThat(r.candidates()).hasSize(3);
  }

  @Test
  void iot() {
    RehearsalReport r = run(Library.IOT_HOT_DEVICE);
    assertThat(r.candidates()).hasSize(2);
  }

  @Test
  void timeKey() {
    RehearsalReport r = run(Library.TIME_KEY);
    assertThat(r.candidates()).hasSize(3);
  }
}
