package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The LSNs on the wire are each physical partition's own, as the service's: the session token
 * ({@code <range>:-1#<lsn>}), the {@code lsn} and {@code x-ms-global-committed-lsn} headers, and a
 * change-feed page's session token at the partition's current LSN, which the Java SDK's estimator
 * subtracts the first item's {@code _lsn} from.
 */
class PartitionLsnHeadersTest {
  private CosmosEngine engine;
  private GatewayServer server;
  private SignedClient client;
  private Container c;

  @BeforeEach
  void start() {
    engine = CosmosEngine.builder().throttling(ThrottlingMode.OFF).build();
    c =
        engine
            .createDatabase("db")
            .createContainer(
                ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                    .withThroughput(Throughput.manual(400))
                    .withPhysicalPartitions(2));
    server =
        GatewayServer.builder(engine)
            .port(0)
            .plainHttp()
            .transport(GatewayServer.Transport.JDK)
            .start();
    client = new SignedClient(server.endpoint());
  }

  @AfterEach
  void stop() {
    server.close();
    engine.close();
  }

  private SignedClient.Response send(
      String method, String path, String body, Map<String, String> h) {
    String type = path.contains("/pkranges") ? "pkranges" : "docs";
    String link = path.endsWith("/docs") || path.endsWith("/pkranges") ? "dbs/db/colls/c" : path;
    if (path.contains("/docs/")) {
      link = path.substring(1);
    }
    return client.send(method, path, type, link, body, h);
  }

  private SignedClient.Response create(String id, String pk) {
    return send(
        "POST",
        "/dbs/db/colls/c/docs",
        "{\"id\":\"" + id + "\",\"pk\":\"" + pk + "\"}",
        Map.of("x-ms-documentdb-partitionkey", "[\"" + pk + "\"]"));
  }

  private static String range(SignedClient.Response r) {
    String token = r.headers().get("x-ms-session-token");
    return token.substring(0, token.indexOf(':'));
  }

  private static long lsn(SignedClient.Response r) {
    String token = r.headers().get("x-ms-session-token");
    return Long.parseLong(token.substring(token.indexOf('#') + 1));
  }

  /** Ten creates over two partitions: {range id → how many it took}. */
  private Map<String, Long> tenCreates() {
    Map<String, Long> perRange = new LinkedHashMap<>();
    for (int i = 0; i < 10; i++) {
      SignedClient.Response r = create("d" + i, "k" + i);
      assertThat(r.status()).isEqualTo(201);
      long n = perRange.merge(range(r), 1L, Long::sum);
      assertThat(lsn(r)).as("session token of write %d", i).isEqualTo(n);
      assertThat(r.headers().get("lsn")).isEqualTo(Long.toString(n));
      assertThat(r.headers().get("x-ms-global-committed-lsn")).isEqualTo(Long.toString(n));
    }
    assertThat(perRange).hasSize(2);
    return perRange;
  }

  @Test
  void writes_carryTheirPartitionsLsn_inTheSessionTokenAndTheLsnHeaders() {
    tenCreates();
  }

  @Test
  void aPointRead_carriesThePartitionsCurrentLsn() {
    Map<String, Long> perRange = tenCreates();
    SignedClient.Response r =
        send(
            "GET",
            "/dbs/db/colls/c/docs/d3",
            null,
            Map.of("x-ms-documentdb-partitionkey", "[\"k3\"]"));
    assertThat(r.status()).isEqualTo(200);
    assertThat(lsn(r)).isEqualTo(perRange.get(range(r)));
    assertThat(r.headers().get("lsn")).isEqualTo(Long.toString(perRange.get(range(r))));
  }

  @Test
  void aChangeFeedPage_carriesThePartitionsCurrentLsn_notItsLastItems() {
    Map<String, Long> perRange = tenCreates();
    for (Map.Entry<String, Long> e : perRange.entrySet()) {
      Map<String, String> h = new HashMap<>();
      h.put("a-im", "Incremental Feed");
      h.put("x-ms-documentdb-partitionkeyrangeid", e.getKey());
      h.put("x-ms-max-item-count", "1");
      SignedClient.Response page = send("GET", "/dbs/db/colls/c/docs", null, h);
      assertThat(page.status()).isEqualTo(200);
      assertThat(page.body().get("Documents")).hasSize(1);
      long first = page.body().get("Documents").get(0).get("_lsn").asLong();
      assertThat(first).isEqualTo(1);
      assertThat(page.headers().get("x-ms-session-token"))
          .isEqualTo(e.getKey() + ":-1#" + e.getValue());
      assertThat(page.headers().get("lsn")).isEqualTo(Long.toString(e.getValue()));
      // what the SDK's estimator computes: latest - first + 1, the partition's backlog
      assertThat(lsn(page) - first + 1).isEqualTo(e.getValue());
    }
  }

  @Test
  void aChangeFeedOverSeveralPartitions_carriesNoSessionToken_aKeyedOneItsOwners() {
    Map<String, Long> perRange = tenCreates();
    SignedClient.Response all =
        send("GET", "/dbs/db/colls/c/docs", null, Map.of("a-im", "Incremental Feed"));
    assertThat(all.status()).isEqualTo(200);
    // no one partition's LSN would be true of both: a token at the higher one would make a client
    // find the other's reads stale
    assertThat(all.headers()).doesNotContainKey("x-ms-session-token");
    SignedClient.Response keyed =
        send(
            "GET",
            "/dbs/db/colls/c/docs",
            null,
            Map.of("a-im", "Incremental Feed", "x-ms-documentdb-partitionkey", "[\"k0\"]"));
    assertThat(keyed.status()).isEqualTo(200);
    String owner =
        c.routing()
            .rangeFor(
                io.cosmolab.engine.partitioning.EffectivePartitionKey.of(
                    c.partitionKey(), io.cosmolab.engine.partitioning.PartitionKeyValue.of("k0")))
            .id();
    assertThat(keyed.headers().get("x-ms-session-token"))
        .isEqualTo(owner + ":-1#" + perRange.get(owner));
  }

  @Test
  void aQueryAndABatch_carryTheirPartitionsLsn() {
    Map<String, Long> perRange = tenCreates();
    String rangeOfK0 =
        c.routing()
            .rangeFor(
                io.cosmolab.engine.partitioning.EffectivePartitionKey.of(
                    c.partitionKey(), io.cosmolab.engine.partitioning.PartitionKeyValue.of("k0")))
            .id();
    Map<String, String> q = new HashMap<>();
    q.put("x-ms-documentdb-isquery", "true");
    q.put("content-type", "application/query+json");
    q.put("x-ms-documentdb-partitionkey", "[\"k0\"]");
    SignedClient.Response query =
        send("POST", "/dbs/db/colls/c/docs", "{\"query\":\"SELECT * FROM c\"}", q);
    assertThat(query.status()).isEqualTo(200);
    assertThat(query.headers().get("x-ms-session-token"))
        .isEqualTo(rangeOfK0 + ":-1#" + perRange.get(rangeOfK0));
    assertThat(query.headers().get("lsn")).isEqualTo(Long.toString(perRange.get(rangeOfK0)));

    Map<String, String> b = new HashMap<>();
    b.put("x-ms-cosmos-is-batch-request", "True");
    b.put("x-ms-cosmos-batch-atomic", "True");
    b.put("x-ms-documentdb-partitionkey", "[\"k0\"]");
    SignedClient.Response batch =
        send(
            "POST",
            "/dbs/db/colls/c/docs",
            "[{\"operationType\":\"Create\",\"resourceBody\":{\"id\":\"b1\",\"pk\":\"k0\"}},"
                + "{\"operationType\":\"Create\",\"resourceBody\":{\"id\":\"b2\",\"pk\":\"k0\"}}]",
            b);
    assertThat(batch.status()).isEqualTo(200);
    // a transaction takes one LSN of its partition, which its writes share
    assertThat(batch.headers().get("x-ms-session-token"))
        .isEqualTo(rangeOfK0 + ":-1#" + (perRange.get(rangeOfK0) + 1));
    assertThat(batch.headers().get("lsn")).isEqualTo(Long.toString(perRange.get(rangeOfK0) + 1));
  }

  @Test
  void partitionKeyRanges_carryEachRangesOwnLsn() {
    Map<String, Long> perRange = tenCreates();
    SignedClient.Response r = send("GET", "/dbs/db/colls/c/pkranges", null, Map.of());
    assertThat(r.status()).isEqualTo(200);
    for (var range : r.body().get("PartitionKeyRanges")) {
      assertThat(range.get("_lsn").asLong()).isEqualTo(perRange.get(range.get("id").asText()));
    }
  }
}
