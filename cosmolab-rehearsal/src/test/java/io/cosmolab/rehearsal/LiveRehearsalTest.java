package io.cosmolab.rehearsal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosmolab.testkit.CosmosLab;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rehearsal against a live endpoint: a cosmolab server in this JVM, reached by the official
 * Java SDK in gateway mode, in real time (20 s). The server's partitions are scaled by 20 and the
 * rehearsal's traffic by 10, so the 2,400 RU/s it provisions make eight partitions of 300 RU/s: the
 * VIP's partition gets more than twice its budget, a partition of the synthetic key about a third
 * of it, which leaves room for the bursts a shared machine's scheduling makes.
 */
class LiveRehearsalTest {
  private static final Scenario LIVE =
      ScenarioFile.read(ScenarioFileTest.resource("live-small.yaml"));

  @Test
  void hotTenant_measuredThroughTheSdk_throttlesTheTenantKey_onOnePartition_andNotTheSynthetic() {
    try (CosmosLab lab =
        CosmosLab.builder()
            .scale(20)
            .throttling(io.cosmolab.engine.throughput.ThrottlingMode.ENFORCE)
            .start()) {
      List<Long> progress = new ArrayList<>();
      RehearsalReport r =
          Rehearsal.live(
              LIVE,
              LiveOptions.of(lab.endpoint(), lab.key()).withScale(10).withMaxRequestsPerSecond(500),
              progress::add);
      System.out.println(io.cosmolab.rehearsal.report.TerminalSummary.render(r));
      assertThat(progress).last().isEqualTo(20L);
      assertThat(r.scale()).isEqualTo(10);
      CandidateResult tenant = r.candidate("/tenantId");
      CandidateResult synthetic = r.candidate("/tenantId+/userId");

      // every request generated was answered or failed, counted at full scale
      long expected = Math.round((250 + 300 + 10) * (6 * 1 + 14 * 3) / 10.0) * 10;
      assertThat(tenant.headline().requests()).isBetween(expected * 95 / 100, expected);
      assertThat(tenant.headline().p99Millis()).isGreaterThan(0);

      // the VIP's partition throttles, measured from the 429s the SDK got back
      assertThat(tenant.headline().physicalPartitionsAtStart()).isEqualTo(8);
      assertThat(tenant.headline().throttledAttempts()).isGreaterThan(0);
      assertThat(tenant.phases().get(0).throttledAttempts()).isZero();
      Timeline t = tenant.timeline();
      assertThat(t.lanes()).hasSize(8);
      // the lanes carry the partition ids the responses named, not EPK stand-ins
      assertThat(t.lanes()).allSatisfy(l -> assertThat(l.partition()).doesNotStartWith("epk:"));
      // one partition, the VIP's, takes nearly all the 429s (bursts of a busy machine may touch
      // another now and then) and is at its budget
      Timeline.Lane hottest =
          t.lanes().stream()
              .max(
                  java.util.Comparator.comparingLong(
                      l -> l.throttled().stream().mapToLong(x -> x).sum()))
              .orElseThrow();
      long all = t.lanes().stream().flatMap(l -> l.throttled().stream()).mapToLong(x -> x).sum();
      assertThat(hottest.throttled().stream().mapToLong(x -> x).sum()).isGreaterThan(all * 9 / 10);
      assertThat(hottest.normalizedRu().stream().mapToDouble(Double::doubleValue).max().orElse(0))
          .isGreaterThan(0.9);
      assertThat(tenant.headline().hottestKey()).contains("t-vip");
      assertThat(tenant.headline().largestLogicalPartitionBytes()).isGreaterThan(0);

      // the synthetic key spreads the same traffic over both partitions
      assertThat(synthetic.headline().throttledAttempts())
          .isLessThan(Math.max(1, tenant.headline().throttledAttempts() / 5));

      // the run's containers are gone
      assertThat(lab.engine().findDatabase(LiveOptions.DEFAULT_DATABASE).orElseThrow().containers())
          .isEmpty();
    }
  }

  @Test
  void aStatedScaleThatPutsThePeakOverTheCap_isRefused_beforeAnythingIsSent() {
    LiveOptions options =
        LiveOptions.of(URI.create("http://127.0.0.1:9"), "unused")
            .withScale(1)
            .withMaxRequestsPerSecond(100);
    assertThatThrownBy(() -> Rehearsal.live(LIVE, options, s -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at scale 1 the scenario's peak is 3,360 requests/s")
        .hasMessageContaining("above the cap of 100/s");
  }

  @Test
  void aContainerOfTheRunsNamesThatExists_isNotTouched_unlessToldToReplaceIt() {
    try (CosmosLab lab = CosmosLab.builder().scale(10).start()) {
      io.cosmolab.engine.Database db = lab.engine().createDatabase(LiveOptions.DEFAULT_DATABASE);
      db.createContainer(
          io.cosmolab.engine.ContainerSettings.of(
              "live-small-c0", io.cosmolab.engine.partitioning.PartitionKeyDefinition.hash("/x")));
      LiveOptions options =
          LiveOptions.of(lab.endpoint(), lab.key()).withScale(10).withMaxRequestsPerSecond(500);
      assertThatThrownBy(() -> Rehearsal.live(LIVE, options, s -> {}))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("container cosmolab-rehearsal/live-small-c0 already exists")
          .hasMessageContaining("--replace-containers");
      assertThat(db.findContainer("live-small-c0")).isPresent();
    }
  }
}
