package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.time.ManualClock;
import io.cosmolab.testkit.CosmosLab;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A lab on a manual clock: the official Java SDK signs with the wall clock and is served, while
 * time to live and {@code _ts} follow the clock the test advances, so expiry is tested without
 * sleeping.
 */
class VirtualTimeCompatTest {

  @Test
  void aLabOnAManualClock_expiresItemsWhenTheTestAdvancesTheClock() {
    ManualClock clock = ManualClock.startingAtEpoch2026();
    try (CosmosLab lab = CosmosLab.builder().clock(clock).start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      client.createDatabaseIfNotExists("virtual");
      CosmosContainerProperties props = new CosmosContainerProperties("c", "/pk");
      props.setDefaultTimeToLiveInSeconds(10);
      client.getDatabase("virtual").createContainerIfNotExists(props);
      CosmosContainer c = client.getDatabase("virtual").getContainer("c");
      ObjectNode doc = JsonNodeFactory.instance.objectNode().put("id", "a").put("pk", "p");
      ObjectNode created = c.createItem(doc, new PartitionKey("p"), null).getItem();
      assertThat(created.get("_ts").asLong()).isEqualTo(clock.instant().getEpochSecond());

      clock.advance(Duration.ofSeconds(9));
      assertThat(c.readItem("a", new PartitionKey("p"), ObjectNode.class).getStatusCode())
          .isEqualTo(200);
      clock.advance(Duration.ofSeconds(2));
      assertThatThrownBy(() -> c.readItem("a", new PartitionKey("p"), ObjectNode.class))
          .isInstanceOfSatisfying(
              CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(404));
    }
  }
}
