package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.document.JsonTrees;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.testing.StallingStore;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An engine call that blocks (here, a store read held on a latch) holds up its own connection and
 * nothing else, for each transport (the subclasses name it and say how few threads they give the
 * server, so that the connections share them). The other connection's request must be answered
 * while the first is stalled; the stalled one is answered once released, and the requests its
 * client sent behind it follow in order.
 */
abstract class StalledRequestContract {
  private StallingStore store;
  private CosmosEngine engine;
  private GatewayServer server;

  /** The transport under test, with as few threads as it can be given. */
  abstract GatewayServer.Builder configure(GatewayServer.Builder builder);

  @BeforeEach
  void start() throws IOException {
    store = new StallingStore();
    engine = CosmosEngine.builder().store(store).build();
    var container =
        engine
            .createDatabase("db")
            .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    for (String id : List.of("a", "b", "stalled")) {
      container.create((ObjectNode) JsonTrees.read("{\"id\":\"" + id + "\",\"pk\":\"p\"}"));
    }
    server =
        configure(GatewayServer.builder(engine).port(0).plainHttp().withoutAuthentication())
            .start();
  }

  @AfterEach
  void stop() {
    store.release(); // a failed test leaves nothing blocked behind it
    server.close();
    engine.close();
  }

  private static String read(String id) {
    return RawConnection.readDocument("db", "c", id, "p");
  }

  private static String query() {
    String body = "{\"query\":\"SELECT * FROM c\"}";
    return "POST /dbs/db/colls/c/docs HTTP/1.1\r\nHost: localhost\r\n"
        + "x-ms-documentdb-isquery: True\r\ncontent-type: application/query+json\r\n"
        + "x-ms-documentdb-query-enablecrosspartition: True\r\n"
        + "content-length: "
        + body.length()
        + "\r\n\r\n"
        + body;
  }

  @Test
  void aPointReadStalledInTheEngine_doesNotHoldUpAnotherConnection() throws Exception {
    store.stallReadsOf("stalled");
    try (RawConnection stalled = new RawConnection(server.port());
        RawConnection other = new RawConnection(server.port())) {
      stalled.send(read("stalled"));
      assertThat(store.awaitStalled()).isTrue();
      RawConnection.Response answer = other.exchange(read("a")); // at most 10 s, then it throws
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.body()).contains("\"id\":\"a\"");
      store.release();
      assertThat(stalled.read().body()).contains("\"id\":\"stalled\"");
    }
  }

  @Test
  void aQueryStalledInTheEngine_doesNotHoldUpAnotherConnectionsQuery() throws Exception {
    store.stallNextScan();
    try (RawConnection stalled = new RawConnection(server.port());
        RawConnection other = new RawConnection(server.port())) {
      stalled.send(query());
      assertThat(store.awaitStalled()).isTrue();
      RawConnection.Response answer = other.exchange(query());
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.body()).contains("\"_count\":3");
      store.release();
      assertThat(stalled.read().status()).isEqualTo(200);
    }
  }

  @Test
  void behindAStalledRequest_theConnectionsPipelinedRequestsWait_thenAreAnsweredInOrder()
      throws Exception {
    store.stallReadsOf("stalled");
    try (RawConnection stalled = new RawConnection(server.port());
        RawConnection other = new RawConnection(server.port())) {
      stalled.send(read("stalled") + query() + read("a") + read("b"));
      assertThat(store.awaitStalled()).isTrue();
      assertThat(other.exchange(read("b")).status()).isEqualTo(200);
      store.release();
      assertThat(stalled.read().body()).contains("\"id\":\"stalled\"");
      assertThat(stalled.read().body()).contains("\"_count\":3");
      assertThat(stalled.read().body()).contains("\"id\":\"a\"");
      assertThat(stalled.read().body()).contains("\"id\":\"b\"");
    }
  }

  @Test
  void manyPipelinedRequests_areAllAnsweredInOrder() throws IOException {
    StringBuilder requests = new StringBuilder();
    int n = 500; // past the point where the server stops reading until it catches up
    for (int i = 0; i < n; i++) {
      requests.append(read(i % 2 == 0 ? "a" : "b"));
    }
    try (RawConnection c = new RawConnection(server.port())) {
      c.send(requests.toString());
      for (int i = 0; i < n; i++) {
        assertThat(c.read().body()).contains(i % 2 == 0 ? "\"id\":\"a\"" : "\"id\":\"b\"");
      }
    }
  }
}
