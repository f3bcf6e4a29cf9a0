package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Priority-based execution over the wire: {@code x-ms-cosmos-priority-level: Low} requests give way
 * to high-priority ones on a contended partition, on the engine's clock.
 */
class PriorityExecutionTest {

  private static SignedClient.Response create(SignedClient client, String id, String priority) {
    Map<String, String> headers = new HashMap<>();
    headers.put("x-ms-documentdb-partitionkey", "[\"hot\"]");
    if (priority != null) {
      headers.put("x-ms-cosmos-priority-level", priority);
    }
    return client.send(
        "POST",
        "/dbs/db/colls/c/docs",
        "docs",
        "dbs/db/colls/c",
        "{\"id\":\"" + id + "\",\"pk\":\"hot\"}",
        headers);
  }

  @Test
  void lowPriority_givesWayOnAContendedPartition_andRunsOnceItIsNot() {
    ManualClock clock = ManualClock.startingAtEpoch2026();
    try (CosmosEngine engine =
        CosmosEngine.builder().clock(clock).throttling(ThrottlingMode.ENFORCE).build()) {
      engine
          .createDatabase("db")
          .createContainer(
              ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                  .withThroughput(Throughput.manual(400))
                  .withPhysicalPartitions(1));
      try (GatewayServer server = GatewayServer.builder(engine).port(0).plainHttp().start()) {
        SignedClient client = new SignedClient(server.endpoint());
        // uncontended, a low-priority write runs like any other
        assertThat(create(client, "calm", "Low").status()).isEqualTo(201);
        // high-priority writes use up the second (the clock stands still) until one is refused
        SignedClient.Response high = null;
        for (int i = 0; i < 200; i++) {
          high = create(client, "h" + i, null);
          if (high.status() == 429) {
            break;
          }
        }
        assertThat(high.status()).isEqualTo(429);
        // the next second has budget again: high priority gets it, low priority is refused
        clock.advanceMillis(1_000);
        SignedClient.Response low = create(client, "low-1", "Low");
        assertThat(low.status()).isEqualTo(429);
        assertThat(low.body().get("message").asText()).contains("low-priority");
        assertThat(Long.parseLong(low.headers().get("x-ms-retry-after-ms"))).isEqualTo(1_000);
        assertThat(create(client, "high-1", "High").status()).isEqualTo(201);
        // a second after the last high-priority refusal's window: low priority runs again
        clock.advanceMillis(1_000);
        assertThat(create(client, "low-2", "low").status()).isEqualTo(201);
        // a value that is neither is refused by name, not taken as high
        SignedClient.Response bad = create(client, "bad", "urgent");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body().get("message").asText()).contains("High or Low, was 'urgent'");
      }
    }
  }
}
