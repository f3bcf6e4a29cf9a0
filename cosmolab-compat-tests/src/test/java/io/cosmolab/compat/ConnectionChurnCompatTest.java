package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.cosmolab.testkit.CosmosLab;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Many clients and connection churn, in the SDK's default (direct) mode: clients come and go,
 * several at once, each opening its own gateway and RNTBD connections; every operation succeeds,
 * and once they have closed, the server has closed their sockets too (counted in this process's
 * file descriptors, as the server runs in it).
 */
class ConnectionChurnCompatTest {

  /** Sockets this process holds open (the lab's server runs in it). */
  private static long sockets() throws IOException {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.filter(
              fd -> {
                try {
                  return Files.readSymbolicLink(fd).toString().startsWith("socket:");
                } catch (IOException e) {
                  return false; // a descriptor closed while listed
                }
              })
          .count();
    }
  }

  @Test
  void clientsThatComeAndGo_severalAtOnce_areAllServed_andLeaveNoSocketBehind() throws Exception {
    try (CosmosLab lab = CosmosLab.builder().start()) {
      try (CosmosClient setup = lab.clientBuilder().buildClient()) {
        setup.createDatabaseIfNotExists("churn");
        setup.getDatabase("churn").createContainerIfNotExists("c", "/pk");
      }
      long before = sockets();
      ExecutorService pool = Executors.newFixedThreadPool(6);
      try {
        for (int wave = 0; wave < 5; wave++) {
          List<Future<Integer>> clients = new ArrayList<>();
          for (int k = 0; k < 6; k++) {
            String id = "w" + wave + "-" + k;
            clients.add(
                pool.submit(
                    () -> {
                      try (CosmosClient client = lab.clientBuilder().buildClient()) {
                        CosmosContainer c = client.getDatabase("churn").getContainer("c");
                        int ok = 0;
                        for (int i = 0; i < 10; i++) {
                          String doc = id + "-" + i;
                          c.createItem(
                              JsonNodeFactory.instance.objectNode().put("id", doc).put("pk", id));
                          JsonNode read =
                              c.readItem(doc, new PartitionKey(id), JsonNode.class).getItem();
                          ok += read.path("id").asText().equals(doc) ? 1 : 0;
                        }
                        return ok;
                      }
                    }));
          }
          for (Future<Integer> f : clients) {
            assertThat(f.get(2, TimeUnit.MINUTES)).isEqualTo(10);
          }
        }
      } finally {
        pool.shutdownNow();
      }
      // the clients closed their connections; the server's ends close as it reads their EOF
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      long now = sockets();
      while (now > before + 2 && System.nanoTime() < deadline) {
        Thread.sleep(100);
        now = sockets();
      }
      assertThat(now).as("sockets before the churn: %d", before).isLessThanOrEqualTo(before + 2);
      try (CosmosClient check = lab.clientBuilder().buildClient()) {
        assertThat(
                check
                    .getDatabase("churn")
                    .getContainer("c")
                    .queryItems(
                        "SELECT VALUE COUNT(1) FROM c",
                        new com.azure.cosmos.models.CosmosQueryRequestOptions(),
                        Long.class)
                    .stream()
                    .toList())
            .containsExactly(300L);
      }
    }
  }
}
