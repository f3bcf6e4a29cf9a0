package io.cosmolab.migrator.internal;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.GatewayConnectionConfig;
import com.azure.cosmos.ThrottlingRetryOptions;
import io.cosmolab.migrator.Endpoint;
import java.util.Set;

/** Builds SDK clients the way the advisor's {@code ContainerSampler} does. */
public final class Clients {
  private static final Set<String> LOCAL = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

  private Clients() {}

  /**
   * A gateway-mode client. For an emulator on this machine (localhost) the SDK is told to accept
   * its self-signed certificate, and, over plain HTTP, to allow it. The SDK's own 429 retries are
   * off: {@link Sdk} honours every retry-after itself, so it can count them and keep the RU cap.
   */
  public static CosmosClient connect(Endpoint endpoint) {
    if (LOCAL.contains(endpoint.uri().getHost())) {
      System.setProperty(
          "http".equals(endpoint.uri().getScheme())
              ? "COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED"
              : "COSMOS.EMULATOR_SERVER_CERTIFICATE_VALIDATION_DISABLED",
          "true");
    }
    try {
      return new CosmosClientBuilder()
          .endpoint(endpoint.uri().toString())
          .key(endpoint.key())
          .gatewayMode(new GatewayConnectionConfig())
          .throttlingRetryOptions(
              new ThrottlingRetryOptions().setMaxRetryAttemptsOnThrottledRequests(0))
          .contentResponseOnWriteEnabled(false)
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
