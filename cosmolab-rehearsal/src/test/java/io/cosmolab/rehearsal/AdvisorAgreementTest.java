package io.cosmolab.rehearsal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.Advice;
import io.cosmolab.advisor.Advisor;
import io.cosmolab.advisor.AdvisorOptions;
import io.cosmolab.advisor.examples.Example;
import io.cosmolab.advisor.workload.ContainerWorkload;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The advisor and the rehearsal agree: for each of the advisor's examples (each has a peak), the
 * share of requests the advisor predicts would be answered 429 is the share the rehearsal measures
 * when it plays that workload against the engine: the same documents, candidates and throughput, a
 * container holding 1,000,000 documents, one steady minute, and no retries, so that every request
 * is one attempt (the advisor's share is of requests, before any retry).
 *
 * <p>Tolerance: the two shares differ by at most 0.04, or by a quarter of the measured one when
 * that is larger. The models differ in grain: the advisor spreads each operation's RU over the
 * partitions by the sample's weights, the rehearsal sends each request and the engine charges it.
 *
 * <p>This test found three modelling errors (docs/rehearsal.md): the advisor charging a bucketed
 * key's query once per bucket per partition ({@code /serverId*20}: 6.7 % predicted, 1.8 %
 * measured); the advisor spreading a fan-out query's page of rows like the documents, where it is
 * read from the partitions in EPK order ({@code saas}, {@code /tenantId+/userId}: 0 % predicted,
 * 4.7 % measured); and the engine loading every hit of the first indexed equality of a conjunction
 * instead of their intersection ({@code iot}, {@code /deviceId}: 11 % measured, 8.6 % predicted,
 * and 100 s to run).
 */
class AdvisorAgreementTest {
  private static final long DOCUMENTS = 1_000_000;

  @ParameterizedTest
  @EnumSource(
      value = Example.class,
      names = {"ECOMMERCE", "SAAS", "IOT", "GAME"})
  void thePredicted429Share_isTheOneTheRehearsalMeasures(Example example) {
    List<ObjectNode> sample = new ArrayList<>();
    for (Iterator<ObjectNode> it = example.documents(4_000, 42); it.hasNext(); ) {
      sample.add(it.next());
    }
    List<Advice> advice =
        Advisor.analyze(
            sample.iterator(),
            example.candidates(),
            new AdvisorOptions(
                example.options().throughput(), DOCUMENTS, example.options().peak()));
    Scenario scenario =
        new Scenario(
            example.cliName(),
            example.description(),
            new ContainerWorkload(
                "c",
                null,
                null,
                IntNode.valueOf((int) example.options().throughput().maxRuPerSecond()),
                null,
                DOCUMENTS,
                null,
                null,
                example.options().peak(),
                null),
            example.candidates(),
            sample,
            Instant.parse("2026-11-27T08:00:00Z"),
            List.of(Phase.constant("steady", Duration.ofMinutes(1), 1)),
            List.of(),
            // a time-based key is written at the time of the write, as the advisor assumes
            example == Example.ECOMMERCE ? Map.of("/createdDate", "yyyy-MM-dd") : Map.of(),
            Duration.ofSeconds(10),
            new ClientModel(0, Duration.ZERO, 4, 10, 6, 15),
            0,
            42);
    RehearsalReport report = Rehearsal.run(scenario);

    assertThat(report.candidates()).hasSameSizeAs(example.candidates());
    for (CandidateResult r : report.candidates()) {
      Advice a =
          advice.stream().filter(x -> x.candidate().equals(r.name())).findFirst().orElseThrow();
      CandidateResult.Headline h = r.headline();
      assertThat(h.attempts()).isEqualTo(h.requests()); // no retries: a request is one attempt
      double measured = (double) h.throttledAttempts() / h.attempts();
      double predicted = a.predicted429Share();
      System.out.printf(
          "%s %s: advisor %.4f, rehearsal %.4f%n",
          example.cliName(), r.name(), predicted, measured);
      assertThat(predicted)
          .as("%s: advisor %.4f, rehearsal %.4f", r.name(), predicted, measured)
          .isCloseTo(measured, org.assertj.core.data.Offset.offset(Math.max(0.04, measured / 4)));
    }
  }
}
