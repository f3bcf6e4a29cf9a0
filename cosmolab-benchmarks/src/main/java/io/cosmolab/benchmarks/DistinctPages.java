package io.cosmolab.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.query.QueryPage;
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
      long loaded = 0;
      long worst = 0;
      int pages = 0;
      int rows = 0;
      long started = System.nanoTime();
      String token = null;
      do {
        long pageStarted = System.nanoTime();
        QueryPage page = c.query(token == null ? request : request.withContinuation(token));
        worst = Math.max(worst, (System.nanoTime() - pageStarted) / 1_000_000);
        pages++;
        loaded += page.metrics().documentsLoaded();
        for (JsonNode row : page.rows()) {
          seen.add(row.asInt());
          rows++;
        }
        token = page.continuation();
      } while (token != null);
      long millis = (System.nanoTime() - started) / 1_000_000;
      System.out.printf(
          "%d documents, %d values, pages of %d: %d pages, %d rows (%d distinct), %d ms in all,"
              + " slowest page %d ms, %d documents loaded%n",
          documents, values, pageSize, pages, rows, seen.size(), millis, worst, loaded);
      if (seen.size() != values) {
        throw new AssertionError("expected " + values + " values, got " + seen.size());
      }
    }
  }
}
