package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.ConnectionMode;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.testkit.CosmosLab;
import io.cosmolab.testkit.CosmosLabExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Java SDK in its default connection mode, direct: the lab's client builder no longer forces
 * gateway mode, and a point operation travels over RNTBD to the lab's direct-mode listener.
 */
@ExtendWith(CosmosLabExtension.class)
class DirectModeCompatTest {

  @Test
  void aClientInTheSdksDefaultMode_createsAndReadsOverRntbd(CosmosLab lab) {
    assertThat(lab.directPort()).isPositive();
    try (CosmosClient direct = lab.clientBuilder().directMode().buildClient()) {
      direct.createDatabaseIfNotExists("direct");
      direct.getDatabase("direct").createContainerIfNotExists("c", "/pk");
      CosmosContainer c = direct.getDatabase("direct").getContainer("c");
      ObjectNode doc = JsonNodeFactory.instance.objectNode().put("id", "a").put("pk", "p");
      CosmosItemResponse<ObjectNode> created = c.createItem(doc, new PartitionKey("p"), null);
      assertThat(created.getStatusCode()).isEqualTo(201);
      assertThat(created.getRequestCharge()).isPositive();
      CosmosItemResponse<JsonNode> read = c.readItem("a", new PartitionKey("p"), JsonNode.class);
      assertThat(read.getItem().path("pk").asText()).isEqualTo("p");
      assertThat(read.getDiagnostics().getDiagnosticsContext().getConnectionMode())
          .isEqualTo(ConnectionMode.DIRECT.toString());
      assertThat(read.getDiagnostics().toString()).contains("rntbd://");
    }
  }

  @Test
  void aMissingItem_is404WithSubStatus0_atOnce_notAStaleSessionRetried(CosmosLab lab) {
    try (CosmosClient direct = lab.clientBuilder().directMode().buildClient()) {
      direct.createDatabaseIfNotExists("direct");
      direct.getDatabase("direct").createContainerIfNotExists("missing", "/pk");
      CosmosContainer c = direct.getDatabase("direct").getContainer("missing");
      long start = System.nanoTime();
      assertThatThrownBy(() -> c.readItem("nope", new PartitionKey("p"), JsonNode.class))
          .isInstanceOfSatisfying(
              CosmosException.class,
              e -> {
                assertThat(e.getStatusCode()).isEqualTo(404);
                assertThat(e.getSubStatusCode()).as(e.getDiagnostics().toString()).isZero();
              });
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
    }
  }
}
