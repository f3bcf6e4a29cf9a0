package io.cosmolab.engine.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deep copies of JSON trees made to be kept: the form the engine stores a document's body in. Each
 * object of up to {@value FlatProperties#MAX_PROPERTIES} properties keeps them in one array ({@link
 * FlatProperties}) instead of a hash map, each array's list is exactly its size, and the value
 * nodes (strings, numbers, booleans, null), which Jackson never changes, are shared with the source
 * rather than copied, as {@code deepCopy} shares them too; a string property keeps only its text,
 * and readers get a text node of it.
 *
 * <p>The copy is an ordinary {@code ObjectNode} to every reader: equal to the source, in the same
 * property order, serialized the same, and mutable the same way. Only its memory differs: for the
 * benchmarks' documents of ten top-level properties it keeps about 450 bytes and 11 objects fewer
 * per document (docs/benchmarks.md, "What a stored document keeps").
 */
public final class CompactObjects {
  private CompactObjects() {}

  /**
   * A compact deep copy of {@code source}, with room for {@code room} more top-level properties
   * before its array grows (a stored document's system properties are put after the copy).
   */
  public static ObjectNode copyOf(ObjectNode source, int room) {
    int size = source.size() + room;
    Map<String, JsonNode> properties =
        size > FlatProperties.MAX_PROPERTIES ? new LinkedHashMap<>() : new FlatProperties(size);
    for (Map.Entry<String, JsonNode> e : source.properties()) {
      if (properties instanceof FlatProperties flat && e.getValue() instanceof TextNode text) {
        flat.putString(e.getKey(), text);
      } else {
        properties.put(e.getKey(), copyOf(e.getValue()));
      }
    }
    return new Node(properties);
  }

  /**
   * Puts {@code name} ({@code _rid}, {@code _self} or {@code _etag}) into a copy {@link #copyOf}
   * made, as text that {@code text} makes when it is read: nothing kept but {@code text}, which the
   * three share. Into any other object (or one of over {@value FlatProperties#MAX_PROPERTIES}
   * properties, which keeps a hash map), the text itself.
   */
  public static void putSystemText(ObjectNode body, String name, SystemText text) {
    if (body instanceof Node n && n.children() instanceof FlatProperties f) {
      f.putText(name, text);
    } else {
      body.put(name, text.text(name));
    }
  }

  /**
   * In a copy {@link #copyOf} made, makes top-level property {@code name} keep {@code shared} as
   * its text if it holds an equal string of its own (one string for the same value in many
   * documents: a logical partition's key). Any other object, or value, is left as it is.
   */
  public static void shareText(ObjectNode body, String name, String shared) {
    if (body instanceof Node n && n.children() instanceof FlatProperties f) {
      f.shareString(name, shared);
    }
  }

  /** The properties of a copy {@link #copyOf} made, kept in one array; null for any other node. */
  static FlatProperties flatOf(JsonNode node) {
    return node instanceof Node n && n.children() instanceof FlatProperties f ? f : null;
  }

  /**
   * Makes the {@link SystemText}s a body {@link #putSystemText} filled their {@link
   * SystemText#detached} forms, in place: for a stored version once it is superseded, whose body
   * the change log may keep for its retention window but whose version (and the JSON it caches) it
   * should not. Readers racing with this see the one or the other, which make the same texts (and a
   * detached form's fields are final, so a reader that sees it sees it whole).
   */
  public static void detachSystemTexts(JsonNode body) {
    if (body instanceof Node n && n.children() instanceof FlatProperties f) {
      f.detachTexts();
    }
  }

  /** The {@link SystemText} under {@code name} in a body {@link #putSystemText} filled, or null. */
  public static SystemText systemText(JsonNode body, String name) {
    return body instanceof Node n && n.children() instanceof FlatProperties f
        ? f.textOf(name)
        : null;
  }

  /**
   * An {@code ObjectNode} whose properties {@link CompactObjects} can reach: Jackson's keeps them
   * in a protected field. To every other reader an ordinary {@code ObjectNode} (equality, copies
   * and serialization go through the map).
   */
  // Jackson's ObjectNode.deepCopy() narrows JsonNode's generic one; javac warns in every subclass
  @SuppressWarnings("unchecked")
  private static final class Node extends ObjectNode {
    private static final long serialVersionUID = 1L;

    Node(Map<String, JsonNode> properties) {
      super(JsonNodeFactory.instance, properties);
    }

    Map<String, JsonNode> children() {
      return _children;
    }

    /**
     * A deep copy as compact as this, its system texts still made when read: a query row that is a
     * stored document is copied before it is handed out, and would otherwise make them all.
     */
    @Override
    public ObjectNode deepCopy() {
      return _children instanceof FlatProperties f ? new Node(f.deepCopy()) : super.deepCopy();
    }
  }

  private static JsonNode copyOf(JsonNode node) {
    if (node instanceof ObjectNode o) {
      return copyOf(o, 0);
    }
    if (node instanceof ArrayNode a) {
      List<JsonNode> elements = new ArrayList<>(a.size());
      for (JsonNode element : a) {
        elements.add(copyOf(element));
      }
      return new ArrayNode(JsonNodeFactory.instance, elements);
    }
    return node; // a value node: immutable
  }
}
