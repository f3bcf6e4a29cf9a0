package io.cosmolab.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.throughput.ThrottlingMode;

/**
 * How long the pages of a slow GROUP BY take on a container of one physical partition, at the
 * engine's default page time (5 s): each page ends near the bound with the groups of what it read,
 * and the pages' sums add up to the whole (checked). {@code java -cp benchmarks.jar
 * io.cosmolab.benchmarks.SlowAggregatePages DOCUMENTS}.
 */
public final class SlowAggregatePages {
  private SlowAggregatePages() {}

  /**
   * Container "c" keyed by /pk on one physical partition, in a database of {@code engine}, with
   * {@code documents} documents "d0"…, keyed "k0"…"k49" in turn, each with the properties {@code
   * extra} puts on it (given the document's number): the set-up of this program and of {@link
   * DistinctPages}.
   */
  static Container onePartition(
      CosmosEngine engine,
      int documents,
      java.util.function.ObjIntConsumer<com.fasterxml.jackson.databind.node.ObjectNode> extra) {
    Container c =
        engine
            .createDatabase("db")
            .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    for (int i = 0; i < documents; i++) {
      com.fasterxml.jackson.databind.node.ObjectNode d =
          JsonNodeFactory.instance.objectNode().put("id", "d" + i).put("pk", "k" + (i % 50));
      extra.accept(d, i);
      c.create(d);
    }
    return c;
  }

  public static void main(String[] args) {
    int documents = Integer.parseInt(args[0]);
    try (CosmosEngine engine = CosmosEngine.builder().throttling(ThrottlingMode.OFF).build()) {
      String text = "x".repeat(100);
      Container c = onePartition(engine, documents, (d, i) -> d.put("g", i % 7).put("s", text));
      // 9,000 characters made and 18,000 replaced per document: slow on purpose
      QueryRequest request =
          QueryRequest.of(
              "SELECT c.g, SUM(LENGTH(REPLACE(REPLICATE(c.s, 90), 'x', 'yz'))) AS n"
                  + " FROM c GROUP BY c.g");
      long[] total = {0};
      int[] pages = {0};
      long[] pageStarted = {System.nanoTime()};
      FollowedPages f =
          FollowedPages.follow(
              c,
              request,
              page -> {
                pages[0]++;
                for (JsonNode row : page.rows()) {
                  total[0] += row.path("n").asLong();
                }
                long now = System.nanoTime();
                System.out.printf(
                    "page %d: %d ms, %d groups%n",
                    pages[0], (now - pageStarted[0]) / 1_000_000, page.rows().size());
                pageStarted[0] = now;
              });
      long expected = (long) documents * 18_000;
      System.out.printf(
          "%d pages, the longest %d ms; sum of the pages' sums %d, expected %d: %s%n",
          f.pages(),
          f.worstMillis(),
          total[0],
          expected,
          total[0] == expected ? "equal" : "DIFFERENT");
    }
  }
}
