package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A row or result with its ORDER BY keys (an element may be null: undefined sorts first), its input
 * order, the tie-breaker, and its index among the rows of that input (a JOIN makes several), which
 * breaks the last ties: with the three, every row of a run has its own position, from which a later
 * page can resume ({@link Past}).
 */
record Keyed<T>(T item, List<JsonNode> keys, long order, int index) {
  /** An item that is the only one of its input (a group, a position). */
  Keyed(T item, List<JsonNode> keys, long order) {
    this(item, keys, order, 0);
  }
}
