package io.cosmolab.engine.partitioning;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.cosmolab.engine.error.CosmosError;
import java.util.ArrayList;
import java.util.List;

/**
 * A partition key value: one component per path of the container's key definition, or fewer for a
 * hierarchical prefix. Equality is by components, so it identifies a logical partition.
 */
public record PartitionKeyValue(List<PartitionKeyComponent> components) {

  public PartitionKeyValue {
    components = List.copyOf(components);
  }

  /**
   * A value from plain Java objects: {@code String}, {@code Number}, {@code Boolean}, {@code null}
   * (JSON null) or {@link PartitionKeyComponent#UNDEFINED}.
   */
  public static PartitionKeyValue of(Object... values) {
    List<PartitionKeyComponent> components = new ArrayList<>(values.length);
    for (Object v : values) {
      components.add(component(v));
    }
    return new PartitionKeyValue(components);
  }

  private static PartitionKeyComponent component(Object v) {
    if (v == null) {
      return PartitionKeyComponent.NULL;
    }
    if (v instanceof PartitionKeyComponent c) {
      return c;
    }
    if (v instanceof String s) {
      return new PartitionKeyComponent.Str(s);
    }
    if (v instanceof Number n) {
      return new PartitionKeyComponent.Num(n.doubleValue());
    }
    if (v instanceof Boolean b) {
      return new PartitionKeyComponent.Bool(b);
    }
    throw new IllegalArgumentException(
        "a partition key component must be a String, Number, Boolean or null, was "
            + v.getClass().getName());
  }

  /**
   * Parses the {@code x-ms-documentdb-partitionkey} form: a JSON array with one element per
   * component ({@code {}} or {@code []} for undefined).
   */
  public static PartitionKeyValue fromJson(JsonNode array) {
    if (array == null || !array.isArray()) {
      throw CosmosError.PARTITION_KEY_MISMATCH.exception(
          "the partition key must be a JSON array of component values, e.g. [\"tenant-1\"], was %s",
          array);
    }
    List<PartitionKeyComponent> components = new ArrayList<>(array.size());
    for (JsonNode element : array) {
      PartitionKeyComponent c = PartitionKeyComponent.fromJson(element);
      if (c == null) {
        throw CosmosError.PARTITION_KEY_MISMATCH.exception(
            "partition key component %s is not a string, number, boolean, null or {}", element);
      }
      components.add(c);
    }
    return new PartitionKeyValue(components);
  }

  /** The header form: a JSON array. */
  public ArrayNode toJson() {
    ArrayNode array = JsonNodeFactory.instance.arrayNode(components.size());
    for (PartitionKeyComponent c : components) {
      array.add(c.toJson());
    }
    return array;
  }

  public int size() {
    return components.size();
  }

  /** The first {@code n} components: a hierarchical prefix. */
  public PartitionKeyValue prefix(int n) {
    return new PartitionKeyValue(components.subList(0, n));
  }

  @Override
  public String toString() {
    return toJson().toString();
  }
}
