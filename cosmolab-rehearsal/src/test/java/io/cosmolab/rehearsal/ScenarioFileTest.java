package io.cosmolab.rehearsal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Scenario files: the advisor's workload with time; bad input names the file, line and field. */
class ScenarioFileTest {

  static Path resource(String name) {
    try {
      return Path.of(ScenarioFileTest.class.getResource(name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void read_smallScenario_hasItsPhasesEventsClientAndWorkload() {
    Scenario s = ScenarioFile.read(resource("small.yaml"));
    assertThat(s.name()).isEqualTo("small-vip");
    assertThat(s.duration()).isEqualTo(Duration.ofSeconds(60));
    assertThat(s.phases()).extracting(Phase::name).containsExactly("before", "ramp", "busy");
    assertThat(s.phases().get(1).from()).isEqualTo(1);
    assertThat(s.phases().get(1).to()).isEqualTo(3);
    assertThat(s.phases().get(1).multiplierAt(10_000)).isEqualTo(2);
    assertThat(s.events()).hasSize(1);
    assertThat(s.events().get(0).kind()).isEqualTo(Event.Kind.HOT);
    assertThat(s.events().get(0).at()).isEqualTo(Duration.ofSeconds(20));
    assertThat(s.candidates()).hasSize(3);
    assertThat(s.sample()).hasSize(300);
    assertThat(s.client()).isEqualTo(ClientModel.SDK_DEFAULT);
    assertThat(s.effectiveScale()).isEqualTo(10);
    assertThat(s.step()).isEqualTo(Duration.ofSeconds(5));
    assertThat(s.workload().operations()).hasSize(3);
  }

  @Test
  void read_unknownFieldInAPhase_namesFileLineAndField() {
    assertThatThrownBy(() -> ScenarioFile.read(resource("bad-phase.yaml")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad-phase.yaml, line 4")
        .hasMessageContaining("phases[1].multiplier")
        .hasMessageContaining("unknown field 'multiplier'");
  }

  @Test
  void read_aDurationThatIsNotOne_namesTheValueAndTheForms() {
    assertThatThrownBy(() -> ScenarioFile.read(resource("bad-duration.yaml")))
        .hasMessageContaining("bad-duration.yaml, line 4")
        .hasMessageContaining("phases[1]")
        .hasMessageContaining("'twenty minutes' is not a duration: write 500ms, 90s, 20m");
  }

  @Test
  void read_aWorkloadMistake_isNamedAsTheAdvisorNamesIt() {
    assertThatThrownBy(() -> ScenarioFile.read(resource("bad-workload.yaml")))
        .hasMessageContaining("bad-workload.yaml, line 9")
        .hasMessageContaining("(field operations[1].rate)");
  }

  @Test
  void read_aMisspelledTimeField_isAnUnknownWorkloadField() {
    assertThatThrownBy(() -> ScenarioFile.read(resource("bad-top-level.yaml")))
        .hasMessageContaining("bad-top-level.yaml, line 3")
        .hasMessageContaining("unknown field 'phasess'");
  }

  @Test
  void read_aHotShareAboveOne_namesTheEventsLine() {
    assertThatThrownBy(() -> ScenarioFile.read(resource("bad-event.yaml")))
        .hasMessageContaining("bad-event.yaml, line 4")
        .hasMessageContaining("events[0].hot")
        .hasMessageContaining("share of hot value \"vip\" is in (0, 1], was '1.5'");
  }

  @Test
  void read_anEventAfterTheEnd_saysWhenTheRehearsalEnds() {
    assertThatThrownBy(() -> ScenarioFile.read(resource("late-event.yaml")))
        .hasMessageContaining("late-event.yaml")
        .hasMessageContaining("at PT2M is after the end (PT1M)");
  }
}
