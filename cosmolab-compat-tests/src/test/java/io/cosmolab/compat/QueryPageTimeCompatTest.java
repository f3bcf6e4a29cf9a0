package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.GatewayConnectionConfig;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.testkit.CosmosLab;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Query pages that end at the server's page time (the service's 5 s bound, here 1 ns: every page
 * that may end early does, after one document or one row), with few rows or none and a
 * continuation: the Java SDK, in gateway and direct mode, follows the continuations and gives every
 * row once, in order, and combines the partial aggregates, groups and distinct values of pages cut
 * short.
 */
class QueryPageTimeCompatTest {
  private static final int DOCS = 150;

  @ParameterizedTest(name = "direct mode: {0}")
  @ValueSource(booleans = {false, true})
  void theSdk_followsContinuationsPastPagesThatEndedEarly(boolean direct) {
    try (CosmosLab lab = CosmosLab.builder().queryPageTime(Duration.ofNanos(1)).start();
        CosmosClient client = builder(lab, direct).buildClient()) {
      client.createDatabaseIfNotExists("paging");
      CosmosContainer c = Fixtures.container(client.getDatabase("paging"), "c", 3, "/pk");
      List<ObjectNode> docs = Fixtures.documents(DOCS, 11);
      Fixtures.createAll(c, docs);

      // a filter no index serves: most pages read one document and return nothing
      List<JsonNode> filtered = query(c, "SELECT c.id FROM c WHERE c.n % 7 = 3");
      assertThat(filtered.stream().map(r -> r.get("id").asText()))
          .containsExactlyInAnyOrderElementsOf(
              docs.stream()
                  .filter(d -> d.get("n").asInt() % 7 == 3)
                  .map(d -> d.get("id").asText())
                  .toList());

      // an ORDER BY the index serves, across partitions: in order, each once
      List<JsonNode> ordered = query(c, "SELECT c.id, c.price FROM c ORDER BY c.price DESC");
      assertThat(ordered.stream().map(r -> r.get("id").asText()))
          .containsExactlyElementsOf(
              docs.stream()
                  .sorted(Comparator.comparingDouble((ObjectNode d) -> d.get("price").asDouble()))
                  .map(d -> d.get("id").asText())
                  .toList()
                  .reversed());

      // aggregates and groups: each page returns those of the documents it read, and the SDK
      // combines the partial pages into the one answer
      assertThat(query(c, "SELECT VALUE COUNT(1) FROM c"))
          .singleElement()
          .satisfies(n -> assertThat(n.asInt()).isEqualTo(DOCS));
      double average = docs.stream().mapToInt(d -> d.get("n").asInt()).average().orElseThrow();
      assertThat(query(c, "SELECT VALUE AVG(c.n) FROM c"))
          .singleElement()
          .satisfies(n -> assertThat(n.asDouble()).isCloseTo(average, within(1e-9)));
      java.util.Map<String, Long> byKey = new java.util.TreeMap<>();
      docs.forEach(d -> byKey.merge(d.get("pk").asText(), 1L, Long::sum));
      java.util.Map<String, Long> grouped = new java.util.TreeMap<>();
      query(c, "SELECT c.pk, COUNT(1) AS n FROM c GROUP BY c.pk")
          .forEach(
              r -> assertThat(grouped.put(r.get("pk").asText(), r.get("n").asLong())).isNull());
      assertThat(grouped).isEqualTo(byKey);
      CosmosQueryRequestOptions ofP4 = new CosmosQueryRequestOptions();
      ofP4.setPartitionKey(new PartitionKey("p4"));
      assertThat(c.queryItems("SELECT VALUE COUNT(1) FROM c", ofP4, JsonNode.class).stream())
          .singleElement()
          .satisfies(n -> assertThat(n.asLong()).isEqualTo(byKey.get("p4")));

      // DISTINCT: each page is distinct within itself and a later one may repeat a value, as the
      // service's (cut after every document here); the SDK drops the repeats
      assertThat(query(c, "SELECT DISTINCT VALUE c.pk FROM c"))
          .extracting(JsonNode::asText)
          .containsExactlyInAnyOrderElementsOf(byKey.keySet());
      CosmosQueryRequestOptions ofP3 = new CosmosQueryRequestOptions();
      ofP3.setPartitionKey(new PartitionKey("p3"));
      List<Integer> residues =
          docs.stream()
              .filter(d -> d.get("pk").asText().equals("p3"))
              .map(d -> d.get("n").asInt() % 4)
              .distinct()
              .toList();
      assertThat(
              c.queryItems("SELECT DISTINCT VALUE c.n % 4 FROM c", ofP3, JsonNode.class).stream())
          .extracting(JsonNode::asInt)
          .containsExactlyInAnyOrderElementsOf(residues);

      // TOP and OFFSET ... LIMIT without ORDER BY page by position, counting on: pages cut after
      // each document, OFFSET's rows read once, and the SDK's TOP over the merged partitions
      List<String> ofKey =
          c.queryItems("SELECT VALUE c.id FROM c", ofP4, JsonNode.class).stream()
              .map(JsonNode::asText)
              .toList();
      assertThat(
              c
                  .queryItems("SELECT VALUE c.id FROM c OFFSET 3 LIMIT 6", ofP4, JsonNode.class)
                  .stream())
          .extracting(JsonNode::asText)
          .containsExactlyElementsOf(ofKey.subList(3, 9));
      assertThat(c.queryItems("SELECT TOP 4 VALUE c.id FROM c", ofP4, JsonNode.class).stream())
          .extracting(JsonNode::asText)
          .containsExactlyElementsOf(ofKey.subList(0, 4));
      List<String> allIds = docs.stream().map(d -> d.get("id").asText()).toList();
      assertThat(query(c, "SELECT TOP 20 VALUE c.id FROM c"))
          .extracting(JsonNode::asText)
          .hasSize(20)
          .doesNotHaveDuplicates()
          .isSubsetOf(allIds);
      assertThat(query(c, "SELECT VALUE c.id FROM c OFFSET 5 LIMIT 11"))
          .extracting(JsonNode::asText)
          .hasSize(11)
          .doesNotHaveDuplicates()
          .isSubsetOf(allIds);

      // one logical partition, page by page: more pages than the page size needs
      CosmosQueryRequestOptions one = new CosmosQueryRequestOptions();
      one.setPartitionKey(new PartitionKey("p4"));
      List<String> ids = new ArrayList<>();
      int pages = 0;
      for (FeedResponse<JsonNode> page :
          c.queryItems("SELECT * FROM c", one, JsonNode.class).iterableByPage(100)) {
        pages++;
        page.getResults().forEach(r -> ids.add(r.get("id").asText()));
      }
      List<String> expected =
          docs.stream()
              .filter(d -> d.get("pk").asText().equals("p4"))
              .map(d -> d.get("id").asText())
              .toList();
      assertThat(ids).containsExactlyInAnyOrderElementsOf(expected);
      assertThat(pages).isGreaterThan(1);
    }
  }

  private static CosmosClientBuilder builder(CosmosLab lab, boolean direct) {
    return direct
        ? lab.clientBuilder().directMode()
        : lab.clientBuilder().gatewayMode(new GatewayConnectionConfig());
  }

  private static List<JsonNode> query(CosmosContainer c, String text) {
    return c.queryItems(text, new CosmosQueryRequestOptions(), JsonNode.class).stream().toList();
  }
}
