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
 * split), and the start/end EPK. A query without any scope that needs the client's pipeline (ORDER
 * BY, TOP, OFFSET, DISTINCT, aggregates, GROUP BY) over more than one physical partition is refused
 * as the hosted gateway refuses it (gateway-protocol §7.5): 400/1004 with the plan in {@code
 * additionalErrorInfo}, or for an aggregate without VALUE or a GROUP BY, 400 "Cross partition query
 * only supports 'VALUE &lt;AggregateFunc&gt;' for aggregates". The JavaScript SDK then fetches the
 * plan and sends the rewritten query to each range (the Python SDK does on the 1004), as the Java
 * SDK does from the start; an application that would fail in Azure fails here too.
 */
final class QueryResource {

  WireResponse plan(WireRequest request, Container c) {
    Requests.QueryText q = Requests.queryText(request);
    return WireResponse.json(
        200, c.queryPlan(q.text(), q.parameters()), Responses.containerHeaders(c, 0));
  }

  WireResponse query(WireRequest request, Container c) {
    Requests.QueryText q = Requests.queryText(request);
    if (Requests.partitionKey(request) == null
        && Requests.rangeId(request) == null
        && Requests.epkRange(request) == null) {
      refuseWhatTheGatewayDoesNotServe(c, q);
    }
    return run(request, c, QueryRequest.of(q.text()).withParameters(q.parameters()));
  }

  /** The hosted gateway's first-chance message for a query it leaves to the SDK's pipeline. */
  static final String NOT_SERVABLE =
      "The provided cross partition query can not be directly served by the gateway. This is a"
          + " first chance (internal) exception that all newer clients will know how to handle"
          + " gracefully. This exception is traced, but unless you see it bubble up as an"
          + " exception (which only happens on older SDK clients), then you can safely ignore this"
          + " message.";

  /** The hosted gateway's refusal of an aggregate without VALUE, or a GROUP BY, over partitions. */
  static final String VALUE_AGGREGATES_ONLY =
      "Cross partition query only supports 'VALUE <AggregateFunc>' for aggregates.";

  /**
   * Refuses a query without scope that needs the SDK's pipeline over more than one physical
   * partition, as the hosted gateway does. A query whose plan cannot be made is left to run, which
   * answers its own error.
   */
  private static void refuseWhatTheGatewayDoesNotServe(Container c, Requests.QueryText q) {
    if (c.routing().ranges().size() < 2) {
      return; // one physical partition: no query reaches two, and no plan need be made
    }
    com.fasterxml.jackson.databind.node.ObjectNode plan;
    try {
      plan = c.queryPlan(q.text(), q.parameters());
    } catch (io.cosmolab.engine.error.CosmosException e) {
      return;
    }
    com.fasterxml.jackson.databind.JsonNode info = plan.path("queryInfo");
    // a hybrid search's plan has no queryInfo: the client's hybrid pipeline runs it
    boolean hybrid = plan.path("hybridSearchQueryInfo").isObject();
    boolean needsPipeline = hybrid || io.cosmolab.query.plan.QueryPlanner.needsPipeline(info);
    if (!needsPipeline || c.partitionsReachedBy(plan).size() < 2) {
      return;
    }
    boolean grouped = !info.path("groupByExpressions").isEmpty();
    boolean aggregated = io.cosmolab.query.plan.QueryPlanner.aggregates(info);
    if (!hybrid && (grouped || (aggregated && !info.path("hasSelectValue").asBoolean()))) {
      throw io.cosmolab.engine.error.CosmosError.BAD_REQUEST.exception(VALUE_AGGREGATES_ONLY);
    }
    throw new io.cosmolab.engine.error.CosmosException(
        io.cosmolab.engine.error.CosmosError.CROSS_PARTITION_QUERY_NOT_SERVABLE,
        NOT_SERVABLE,
        new String(
            io.cosmolab.engine.document.JsonTrees.write(plan),
            java.nio.charset.StandardCharsets.UTF_8));
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
    if (request.flag(Headers.POPULATE_INDEX_METRICS_V2)) {
      h.put(Headers.INDEX_UTILIZATION, QueryMetricsHeader.indexMetricsV2(page));
    } else if (request.flag(Headers.POPULATE_INDEX_METRICS)) {
      h.put(Headers.INDEX_UTILIZATION, QueryMetricsHeader.indexUtilization(page));
    }
    if (request.flag(Headers.POPULATE_QUERY_ADVICE)) {
      String advice = QueryMetricsHeader.queryAdvice(q);
      if (advice != null) {
        h.put(Headers.QUERY_ADVICE, advice);
      }
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
