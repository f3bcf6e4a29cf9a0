package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.GatewayConnectionConfig;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.testkit.CosmosLab;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A GROUP BY with more groups than a page holds, on several partitions and on one logical
 * partition: the Java SDK, in gateway and direct mode, asks each range page by page with the
 * continuation the page before returned, and the server reads each later page from the query that
 * page left open (the engine's QueryCursors) instead of grouping the range again. The SDK's merged
 * answer is every group once, with the counts and sums of the documents.
 */
class GroupByPagesCompatTest {
  private static final int DOCS = 600;

  @ParameterizedTest(name = "direct mode: {0}")
  @ValueSource(booleans = {false, true})
  void aGroupByOfManyGroups_pagedSmall_givesEveryGroupOnce(boolean direct) {
    try (CosmosLab lab = CosmosLab.builder().start();
        CosmosClient client =
            (direct
                    ? lab.clientBuilder().directMode()
                    : lab.clientBuilder().gatewayMode(new GatewayConnectionConfig()))
                .buildClient()) {
      client.createDatabaseIfNotExists("groups");
      CosmosContainer c = Fixtures.container(client.getDatabase("groups"), "c", 4, "/pk");
      List<ObjectNode> docs = Fixtures.documents(DOCS, 7);
      Fixtures.createAll(c, docs);
      Map<Integer, String> expected = groups(docs.stream());
      String text = "SELECT c.n, COUNT(1) AS k, SUM(LENGTH(c.id)) AS s FROM c GROUP BY c.n";
      assertThat(grouped(c, text, new CosmosQueryRequestOptions(), 7)).isEqualTo(expected);

      // one logical partition, which the SDK sends without its plan's fan-out
      CosmosQueryRequestOptions ofP2 = new CosmosQueryRequestOptions();
      ofP2.setPartitionKey(new PartitionKey("p2"));
      Map<Integer, String> ofKey =
          groups(docs.stream().filter(d -> d.get("pk").asText().equals("p2")));
      assertThat(ofKey).hasSizeGreaterThan(7); // more groups than a page
      assertThat(grouped(c, text, ofP2, 7)).isEqualTo(ofKey);
    }
  }

  /** The SDK's rows by group, each group once (a repeated group fails). */
  private static Map<Integer, String> grouped(
      CosmosContainer c, String text, CosmosQueryRequestOptions options, int pageSize) {
    Map<Integer, String> out = new TreeMap<>();
    for (FeedResponse<JsonNode> page :
        c.queryItems(text, options, JsonNode.class).iterableByPage(pageSize)) {
      for (JsonNode r : page.getResults()) {
        String before =
            out.put(r.get("n").asInt(), r.get("k").asLong() + "/" + r.get("s").asLong());
        assertThat(before).as("group %s twice", r.get("n")).isNull();
      }
    }
    return out;
  }

  /** The groups the documents make by n: their count and the sum of their ids' lengths. */
  private static Map<Integer, String> groups(java.util.stream.Stream<ObjectNode> docs) {
    Map<Integer, long[]> sums = new TreeMap<>();
    docs.forEach(
        d -> {
          long[] g = sums.computeIfAbsent(d.get("n").asInt(), k -> new long[2]);
          g[0]++;
          g[1] += d.get("id").asText().length();
        });
    Map<Integer, String> out = new TreeMap<>();
    sums.forEach((n, g) -> out.put(n, g[0] + "/" + g[1]));
    return out;
  }
}
