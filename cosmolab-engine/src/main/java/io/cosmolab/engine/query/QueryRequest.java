package io.cosmolab.engine.query;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import java.util.Map;

/**
 * A query against a container, and where it runs. Every scope that is set narrows the others: a
 * partition key (full: one logical partition; a hierarchical prefix: its EPK range), a physical
 * partition by id, and an EPK range (what the SDKs send as start/end EPK).
 *
 * @param text the query text
 * @param parameters values by {@code @name} (null value = undefined)
 * @param partitionKey a full key or hierarchical prefix, or null
 * @param partitionKeyRangeId a physical partition id, or null
 * @param range an EPK range, or null for the whole key space
 * @param maxItemCount page size; -1 or 0 lets the engine choose (1,000, as the service does)
 * @param continuation the token of the previous page, or null for the first page
 */
public record QueryRequest(
    String text,
    Map<String, JsonNode> parameters,
    PartitionKeyValue partitionKey,
    String partitionKeyRangeId,
    EpkRange range,
    int maxItemCount,
    String continuation) {

  /** The page size when the client leaves it to the server. [R] gateway-protocol §7.1 */
  public static final int DEFAULT_PAGE_SIZE = 1000;

  public QueryRequest {
    if (text == null || text.isBlank()) {
      throw CosmosError.BAD_REQUEST.exception("the query text is missing");
    }
    parameters = parameters == null ? Map.of() : parameters;
  }

  /** The whole container, first page, server-chosen page size. */
  public static QueryRequest of(String text) {
    return new QueryRequest(text, Map.of(), null, null, null, -1, null);
  }

  public QueryRequest withParameters(Map<String, JsonNode> p) {
    return new QueryRequest(
        text, p, partitionKey, partitionKeyRangeId, range, maxItemCount, continuation);
  }

  public QueryRequest withPartitionKey(PartitionKeyValue key) {
    return new QueryRequest(
        text, parameters, key, partitionKeyRangeId, range, maxItemCount, continuation);
  }

  public QueryRequest withRangeId(String id) {
    return new QueryRequest(text, parameters, partitionKey, id, range, maxItemCount, continuation);
  }

  public QueryRequest withRange(EpkRange r) {
    return new QueryRequest(
        text, parameters, partitionKey, partitionKeyRangeId, r, maxItemCount, continuation);
  }

  public QueryRequest withMaxItemCount(int n) {
    return new QueryRequest(
        text, parameters, partitionKey, partitionKeyRangeId, range, n, continuation);
  }

  public QueryRequest withContinuation(String token) {
    return new QueryRequest(
        text, parameters, partitionKey, partitionKeyRangeId, range, maxItemCount, token);
  }

  public int pageSize() {
    return maxItemCount <= 0 ? DEFAULT_PAGE_SIZE : maxItemCount;
  }
}
