package io.cosmolab.gateway.wire;

import java.util.Locale;

/**
 * What a POST to a feed asks for, decided once, in the order the handlers act on it: a batch header
 * makes it a batch whatever else it says, then a query-plan header a plan, then a query header or
 * content type a query; anything else creates (or upserts) what its body holds. The router, the
 * resource-token check and the metrics' operation names all ask here, so a request cannot be read
 * as a query by one and run as a write by another (a Read token once ran batches and stored
 * procedures by adding {@code x-ms-documentdb-isquery: true}).
 */
public enum FeedPost {
  /** {@code x-ms-cosmos-is-batch-request}: a transactional batch or a bulk request. */
  BATCH,
  /** {@code x-ms-cosmos-is-query-plan-request}: the SDKs' query-plan request, a read. */
  QUERY_PLAN,
  /** A query, by header or content type: a read. */
  QUERY,
  /** A create or upsert of the body. */
  WRITE;

  /** What {@code request}, a POST to a feed, asks for. */
  public static FeedPost of(WireRequest request) {
    if (request.flag(Headers.IS_BATCH)) {
      return BATCH;
    }
    if (request.flag(Headers.IS_QUERY_PLAN)) {
      return QUERY_PLAN;
    }
    return isQuery(request) ? QUERY : WRITE;
  }

  /** True for the kinds that only read. */
  public boolean readsOnly() {
    return this == QUERY_PLAN || this == QUERY;
  }

  /** True when the request says it is a query (by header or by content type). */
  public static boolean isQuery(WireRequest request) {
    if (request.flag(Headers.IS_QUERY) || request.flag("x-ms-documentdb-query")) {
      return true;
    }
    String type = request.header(Headers.CONTENT_TYPE);
    if (type == null) {
      return false;
    }
    String t = type.toLowerCase(Locale.ROOT);
    return t.startsWith("application/query+json") || t.startsWith("application/sql");
  }
}
