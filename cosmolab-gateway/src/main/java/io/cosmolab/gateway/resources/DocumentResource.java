package io.cosmolab.gateway.resources;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ItemOptions;
import io.cosmolab.engine.ItemResponse;
import io.cosmolab.engine.batch.BatchOperation;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.gateway.wire.FeedPost;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.util.Map;

/**
 * {@code /dbs/{db}/colls/{coll}/docs[/{id}]}: point operations here; a POST to the feed is a create
 * or upsert, unless its headers make it a query, a query plan or a batch; a GET of the feed is a
 * change feed when it carries {@code A-IM}, otherwise a read feed ({@code gateway-protocol.md}
 * §7–§9).
 */
final class DocumentResource {
  private final QueryResource queries;
  private final ChangeFeedResource changeFeed;
  private final BatchResource batches;

  DocumentResource(QueryResource queries, ChangeFeedResource changeFeed, BatchResource batches) {
    this.queries = queries;
    this.changeFeed = changeFeed;
    this.batches = batches;
  }

  WireResponse feed(WireRequest request, Container c) {
    switch (request.method()) {
      case "POST" -> {
        return switch (FeedPost.of(request)) {
          case BATCH -> batches.handle(request, c);
          case QUERY_PLAN -> queries.plan(request, c);
          case QUERY -> queries.query(request, c);
          case WRITE -> write(request, c);
        };
      }
      case "GET" -> {
        return request.header(Headers.A_IM) != null
            ? changeFeed.handle(request, c)
            : queries.readFeed(request, c);
      }
      default -> {
        throw Protocol.methodNotAllowed(request);
      }
    }
  }

  WireResponse item(WireRequest request, Container c) {
    String id = request.path().segment(5);
    PartitionKeyValue key = Requests.requiredPartitionKey(request);
    ItemOptions options = Requests.itemOptions(request);
    BatchOperation op =
        switch (request.method()) {
          case "GET" -> new BatchOperation.Read(id, options.ifNoneMatch());
          case "PUT" -> new BatchOperation.Replace(id, Requests.object(request), options.ifMatch());
          case "DELETE" -> new BatchOperation.Delete(id, options.ifMatch());
          case "PATCH" -> {
            Operations.Patch p = Operations.parsePatch(c, Requests.json(request));
            yield new BatchOperation.Patch(id, p.operations(), p.condition(), options.ifMatch());
          }
          default -> throw Protocol.methodNotAllowed(request);
        };
    return respond(request, c, Operations.execute(c, key, op, options));
  }

  private WireResponse write(WireRequest request, Container c) {
    ObjectNode doc = Requests.object(request);
    PartitionKeyValue key = Requests.requiredPartitionKey(request);
    ItemOptions options = Requests.itemOptions(request);
    BatchOperation op =
        request.flag(Headers.IS_UPSERT)
            ? new BatchOperation.Upsert(doc, options.ifMatch())
            : new BatchOperation.Create(doc);
    return respond(request, c, Operations.execute(c, key, op, options));
  }

  private static WireResponse respond(WireRequest request, Container c, ItemResponse r) {
    Map<String, String> h =
        Responses.containerHeaders(c, r.requestCharge(), r.partitionKeyRangeId());
    // the partition's LSN after the operation, at least the write's own (another write to the
    // partition may have followed it)
    String lsn = Long.toString(Math.max(r.lsn(), c.lsn(r.partitionKeyRangeId())));
    h.put(Headers.LSN, lsn);
    h.put(Headers.GLOBAL_COMMITTED_LSN, lsn);
    h.put(Headers.SESSION_TOKEN, Responses.sessionToken(r.partitionKeyRangeId(), r.lsn()));
    if (r.partitionKeyRangeId() != null) {
      // the physical partition that served it, which users read to see where a key lives
      h.put(Headers.PARTITION_KEY_RANGE_ID, r.partitionKeyRangeId());
    }
    if (r.etag() != null) {
      h.put(Headers.ETAG, r.etag());
    }
    if (r.documentView() == null) {
      return WireResponse.empty(r.status(), h);
    }
    // a read answers with the stored version's serialized form, made once per version
    WireResponse out = new WireResponse(r.status(), h, r.documentJson());
    boolean write = !request.method().equals("GET");
    return write && Requests.minimalResponse(request) ? out.withoutBody() : out;
  }
}
