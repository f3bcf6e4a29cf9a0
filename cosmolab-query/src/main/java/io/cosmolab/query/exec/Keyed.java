package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A row or result with its ORDER BY keys (an element may be null: undefined sorts first) and its
 * input order, the tie-breaker.
 */
record Keyed<T>(T item, List<JsonNode> keys, long order) {}
