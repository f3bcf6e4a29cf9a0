package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.cosmolab.testkit.CosmosLab;
import io.cosmolab.testkit.CosmosLabExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Java SDK in its default connection mode, direct, which cosmolab does not serve yet: the first
 * data call fails with a 501 that tells the user to switch to gateway mode — not a 401 that blames
 * the key, as it did before.
 */
@ExtendWith(CosmosLabExtension.class)
class DirectModeCompatTest {

  @Test
  void aDirectModeClientIsToldToUseGatewayModeNotThatItsKeyIsWrong(CosmosLab lab) {
    try (CosmosClient gateway = lab.clientBuilder().buildClient()) {
      gateway.createDatabaseIfNotExists("direct");
      gateway.getDatabase("direct").createContainerIfNotExists("c", "/pk");
    }
    // the lab's builder (endpoint, key, TLS switch) with the SDK's default mode put back
    try (CosmosClient direct = lab.clientBuilder().directMode().buildClient()) {
      CosmosContainer c = direct.getDatabase("direct").getContainer("c");
      long start = System.nanoTime();
      assertThatThrownBy(
              () ->
                  c.createItem(
                      JsonNodeFactory.instance.objectNode().put("id", "a").put("pk", "p"),
                      new PartitionKey("p"),
                      null))
          .isInstanceOfSatisfying(
              CosmosException.class,
              e -> {
                assertThat(e.getStatusCode()).isNotEqualTo(401);
                assertThat(e.getMessage()).contains("gatewayMode()").contains("direct mode");
              });
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60));
    }
  }
}
