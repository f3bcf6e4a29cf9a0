package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.document.JsonTrees;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Throughput buckets over the wire: configured in the container's offer ({@code
 * content.throughputBuckets}, echoed on reads), named per request with {@code
 * x-ms-cosmos-throughput-bucket}, answered 429/3212 with a retry-after over a bucket's share and
 * 429/3213 when the configuration changes within 10 minutes; a bucket id outside 1–5 is a 400.
 */
class ThroughputBucketsWireTest {

  private static SignedClient.Response read(SignedClient client, String bucket) {
    Map<String, String> headers = new HashMap<>();
    headers.put("x-ms-documentdb-partitionkey", "[\"hot\"]");
    if (bucket != null) {
      headers.put("x-ms-cosmos-throughput-bucket", bucket);
    }
    return client.send(
        "GET", "/dbs/db/colls/c/docs/doc", "docs", "dbs/db/colls/c/docs/doc", null, headers);
  }

  private static ObjectNode offerOf(SignedClient client, String rid) {
    for (JsonNode o :
        client.send("GET", "/offers", "offers", "", null, Map.of()).body().get("Offers")) {
      if (o.get("offerResourceId").textValue().equals(rid)) {
        return (ObjectNode) o;
      }
    }
    throw new AssertionError("no offer for " + rid);
  }

  private static SignedClient.Response put(SignedClient client, ObjectNode offer) {
    String id = offer.get("id").textValue();
    return client.send(
        "PUT", "/offers/" + id, "offers", id.toLowerCase(Locale.ROOT), offer.toString(), Map.of());
  }

  @Test
  void anOfferCarriesTheBuckets_andARequestNamingOneIsCappedAtItsShare() throws Exception {
    ManualClock clock = ManualClock.startingAtEpoch2026();
    try (CosmosEngine engine =
        CosmosEngine.builder().clock(clock).throttling(ThrottlingMode.ENFORCE).build()) {
      engine
          .createDatabase("db")
          .createContainer(
              ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                  .withThroughput(Throughput.manual(400))
                  .withPhysicalPartitions(1));
      String rid = engine.database("db").container("c").rid();
      engine
          .database("db")
          .container("c")
          .create((ObjectNode) JsonTrees.read("{\"id\":\"doc\",\"pk\":\"hot\"}"));
      try (GatewayServer server = GatewayServer.builder(engine).port(0).plainHttp().start()) {
        SignedClient client = new SignedClient(server.endpoint());
        ObjectNode offer = offerOf(client, rid);
        assertThat(offer.get("content").has("throughputBuckets")).isFalse();

        // a bad configuration is refused by name, and changes nothing
        ((ObjectNode) offer.get("content"))
            .putArray("throughputBuckets")
            .addObject()
            .put("id", 7)
            .put("maxThroughputPercentage", 10);
        SignedClient.Response bad = put(client, offer);
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body().get("message").asText()).contains("id must be from 1 to 5, was 7");

        ((ObjectNode) offer.get("content"))
            .putArray("throughputBuckets")
            .addObject()
            .put("id", 1)
            .put("maxThroughputPercentage", 25);
        SignedClient.Response configured = put(client, offer);
        assertThat(configured.status()).isEqualTo(200);
        JsonNode echoed = offerOf(client, rid).get("content").get("throughputBuckets");
        assertThat(echoed.toString())
            .isEqualTo("[{\"id\":1,\"maxThroughputPercentage\":25,\"isDefaultBucket\":false}]");

        // 25 % of 400 RU/s: about 100 one-RU reads in bucket 1 this second, then 429/3212
        clock.advance(Duration.ofSeconds(2));
        SignedClient.Response r = null;
        int admitted = 0;
        for (; admitted < 1_000; admitted++) {
          r = read(client, "1");
          if (r.status() != 200) {
            break;
          }
        }
        assertThat(r.status()).isEqualTo(429);
        assertThat(r.headers().get("x-ms-substatus")).isEqualTo("3212");
        assertThat(r.headers().get("x-ms-retry-after-ms")).isEqualTo("1000");
        assertThat(admitted).isBetween(99, 101);
        // the rest of the partition is open to requests outside the bucket
        assertThat(read(client, null).status()).isEqualTo(200);

        // an id outside 1-5 is refused by name; the SDKs let 0 through to the service
        SignedClient.Response zero = read(client, "0");
        assertThat(zero.status()).isEqualTo(400);
        assertThat(zero.body().get("message").asText())
            .contains("x-ms-cosmos-throughput-bucket must be a throughput bucket id from 1 to 5");

        // another change within 10 minutes: 429/3213 with the wait
        clock.advance(Duration.ofMinutes(1));
        ObjectNode again = offerOf(client, rid);
        ((ObjectNode) again.get("content").get("throughputBuckets").get(0))
            .put("maxThroughputPercentage", 50);
        SignedClient.Response early = put(client, again);
        assertThat(early.status()).isEqualTo(429);
        assertThat(early.headers().get("x-ms-substatus")).isEqualTo("3213");
        assertThat(Long.parseLong(early.headers().get("x-ms-retry-after-ms")))
            .isBetween(538_000L, 539_000L);
        // an offer without the field leaves the buckets as they are
        ObjectNode throughputOnly = offerOf(client, rid);
        ((ObjectNode) throughputOnly.get("content")).remove("throughputBuckets");
        ((ObjectNode) throughputOnly.get("content")).put("offerThroughput", 500);
        assertThat(put(client, throughputOnly).status()).isEqualTo(200);
        assertThat(offerOf(client, rid).get("content").get("throughputBuckets").size()).isOne();

        clock.advance(Duration.ofMinutes(9));
        ((ObjectNode) again.get("content")).put("offerThroughput", 500);
        assertThat(put(client, again).status()).isEqualTo(200);
        assertThat(
                offerOf(client, rid)
                    .at("/content/throughputBuckets/0/maxThroughputPercentage")
                    .intValue())
            .isEqualTo(50);
      }
    }
  }
}
