package io.cosmolab.engine.query;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One page of query results.
 *
 * @param rows the results
 * @param continuation the token for the next page, or null when this is the last page
 * @param requestCharge the RU charged for this page
 * @param metrics what the page cost in work
 */
public record QueryPage(
    List<JsonNode> rows, String continuation, double requestCharge, QueryMetrics metrics) {
  public QueryPage {
    rows = List.copyOf(rows);
  }
}
