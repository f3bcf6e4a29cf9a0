package io.cosmolab.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.workload.Operation;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The advisor's prediction against the engine executing the same workload in enforce mode: the same
 * documents, key and throughput, then one busy second of point reads spread like the documents. The
 * predicted share of 429s must be within 5 points of the executed one.
 */
class PredictionVsExecutionTest {

  @Test
  void predicted429Share_matchesTheEngineInEnforceMode() {
    List<ObjectNode> docs = AdvisorTest.sessions(6000, 0.4, 31);
    Candidate key = Candidate.single("/tenantId");
    int readsPerSecond = 20_000;
    Throughput throughput = Throughput.manual(24_000); // 4 partitions of 6,000 RU/s

    Advice predicted =
        Advisor.analyze(
                docs.iterator(),
                List.of(key),
                new AdvisorOptions(
                    throughput, 0, List.of(new Operation(Operation.Type.READ, readsPerSecond))))
            .get(0);

    ManualClock clock = ManualClock.startingAtEpoch2026();
    CosmosEngine engine =
        CosmosEngine.builder().clock(clock).throttling(ThrottlingMode.OFF).build();
    Container c =
        engine
            .createDatabase("db")
            .createContainer(
                ContainerSettings.of("c", key.definition()).withThroughput(throughput));
    for (ObjectNode d : docs) {
      c.create(d.deepCopy());
    }
    clock.advanceMillis(10_000);
    engine.setThrottling(ThrottlingMode.ENFORCE);
    Random r = new Random(5);
    int throttled = 0;
    for (int i = 0; i < readsPerSecond; i++) {
      clock.advanceMillis(i % 20 == 0 ? 1 : 0); // 20,000 reads spread over one second
      ObjectNode d = docs.get(r.nextInt(docs.size()));
      try {
        c.read(PartitionKeyValue.of(d.get("tenantId").asText()), d.get("id").asText());
      } catch (CosmosException e) {
        if (e.status() == 429) {
          throttled++;
        }
      }
    }
    double executed = throttled / (double) readsPerSecond;
    System.out.printf(
        "predicted 429 share %.4f, executed %.4f%n", predicted.predicted429Share(), executed);
    assertThat(predicted.physicalPartitions()).isEqualTo(c.routing().size());
    assertThat(predicted.predicted429Share()).isGreaterThan(0.1);
    assertThat(executed)
        .as("predicted %.3f, executed %.3f", predicted.predicted429Share(), executed)
        .isCloseTo(predicted.predicted429Share(), org.assertj.core.data.Offset.offset(0.05));
  }
}
