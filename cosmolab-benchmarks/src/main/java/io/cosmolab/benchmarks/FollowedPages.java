package io.cosmolab.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import java.util.function.Consumer;

/**
 * A query's pages followed to the end as a client follows them, with what they took: the paging
 * programs' loop ({@link DistinctPages}, {@link GroupByPages}, {@link SlowAggregatePages}).
 *
 * @param pages how many pages
 * @param millis the time of all of them
 * @param worstMillis the slowest page's
 * @param loaded the documents they loaded
 * @param charge their request charges
 */
record FollowedPages(int pages, long millis, long worstMillis, long loaded, double charge) {
  /** Follows {@code request}'s pages, handing each page to {@code eachPage} as it comes. */
  static FollowedPages follow(Container c, QueryRequest request, Consumer<QueryPage> eachPage) {
    long started = System.nanoTime();
    long worst = 0;
    long loaded = 0;
    double charge = 0;
    int pages = 0;
    String token = null;
    do {
      long pageStarted = System.nanoTime();
      QueryPage page = c.query(token == null ? request : request.withContinuation(token));
      worst = Math.max(worst, (System.nanoTime() - pageStarted) / 1_000_000);
      pages++;
      loaded += page.metrics().documentsLoaded();
      charge += page.requestCharge();
      eachPage.accept(page);
      token = page.continuation();
    } while (token != null);
    return new FollowedPages(
        pages, (System.nanoTime() - started) / 1_000_000, worst, loaded, charge);
  }

  /** Hands every row of a page to {@code rows}. */
  static Consumer<QueryPage> rows(Consumer<JsonNode> rows) {
    return page -> page.rows().forEach(rows);
  }
}
