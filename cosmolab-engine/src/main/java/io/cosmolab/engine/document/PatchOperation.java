package io.cosmolab.engine.document;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.error.CosmosError;
import java.util.Locale;

/**
 * One operation of a partial document update.
 *
 * @param type the operation
 * @param path the target, a JSON-pointer-like path such as {@code /tags/0} or {@code /tags/-}
 * @param value the value (add, set, replace, incr); null for remove and move
 * @param from the source path of a move; null otherwise
 */
public record PatchOperation(Type type, String path, JsonNode value, String from) {

  /** The operation types of the REST API ({@code gateway-protocol.md} §9.2). */
  public enum Type {
    ADD,
    SET,
    REPLACE,
    REMOVE,
    INCREMENT,
    MOVE;

    /** Parses the wire name; {@code incr} and the older {@code inc} both mean increment. */
    public static Type fromWireName(String op) {
      String name = op == null ? "" : op.toLowerCase(Locale.ROOT);
      return switch (name) {
        case "add" -> ADD;
        case "set" -> SET;
        case "replace" -> REPLACE;
        case "remove" -> REMOVE;
        case "incr", "inc", "increment" -> INCREMENT;
        case "move" -> MOVE;
        default ->
            throw CosmosError.BAD_REQUEST.exception(
                "patch operation '%s' is unknown; use add, set, replace, remove, incr or move", op);
      };
    }
  }

  public PatchOperation {
    if (type == null) {
      throw CosmosError.BAD_REQUEST.exception("a patch operation needs an 'op'");
    }
    if (path == null || !path.startsWith("/")) {
      throw CosmosError.BAD_REQUEST.exception(
          "patch %s needs a 'path' starting with '/', was %s",
          type.name().toLowerCase(Locale.ROOT), path);
    }
    boolean needsValue = type != Type.REMOVE && type != Type.MOVE;
    if (needsValue && (value == null || value.isMissingNode())) {
      throw CosmosError.BAD_REQUEST.exception(
          "patch %s at %s needs a 'value'", type.name().toLowerCase(Locale.ROOT), path);
    }
    if (type == Type.MOVE && (from == null || !from.startsWith("/"))) {
      throw CosmosError.BAD_REQUEST.exception(
          "patch move to %s needs a 'from' path starting with '/', was %s", path, from);
    }
    if (type == Type.INCREMENT && !value.isNumber()) {
      throw CosmosError.BAD_REQUEST.exception(
          "patch incr at %s needs a numeric value, was %s", path, value);
    }
  }

  public static PatchOperation add(String path, JsonNode value) {
    return new PatchOperation(Type.ADD, path, value, null);
  }

  public static PatchOperation set(String path, JsonNode value) {
    return new PatchOperation(Type.SET, path, value, null);
  }

  public static PatchOperation replace(String path, JsonNode value) {
    return new PatchOperation(Type.REPLACE, path, value, null);
  }

  public static PatchOperation remove(String path) {
    return new PatchOperation(Type.REMOVE, path, null, null);
  }

  public static PatchOperation increment(String path, JsonNode value) {
    return new PatchOperation(Type.INCREMENT, path, value, null);
  }

  public static PatchOperation move(String from, String path) {
    return new PatchOperation(Type.MOVE, path, null, from);
  }
}
