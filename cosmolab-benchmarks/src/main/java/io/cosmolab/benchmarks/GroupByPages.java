package io.cosmolab.benchmarks;

import io.cosmolab.engine.Container;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.throughput.ThrottlingMode;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The pages of a GROUP BY with many groups on a container of one physical partition, followed to
 * the end as a client does, merging the groups: how many pages, how long in all, the slowest page,
 * the documents loaded and the charge, and whether every document was counted once (checked). Later
 * pages of such a query take it open from the page before (QueryCursors) instead of grouping every
 * document again. {@code java -cp benchmarks.jar io.cosmolab.benchmarks.GroupByPages DOCUMENTS
 * GROUPS PAGE_SIZE}.
 */
public final class GroupByPages {
  private GroupByPages() {}

  public static void main(String[] args) {
    if (args.length != 3) {
      throw new IllegalArgumentException("usage: GroupByPages DOCUMENTS GROUPS PAGE_SIZE");
    }
    int documents = Integer.parseInt(args[0]);
    int groups = Integer.parseInt(args[1]);
    int pageSize = Integer.parseInt(args[2]);
    try (CosmosEngine engine = CosmosEngine.builder().throttling(ThrottlingMode.OFF).build()) {
      Container c =
          SlowAggregatePages.onePartition(engine, documents, (d, i) -> d.put("v", i % groups));
      QueryRequest request =
          QueryRequest.of("SELECT c.v, COUNT(1) AS n FROM c GROUP BY c.v")
              .withMaxItemCount(pageSize);
      Map<Integer, Long> counts = new HashMap<>();
      FollowedPages f =
          FollowedPages.follow(
              c,
              request,
              FollowedPages.rows(
                  row -> counts.merge(row.path("v").asInt(), row.path("n").asLong(), Long::sum)));
      long counted = counts.values().stream().mapToLong(Long::longValue).sum();
      System.out.printf(
          Locale.ROOT,
          "%d documents, %d groups, pages of %d: %d pages, %d ms in all, slowest page %d ms,"
              + " %d documents loaded, %.1f RU%n",
          documents,
          groups,
          pageSize,
          f.pages(),
          f.millis(),
          f.worstMillis(),
          f.loaded(),
          f.charge());
      if (counts.size() != Math.min(groups, documents) || counted != documents) {
        throw new AssertionError(
            "expected "
                + groups
                + " groups of "
                + documents
                + " documents, got "
                + counts.size()
                + " of "
                + counted);
      }
    }
  }
}
