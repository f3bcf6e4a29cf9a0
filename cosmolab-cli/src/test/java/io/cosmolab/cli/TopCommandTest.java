package io.cosmolab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import io.cosmolab.gateway.GatewayServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code cosmolab top} against a running server: one frame, as a user reads it. */
class TopCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  @Test
  void once_printsPartitionsWithBars429sTopKeysAndAlerts() {
    ManualClock clock = ManualClock.startingAtEpoch2026();
    try (CosmosEngine engine =
        CosmosEngine.builder().clock(clock).throttling(ThrottlingMode.OBSERVE).scale(10).build()) {
      Container c =
          engine
              .createDatabase("shop")
              .createContainer(
                  ContainerSettings.of("orders", PartitionKeyDefinition.hash("/pk"))
                      .withThroughput(Throughput.manual(40))
                      .withPhysicalPartitions(2));
      ObjectNode doc = new ObjectMapper().createObjectNode().put("id", "d").put("pk", "hot");
      c.create(doc);
      clock.advance(Duration.ofSeconds(61));
      for (int i = 0; i < 40; i++) {
        c.read(PartitionKeyValue.of("hot"), "d");
      }
      String hot = c.read(PartitionKeyValue.of("hot"), "d").partitionKeyRangeId();
      try (GatewayServer server = GatewayServer.builder(engine).port(0).plainHttp().start()) {
        int code = run("top", "--endpoint", server.endpoint().toString(), "--once");
        assertThat(code).as(err.toString()).isZero();
        String frame = out.toString();
        assertThat(frame)
            .startsWith("cosmolab top  " + server.endpoint())
            .contains("throttling observe, scale 10")
            .contains("shop/orders  key /pk  40 RU/s manual  2 partitions  1 docs")
            .contains("hottest partition (" + hot + ") at 100 % of its budget")
            .contains("  " + hot + "      ████████████████████  100 %")
            .contains("[\"hot\"] ")
            .contains("alerts")
            .doesNotContain("\033[2J");
        // the would-be 429s of observe mode: 41 reads of 1 RU against 20 RU/s, 21 let through
        assertThat(
                frame.lines().filter(l -> l.startsWith("  " + hot + " ")).findFirst().orElseThrow())
            .contains("        21 ");
      }
    }
  }

  @Test
  void noServer_failsWithExit1SayingSo() {
    int code = run("top", "--endpoint", "http://127.0.0.1:9/", "--once");
    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).contains("no cosmolab server answers at http://127.0.0.1:9/");
  }

  @Test
  void unknownContainer_isAUsageError() {
    try (CosmosEngine engine = CosmosEngine.builder().build();
        GatewayServer server = GatewayServer.builder(engine).port(0).plainHttp().start()) {
      int code =
          run("top", "--endpoint", server.endpoint().toString(), "--once", "--container", "a/b");
      assertThat(code).isEqualTo(2);
      assertThat(err.toString()).contains("no container a/b on ");
    }
  }
}
