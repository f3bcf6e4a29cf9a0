package io.cosmolab.gateway.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.alerts.AlertRules;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.gateway.auth.HostCheck;
import io.cosmolab.gateway.wire.ResourcePath;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The explorer takes no signature, so it is served to clients on this machine only, whatever
 * address the server binds: from another machine it would read documents and split partitions
 * without the key.
 */
class ExplorerFromLoopbackOnlyTest {
  private final CosmosEngine engine = CosmosEngine.builder().build();
  private final ObservedProtocol observed =
      new ObservedProtocol(
          request -> WireResponse.json(200, null, Map.of()),
          new HostCheck(Set.of()),
          new Observability(engine, AlertRules.defaults(), true, e -> {}));

  @AfterEach
  void close() {
    engine.close();
  }

  private static WireRequest get(String path, boolean fromLoopback) {
    return new WireRequest(
        "GET",
        ResourcePath.parse(path),
        Map.of("host", "10.0.0.5:8081"),
        new byte[0],
        "https://10.0.0.5:8081/",
        "",
        System.nanoTime(),
        fromLoopback,
        WireRequest.NEVER_ABANDONED);
  }

  @Test
  void theExplorerFromAnotherMachine_is403SayingWhy() {
    for (String path : new String[] {"/_explorer/index.html", "/_explorer/api/account"}) {
      assertThatThrownBy(() -> observed.apply(get(path, false)))
          .isInstanceOfSatisfying(
              CosmosException.class,
              e -> {
                assertThat(e.status()).isEqualTo(403);
                assertThat(e.getMessage()).contains("clients on this machine only");
              });
    }
  }

  @Test
  void theExplorerFromThisMachine_isServed() {
    assertThat(observed.apply(get("/_explorer/api/account", true)).status()).isEqualTo(200);
  }

  @Test
  void healthFromAnotherMachine_isStillServed() {
    assertThat(observed.apply(get("/health", false)).status()).isEqualTo(200);
  }
}
