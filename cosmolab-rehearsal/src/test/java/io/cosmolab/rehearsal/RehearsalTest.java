package io.cosmolab.rehearsal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A small scenario end to end: the hot tenant throttles its key, the timeline says where. */
class RehearsalTest {
  private static final Scenario SMALL = ScenarioFile.read(ScenarioFileTest.resource("small.yaml"));

  @Test
  void hotTenant_throttlesTheTenantKey_andNotTheSyntheticOne() {
    RehearsalReport r = Rehearsal.run(SMALL);
    CandidateResult tenant = r.candidate("/tenantId");
    CandidateResult synthetic = r.candidate("/tenantId+/userId");
    System.out.println(io.cosmolab.rehearsal.report.TerminalSummary.render(r));
    assertThat(tenant.headline().throttledAttempts()).isGreaterThan(0);
    assertThat(tenant.headline().peak429Share()).isGreaterThan(0.05);
    assertThat(synthetic.headline().throttledAttempts())
        .isLessThan(tenant.headline().throttledAttempts() / 10);
    // nothing 429s before the VIP tenant arrives at 20 s
    assertThat(tenant.phases().get(0).throttledAttempts()).isZero();
    // the throttled lane is the VIP's partition, and it is the busiest
    Timeline t = tenant.timeline();
    assertThat(t.steps()).isEqualTo(12);
    assertThat(t.lanes()).hasSize(tenant.headline().physicalPartitionsAtStart());
    assertThat(t.alerts()).isEmpty();
    long throttledLanes =
        t.lanes().stream().filter(l -> l.throttled().stream().anyMatch(x -> x > 0)).count();
    assertThat(throttledLanes).isEqualTo(1);
    assertThat(r.scale()).isEqualTo(10);
    // counts are at full scale: the simulated ones times 10
    assertThat(tenant.headline().requests() % 10).isZero();
  }

  @Test
  void throughputEvent_splitsPartitions_andTheTimelineGainsTheirLanes() {
    List<Event> events = new ArrayList<>(SMALL.events());
    events.add(Event.throughput(Duration.ofSeconds(30), "raise to 30,000 RU/s", 30_000));
    Scenario s =
        new Scenario(
            SMALL.name(),
            SMALL.description(),
            SMALL.workload(),
            SMALL.candidates().subList(0, 1),
            SMALL.sample(),
            SMALL.start(),
            SMALL.phases(),
            events,
            SMALL.clockFields(),
            SMALL.step(),
            SMALL.client(),
            SMALL.scale(),
            SMALL.seed());
    CandidateResult c = Rehearsal.run(s).candidates().get(0);
    assertThat(c.headline().physicalPartitionsAtStart()).isEqualTo(2);
    assertThat(c.headline().physicalPartitionsAtEnd()).isEqualTo(3);
    assertThat(c.headline().splits()).isEqualTo(1);
    assertThat(c.timeline().splits()).hasSize(1);
    assertThat(c.timeline().splits().get(0).second()).isEqualTo(30);
    assertThat(c.timeline().lanes()).hasSize(4); // two, then one split into two children
    Timeline.Lane parent = c.timeline().lanes().get(c.timeline().lanes().size() - 1);
    assertThat(parent.parent()).isNotNull();
    assertThat(parent.fromStep()).isEqualTo(6);
  }
}
