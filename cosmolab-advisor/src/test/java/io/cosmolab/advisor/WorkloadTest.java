package io.cosmolab.advisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.workload.Workload;
import io.cosmolab.engine.throughput.Throughput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadTest {

  @Test
  void peakWorkload_predicts429sOnTheHotTenant_andTheThroughputItWouldNeed() {
    List<Workload.Operation> peak =
        List.of(
            new Workload.Operation(Workload.Type.CREATE, 3000),
            new Workload.Operation(Workload.Type.READ, 10_000));
    List<Advice> ranked =
        Advisor.analyze(
            AdvisorTest.sessions(20_000, 0.4, 21).iterator(),
            List.of(Candidate.single("/tenantId"), Candidate.single("/id")),
            new AdvisorOptions(Throughput.manual(40_000), 0, peak));
    Advice id = ranked.stream().filter(a -> a.candidate().equals("/id")).findFirst().get();
    Advice tenant =
        ranked.stream().filter(a -> a.candidate().equals("/tenantId")).findFirst().get();
    assertThat(id.predicted429Share()).isZero();
    assertThat(id.minimumRuPerSecond()).isLessThanOrEqualTo(40_000);
    assertThat(tenant.predicted429Share()).isGreaterThan(0.2);
    assertThat(tenant.minimumRuPerSecond()).isGreaterThan(80_000);
    assertThat(tenant.budgetRuPerSecond())
        .isCloseTo(40_000 / 7.0, org.assertj.core.data.Offset.offset(1.0));
    assertThat(tenant.reasons()).anyMatch(r -> r.contains("would get 429"));
  }

  @Test
  void workloadFile_isRead(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("w.yaml");
    Files.writeString(
        f,
        """
        throughput: 30000
        documents: 1000000
        operations:
          - type: create
            rate: 200
          - type: Read
            rate: 5000
        """);
    Workload w = Workload.read(f);
    assertThat(w.throughputOrNull()).isEqualTo(Throughput.manual(30_000));
    assertThat(w.documents()).isEqualTo(1_000_000L);
    assertThat(w.operations())
        .containsExactly(
            new Workload.Operation(Workload.Type.CREATE, 200),
            new Workload.Operation(Workload.Type.READ, 5000));
  }

  @Test
  void invalidWorkloadFiles_nameTheLineAndTheField(@TempDir Path dir) throws IOException {
    Path unknown = dir.resolve("unknown.yaml");
    Files.writeString(unknown, "throughput: 400\nthroughtput: 500\n");
    assertThatThrownBy(() -> Workload.read(unknown))
        .hasMessageContaining("unknown.yaml, line 2")
        .hasMessageContaining("throughtput");
    Path negative = dir.resolve("negative.yaml");
    Files.writeString(negative, "operations:\n  - type: read\n    rate: -5\n");
    assertThatThrownBy(() -> Workload.read(negative))
        .hasMessageContaining("negative.yaml, line")
        .hasMessageContaining("operations[0]")
        .hasMessageContaining("rate of a read must be positive");
    Path type = dir.resolve("type.yaml");
    Files.writeString(type, "operations:\n  - type: query\n    rate: 5\n");
    assertThatThrownBy(() -> Workload.read(type))
        .hasMessageContaining("type.yaml, line 2")
        .hasMessageContaining("'query' is not one of");
  }
}
