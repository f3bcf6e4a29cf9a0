package io.cosmolab.engine.partitioning;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * One component of a partition key value: a string, a number (always a double, as the service
 * hashes it), a boolean, JSON null, or undefined (the document has no value at the path).
 */
public sealed interface PartitionKeyComponent {

  /** The type marker byte used by both hash versions ({@code gateway-protocol.md} §5.1). */
  int typeMarker();

  /** The component as JSON, in the partition-key header form ({@code {}} for undefined). */
  JsonNode toJson();

  /** A string component. */
  record Str(String value) implements PartitionKeyComponent {
    public Str {
      java.util.Objects.requireNonNull(value, "value");
    }

    @Override
    public int typeMarker() {
      return 0x08;
    }

    @Override
    public JsonNode toJson() {
      return JsonNodeFactory.instance.textNode(value);
    }
  }

  /** A number component; every JSON number is treated as an IEEE-754 double. */
  record Num(double value) implements PartitionKeyComponent {
    @Override
    public int typeMarker() {
      return 0x05;
    }

    @Override
    public JsonNode toJson() {
      return JsonNodeFactory.instance.numberNode(value);
    }

    @Override
    public boolean equals(Object o) {
      // 0.0 and -0.0 are the same key; NaN never occurs (JSON has none).
      return o instanceof Num other && other.value == value;
    }

    @Override
    public int hashCode() {
      return Double.hashCode(value == 0 ? 0.0 : value);
    }
  }

  /** A boolean component. */
  record Bool(boolean value) implements PartitionKeyComponent {
    @Override
    public int typeMarker() {
      return value ? 0x03 : 0x02;
    }

    @Override
    public JsonNode toJson() {
      return JsonNodeFactory.instance.booleanNode(value);
    }
  }

  /** JSON null. */
  record Null() implements PartitionKeyComponent {
    @Override
    public int typeMarker() {
      return 0x01;
    }

    @Override
    public JsonNode toJson() {
      return JsonNodeFactory.instance.nullNode();
    }
  }

  /** No value at the path (the SDKs send it as {@code {}}). */
  record Undefined() implements PartitionKeyComponent {
    @Override
    public int typeMarker() {
      return 0x00;
    }

    @Override
    public JsonNode toJson() {
      return JsonNodeFactory.instance.objectNode();
    }
  }

  /** The shared null component. */
  PartitionKeyComponent NULL = new Null();

  /** The shared undefined component. */
  PartitionKeyComponent UNDEFINED = new Undefined();

  /**
   * The component for a JSON value, or {@code null} if the value cannot be a partition key (an
   * array, or an object other than the empty "undefined" marker).
   */
  static PartitionKeyComponent fromJson(JsonNode node) {
    if (node == null || node.isMissingNode()) {
      return UNDEFINED;
    }
    if (node.isTextual()) {
      return new Str(node.textValue());
    }
    if (node.isNumber()) {
      return new Num(node.doubleValue());
    }
    if (node.isBoolean()) {
      return new Bool(node.booleanValue());
    }
    if (node.isNull()) {
      return NULL;
    }
    if ((node.isObject() || node.isArray()) && node.isEmpty()) {
      return UNDEFINED; // {} in the header; Java's deserializer also reads [] as undefined
    }
    return null;
  }
}
