package io.cosmolab.spring;

import com.azure.cosmos.CosmosClientBuilder;
import com.azure.spring.data.cosmos.config.AbstractCosmosConfiguration;
import com.azure.spring.data.cosmos.config.CosmosConfig;
import com.azure.spring.data.cosmos.core.ResponseDiagnostics;
import com.azure.spring.data.cosmos.repository.config.EnableCosmosRepositories;
import com.azure.spring.data.cosmos.repository.config.EnableReactiveCosmosRepositories;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot application as the Spring Data Cosmos getting-started guide writes one: the client
 * builder gets the endpoint and the key and nothing else, so the SDK runs in its default, direct
 * mode. The test points the two properties at a cosmolab server.
 */
@SpringBootApplication
@EnableCosmosRepositories
@EnableReactiveCosmosRepositories
public class ShopApplication extends AbstractCosmosConfiguration {
  /** The connection mode each response's diagnostics reported, for the test to check. */
  static final List<String> DIAGNOSTICS = new CopyOnWriteArrayList<>();

  @Value("${azure.cosmos.uri}")
  private String uri;

  @Value("${azure.cosmos.key}")
  private String key;

  @Bean
  public CosmosClientBuilder cosmosClientBuilder() {
    return new CosmosClientBuilder().endpoint(uri).key(key);
  }

  @Bean
  @Override
  public CosmosConfig cosmosConfig() {
    return CosmosConfig.builder()
        .enableQueryMetrics(true)
        .responseDiagnosticsProcessor(
            (ResponseDiagnostics d) -> {
              if (d != null && d.getCosmosDiagnostics() != null) {
                DIAGNOSTICS.add(d.getCosmosDiagnostics().toString());
              }
            })
        .build();
  }

  @Override
  protected String getDatabaseName() {
    return "shop";
  }
}
