package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.alerts.AlertRules;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code /metrics} over real loopback HTTP, parsed with the Prometheus project's text parser: a hot
 * key driven past its partition's budget in enforce and in observe mode shows in the partition's
 * normalized RU, the 429 counts (real or would-be), the request counters and the top keys.
 */
class MetricsEndpointTest {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  static String get(URI endpoint, String path) {
    return send(endpoint, path).body();
  }

  static HttpResponse<String> send(URI endpoint, String path) {
    try {
      return HTTP.send(
          HttpRequest.newBuilder(endpoint.resolve(path)).GET().build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static SignedClient.Response create(SignedClient client, String id, String pk) {
    return client.send(
        "POST",
        "/dbs/shop/colls/orders/docs",
        "docs",
        "dbs/shop/colls/orders",
        "{\"id\":\"" + id + "\",\"pk\":\"" + pk + "\"}",
        Map.of("x-ms-documentdb-partitionkey", "[\"" + pk + "\"]"));
  }

  private static SignedClient.Response read(SignedClient client, String id, String pk) {
    return client.send(
        "GET",
        "/dbs/shop/colls/orders/docs/" + id,
        "docs",
        "dbs/shop/colls/orders/docs/" + id,
        null,
        Map.of("x-ms-documentdb-partitionkey", "[\"" + pk + "\"]"));
  }

  @ParameterizedTest
  @EnumSource(
      value = ThrottlingMode.class,
      names = {"ENFORCE", "OBSERVE"})
  void hotKey_showsInNormalizedRu_429s_requestCountersAndTopKeys(ThrottlingMode mode) {
    PrometheusText.assumeParser();
    ManualClock clock = ManualClock.startingAtEpoch2026();
    // scale 10: 40 RU/s over 2 partitions is 20 RU/s each; point reads of a small item cost 1 RU
    try (CosmosEngine engine =
        CosmosEngine.builder().clock(clock).throttling(mode).scale(10).build()) {
      engine
          .createDatabase("shop")
          .createContainer(
              ContainerSettings.of("orders", PartitionKeyDefinition.hash("/pk"))
                  .withThroughput(Throughput.manual(40))
                  .withPhysicalPartitions(2));
      AlertRules rules =
          AlertRules.defaults()
              .withThrottleRate(new AlertRules.ThrottleRate(true, 0.01, Duration.ofMinutes(5), 10));
      try (GatewayServer server =
          GatewayServer.builder(engine).port(0).plainHttp().alertRules(rules).start()) {
        SignedClient client = new SignedClient(server.endpoint());
        String hotRange =
            create(client, "d", "hot").headers().get("x-ms-documentdb-partitionkeyrangeid");
        String coldKey = null;
        for (int i = 0; coldKey == null; i++) {
          SignedClient.Response r = create(client, "d", "cold" + i);
          if (!r.headers().get("x-ms-documentdb-partitionkeyrangeid").equals(hotRange)) {
            coldKey = "cold" + i;
          }
        }
        String coldRange = hotRange.equals("0") ? "1" : "0";
        clock.advance(Duration.ofSeconds(61)); // the creates leave the last minute
        int ok = 0;
        int refused = 0;
        for (int i = 0; i < 40; i++) {
          int status = read(client, "d", "hot").status();
          if (status == 200) {
            ok++;
          } else if (status == 429) {
            refused++;
          }
        }
        assertThat(ok).isEqualTo(mode == ThrottlingMode.ENFORCE ? 20 : 40);
        assertThat(refused).isEqualTo(40 - ok);
        server.alerts().evaluate(clock.millis());

        PrometheusText m = PrometheusText.parse(get(server.endpoint(), "/metrics"));
        String[] hot = {
          "database", "shop", "container", "orders", "partition_key_range_id", hotRange
        };
        String[] cold = {
          "database", "shop", "container", "orders", "partition_key_range_id", coldRange
        };
        assertThat(m.typeOf("cosmolab_normalized_ru_consumption")).isEqualTo("gauge");
        assertThat(m.value("cosmolab_normalized_ru_consumption", hot)).isEqualTo(1.0);
        assertThat(m.value("cosmolab_normalized_ru_consumption", cold)).isEqualTo(0.0);
        assertThat(m.value("cosmolab_partition_throughput_budget", hot)).isEqualTo(20.0);
        assertThat(m.value("cosmolab_provisioned_throughput", "container", "orders"))
            .isEqualTo(40.0);

        assertThat(m.typeOf("cosmolab_throttled_requests_total")).isEqualTo("counter");
        assertThat(m.value("cosmolab_throttled_requests_total", with(hot, "mode", "enforced")))
            .isEqualTo(mode == ThrottlingMode.ENFORCE ? 20.0 : 0.0);
        assertThat(m.value("cosmolab_throttled_requests_total", with(hot, "mode", "observed")))
            .isEqualTo(mode == ThrottlingMode.OBSERVE ? 20.0 : 0.0);
        assertThat(m.value("cosmolab_throttled_requests_total", with(cold, "mode", "enforced")))
            .isEqualTo(0.0);

        String[] reads =
            with(hot, "operation_type", "Read", "status_code", "200", "sub_status", "0");
        assertThat(m.value("cosmolab_requests_total", reads)).isEqualTo(ok);
        assertThat(m.value("cosmolab_request_units_total", reads)).isEqualTo(ok * 1.0);
        if (mode == ThrottlingMode.ENFORCE) {
          assertThat(
                  m.value(
                      "cosmolab_requests_total",
                      with(
                          hot,
                          "operation_type",
                          "Read",
                          "status_code",
                          "429",
                          "sub_status",
                          "3200")))
              .isEqualTo(20.0);
        }
        assertThat(
                m.value(
                    "cosmolab_requests_total",
                    "operation_type",
                    "Create",
                    "status_code",
                    "201",
                    "partition_key_range_id",
                    coldRange))
            .isEqualTo(1.0);

        // the top logical partition by RU is the hot key, in its partition
        List<PrometheusText.Sample> top =
            m.find("cosmolab_top_logical_partition_ru", "container", "orders");
        PrometheusText.Sample first =
            top.stream()
                .max(java.util.Comparator.comparingDouble(PrometheusText.Sample::value))
                .orElseThrow();
        assertThat(first.labels())
            .containsEntry("partition_key", "[\"hot\"]")
            .containsEntry("partition_key_range_id", hotRange);
        assertThat(
                m.find(
                    "cosmolab_top_logical_partition_bytes",
                    "partition_key",
                    "[\"" + coldKey + "\"]"))
            .hasSize(1);
        assertThat(m.value("cosmolab_document_count", hot)).isGreaterThanOrEqualTo(1.0);
        assertThat(m.value("cosmolab_data_usage_bytes", hot)).isPositive();
        assertThat(m.value("cosmolab_partition_splits_total", "container", "orders"))
            .isEqualTo(0.0);

        // latency histograms per operation type
        assertThat(m.typeOf("cosmolab_request_latency_seconds_bucket")).isEqualTo("histogram");
        assertThat(m.value("cosmolab_request_latency_seconds_count", "operation_type", "Read"))
            .isEqualTo(40.0);

        // the alert: 20 429s (real or would-be) of 40 requests, above 1 %
        assertThat(m.value("cosmolab_alert_active", "rule", "throttle-rate")).isEqualTo(1.0);
        assertThat(m.value("cosmolab_alert_active", "rule", "hot-partition")).isEqualTo(0.0);
        assertThat(m.find("cosmolab_alert_active")) // one series per rule
            .hasSize(io.cosmolab.engine.alerts.AlertRule.values().length);
        // 20 of the 40 reads and the creates of the hot partition (within the 5 minutes)
        double creates = m.value("cosmolab_document_count", hot);
        assertThat(m.value("cosmolab_alert_value", with(hot, "rule", "throttle-rate")))
            .isEqualTo(20 / (40 + creates));
      }
    }
  }

  private static String[] with(String[] base, String... more) {
    String[] out = java.util.Arrays.copyOf(base, base.length + more.length);
    System.arraycopy(more, 0, out, base.length, more.length);
    return out;
  }

  @Test
  void metricsHealthAndExplorer_needNoSignature_andMetricsOffAnswers404() {
    try (CosmosEngine engine = CosmosEngine.builder().build();
        GatewayServer on = GatewayServer.builder(engine).port(0).plainHttp().start();
        GatewayServer off =
            GatewayServer.builder(engine).port(0).plainHttp().metrics(false).start()) {
      assertThat(send(on.endpoint(), "/metrics").statusCode()).isEqualTo(200);
      assertThat(send(on.endpoint(), "/metrics").headers().firstValue("content-type"))
          .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain; version=0.0.4"));
      assertThat(send(on.endpoint(), "/health").statusCode()).isEqualTo(200);
      assertThat(send(on.endpoint(), "/_explorer/index.html").statusCode()).isEqualTo(200);
      assertThat(send(on.endpoint(), "/_explorer/api/account").statusCode()).isEqualTo(200);
      assertThat(send(on.endpoint(), "/dbs").statusCode()).isEqualTo(401);
      assertThat(send(off.endpoint(), "/metrics").statusCode()).isEqualTo(404);
      assertThat(send(off.endpoint(), "/metrics").body()).contains("--no-metrics");
      assertThat(send(off.endpoint(), "/_explorer/api/alerts").statusCode()).isEqualTo(200);
      assertThat(off.metricsEnabled()).isFalse();
    }
  }

  static HttpResponse<String> post(URI endpoint, String path, String json) {
    try {
      return HTTP.send(
          HttpRequest.newBuilder(endpoint.resolve(path))
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(json))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  void theQueryExplorer_takesParameters_inTheRestFormAndAsAnObject_andNamesABadOne()
      throws Exception {
    try (CosmosEngine engine = CosmosEngine.builder().build();
        GatewayServer server = GatewayServer.builder(engine).port(0).plainHttp().start()) {
      var c =
          engine
              .createDatabase("shop")
              .createContainer(ContainerSettings.of("orders", PartitionKeyDefinition.hash("/pk")));
      for (int i = 0; i < 30; i++) {
        c.create(
            (com.fasterxml.jackson.databind.node.ObjectNode)
                new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(
                        "{\"id\":\"d" + i + "\",\"pk\":\"t" + (i % 3) + "\",\"n\":" + i + "}"));
      }
      String path = "/_explorer/api/dbs/shop/colls/orders/query";
      var json = new com.fasterxml.jackson.databind.ObjectMapper();
      for (String parameters :
          List.of(
              "[{\"name\":\"@t\",\"value\":\"t1\"},{\"name\":\"@min\",\"value\":10}]",
              "{\"@t\":\"t1\",\"@min\":10}")) {
        HttpResponse<String> r =
            post(
                server.endpoint(),
                path,
                "{\"query\":\"SELECT VALUE c.id FROM c WHERE c.pk = @t AND c.n >= @min\","
                    + "\"parameters\":"
                    + parameters
                    + "}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        var body = json.readTree(r.body());
        assertThat(body.get("rows")).hasSize(7); // 10, 13, ..., 28
        assertThat(body.get("requestCharge").asDouble()).isPositive();
      }
      HttpResponse<String> bad =
          post(
              server.endpoint(),
              path,
              "{\"query\":\"SELECT * FROM c WHERE c.pk = @t\",\"parameters\":{\"t\":\"t1\"}}");
      assertThat(bad.statusCode()).isEqualTo(400);
      assertThat(bad.body()).contains("parameter name 't' must start with '@'");
    }
  }

  @Test
  void theHeatMap_keepsASplitParentsRow_upToItsSplit_aboveItsChildren() throws Exception {
    ManualClock clock = new ManualClock(java.time.Instant.parse("2026-11-27T08:00:00Z"));
    try (CosmosEngine engine = CosmosEngine.builder().clock(clock).build();
        GatewayServer server = GatewayServer.builder(engine).port(0).plainHttp().start()) {
      var c =
          engine
              .createDatabase("shop")
              .createContainer(
                  ContainerSettings.of("orders", PartitionKeyDefinition.hash("/pk"))
                      .withThroughput(Throughput.manual(400))
                      .withPhysicalPartitions(1));
      var json = new com.fasterxml.jackson.databind.ObjectMapper();
      for (int s = 0; s < 120; s++) {
        c.create(
            (com.fasterxml.jackson.databind.node.ObjectNode)
                json.readTree("{\"id\":\"d" + s + "\",\"pk\":\"k" + s + "\"}"));
        if (s == 59) {
          c.splitPartition("0"); // 400 RU/s over one partition, then over two of 200
        }
        clock.advance(Duration.ofSeconds(1));
      }
      var heat =
          json.readTree(
              get(
                  server.endpoint(),
                  "/_explorer/api/dbs/shop/colls/orders/heatmap?seconds=180&step=60"));
      var rows = heat.get("partitions");
      assertThat(rows).extracting(r -> r.get("id").asText()).containsExactly("0", "1", "2");
      var parent = rows.get(0);
      assertThat(parent.get("budget").asDouble()).isEqualTo(400);
      assertThat(parent.get("retiredAt").asLong())
          .isEqualTo(java.time.Instant.parse("2026-11-27T08:00:59Z").getEpochSecond());
      // the minute before the split was the parent's, at its own 400 RU/s; after it, its
      // children's at 200 each
      assertThat(parent.get("ru").get(1).asDouble()).isPositive();
      assertThat(parent.get("ru").get(2).asDouble()).isZero();
      assertThat(rows.get(1).get("budget").asDouble()).isEqualTo(200);
      assertThat(rows.get(1).has("retiredAt")).isFalse();
      assertThat(rows.get(1).get("createdAt").asLong()).isEqualTo(parent.get("retiredAt").asLong());
      assertThat(parent.has("createdAt")).isFalse();
      assertThat(rows.get(1).get("ru").get(2).asDouble() + rows.get(2).get("ru").get(2).asDouble())
          .isPositive();
      assertThat(heat.get("events")).hasSize(1);
    }
  }
}
