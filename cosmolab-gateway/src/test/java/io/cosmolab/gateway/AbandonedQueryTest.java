package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.throughput.Throughput;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A client whose connection is reset while its query runs stops the query on the server (Netty
 * transport): the page ends with a 408 in the request metrics, charged for what it read, instead of
 * scanning on to the end for nobody. (A graceful close is not this: its end of stream is what a
 * client that half-closes sends too, and that one still gets its answer.)
 */
class AbandonedQueryTest {
  private static final int DOCS = 60_000;
  private static final String QUERY = "SELECT VALUE COUNT(1) FROM c WHERE CONTAINS(c.s, 'zz')";

  @Test
  void aQueryWhoseClientCloses_stops_andIsRecordedAsA408ChargedForWhatItRead() throws Exception {
    PrometheusText.assumeParser();
    try (CosmosEngine engine = CosmosEngine.builder().build()) {
      Container c =
          engine
              .createDatabase("shop")
              .createContainer(
                  ContainerSettings.of("orders", PartitionKeyDefinition.hash("/pk"))
                      .withThroughput(Throughput.manual(400_000))
                      .withPhysicalPartitions(1));
      for (int i = 0; i < DOCS; i++) {
        c.create(
            com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                .objectNode()
                .put("id", "d" + i)
                .put("pk", "k" + (i % 100))
                .put("s", "abc" + i));
      }
      // the whole query, answered: what its one page reads and costs
      double whole = c.query(QueryRequest.of(QUERY)).requestCharge();

      try (GatewayServer server =
          GatewayServer.builder(engine)
              .port(0)
              .plainHttp()
              .withoutAuthentication()
              .transport(GatewayServer.Transport.NETTY)
              .start()) {
        String body = "{\"query\":\"" + QUERY + "\"}";
        RawConnection connection = new RawConnection(server.port());
        connection.send(
            "POST /dbs/shop/colls/orders/docs HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Type: application/query+json\r\n"
                + "x-ms-documentdb-isquery: True\r\n"
                + "x-ms-documentdb-query-enablecrosspartition: True\r\n"
                + "Content-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length
                + "\r\n\r\n"
                + body);
        connection.abort(); // at once, with a reset: the server reads the request, then the reset

        String[] abandoned = {"operation_type", "Query", "status_code", "408"};
        List<PrometheusText.Sample> found = List.of();
        for (int wait = 0; wait < 300 && found.isEmpty(); wait++) {
          Thread.sleep(100);
          found =
              PrometheusText.parse(MetricsEndpointTest.get(server.endpoint(), "/metrics"))
                  .find("cosmolab_requests_total", abandoned);
        }
        PrometheusText m =
            PrometheusText.parse(MetricsEndpointTest.get(server.endpoint(), "/metrics"));
        assertThat(m.value("cosmolab_requests_total", abandoned)).isEqualTo(1.0);
        assertThat(
                m.find("cosmolab_requests_total", "operation_type", "Query", "status_code", "200"))
            .isEmpty();
        // charged for what it read before it saw the connection closed: not the whole scan
        assertThat(m.value("cosmolab_request_units_total", abandoned)).isLessThan(whole);
      }
    }
  }
}
