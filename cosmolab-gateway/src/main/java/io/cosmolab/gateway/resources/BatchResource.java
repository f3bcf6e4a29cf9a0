package io.cosmolab.gateway.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ItemOptions;
import io.cosmolab.engine.ItemResponse;
import io.cosmolab.engine.batch.BatchOperation;
import io.cosmolab.engine.batch.BatchResult;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.limits.Limits;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Transactional batch and bulk ({@code gateway-protocol.md} §9.3): a JSON array of operations in, a
 * JSON array with exactly one result per operation out.
 *
 * <ul>
 *   <li>Atomic ({@code x-ms-cosmos-batch-atomic: True}): one logical partition, all or nothing —
 *       200, or 207 with the failing operation's status and 424 for the others.
 *   <li>Bulk (atomic false): each operation carries its own {@code partitionKey} and succeeds or
 *       fails alone; a throttled operation answers 429 with {@code retryAfterMilliseconds}, so the
 *       SDK retries just that one.
 * </ul>
 */
final class BatchResource {

  WireResponse handle(WireRequest request, Container c) {
    if (request.body().length > Limits.MAX_BATCH_REQUEST_BYTES) {
      // [A] the status the service gives an oversized batch is not documented; a single
      // document over its limit gets this 413, so a batch over its own limit gets it too
      throw CosmosError.REQUEST_ENTITY_TOO_LARGE.exception(
          "Request size is too large: the batch body is %d bytes; a batch may carry at most %d",
          request.body().length, Limits.MAX_BATCH_REQUEST_BYTES);
    }
    JsonNode body = Requests.json(request);
    if (!body.isArray()) {
      throw CosmosError.BAD_REQUEST.exception(
          "a batch body must be a JSON array of operations, was %s", body.getNodeType());
    }
    if (body.size() > Limits.MAX_BATCH_OPERATIONS) {
      throw CosmosError.BAD_REQUEST.exception(
          "Batch request has more operations than what is supported: %d, the limit is %d",
          body.size(), Limits.MAX_BATCH_OPERATIONS);
    }
    String atomic = request.header(Headers.BATCH_ATOMIC);
    boolean isAtomic = atomic == null || !atomic.strip().equalsIgnoreCase("false");
    return isAtomic ? atomic(request, c, body) : bulk(request, c, body);
  }

  private static WireResponse atomic(WireRequest request, Container c, JsonNode body) {
    PartitionKeyValue key = Requests.requiredPartitionKey(request);
    List<BatchOperation> ops = new ArrayList<>();
    for (int i = 0; i < body.size(); i++) {
      // an operation may name its key (the JavaScript SDK sends it for every one): a transaction
      // holds one logical partition, so another key fails the whole batch, as on the service
      if (!key.equals(operationKey(body.get(i), key))) {
        throw CosmosError.BAD_REQUEST.exception(
            "One or more operations within the batch request have a different partition key"
                + " value than the request. (operation %d names %s, the request %s)",
            i, body.get(i).get("partitionKey").asText(), request.header(Headers.PARTITION_KEY));
      }
      ops.add(Operations.parseBatchOperation(c, body.get(i), i));
    }
    BatchResult result = c.executeBatch(key, ops, i -> !minimalWrite(body.get(i)));
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    for (int i = 0; i < result.operations().size(); i++) {
      BatchResult.OperationResult r = result.operations().get(i);
      JsonNode op = body.get(i);
      ObjectNode o = out.addObject();
      o.put("statusCode", r.status());
      if (r.subStatus() != 0) {
        o.put("subStatusCode", r.subStatus());
      }
      o.put("requestCharge", r.requestCharge());
      if (r.etag() != null) {
        o.put("eTag", r.etag());
      }
      if (r.document() != null && !minimalWrite(op)) {
        o.set("resourceBody", r.document());
      }
      if (r.message() != null) {
        o.put("message", r.message());
      }
    }
    String range = Responses.ownerRange(c, key);
    Map<String, String> h = Responses.containerHeaders(c, result.requestCharge(), range);
    h.put(Headers.SESSION_TOKEN, Responses.sessionToken(range, result.lsn()));
    h.put(Headers.PARTITION_KEY_RANGE_ID, range);
    return WireResponse.json(result.status(), out, h);
  }

  /**
   * Whether a batch operation is a write that asks for no body (the .NET SDK's {@code
   * EnableContentResponseOnWrite = false}): it gets none; a read always does ({@code
   * CosmosContentResponseTests.ItemBatchNoResponseTest}).
   */
  private static boolean minimalWrite(JsonNode op) {
    return op.path("minimalReturnPreference").asBoolean()
        && !"Read".equalsIgnoreCase(op.path("operationType").asText());
  }

  /**
   * The logical partition a bulk operation is for: its own {@code partitionKey} (JSON text, as the
   * header's), else the request's header, else null.
   */
  static PartitionKeyValue operationKey(JsonNode op, PartitionKeyValue headerKey) {
    return op.hasNonNull("partitionKey")
        ? Requests.partitionKeyText(op.get("partitionKey").asText())
        : headerKey;
  }

  private static WireResponse bulk(WireRequest request, Container c, JsonNode body) {
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    double charge = 0;
    boolean allOk = true;
    PartitionKeyValue headerKey = Requests.partitionKey(request);
    ItemOptions options = Requests.itemOptions(request);
    // x-ms-cosmos-batch-continue-on-error: False (the JS SDK's continueOnError, the Java SDK's
    // server batch option) stops at the first failure; the rest answer 424, not run
    String continueHeader = request.header(Headers.BATCH_CONTINUE_ON_ERROR);
    boolean continueOnError =
        continueHeader == null || !continueHeader.strip().equalsIgnoreCase("false");
    boolean minimal = Requests.minimalResponse(request);
    int failedAt = -1;
    // the one physical partition the operations went to, for the session token the SDKs keep of
    // a bulk request (the .NET SDK's CosmosItemBulkTests); "" once they went to several
    String range = null;
    for (int i = 0; i < body.size(); i++) {
      JsonNode op = body.get(i);
      ObjectNode o = out.addObject();
      if (failedAt >= 0) {
        o.put("statusCode", CosmosError.FAILED_DEPENDENCY.status());
        o.put("requestCharge", 0.0);
        o.put(
            "message",
            "not run: operation "
                + failedAt
                + " failed and the request does not continue on error");
        continue;
      }
      try {
        PartitionKeyValue key = operationKey(op, headerKey);
        if (key == null) {
          throw CosmosError.PARTITION_KEY_MISMATCH.exception(
              "bulk operation %d has no partitionKey", i);
        }
        ItemResponse r =
            Operations.execute(c, key, Operations.parseBatchOperation(c, op, i), options);
        range = sameRange(range, Responses.ownerRange(c, key));
        charge += r.requestCharge();
        o.put("statusCode", r.status());
        o.put("requestCharge", r.requestCharge());
        if (r.etag() != null) {
          o.put("eTag", r.etag());
        }
        if (r.documentView() != null
            && !minimal
            && !op.path("minimalReturnPreference").asBoolean(false)) {
          o.set("resourceBody", r.documentView());
        }
      } catch (CosmosException e) {
        allOk = false;
        if (e.sessionRange() != null) {
          range = sameRange(range, e.sessionRange());
        }
        charge += e.requestCharge();
        o.put("statusCode", e.status());
        if (e.subStatus() != 0) {
          o.put("subStatusCode", e.subStatus());
        }
        o.put("requestCharge", e.requestCharge());
        if (e.status() == 429) {
          o.put("retryAfterMilliseconds", Math.max(1, e.retryAfterMillis()));
        }
        o.put("message", e.getMessage());
        if (!continueOnError) {
          failedAt = i;
        }
      }
    }
    Map<String, String> h = Responses.containerHeaders(c, charge);
    if (range != null && !range.isEmpty() && c.routing().byId(range).isPresent()) {
      h.put(Headers.SESSION_TOKEN, Responses.sessionToken(range, c.lsn(range)));
      h.put(Headers.PARTITION_KEY_RANGE_ID, range);
    }
    return WireResponse.json(allOk ? 200 : 207, out, h);
  }

  /** The range so far, met with one more operation's: null for none yet, "" for several. */
  private static String sameRange(String sofar, String next) {
    if (sofar == null) {
      return next;
    }
    return sofar.equals(next) ? sofar : "";
  }
}
