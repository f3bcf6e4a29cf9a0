package io.cosmolab.engine.throughput;

import io.cosmolab.engine.error.CosmosError;
import java.util.Locale;

/**
 * A request's priority under priority-based execution ({@code x-ms-cosmos-priority-level}): when a
 * partition has more requests than its RU/s, the service throttles low-priority requests so that
 * high-priority ones run. Requests without one are high priority, as on the service.
 *
 * <p>The priority travels with the request in its {@link RequestClass}. Work outside a request's
 * scope is high priority.
 */
public enum Priority {
  HIGH,
  LOW;

  /**
   * The priority a header value names ({@code High} or {@code Low}, any case), HIGH when absent.
   *
   * @throws io.cosmolab.engine.error.CosmosException 400 naming the value otherwise
   */
  public static Priority parse(String header) {
    if (header == null || header.isBlank()) {
      return HIGH;
    }
    return switch (header.strip().toLowerCase(Locale.ROOT)) {
      case "high" -> HIGH;
      case "low" -> LOW;
      default ->
          throw CosmosError.BAD_REQUEST.exception(
              "x-ms-cosmos-priority-level must be High or Low, was '%s'", header);
    };
  }
}
