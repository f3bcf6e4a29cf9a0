package io.cosmolab.engine.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.limits.Limits;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the engine needs to know of a document's JSON: its size in UTF-8 bytes (for limits, storage
 * and charges), its indexed terms (for write charges) and its nesting depth (for the limit).
 *
 * <p>Assumption [H] ({@code partitioning-model.md} §2.2): with the default indexing policy every
 * leaf value is an indexed term, each array element counting once; system properties are not.
 */
public final class DocumentShape {
  private DocumentShape() {}

  /** Properties the service adds and does not index. */
  public static final Set<String> SYSTEM_PROPERTIES =
      Set.of("_rid", "_self", "_etag", "_ts", "_attachments", "_lsn");

  /**
   * The size of {@code json} serialized as compact UTF-8 JSON, exactly as Jackson's default writer
   * would produce it, computed by walking the tree (no bytes are written). Node types without a
   * plain JSON form (binary, POJO) are measured by serializing them.
   */
  public static int sizeOf(JsonNode json) {
    long n = measure(json);
    return (int) Math.min(Integer.MAX_VALUE, n);
  }

  private static long measure(JsonNode node) {
    switch (node.getNodeType()) {
      case OBJECT -> {
        FlatProperties flat = CompactObjects.flatOf(node);
        if (flat != null) {
          return measureFlat(flat);
        }
        long n = 2; // { }
        int fields = 0;
        for (Map.Entry<String, JsonNode> e : node.properties()) {
          n += quoted(e.getKey()) + 1 + measure(e.getValue()); // "name":value
          fields++;
        }
        return n + Math.max(0, fields - 1); // commas
      }
      case ARRAY -> {
        long n = 2;
        for (JsonNode child : node) {
          n += measure(child);
        }
        return n + Math.max(0, node.size() - 1);
      }
      case STRING -> {
        return quoted(node.textValue());
      }
      case BOOLEAN -> {
        return node.booleanValue() ? 4 : 5;
      }
      case NULL, MISSING -> {
        return 4;
      }
      case NUMBER -> {
        return numberLength(node);
      }
      default -> {
        return serialized(node);
      }
    }
  }

  /**
   * {@link #measure} of a stored body's object, read from its array: its strings measured as they
   * are kept, without the text node a reader gets (one per string per walk, for the collector).
   */
  private static long measureFlat(FlatProperties flat) {
    int size = flat.size();
    long n = 2L + Math.max(0, size - 1); // { } and commas
    for (int i = 0; i < size; i++) {
      String text = flat.textAt(i);
      n += quoted(flat.nameAt(i)) + 1 + (text != null ? quoted(text) : measure(flat.nodeAt(i)));
    }
    return n;
  }

  private static long numberLength(JsonNode node) {
    return switch (node.numberType()) {
      case INT, LONG -> stringSize(node.longValue());
      case DOUBLE -> {
        double d = node.doubleValue();
        // non-finite numbers are written as quoted strings by default ("NaN")
        yield Double.isFinite(d) ? Double.toString(d).length() : Double.toString(d).length() + 2;
      }
      case FLOAT -> {
        float f = node.floatValue();
        yield Float.isFinite(f) ? Float.toString(f).length() : Float.toString(f).length() + 2;
      }
      case BIG_INTEGER -> node.bigIntegerValue().toString().length();
      case BIG_DECIMAL -> node.decimalValue().toString().length();
    };
  }

  private static int stringSize(long v) {
    if (v == Long.MIN_VALUE) {
      return 20;
    }
    int n = v < 0 ? 2 : 1;
    long x = Math.abs(v);
    while (x >= 10) {
      x /= 10;
      n++;
    }
    return n;
  }

  /** A string's size as a quoted, escaped UTF-8 JSON string. */
  private static long quoted(String s) {
    // Plain printable ASCII, most of most documents, is one byte a char: counted by a loop simple
    // enough for the JIT to run at several times the speed of the general one below.
    int len = s.length();
    int i = 0;
    while (i < len) {
      char c = s.charAt(i);
      if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') {
        break;
      }
      i++;
    }
    long n = 2L + i;
    for (; i < len; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        if (c == '"' || c == '\\') {
          n += 2;
        } else if (c < 0x20) {
          n += (c == '\b' || c == '\t' || c == '\n' || c == '\f' || c == '\r') ? 2 : 6;
        } else {
          n += 1;
        }
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 12; // Jackson 2 writes a surrogate pair as two \\uXXXX escapes
        i++;
      } else if (Character.isSurrogate(c)) {
        return serialized(com.fasterxml.jackson.databind.node.TextNode.valueOf(s));
      } else {
        n += 3;
      }
    }
    return n;
  }

  /** Nodes the walk does not size itself (binary, POJO, a lone surrogate), by writing them. */
  private static long serialized(JsonNode node) {
    return JsonTrees.write(node).length;
  }

  /**
   * The indexed terms of a document, checking the nesting-depth limit in the same walk.
   *
   * @throws io.cosmolab.engine.error.CosmosException 400 naming the depth
   */
  public static int indexedTermsCheckingDepth(ObjectNode document) {
    return indexedTermsCheckingDepth(document, null);
  }

  /**
   * The terms of a document that its indexing policy indexes, checking the nesting-depth limit in
   * the same walk.
   *
   * @param indexed whether the value at a path is indexed (array elements as {@code []}, the
   *     policy's notation); null when every path is, the default policy's fast path
   * @throws io.cosmolab.engine.error.CosmosException 400 naming the depth
   */
  public static int indexedTermsCheckingDepth(
      ObjectNode document, java.util.function.Predicate<List<String>> indexed) {
    int[] terms = {0};
    int depth =
        indexed == null
            ? countLeaves(document, 0, terms)
            : countIndexedLeaves(document, new java.util.ArrayList<>(), indexed, terms);
    if (depth > Limits.MAX_NESTING_DEPTH) {
      throw CosmosError.BAD_REQUEST.exception(
          "the document nests more than %d levels deep", Limits.MAX_NESTING_DEPTH);
    }
    return terms[0];
  }

  /**
   * The indexed terms of a document, without the depth check: for estimates over sample data, where
   * a document the service would refuse is still data. Leaves nested past the limit are not
   * counted.
   */
  public static int indexedTerms(ObjectNode document) {
    int[] terms = {0};
    countLeaves(document, 0, terms);
    return terms[0];
  }

  /** As {@link #countLeaves}, counting only the leaves {@code indexed} accepts; returns depth. */
  private static int countIndexedLeaves(
      JsonNode node,
      List<String> path,
      java.util.function.Predicate<List<String>> indexed,
      int[] terms) {
    int level = path.size();
    if (!node.isContainerNode()) {
      if (indexed.test(path)) {
        terms[0]++;
      }
      return level;
    }
    if (level > Limits.MAX_NESTING_DEPTH) {
      return level;
    }
    int max = level + 1;
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        if (level == 0 && SYSTEM_PROPERTIES.contains(e.getKey())) {
          continue;
        }
        path.add(e.getKey());
        max = Math.max(max, countIndexedLeaves(e.getValue(), path, indexed, terms));
        path.remove(path.size() - 1);
      }
    } else {
      for (JsonNode child : node) {
        path.add("[]");
        max = Math.max(max, countIndexedLeaves(child, path, indexed, terms));
        path.remove(path.size() - 1);
      }
    }
    return max;
  }

  /** Counts leaves below {@code node} (system properties at the top skipped); returns depth. */
  private static int countLeaves(JsonNode node, int level, int[] terms) {
    if (!node.isContainerNode()) {
      terms[0]++;
      return level;
    }
    if (level > Limits.MAX_NESTING_DEPTH) {
      return level;
    }
    int max = level + 1;
    FlatProperties flat = CompactObjects.flatOf(node);
    if (flat != null) {
      // a stored body: its strings are leaves, counted without making their nodes
      for (int i = 0; i < flat.size(); i++) {
        if (level == 0 && SYSTEM_PROPERTIES.contains(flat.nameAt(i))) {
          continue;
        }
        if (flat.isText(i)) {
          terms[0]++;
        } else {
          max = Math.max(max, countLeaves(flat.nodeAt(i), level + 1, terms));
        }
      }
    } else if (node.isObject()) {
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        if (level == 0 && SYSTEM_PROPERTIES.contains(e.getKey())) {
          continue;
        }
        max = Math.max(max, countLeaves(e.getValue(), level + 1, terms));
      }
    } else {
      for (JsonNode child : node) {
        max = Math.max(max, countLeaves(child, level + 1, terms));
      }
    }
    return max;
  }

  /**
   * How many indexed terms differ between two versions: the larger of the terms removed and the
   * terms added (one property changed counts 1).
   */
  public static int changedTerms(ObjectNode before, ObjectNode after) {
    return changedTerms(before, after, null);
  }

  /**
   * {@link #changedTerms(ObjectNode, ObjectNode)} counting only the paths {@code indexed} accepts
   * (null: all), as {@link #indexedTermsCheckingDepth(ObjectNode, java.util.function.Predicate)}.
   */
  public static int changedTerms(
      ObjectNode before, ObjectNode after, java.util.function.Predicate<List<String>> indexed) {
    // A leaf's path is unique in a document, so the terms of a version are a set of (path,
    // value): one walk over both versions together finds the leaves that differ, and asks the
    // policy only about those (most of a rewrite is unchanged).
    int[] removedAdded = new int[2];
    diff(before, after, new java.util.ArrayList<>(8), indexed, removedAdded, true);
    return Math.max(removedAdded[0], removedAdded[1]);
  }

  /** Counts into {@code c} the leaves of {@code a} not in {@code b} [0], and of b not in a [1]. */
  private static void diff(
      JsonNode a,
      JsonNode b,
      List<String> path,
      java.util.function.Predicate<List<String>> indexed,
      int[] c,
      boolean top) {
    if (a != null && b != null && a.isObject() && b.isObject()) {
      for (Map.Entry<String, JsonNode> e : a.properties()) {
        if (!(top && SYSTEM_PROPERTIES.contains(e.getKey()))) {
          path.add(e.getKey());
          diff(e.getValue(), b.get(e.getKey()), path, indexed, c, false);
          path.remove(path.size() - 1);
        }
      }
      for (Map.Entry<String, JsonNode> e : b.properties()) {
        if (!(top && SYSTEM_PROPERTIES.contains(e.getKey())) && !a.has(e.getKey())) {
          path.add(e.getKey());
          diff(null, e.getValue(), path, indexed, c, false);
          path.remove(path.size() - 1);
        }
      }
    } else if (a != null && b != null && a.isArray() && b.isArray()) {
      path.add("[]");
      for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
        diff(
            i < a.size() ? a.get(i) : null,
            i < b.size() ? b.get(i) : null,
            path,
            indexed,
            c,
            false);
      }
      path.remove(path.size() - 1);
    } else if (a != null && b != null && !a.isContainerNode() && !b.isContainerNode()) {
      if (!sameTerm(a, b) && (indexed == null || indexed.test(path))) {
        c[0]++;
        c[1]++;
      }
    } else {
      if (a != null) {
        countIndexedLeaves(a, path, indexed, c, 0);
      }
      if (b != null) {
        countIndexedLeaves(b, path, indexed, c, 1);
      }
    }
  }

  /** Counts into {@code c[side]} the leaves below {@code node} that {@code indexed} accepts. */
  private static void countIndexedLeaves(
      JsonNode node,
      List<String> path,
      java.util.function.Predicate<List<String>> indexed,
      int[] c,
      int side) {
    if (!node.isContainerNode()) {
      if (indexed == null || indexed.test(path)) {
        c[side]++;
      }
      return;
    }
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        path.add(e.getKey());
        countIndexedLeaves(e.getValue(), path, indexed, c, side);
        path.remove(path.size() - 1);
      }
    } else {
      path.add("[]");
      for (JsonNode child : node) {
        countIndexedLeaves(child, path, indexed, c, side);
      }
      path.remove(path.size() - 1);
    }
  }

  /** One index term: numbers by their value (1 and 1.0 are one number), the rest by equality. */
  private static boolean sameTerm(JsonNode a, JsonNode b) {
    if (a.isNumber() && b.isNumber()) {
      if (a.isIntegralNumber() && b.isIntegralNumber()) {
        if (a.canConvertToLong() && b.canConvertToLong()) {
          return a.longValue() == b.longValue(); // no BigInteger for the common case
        }
        return a.bigIntegerValue().equals(b.bigIntegerValue());
      }
      if (!Double.isFinite(a.doubleValue()) || !Double.isFinite(b.doubleValue())) {
        return Double.compare(a.doubleValue(), b.doubleValue()) == 0; // NaN has no decimal form
      }
      return a.decimalValue().compareTo(b.decimalValue()) == 0;
    }
    return a.equals(b);
  }
}
