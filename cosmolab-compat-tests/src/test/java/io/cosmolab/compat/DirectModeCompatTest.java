package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.ConnectionMode;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.testkit.CosmosLab;
import io.cosmolab.testkit.CosmosLabExtension;
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
}
