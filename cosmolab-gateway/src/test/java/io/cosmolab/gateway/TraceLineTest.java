package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.gateway.wire.TraceLine;
import io.cosmolab.gateway.wire.WireResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@code -Dcosmolab.trace=true} line shows each request's charge and serving partition: built
 * from the headers a real server answered, so a renamed header breaks it here.
 */
class TraceLineTest {

  @Test
  void aTracedRequest_showsItsChargeAndThePhysicalPartitionThatServedIt_neverTheSignature() {
    try (CosmosEngine engine = CosmosEngine.builder().build()) {
      engine
          .createDatabase("db")
          .createContainer(
              ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                  .withThroughput(Throughput.manual(12_000))
                  .withPhysicalPartitions(2));
      String served =
          engine
              .database("db")
              .container("c")
              .routing()
              .rangeFor(
                  io.cosmolab.engine.partitioning.EffectivePartitionKey.of(
                      engine.database("db").container("c").partitionKey(),
                      io.cosmolab.engine.partitioning.PartitionKeyValue.of("a")))
              .id();
      try (GatewayServer server = GatewayServer.builder(engine).port(0).plainHttp().start()) {
        SignedClient client = new SignedClient(server.endpoint());
        Map<String, String> request =
            Map.of(
                "x-ms-documentdb-partitionkey", "[\"a\"]",
                "authorization", "type%3Dmaster%26sig%3Dsecret",
                "x-ms-cosmos-priority-level", "Low");
        SignedClient.Response created =
            client.send(
                "POST",
                "/dbs/db/colls/c/docs",
                "docs",
                "dbs/db/colls/c",
                "{\"id\":\"d1\",\"pk\":\"a\"}",
                Map.of("x-ms-documentdb-partitionkey", "[\"a\"]"));
        String line =
            TraceLine.of(
                "http",
                "POST",
                "/dbs/db/colls/c/docs",
                request,
                new WireResponse(created.status(), created.headers(), new byte[0]));
        assertThat(line)
            .startsWith("cosmolab http POST /dbs/db/colls/c/docs ")
            .contains("x-ms-documentdb-partitionkey=[\"a\"]")
            .contains("x-ms-cosmos-priority-level=Low")
            .contains("-> 201")
            .containsPattern(" charge=\\d+(\\.\\d+)?")
            .contains(" served-by=" + served)
            .doesNotContain("secret")
            .doesNotContain("substatus");

        SignedClient.Response missing =
            client.send(
                "GET",
                "/dbs/db/colls/c/docs/nope",
                "docs",
                "dbs/db/colls/c/docs/nope",
                null,
                Map.of("x-ms-documentdb-partitionkey", "[\"a\"]"));
        String error =
            TraceLine.of(
                "rntbd",
                "GET",
                "/dbs/db/colls/c/docs/nope range=" + served,
                Map.of(),
                new WireResponse(
                    missing.status(),
                    missing.headers(),
                    missing.body().toString().getBytes(StandardCharsets.UTF_8)));
        assertThat(error)
            .contains("rntbd GET /dbs/db/colls/c/docs/nope range=" + served + " -> 404")
            .contains("\"code\":\"NotFound\"");
      }
    }
  }
}
