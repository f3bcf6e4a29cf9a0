package io.cosmolab.gateway.resources;

import io.cosmolab.engine.Container;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.util.Map;

/**
 * Queries, query plans and read feeds of documents ({@code gateway-protocol.md} §7).
 *
 * <p>Every scope the request names is applied, intersected: the partition key header (a logical
 * partition, or a hierarchical prefix's range), the physical partition id (410/1002 when it has
 * split), and the start/end EPK. A query without any scope is answered completely by the server —
 * ORDER BY, aggregates, GROUP BY, DISTINCT, TOP and OFFSET over every partition — which is what the
 * JavaScript SDK's default path expects; the Java SDK asks for the plan first and sends the
 * rewritten query to each range.
 */
final class QueryResource {

  WireResponse plan(WireRequest request, Container c) {
    Requests.QueryText q = Requests.queryText(request);
    return WireResponse.json(
        200, c.queryPlan(q.text(), q.parameters()), Responses.containerHeaders(c, 0));
  }

  WireResponse query(WireRequest request, Container c) {
    Requests.QueryText q = Requests.queryText(request);
    return run(request, c, QueryRequest.of(q.text()).withParameters(q.parameters()));
  }

  /** A read feed ({@code GET .../docs}): every document in scope, paged, in storage order. */
  WireResponse readFeed(WireRequest request, Container c) {
    return run(request, c, QueryRequest.of("SELECT * FROM c"));
  }

  private static WireResponse run(WireRequest request, Container c, QueryRequest base) {
    PartitionKeyValue key = Requests.partitionKey(request);
    String rangeId = Requests.rangeId(request);
    QueryRequest q =
        base.withPartitionKey(key)
            .withRangeId(rangeId)
            .withRange(Requests.epkRange(request))
            .withMaxItemCount(Requests.maxItemCount(request))
            .withContinuation(blankToNull(request.header(Headers.CONTINUATION)));
    long started = System.nanoTime(); // a duration for the metrics, not a point in time
    QueryPage page = c.query(q, request.abandoned());
    long elapsedNanos = System.nanoTime() - started;
    String sessionRange = rangeId != null ? rangeId : Responses.ownerRange(c, key);
    Map<String, String> h = Responses.containerHeaders(c, page.requestCharge(), sessionRange);
    if (request.flag(Headers.POPULATE_QUERY_METRICS)) {
      h.put(Headers.QUERY_METRICS, QueryMetricsHeader.of(page, elapsedNanos));
    }
    if (request.flag(Headers.POPULATE_INDEX_METRICS)) {
      h.put(Headers.INDEX_UTILIZATION, QueryMetricsHeader.indexUtilization(page));
    }
    if (sessionRange != null) {
      h.put(Headers.SESSION_TOKEN, Responses.sessionToken(sessionRange, c.lsn(sessionRange)));
    }
    if (page.continuation() != null) {
      h.put(Headers.CONTINUATION, page.continuation());
    }
    return Responses.feed(c.rid(), "Documents", page.rows(), h);
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
