package io.cosmolab.engine.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.errorprone.annotations.FormatMethod;
import com.google.errorprone.annotations.FormatString;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Applies patch operations to a document with the service's semantics (Cosmos DB "partial document
 * update"): {@code add} creates or replaces a property and inserts into arrays ({@code -} appends);
 * {@code set} is like add but overwrites an array element; {@code replace} and {@code remove}
 * require the target to exist; {@code incr} adds to a number, creating it if absent; {@code move}
 * removes {@code from} and adds its value at {@code path}. The parent of every target must exist.
 *
 * <p>The id, the partition key paths and system properties cannot be patched (the service refuses
 * changes to the key and id; a key change would move the document).
 */
public final class Patch {
  private Patch() {}

  /**
   * Applies {@code operations} in order to {@code document}, which is modified.
   *
   * @throws CosmosException 400 naming the operation and path that cannot apply
   */
  public static void apply(
      ObjectNode document, List<PatchOperation> operations, PartitionKeyDefinition key) {
    for (int i = 0; i < operations.size(); i++) {
      PatchOperation op = operations.get(i);
      checkWritable(op.path(), op, i, key);
      if (op.from() != null) {
        checkWritable(op.from(), op, i, key);
      }
      applyOne(document, op, i);
    }
  }

  private static void applyOne(ObjectNode document, PatchOperation op, int index) {
    List<String> segments = segments(op.path(), op, index);
    String last = segments.get(segments.size() - 1);
    switch (op.type()) {
      case ADD ->
          add(parent(document, segments, op, index), last, op.value().deepCopy(), op, index);
      case SET ->
          set(parent(document, segments, op, index), last, op.value().deepCopy(), op, index);
      case REPLACE -> {
        JsonNode parent = parent(document, segments, op, index);
        requireExists(parent, last, op, index);
        set(parent, last, op.value().deepCopy(), op, index);
      }
      case REMOVE -> remove(parent(document, segments, op, index), last, op, index);
      case INCREMENT -> increment(parent(document, segments, op, index), last, op, index);
      case MOVE -> {
        if (op.path().equals(op.from())) {
          return;
        }
        if (op.path().startsWith(op.from() + "/")) {
          throw failure(op, index, "'path' %s is inside 'from' %s", op.path(), op.from());
        }
        List<String> fromSegments = segments(op.from(), op, index);
        JsonNode fromParent = parent(document, fromSegments, op, index);
        JsonNode moved = remove(fromParent, fromSegments.get(fromSegments.size() - 1), op, index);
        add(parent(document, segments, op, index), last, moved, op, index);
      }
    }
  }

  private static void checkWritable(
      String path, PatchOperation op, int index, PartitionKeyDefinition key) {
    if (path.equals("/id")) {
      throw failure(op, index, "the id cannot be patched");
    }
    String first = path.substring(1).split("/", 2)[0];
    if (DocumentShape.SYSTEM_PROPERTIES.contains(first)) {
      throw failure(op, index, "system property /%s cannot be patched", first);
    }
    for (String keyPath : key.paths()) {
      if (path.equals(keyPath)
          || path.startsWith(keyPath + "/")
          || keyPath.startsWith(path + "/")) {
        throw failure(
            op,
            index,
            "%s is (part of) the partition key path %s, which cannot change; to move the document"
                + " to another logical partition, delete it and create it again",
            path,
            keyPath);
      }
    }
  }

  private static List<String> segments(String path, PatchOperation op, int index) {
    List<String> out = new ArrayList<>();
    for (String raw : path.substring(1).split("/", -1)) {
      if (raw.isEmpty()) {
        throw failure(op, index, "path %s has an empty segment", path);
      }
      out.add(raw.replace("~1", "/").replace("~0", "~"));
    }
    return out;
  }

  private static JsonNode parent(
      ObjectNode document, List<String> segments, PatchOperation op, int index) {
    JsonNode node = document;
    for (int i = 0; i < segments.size() - 1; i++) {
      String s = segments.get(i);
      JsonNode next = null;
      if (node.isObject()) {
        next = node.get(s);
      } else if (node.isArray()) {
        int at = arrayIndex(s);
        next = at >= 0 && at < node.size() ? node.get(at) : null;
      }
      if (next == null || !next.isContainerNode()) {
        if (op.type() == PatchOperation.Type.REMOVE
            || op.type() == PatchOperation.Type.REPLACE
            || (op.type() == PatchOperation.Type.MOVE && joined(segments).equals(op.from()))) {
          throw absent(op, index, joined(segments));
        }
        // the service's words, which applications match to create a missing parent first (the
        // Java SDK's PatchTest: "... no path found beyond: 'nonExistentParent'")
        throw serviceFailure(
            "For Operation(%d): %s Operation only support adding a leaf node of an existing"
                + " node(array or object), no path found beyond: '%s'. (%s needs a parent: there"
                + " is no object or array at /%s.)",
            index,
            operationName(op),
            s,
            joined(segments),
            String.join("/", segments.subList(0, i + 1)));
      }
      node = next;
    }
    return node;
  }

  private static String joined(List<String> segments) {
    return "/" + String.join("/", segments);
  }

  private static void add(
      JsonNode parent, String last, JsonNode value, PatchOperation op, int index) {
    if (parent.isObject()) {
      ((ObjectNode) parent).set(last, value);
      return;
    }
    ArrayNode array = (ArrayNode) parent;
    if (last.equals("-")) {
      array.add(value);
      return;
    }
    int at = arrayIndex(last);
    if (at < 0 || at > array.size()) {
      throw failure(op, index, "array index %s is out of bounds (size %d)", last, array.size());
    }
    array.insert(at, value);
  }

  private static void set(
      JsonNode parent, String last, JsonNode value, PatchOperation op, int index) {
    if (parent.isObject()) {
      ((ObjectNode) parent).set(last, value);
      return;
    }
    ArrayNode array = (ArrayNode) parent;
    int at = last.equals("-") ? array.size() : arrayIndex(last);
    if (at < 0 || at > array.size()) {
      throw failure(op, index, "array index %s is out of bounds (size %d)", last, array.size());
    }
    if (at == array.size()) {
      array.add(value);
    } else {
      array.set(at, value);
    }
  }

  private static void requireExists(JsonNode parent, String last, PatchOperation op, int index) {
    boolean exists =
        parent.isObject()
            ? parent.has(last)
            : arrayIndex(last) >= 0 && arrayIndex(last) < parent.size();
    if (!exists) {
      throw absent(op, index, op.path());
    }
  }

  private static JsonNode remove(JsonNode parent, String last, PatchOperation op, int index) {
    String path = op.type() == PatchOperation.Type.MOVE ? op.from() : op.path();
    if (parent.isObject()) {
      JsonNode removed = ((ObjectNode) parent).remove(last);
      if (removed == null) {
        throw absent(op, index, path);
      }
      return removed;
    }
    int at = arrayIndex(last);
    if (at < 0 || at >= parent.size()) {
      throw absent(op, index, path);
    }
    return ((ArrayNode) parent).remove(at);
  }

  private static void increment(JsonNode parent, String last, PatchOperation op, int index) {
    JsonNode current;
    if (parent.isObject()) {
      current = parent.get(last);
    } else {
      int at = arrayIndex(last);
      if (at < 0 || at >= parent.size()) {
        throw failure(op, index, "the target path %s does not exist", op.path());
      }
      current = parent.get(at);
    }
    JsonNode result;
    if (current == null) {
      result = op.value().deepCopy();
    } else if (!current.isNumber()) {
      throw serviceFailure(
          "For Operation(%d): Node(%s) isn't a number. (It is %s; increment adds to a number.)",
          index, op.path(), current.getNodeType());
    } else {
      result = sum(current, op.value());
      if (!Double.isFinite(result.doubleValue())) {
        throw failure(
            op,
            index,
            "adding %s to %s at %s overflows: JSON numbers are IEEE 754 doubles, at most about"
                + " 1.8e308",
            op.value(),
            current,
            op.path());
      }
    }
    set(parent, last, result, op, index);
  }

  private static JsonNode sum(JsonNode a, JsonNode b) {
    if (a.isIntegralNumber()
        && b.isIntegralNumber()
        && a.canConvertToLong()
        && b.canConvertToLong()) {
      long x = a.longValue();
      long y = b.longValue();
      long r = x + y;
      if (((x ^ r) & (y ^ r)) >= 0) {
        return JsonNodeFactory.instance.numberNode(r);
      }
    }
    return JsonNodeFactory.instance.numberNode(a.doubleValue() + b.doubleValue());
  }

  private static int arrayIndex(String segment) {
    if (segment.isEmpty() || segment.length() > 9) {
      return -1;
    }
    for (int i = 0; i < segment.length(); i++) {
      if (!Character.isDigit(segment.charAt(i))) {
        return -1;
      }
    }
    return Integer.parseInt(segment);
  }

  /**
   * A remove, replace or move whose node is not there, in the service's words [D "Partial document
   * update", troubleshooting: "Node(PATH) to be removed is absent"].
   */
  private static CosmosException absent(PatchOperation op, int index, String path) {
    return op.type() == PatchOperation.Type.REPLACE
        ? serviceFailure("For Operation(%d): Node(%s) to be replaced is absent.", index, path)
        : serviceFailure(
            "For Operation(%d): Node(%s) to be removed is absent. Note: it might also have been"
                + " removed earlier in the transaction.",
            index, path);
  }

  /** The name the service's messages give an operation ("Add", "Increment"). */
  private static String operationName(PatchOperation op) {
    String n = op.type().name().toLowerCase(Locale.ROOT);
    return Character.toUpperCase(n.charAt(0)) + n.substring(1);
  }

  @FormatMethod
  private static CosmosException serviceFailure(@FormatString String format, Object... args) {
    return CosmosError.BAD_REQUEST.exception(format, args);
  }

  @FormatMethod
  private static CosmosException failure(
      PatchOperation op, int index, @FormatString String format, Object... args) {
    return CosmosError.BAD_REQUEST.exception(
        "patch operation %d (%s %s) cannot apply: %s",
        index, op.type().name().toLowerCase(Locale.ROOT), op.path(), String.format(format, args));
  }
}
