package io.cosmolab.rehearsal;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.rehearsal.report.JsonReport;
import org.junit.jupiter.api.Test;

/** The same scenario and seed give the same report, byte for byte; another seed another one. */
class DeterminismTest {

  @Test
  void sameSeed_sameReport() {
    Scenario s = ScenarioFile.read(ScenarioFileTest.resource("small.yaml"));
    String first = JsonReport.render(Rehearsal.run(s));
    String second = JsonReport.render(Rehearsal.run(s));
    assertThat(second).isEqualTo(first);
  }

  @Test
  void anotherSeed_anotherReport_butTheSameVerdicts() {
    Scenario s = ScenarioFile.read(ScenarioFileTest.resource("small.yaml"));
    RehearsalReport a = Rehearsal.run(s);
    RehearsalReport b = Rehearsal.run(s.withSeed(8));
    assertThat(JsonReport.render(b)).isNotEqualTo(JsonReport.render(a));
    assertThat(b.candidates())
        .extracting(CandidateResult::verdict)
        .isEqualTo(a.candidates().stream().map(CandidateResult::verdict).toList());
  }
}
