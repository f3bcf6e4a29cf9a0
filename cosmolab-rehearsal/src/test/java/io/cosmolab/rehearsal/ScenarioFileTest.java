package io.cosmolab.rehearsal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

  /** A scenario file in {@code dir} whose sample is the tests' tenants, with {@code body} added. */
  private static Path file(Path dir, String body) throws java.io.IOException {
    String sample = resource("tenants.jsonl").toString().replace("\\", "/");
    return java.nio.file.Files.writeString(
        dir.resolve("s.yaml"), body.replace("SAMPLE", "\"" + sample + "\""));
  }

  @Test
  void read_severalContainers_rehearsesTheOneWithCandidates_withTheOthersJoinsAsItsLookups(
      @TempDir Path dir) throws Exception {
    Scenario s =
        ScenarioFile.read(
            file(
                dir,
                """
                duration: 1m
                indexingPolicy:
                  excludedPaths: [{ path: "/*" }]
                  includedPaths: [{ path: "/userId/?" }]
                containers:
                  - name: sessions
                    sample: [SAMPLE]
                    candidates: [/tenantId, /userId]
                    throughput: 12000
                    operations:
                      - { type: read, rate: 100 }
                  - name: audit
                    joins:
                      - { container: sessions, match: /sessionUser = /userId, rate: 40 }
                """));
    assertThat(s.workload().name()).isEqualTo("sessions");
    assertThat(s.workload().operations()).hasSize(2);
    assertThat(s.workload().operations().get(1).name())
        .isEqualTo("join from audit on /sessionUser = /userId");
    assertThat(s.workload().operations().get(1).rate()).isEqualTo(40);
    assertThat(s.workload().operations().get(1).sql())
        .isEqualTo("SELECT * FROM c WHERE c[\"userId\"] = @v");
    assertThat(s.indexingPolicy().path("excludedPaths").get(0).path("path").asText())
        .isEqualTo("/*");
  }

  @Test
  void read_aContainerThatNeitherIsRehearsedNorJoinsIn_isRefusedNamingIt(@TempDir Path dir)
      throws Exception {
    Path f =
        file(
            dir,
            """
            duration: 1m
            containers:
              - name: sessions
                sample: [SAMPLE]
                candidates: [/tenantId]
                throughput: 12000
                operations: [{ type: read, rate: 100 }]
              - name: billing
                operations: [{ type: read, rate: 5 }]
            """);
    assertThatThrownBy(() -> ScenarioFile.read(f))
        .hasMessageContaining("container billing has no join into sessions");
    Path two =
        file(
            dir,
            """
            duration: 1m
            containers:
              - { name: a, sample: [SAMPLE], candidates: [/tenantId], throughput: 400,
                  operations: [{ type: read, rate: 1 }] }
              - { name: b, sample: [SAMPLE], candidates: [/userId], throughput: 400,
                  operations: [{ type: read, rate: 1 }] }
            """);
    assertThatThrownBy(() -> ScenarioFile.read(two))
        .hasMessageContaining("name candidates in exactly one (named in a, b)");
  }

  @Test
  void read_anIndexingPolicyPartARehearsalDoesNotPlay_isRefusedNamingIt(@TempDir Path dir)
      throws Exception {
    Path f =
        file(
            dir,
            """
            duration: 1m
            indexingPolicy: { spatialIndexes: [{ path: /location/* }] }
            sample: [SAMPLE]
            candidates: [/tenantId]
            throughput: 12000
            operations: [{ type: read, rate: 100 }]
            """);
    assertThatThrownBy(() -> ScenarioFile.read(f))
        .hasMessageContaining("indexingPolicy.spatialIndexes is not rehearsed")
        .hasMessageContaining("includedPaths");
  }

  @Test
  void read_alertRules_areTheRulesFileBesideTheScenario_andAMissingOneIsNamed(@TempDir Path dir)
      throws Exception {
    java.nio.file.Files.writeString(dir.resolve("rules.yaml"), "query-fan-out: { ratio: 20 }\n");
    Path f =
        file(
            dir,
            """
            duration: 1m
            alertRules: rules.yaml
            sample: [SAMPLE]
            candidates: [/tenantId]
            throughput: 12000
            operations: [{ type: read, rate: 100 }]
            """);
    assertThat(ScenarioFile.read(f).alertRules().queryFanOut().ratio()).isEqualTo(20);
    java.nio.file.Files.delete(dir.resolve("rules.yaml"));
    assertThatThrownBy(() -> ScenarioFile.read(f))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("s.yaml: alertRules:")
        .hasMessageContaining("rules.yaml");
  }
}
