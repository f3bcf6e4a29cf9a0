package io.cosmolab.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.throughput.ThrottlingMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(CosmosLabExtension.class)
@LabConfig(throttling = ThrottlingMode.ENFORCE, partitions = 3)
class CosmosLabExtensionTest {

  @Test
  void injectsAFreshContainerWithTheRequestedLayout(
      @LabContainer(partitionKey = "/tenantId", partitions = 5) CosmosContainer orders,
      CosmosLab lab) {
    assertThat(orders.getFeedRanges()).hasSize(5);
    ObjectNode doc = JsonNodeFactory.instance.objectNode().put("id", "1").put("tenantId", "t");
    orders.createItem(doc, new PartitionKey("t"), null);
    assertThat(lab.engine().database("cosmolab").container(orders.getId()).documentCount())
        .isEqualTo(1);
  }

  @Test
  void hierarchicalContainers_useTheLabDefaultPartitions(
      @LabContainer(partitionKey = {"/tenantId", "/userId"}) CosmosContainer sessions) {
    assertThat(sessions.read().getProperties().getPartitionKeyDefinition().getPaths())
        .containsExactly("/tenantId", "/userId");
    assertThat(sessions.getFeedRanges()).hasSize(3);
  }

  @Test
  void clientsAreSharedAcrossTheClass(CosmosClient a, CosmosClient b, CosmosLab lab) {
    assertThat(a).isSameAs(b);
    assertThat(lab.endpoint().toString()).startsWith("https://localhost:");
    assertThat(lab.engine().throttling()).isEqualTo(ThrottlingMode.ENFORCE);
  }

  @Test
  void persistence_keepsDataAcrossLabs(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    try (CosmosLab lab = CosmosLab.builder().persistence(dir).start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      client.createDatabaseIfNotExists("kept");
      client.getDatabase("kept").createContainerIfNotExists("c", "/pk");
      client
          .getDatabase("kept")
          .getContainer("c")
          .createItem(JsonNodeFactory.instance.objectNode().put("id", "1").put("pk", "a"));
    }
    try (CosmosLab lab = CosmosLab.builder().persistence(dir).start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      ObjectNode back =
          client
              .getDatabase("kept")
              .getContainer("c")
              .readItem("1", new PartitionKey("a"), ObjectNode.class)
              .getItem();
      assertThat(back.get("pk").asText()).isEqualTo("a");
    }
  }
}
