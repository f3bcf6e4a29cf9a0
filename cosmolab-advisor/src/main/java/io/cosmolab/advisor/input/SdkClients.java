package io.cosmolab.advisor.input;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.GatewayConnectionConfig;
import java.net.URI;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Official Java SDK clients for the lab tools (the advisor's sampler, the migrator), in gateway
 * mode. For an emulator on this machine (localhost) the SDK is told to accept its self-signed
 * certificate, and, over plain HTTP, to allow it; a failure to connect says so in the user's terms
 * rather than the SDK's page of diagnostics.
 */
public final class SdkClients {
  private static final Set<String> LOCAL = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

  private SdkClients() {}

  /**
   * A client of {@code endpoint}, with {@code configure} applied to the builder (retry options,
   * content responses) before it is built.
   *
   * @throws IllegalStateException when the SDK cannot read the account (unreachable, wrong key)
   */
  public static CosmosClient connect(
      URI endpoint, String key, UnaryOperator<CosmosClientBuilder> configure) {
    if (LOCAL.contains(endpoint.getHost())) {
      System.setProperty(
          "http".equals(endpoint.getScheme())
              ? "COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED"
              : "COSMOS.EMULATOR_SERVER_CERTIFICATE_VALIDATION_DISABLED",
          "true");
    }
    try {
      return configure
          .apply(
              new CosmosClientBuilder()
                  .endpoint(endpoint.toString())
                  .key(key)
                  .gatewayMode(new GatewayConnectionConfig()))
          .buildClient();
    } catch (RuntimeException e) { // the SDK reads the account document first
      String said = String.valueOf(e.getMessage());
      int details = said.indexOf(" More ");
      throw new IllegalStateException(
          "cannot connect to "
              + endpoint
              + ": is the endpoint reachable and the key right? (the SDK says: "
              + (details < 0 ? said : said.substring(0, details)).strip()
              + ")",
          e);
    }
  }
}
