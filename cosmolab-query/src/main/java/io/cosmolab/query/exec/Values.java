package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;

/**
 * Query values and their semantics. A value is a Jackson {@link JsonNode}; Java {@code null} is
 * {@code undefined} (a missing property, or the result of an expression over the wrong types).
 *
 * <ul>
 *   <li>Numbers are IEEE-754 doubles, as the service stores them; integral results within 2^53 are
 *       written without a fraction ({@code 4/2} is {@code 2}).
 *   <li>Equality and ordering comparisons between values of different types are undefined; equality
 *       of arrays and objects is deep.
 *   <li>The order across types, used by ORDER BY, MIN and MAX, is undefined &lt; null &lt; false
 *       &lt; true &lt; numbers &lt; strings &lt; arrays &lt; objects ({@code gateway-protocol.md}
 *       §7.7, the SDKs' ItemComparator). Assumption: arrays and objects, which the documentation
 *       does not order, sort after strings, arrays before objects, by their JSON text.
 * </ul>
 */
public final class Values {
  private Values() {}

  static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** A number as the service writes it: integral values within 2^53 without a fraction. */
  public static JsonNode number(double v) {
    if (!Double.isFinite(v)) {
      return null; // JSON has no Infinity or NaN: undefined
    }
    // negative zero is written as 0, as JSON serializers of doubles do
    if (v == Math.rint(v) && Math.abs(v) <= 9.007199254740992E15) {
      long l = (long) v;
      return l == (int) l ? NODES.numberNode((int) l) : NODES.numberNode(l);
    }
    if (v == Math.rint(v) && Math.abs(v) < 9.2e18) {
      // beyond 2^53 an integral double is written as JavaScript writes it: its shortest digits
      // and zeros, without an exponent (TAN(PI()/2) is 16331239353195370 [D "TAN"]); within the
      // range of a long, so that reading it back as one never wraps [A: past it, an exponent]
      return NODES.numberNode(new java.math.BigDecimal(Double.toString(v)).toBigInteger());
    }
    return NODES.numberNode(v);
  }

  /** A whole number, exact. */
  public static JsonNode number(long v) {
    return v == (int) v ? NODES.numberNode((int) v) : NODES.numberNode(v);
  }

  public static JsonNode bool(boolean b) {
    return NODES.booleanNode(b);
  }

  public static JsonNode text(String s) {
    return NODES.textNode(s);
  }

  public static boolean isTrue(JsonNode v) {
    return v != null && v.isBoolean() && v.booleanValue();
  }

  /** The rank of a value's type in the cross-type order. */
  static int typeRank(JsonNode v) {
    if (v == null || v.isMissingNode()) {
      return 0;
    }
    return switch (v.getNodeType()) {
      case NULL -> 1;
      case BOOLEAN -> v.booleanValue() ? 3 : 2;
      case NUMBER -> 4;
      case STRING -> 5;
      case ARRAY -> 6;
      case OBJECT -> 7;
      default -> 8;
    };
  }

  /** The total order of ORDER BY, MIN and MAX. */
  public static final Comparator<JsonNode> ORDER = Values::compareForOrder;

  static int compareForOrder(JsonNode a, JsonNode b) {
    int ra = typeRank(a);
    int rb = typeRank(b);
    if (ra != rb) {
      return Integer.compare(ra, rb);
    }
    return switch (ra) {
      case 4 -> Double.compare(a.doubleValue(), b.doubleValue());
      case 5 -> a.textValue().compareTo(b.textValue());
      case 6, 7 -> a.toString().compareTo(b.toString());
      default -> 0;
    };
  }

  /*
   * Why not undefined across types, as the query reference's table says: the Java SDK's own query
   * tests (OrderbyDocumentQueryTest, run against the service) expect `WHERE r.propInt != null` to
   * return every document whose propInt is a number, and the .NET SDK's offline query engine
   * evaluates = and != as plain (deep) equality of any two defined values. `!=` being true across
   * types makes `=` false across types; that half is inferred [A] (docs/query.md, Semantics).
   */
  /**
   * {@code a = b}: undefined (null) when either side is undefined, otherwise true or false — false
   * for values of different types, so {@code 1 != null} is true.
   */
  static JsonNode equal(JsonNode a, JsonNode b) {
    if (a == null || b == null) {
      return null;
    }
    return bool(deepEquals(a, b));
  }

  /** Deep equality; numbers compare numerically. */
  public static boolean deepEquals(JsonNode a, JsonNode b) {
    if (a == null || b == null) {
      return a == null && b == null;
    }
    if (a.isNumber() && b.isNumber()) {
      return a.doubleValue() == b.doubleValue();
    }
    if (a.getNodeType() != b.getNodeType()) {
      return false;
    }
    if (a.isArray()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (int i = 0; i < a.size(); i++) {
        if (!deepEquals(a.get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a.isObject()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = a.properties().iterator(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!deepEquals(e.getValue(), b.get(e.getKey()))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  /** A hash consistent with {@link #deepEquals}, for DISTINCT and GROUP BY. */
  static int deepHash(JsonNode v) {
    if (v == null) {
      return 0;
    }
    if (v.isNumber()) {
      return Double.hashCode(v.doubleValue() + 0.0); // -0.0 + 0.0 is 0.0: 0 and -0 are equal
    }
    if (v.isArray()) {
      int h = 1;
      for (JsonNode e : v) {
        h = 31 * h + deepHash(e);
      }
      return h;
    }
    if (v.isObject()) {
      int h = 0;
      for (Map.Entry<String, JsonNode> e : v.properties()) {
        h += e.getKey().hashCode() ^ deepHash(e.getValue());
      }
      return h;
    }
    return v.hashCode();
  }

  /**
   * {@code a < b} and friends: -1, 0 or 1, or null when the values are not of one comparable type
   * (numbers, strings, booleans, null).
   */
  static Integer compareScalars(JsonNode a, JsonNode b) {
    if (a == null || b == null) {
      return null;
    }
    if (a.isNumber() && b.isNumber()) {
      return Double.compare(a.doubleValue(), b.doubleValue());
    }
    if (a.isTextual() && b.isTextual()) {
      int c = a.textValue().compareTo(b.textValue());
      return Integer.signum(c);
    }
    if (a.isBoolean() && b.isBoolean()) {
      return Boolean.compare(a.booleanValue(), b.booleanValue());
    }
    if (a.isNull() && b.isNull()) {
      return 0;
    }
    return null;
  }

  /** What a held row, list entry or set entry costs beyond its values: its objects and slots. */
  static final long ROW_BYTES = 96;

  /** What a group costs beyond its key's values: its map entry, key list and accumulators. */
  static final long GROUP_BYTES = 160;

  /**
   * About the bytes {@code v} keeps alive on the heap, for the bound on what a query holds ({@link
   * Budget#holdBytes}): an estimate on the high side (a string's characters at two bytes), not a
   * measurement. Shared singletons (booleans, null) count nothing.
   */
  static long heldBytes(JsonNode v) {
    if (v == null || v.isBoolean() || v.isNull()) {
      return 0;
    }
    if (v.isTextual()) {
      return 48 + 2L * v.textValue().length();
    }
    if (v.isArray()) {
      long bytes = 40 + 4L * v.size();
      for (JsonNode e : v) {
        bytes += heldBytes(e);
      }
      return bytes;
    }
    if (v.isObject()) {
      long bytes = 64;
      for (Map.Entry<String, JsonNode> p : v.properties()) {
        bytes += 40 + 2L * p.getKey().length() + heldBytes(p.getValue());
      }
      return bytes;
    }
    return 24; // a number
  }

  /** A held sorted row: {@link #ROW_BYTES} and its ORDER BY keys (its item is the input's). */
  static long rowBytes(Keyed<?> row) {
    long bytes = ROW_BYTES;
    if (row.keys() != null) {
      for (JsonNode k : row.keys()) {
        bytes += heldBytes(k);
      }
    }
    return bytes;
  }

  /**
   * A key wrapper giving values the query language's deep equality (1 and 1.0 are one value), for
   * hash maps: what DISTINCT and GROUP BY compare, for a client that drops a DISTINCT's repeats.
   */
  public record Key(JsonNode value) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && deepEquals(value, k.value);
    }

    @Override
    public int hashCode() {
      return deepHash(value);
    }
  }
}
