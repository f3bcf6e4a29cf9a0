package io.cosmolab.advisor.input;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.DirectConnectionConfig;
import com.azure.cosmos.GatewayConnectionConfig;
import java.net.URI;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Official Java SDK clients for the lab tools (the advisor's sampler, the migrator, the live
 * rehearsal), in gateway mode unless a tool's user asks for direct mode. For an emulator on this
 * machine (localhost) the SDK is told to accept its self-signed certificate, and, over plain HTTP,
 * to allow it; a failure to connect says so in the user's terms rather than the SDK's page of
 * diagnostics.
 *
 * <p>Why gateway mode by default: it reaches every endpoint a user may point a tool at, the
 * service, cosmolab over HTTPS or plain HTTP, Microsoft's emulators, including the Linux one that
 * has no direct mode; the Azure Cosmos DB Desktop Data Migration Tool makes the same choice. Direct
 * mode (RNTBD over TLS) is the faster path to the service and to {@code cosmolab serve} over HTTPS.
 * The tools' direct-mode clients keep the SDK's transport defaults: unlike the testkit's clients
 * they do not shorten its 100 ms idle timer ({@code SdkDirectMode}, docs/direct-mode.md,
 * "Latency"), so a sequential request may wait up to that long inside the SDK.
 */
public final class SdkClients {
  private static final Set<String> LOCAL = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

  private SdkClients() {}

  /** How the SDK reaches the account's data. */
  public enum Mode {
    /** Every request over HTTPS (or HTTP) through the gateway: works with every endpoint. */
    GATEWAY,
    /** Data requests over RNTBD (TLS) straight to the partitions' replicas: the SDK's default. */
    DIRECT;

    /** The mode a tool's {@code --direct} flag asks for. */
    public static Mode of(boolean direct) {
      return direct ? DIRECT : GATEWAY;
    }
  }

  /** A gateway-mode client: {@link #connect(URI, String, Mode, UnaryOperator)}. */
  public static CosmosClient connect(
      URI endpoint, String key, UnaryOperator<CosmosClientBuilder> configure) {
    return connect(endpoint, key, Mode.GATEWAY, configure);
  }

  /**
   * A client of {@code endpoint} in {@code mode}, with {@code configure} applied to the builder
   * (retry options, content responses) before it is built.
   *
   * @throws IllegalArgumentException for direct mode on a plain-HTTP endpoint (direct mode is TLS
   *     only)
   * @throws IllegalStateException when the SDK cannot read the account (unreachable, wrong key)
   */
  public static CosmosClient connect(
      URI endpoint, String key, Mode mode, UnaryOperator<CosmosClientBuilder> configure) {
    if (mode == Mode.DIRECT && "http".equals(endpoint.getScheme())) {
      throw new IllegalArgumentException(
          "direct mode is RNTBD over TLS, and "
              + endpoint
              + " is plain HTTP: connect over https:// (cosmolab serve without --http), or"
              + " leave out --direct for gateway mode");
    }
    if (LOCAL.contains(endpoint.getHost())) {
      System.setProperty(
          "http".equals(endpoint.getScheme())
              ? "COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED"
              : "COSMOS.EMULATOR_SERVER_CERTIFICATE_VALIDATION_DISABLED",
          "true");
    }
    CosmosClientBuilder builder = new CosmosClientBuilder().endpoint(endpoint.toString()).key(key);
    if (mode == Mode.DIRECT) {
      builder.directMode(DirectConnectionConfig.getDefaultConfig());
    } else {
      builder.gatewayMode(new GatewayConnectionConfig());
    }
    try {
      return configure.apply(builder).buildClient();
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

  private static final java.util.regex.Pattern ERRORS =
      java.util.regex.Pattern.compile("Errors\\\\?\":\\[\\\\?\"(.*?)\\\\?\"");

  /**
   * What an SDK error's status means to a user: a refused key, a missing resource, or the status.
   */
  public static String reason(com.azure.cosmos.CosmosException e) {
    return switch (e.getStatusCode()) {
      case 401, 403 -> "the key was refused";
      case 404 -> "there is no such database or container";
      default -> "the service answered " + e.getStatusCode() + "/" + e.getSubStatusCode();
    };
  }

  /**
   * The service's own words in an SDK error (the first of its {@code Errors}), without the SDK's
   * diagnostics JSON around them; null when the message carries none.
   */
  public static String serviceWords(com.azure.cosmos.CosmosException e) {
    java.util.regex.Matcher m = ERRORS.matcher(String.valueOf(e.getMessage()));
    return m.find() ? m.group(1) : null;
  }
}
