package io.cosmolab.benchmarks;

import io.cosmolab.engine.Container;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.throughput.ThrottlingMode;
import java.util.HashSet;
import java.util.Set;

/**
 * The pages of a DISTINCT with many values on a container of one physical partition, followed to
 * the end as a client does, dropping repeats: how many pages, how long in all, how many documents
 * they loaded, and whether every value came (checked). {@code java -cp benchmarks.jar
 * io.cosmolab.benchmarks.DistinctPages DOCUMENTS VALUES PAGE_SIZE}.
 */
public final class DistinctPages {
  private DistinctPages() {}

  public static void main(String[] args) {
    int documents = Integer.parseInt(args[0]);
    int values = Integer.parseInt(args[1]);
    int pageSize = Integer.parseInt(args[2]);
    try (CosmosEngine engine = CosmosEngine.builder().throttling(ThrottlingMode.OFF).build()) {
      Container c =
          SlowAggregatePages.onePartition(engine, documents, (d, i) -> d.put("v", i % values));
      QueryRequest request =
          QueryRequest.of("SELECT DISTINCT VALUE c.v FROM c").withMaxItemCount(pageSize);
      Set<Integer> seen = new HashSet<>();
      int[] rows = {0};
      FollowedPages f =
          FollowedPages.follow(
              c,
              request,
              FollowedPages.rows(
                  row -> {
                    seen.add(row.asInt());
                    rows[0]++;
                  }));
      System.out.printf(
          "%d documents, %d values, pages of %d: %d pages, %d rows (%d distinct), %d ms in all,"
              + " slowest page %d ms, %d documents loaded%n",
          documents,
          values,
          pageSize,
          f.pages(),
          rows[0],
          seen.size(),
          f.millis(),
          f.worstMillis(),
          f.loaded());
      if (seen.size() != values) {
        throw new AssertionError("expected " + values + " values, got " + seen.size());
      }
    }
  }
}
