package io.cosmolab.advisor.input;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.PartitionKey;
import io.cosmolab.testkit.CosmosLab;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The lab tools' clients travel in the connection mode they were asked for. */
class SdkClientsTest {
  private static CosmosLab lab;

  @BeforeAll
  static void start() {
    lab = CosmosLab.builder().start();
  }

  @AfterAll
  static void stop() {
    lab.close();
  }

  @ParameterizedTest
  @EnumSource(SdkClients.Mode.class)
  void aClient_sendsItsDataRequestsInTheModeAskedFor(SdkClients.Mode mode) {
    try (CosmosClient client = SdkClients.connect(lab.endpoint(), lab.key(), mode, b -> b)) {
      String db = "modes-" + mode.name().toLowerCase(java.util.Locale.ROOT);
      client.createDatabaseIfNotExists(db);
      client.getDatabase(db).createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
      var container = client.getDatabase(db).getContainer("c");
      container.createItem(Map.of("id", "a", "pk", "p"));
      CosmosItemResponse<Object> read =
          container.readItem("a", new PartitionKey("p"), Object.class);
      assertThat(read.getDiagnostics().toString()).contains("\"connectionMode\":\"" + mode + "\"");
    }
  }
}
