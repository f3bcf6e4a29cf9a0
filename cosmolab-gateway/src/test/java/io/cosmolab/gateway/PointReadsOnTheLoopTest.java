package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.document.JsonTrees;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * On the in-memory store the Netty transport answers point reads on its event loops and everything
 * else on its workers. A client that pipelines writes and reads of what it wrote on one connection
 * still gets every answer in order, each read after the write before it: the read runs on the loop
 * only when nothing of its connection is on a worker or on its way back.
 */
class PointReadsOnTheLoopTest {
  private CosmosEngine engine;
  private GatewayServer server;

  @BeforeEach
  void start() throws IOException {
    engine = CosmosEngine.builder().build();
    assertThat(engine.pointReadsNeverWait()).isTrue();
    engine
        .createDatabase("db")
        .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")))
        .create((ObjectNode) JsonTrees.read("{\"id\":\"a\",\"pk\":\"p\"}"));
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

  private static String read(String id) {
    return RawConnection.readDocument("db", "c", id, "p");
  }

  private static String create(String id) {
    String body = "{\"id\":\"" + id + "\",\"pk\":\"p\"}";
    return "POST /dbs/db/colls/c/docs HTTP/1.1\r\nHost: localhost\r\n"
        + "x-ms-documentdb-partitionkey: [\"p\"]\r\ncontent-type: application/json\r\n"
        + "content-length: "
        + body.length()
        + "\r\n\r\n"
        + body;
  }

  @Test
  void pipelinedWritesAndReadsOfWhatTheyWrote_areAnsweredInOrder() throws IOException {
    int n = 300;
    StringBuilder requests = new StringBuilder();
    for (int i = 0; i < n; i++) {
      requests.append(create("x" + i)).append(read("x" + i)).append(read("a"));
    }
    try (RawConnection c = new RawConnection(server.port())) {
      c.send(requests.toString());
      for (int i = 0; i < n; i++) {
        RawConnection.Response created = c.read();
        assertThat(created.status()).as("create x%d", i).isEqualTo(201);
        assertThat(created.body()).contains("\"id\":\"x" + i + "\"");
        RawConnection.Response readBack = c.read();
        assertThat(readBack.status()).as("read x%d after its create", i).isEqualTo(200);
        assertThat(readBack.body()).contains("\"id\":\"x" + i + "\"");
        assertThat(c.read().body()).contains("\"id\":\"a\"");
      }
    }
  }

  @Test
  void aWriteThenAReadOfIt_sentTogether_manyTimes_neverSwap() throws IOException {
    try (RawConnection c = new RawConnection(server.port())) {
      for (int i = 0; i < 500; i++) {
        c.send(create("y" + i) + read("y" + i));
        assertThat(c.read().status()).as("create y%d", i).isEqualTo(201);
        RawConnection.Response readBack = c.read();
        assertThat(readBack.status()).as("read y%d", i).isEqualTo(200);
        assertThat(readBack.body()).contains("\"id\":\"y" + i + "\"");
      }
    }
  }
}
