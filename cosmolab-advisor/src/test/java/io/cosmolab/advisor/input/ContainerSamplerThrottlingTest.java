package io.cosmolab.advisor.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.ThrottlingRetryOptions;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.testkit.CosmosLab;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A container whose throughput is spent answers the sampler 429s: it waits each retry-after out and
 * samples in full, and gives up only past its patience, saying so. The client here does not retry
 * 429s itself, so every one reaches the sampler. The lab runs on a manual clock, which only a wait
 * moves: the budget refills when the test waits, not while a loaded machine is slow between two
 * requests (the test failed so once, a CI run beside a benchmark).
 */
class ContainerSamplerThrottlingTest {
  private static final io.cosmolab.engine.time.ManualClock CLOCK =
      io.cosmolab.engine.time.ManualClock.startingAtEpoch2026();
  private static CosmosLab lab;
  private static CosmosClient client;
  private static CosmosContainer small;

  @BeforeAll
  static void start() {
    lab = CosmosLab.builder().clock(CLOCK).throttling(ThrottlingMode.ENFORCE).start();
    client =
        lab.clientBuilder()
            .throttlingRetryOptions(
                new ThrottlingRetryOptions().setMaxRetryAttemptsOnThrottledRequests(0))
            .buildClient();
    client.createDatabase("shop");
    client
        .getDatabase("shop")
        .createContainer(
            new CosmosContainerProperties("small", "/tenantId"),
            ThroughputProperties.createManualThroughput(400));
    small = client.getDatabase("shop").getContainer("small");
    ObjectMapper json = new ObjectMapper();
    for (int i = 0; i < 200; i++) {
      ObjectNode d = json.createObjectNode().put("id", "d" + i).put("tenantId", "t" + (i % 20));
      d.put("filler", "x".repeat(2_000));
      while (true) {
        try {
          small.createItem(d);
          break;
        } catch (com.azure.cosmos.CosmosException e) {
          if (e.getStatusCode() != 429) {
            throw e;
          }
          sleep(e.getRetryAfterDuration());
        }
      }
    }
  }

  @AfterAll
  static void stop() {
    client.close();
    lab.close();
  }

  /** A wait, in the lab's time. */
  private static void sleep(Duration d) {
    CLOCK.advance(d.isNegative() || d.isZero() ? Duration.ofMillis(1) : d);
  }

  /** Spends the container's budget into debt: full scans until one is refused. */
  private static void spendTheBudget() {
    for (int i = 0; i < 50; i++) {
      try {
        small
            .queryItems("SELECT * FROM c", new CosmosQueryRequestOptions(), ObjectNode.class)
            .forEach(d -> {});
      } catch (com.azure.cosmos.CosmosException e) {
        if (e.getStatusCode() == 429) {
          return;
        }
        throw e;
      }
    }
    throw new AssertionError("the container never answered 429");
  }

  @Test
  void a429_isWaitedOut_andTheSampleIsWhole() {
    spendTheBudget();
    List<Duration> waits = new ArrayList<>();
    try (ContainerSampler sampler =
        ContainerSampler.of(client, "shop", "small", 150)
            .patience(
                Duration.ofMinutes(2),
                d -> {
                  waits.add(d);
                  sleep(d);
                })) {
      List<String> ids = new ArrayList<>();
      sampler.forEachRemaining(d -> ids.add(d.get("id").asText()));
      assertThat(ids).hasSize(150).doesNotHaveDuplicates();
    }
    assertThat(waits).isNotEmpty().allMatch(d -> !d.isNegative() && !d.isZero());
  }

  @Test
  void past_itsPatience_itGivesUpSayingSo() {
    spendTheBudget();
    try (ContainerSampler sampler =
        ContainerSampler.of(client, "shop", "small", 150)
            .patience(
                Duration.ZERO,
                d -> {
                  throw new AssertionError("no patience: no wait");
                })) {
      assertThatThrownBy(sampler::hasNext)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("cannot sample shop/small: the service answered 429")
          .hasMessageContaining("after waiting out 429s for 0 s");
    }
  }
}
