package io.cosmolab.migrator.internal;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.ThrottlingRetryOptions;
import io.cosmolab.advisor.input.SdkClients;
import io.cosmolab.migrator.Endpoint;

/** The migrator's SDK clients: the lab tools' ({@code SdkClients}), with its own retry handling. */
public final class Clients {
  private Clients() {}

  /**
   * A client in direct or gateway mode ({@code SdkClients}). For an emulator on this machine
   * (localhost) the SDK is told to accept its self-signed certificate, and, over plain HTTP, to
   * allow it. The SDK's own 429 retries are off: {@link Sdk} honours every retry-after itself, so
   * it can count them and keep the RU cap.
   */
  public static CosmosClient connect(Endpoint endpoint, boolean direct) {
    return SdkClients.connect(
        endpoint.uri(),
        endpoint.key(),
        SdkClients.Mode.of(direct),
        builder ->
            builder
                .throttlingRetryOptions(
                    new ThrottlingRetryOptions().setMaxRetryAttemptsOnThrottledRequests(0))
                .contentResponseOnWriteEnabled(false));
  }
}
