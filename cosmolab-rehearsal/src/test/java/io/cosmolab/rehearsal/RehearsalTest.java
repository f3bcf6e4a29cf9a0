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
    List<Timeline.Lane> throttledLanes =
        t.lanes().stream().filter(l -> l.throttled().stream().anyMatch(x -> x > 0)).toList();
    assertThat(throttledLanes).hasSize(1);
    // the engine's 429-rate rule (above 1 % over 5 minutes) fires on that partition, after 20 s
    assertThat(t.alerts())
        .filteredOn(m -> m.rule().equals("throttle-rate"))
        .isNotEmpty()
        .allSatisfy(
            m -> {
              assertThat(m.partition()).isEqualTo(throttledLanes.get(0).partition());
              assertThat(m.second()).isGreaterThanOrEqualTo(20);
            });
    assertThat(synthetic.timeline().alerts())
        .noneMatch(m -> m.rule().equals("throttle-rate") || m.rule().equals("hot-partition"));
    assertThat(r.scale()).isEqualTo(10);
    // counts are at full scale: the simulated ones times 10
    assertThat(tenant.headline().requests() % 10).isZero();
  }

  @Test
  void theScenariosAlertRules_replaceTheDefaults() {
    // a 429 rate rule that needs 90 % of requests throttled does not fire where 1 % did
    Scenario strict =
        SMALL
            .withPhases(SMALL.phases())
            .withAlertRules(
                io.cosmolab.engine.alerts.AlertRules.parse(
                    "throttle-rate: { threshold: 0.9 }\nhot-partition: { enabled: false }",
                    "rules.yaml",
                    true));
    Timeline t = Rehearsal.run(strict).candidate("/tenantId").timeline();
    assertThat(t.alerts())
        .noneMatch(m -> m.rule().equals("throttle-rate") || m.rule().equals("hot-partition"));
    assertThat(SMALL.alertRules()).isEqualTo(io.cosmolab.engine.alerts.AlertRules.defaults());
    assertThat(strict.withSeed(9).alertRules()).isEqualTo(strict.alertRules());
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

  @Test
  void burstCapacity_servesAShortSpikeFromIdleBudget() {
    io.cosmolab.advisor.workload.ContainerWorkload w = SMALL.workload();
    io.cosmolab.advisor.workload.ContainerWorkload small =
        new io.cosmolab.advisor.workload.ContainerWorkload(
            w.name(),
            w.sample(),
            w.candidates(),
            com.fasterxml.jackson.databind.node.IntNode.valueOf(2000), // one partition < 3,000
            null,
            w.documents(),
            null,
            null,
            w.operations(),
            null);
    List<Phase> phases =
        List.of(
            Phase.constant("quiet", Duration.ofSeconds(60), 0.1),
            Phase.constant("spike", Duration.ofSeconds(10), 1));
    Scenario off =
        new Scenario(
            "burst",
            "",
            small,
            SMALL.candidates().subList(0, 1),
            SMALL.sample(),
            SMALL.start(),
            phases,
            List.of(),
            SMALL.clockFields(),
            SMALL.step(),
            SMALL.client(),
            10,
            7,
            false,
            null,
            null);
    Scenario on =
        new Scenario(
            "burst",
            "",
            small,
            SMALL.candidates().subList(0, 1),
            SMALL.sample(),
            SMALL.start(),
            phases,
            List.of(),
            SMALL.clockFields(),
            SMALL.step(),
            SMALL.client(),
            10,
            7,
            true,
            null,
            null);
    CandidateResult.Headline without = Rehearsal.run(off).candidates().get(0).headline();
    CandidateResult.Headline with = Rehearsal.run(on).candidates().get(0).headline();
    System.out.printf(
        "429s without burst %,d, with %,d; p99 %.0f ms and %.0f ms%n",
        without.throttledAttempts(),
        with.throttledAttempts(),
        without.p99Millis(),
        with.p99Millis());
    assertThat(without.throttledAttempts()).isGreaterThan(0);
    assertThat(with.throttledAttempts()).isLessThan(without.throttledAttempts() / 2);
    assertThat(Rehearsal.run(on).burstCapacity()).isTrue();
    // a copy keeps it: withSeed and the other copies used to drop burst capacity
    assertThat(on.withSeed(8).burstCapacity()).isTrue();
    assertThat(on.withScale(20).withPhases(phases).burstCapacity()).isTrue();
  }
}
