package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.document.JsonTrees;
import io.cosmolab.engine.metrics.PartitionStats;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A client that pipelines many requests and does not read the answers: the Netty transport stops
 * answering its connection once the answers back up (and stops reading it), instead of computing
 * every answer and queueing them in memory, then answers the rest, in order, once the client reads.
 */
class SlowReaderTest {
  private static final int PIPELINED = 40;

  private CosmosEngine engine;
  private Container container;
  private GatewayServer server;

  @BeforeEach
  void start() throws IOException {
    engine = CosmosEngine.builder().build();
    container =
        engine
            .createDatabase("db")
            .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    String big = "x".repeat(512 * 1024);
    container.create(
        (ObjectNode) JsonTrees.read("{\"id\":\"big\",\"pk\":\"p\",\"s\":\"" + big + "\"}"));
    container.create((ObjectNode) JsonTrees.read("{\"id\":\"small\",\"pk\":\"p\"}"));
    server =
        GatewayServer.builder(engine)
            .port(0)
            .plainHttp()
            .withoutAuthentication()
            .workerThreads(2)
            .start();
  }

  @AfterEach
  void stop() {
    server.close();
    engine.close();
  }

  private long operations() {
    return container.partitionStats().stream().mapToLong(PartitionStats::operations).sum();
  }

  @Test
  void pipelinedReadsOfALargeDocument_areAnsweredOnlyAsFastAsTheClientReads() throws Exception {
    long before = operations();
    StringBuilder requests = new StringBuilder();
    for (int i = 0; i < PIPELINED; i++) {
      // every fourth a query, which runs on a worker rather than the event loop
      requests.append(
          i % 4 == 3
              ? query()
              : RawConnection.readDocument("db", "c", i % 2 == 0 ? "big" : "small", "p"));
    }
    try (RawConnection c = new RawConnection(server.port(), 4096)) {
      c.send(requests.toString());
      Thread.sleep(1500); // the client reads nothing meanwhile
      long servedWhileStalled = operations() - before;
      // without flow control all 40 were answered into memory (20 MB for this one connection)
      assertThat(servedWhileStalled).isLessThan(PIPELINED / 2);
      for (int i = 0; i < PIPELINED; i++) {
        RawConnection.Response r = c.read();
        assertThat(r.status()).as("answer %d", i).isEqualTo(200);
        if (i % 4 != 3) {
          assertThat(r.body()).contains(i % 2 == 0 ? "\"id\":\"big\"" : "\"id\":\"small\"");
        }
      }
    }
    assertThat(operations() - before).isEqualTo(PIPELINED);
  }

  private static String query() {
    String body = "{\"query\":\"SELECT VALUE c.id FROM c WHERE c.id = 'small'\"}";
    return "POST /dbs/db/colls/c/docs HTTP/1.1\r\nHost: localhost\r\n"
        + "x-ms-documentdb-partitionkey: [\"p\"]\r\nx-ms-documentdb-isquery: true\r\n"
        + "content-type: application/query+json\r\ncontent-length: "
        + body.length()
        + "\r\n\r\n"
        + body;
  }
}
