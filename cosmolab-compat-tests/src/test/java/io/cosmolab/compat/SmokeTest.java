package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.testkit.CosmosLab;
import org.junit.jupiter.api.Test;

class SmokeTest {
  @Test
  void createAndRead() {
    try (CosmosLab lab = CosmosLab.builder().start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      client.createDatabaseIfNotExists("db");
      CosmosDatabase db = client.getDatabase("db");
      db.createContainerIfNotExists(
          new CosmosContainerProperties("c", "/pk"),
          ThroughputProperties.createManualThroughput(40000));
      CosmosContainer c = db.getContainer("c");
      ObjectNode doc = JsonNodeFactory.instance.objectNode().put("id", "a").put("pk", "p1");
      c.createItem(doc, new PartitionKey("p1"), new CosmosItemRequestOptions());
      ObjectNode back = c.readItem("a", new PartitionKey("p1"), ObjectNode.class).getItem();
      assertThat(back.get("pk").asText()).isEqualTo("p1");
      assertThat(c.getFeedRanges()).hasSize(7);
    }
  }
}
