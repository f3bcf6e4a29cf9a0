package io.cosmolab.gateway.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ItemOptions;
import io.cosmolab.engine.ItemResponse;
import io.cosmolab.engine.batch.BatchOperation;
import io.cosmolab.engine.document.DocumentCondition;
import io.cosmolab.engine.document.PatchOperation;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Document operations as values: the REST point operations and the operations of a batch or bulk
 * request are parsed into the engine's {@link BatchOperation}s, and one method runs any of them on
 * its own, so a bulk create and a {@code POST .../docs} take the same path.
 */
final class Operations {
  private Operations() {}

  /** Runs one operation outside a transaction. */
  static ItemResponse execute(
      Container c, PartitionKeyValue key, BatchOperation op, ItemOptions base) {
    if (op instanceof BatchOperation.Create create) {
      return c.create(key, create.document(), base);
    } else if (op instanceof BatchOperation.Upsert upsert) {
      return c.upsert(key, upsert.document(), base.withIfMatch(upsert.ifMatch()));
    } else if (op instanceof BatchOperation.Replace replace) {
      return c.replace(key, replace.id(), replace.document(), base.withIfMatch(replace.ifMatch()));
    } else if (op instanceof BatchOperation.Read read) {
      return c.read(key, read.id(), new ItemOptions(null, read.ifNoneMatch(), base.strongRead()));
    } else if (op instanceof BatchOperation.Delete delete) {
      return c.delete(key, delete.id(), base.withIfMatch(delete.ifMatch()));
    } else if (op instanceof BatchOperation.Patch patch) {
      return c.patch(
          key,
          patch.id(),
          patch.operations(),
          patch.condition(),
          base.withIfMatch(patch.ifMatch()));
    }
    throw new IllegalStateException("unknown operation " + op);
  }

  /**
   * One operation of a batch or bulk body ({@code gateway-protocol.md} §9.3): {@code
   * operationType}, {@code id}, {@code resourceBody}, {@code ifMatch}, {@code ifNoneMatch}.
   */
  static BatchOperation parseBatchOperation(Container c, JsonNode op, int index) {
    if (!op.isObject()) {
      throw CosmosError.BAD_REQUEST.exception("batch operation %d is not a JSON object", index);
    }
    String type = op.path("operationType").asText("");
    String id = op.hasNonNull("id") ? op.get("id").asText() : null;
    String ifMatch = op.hasNonNull("ifMatch") ? op.get("ifMatch").asText() : null;
    String ifNoneMatch = op.hasNonNull("ifNoneMatch") ? op.get("ifNoneMatch").asText() : null;
    JsonNode body = op.get("resourceBody");
    switch (type.toLowerCase(Locale.ROOT)) {
      case "create" -> {
        return new BatchOperation.Create(document(body, index));
      }
      case "upsert" -> {
        return new BatchOperation.Upsert(document(body, index), ifMatch);
      }
      case "replace" -> {
        return new BatchOperation.Replace(required(id, index), document(body, index), ifMatch);
      }
      case "read" -> {
        return new BatchOperation.Read(required(id, index), ifNoneMatch);
      }
      case "delete" -> {
        return new BatchOperation.Delete(required(id, index), ifMatch);
      }
      case "patch" -> {
        Patch p = parsePatch(c, body);
        return new BatchOperation.Patch(
            required(id, index), p.operations(), p.condition(), ifMatch);
      }
      default -> {
        throw CosmosError.BAD_REQUEST.exception(
            "batch operation %d has operationType '%s'; use Create, Upsert, Replace, Read, Delete"
                + " or Patch",
            index, type);
      }
    }
  }

  private static String required(String id, int index) {
    if (id == null) {
      throw CosmosError.BAD_REQUEST.exception("batch operation %d needs an 'id'", index);
    }
    return id;
  }

  private static ObjectNode document(JsonNode body, int index) {
    if (body == null || !body.isObject()) {
      throw CosmosError.BAD_REQUEST.exception(
          "batch operation %d needs a JSON object as its resourceBody", index);
    }
    return (ObjectNode) body;
  }

  /**
   * A patch body: {@code {"operations": [...], "condition": "FROM c WHERE ..."}}, or the bare array
   * of operations, which the JavaScript SDK sends for {@code item.patch([...])} and the service
   * accepts.
   */
  static Patch parsePatch(Container c, JsonNode body) {
    boolean bare = body != null && body.isArray();
    if (body == null || (!bare && (!body.isObject() || !body.path("operations").isArray()))) {
      throw CosmosError.BAD_REQUEST.exception(
          "a patch body must be {\"operations\": [{\"op\": \"set\", \"path\": \"/a\", \"value\":"
              + " 1}], \"condition\": \"FROM c WHERE ...\"} or the array of operations alone");
    }
    List<PatchOperation> ops = new ArrayList<>();
    for (JsonNode o : bare ? body : body.get("operations")) {
      if (!o.isObject()) {
        throw CosmosError.BAD_REQUEST.exception("a patch operation must be an object, was %s", o);
      }
      ops.add(
          new PatchOperation(
              PatchOperation.Type.fromWireName(o.path("op").asText(null)),
              o.path("path").asText(null),
              o.get("value"),
              o.path("from").asText(null)));
    }
    JsonNode condition = bare ? null : body.get("condition");
    DocumentCondition cond =
        condition == null || condition.isNull() || condition.asText().isBlank()
            ? null
            : c.condition(condition.asText());
    return new Patch(ops, cond);
  }

  /** A parsed patch. */
  record Patch(List<PatchOperation> operations, DocumentCondition condition) {}
}
