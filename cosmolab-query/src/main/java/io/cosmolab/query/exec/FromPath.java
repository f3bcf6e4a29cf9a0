package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.ast.Expr;
import io.cosmolab.query.ast.Query;
import java.util.AbstractMap;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * The values a FROM or JOIN source binds its alias to: the value at the path ({@code c AS x},
 * {@code c.a x}) or each row of a subquery, or each element of the array there ({@code x IN c.a},
 * {@code x IN (SELECT ...)}). Shared by {@link Scan} and {@link Join}.
 */
final class FromPath {
  private final ExpressionCompiler expressions;

  FromPath(ExpressionCompiler expressions) {
    this.expressions = expressions;
  }

  /** The values of {@code source}, whose path starts at {@code start}, under {@code env}. */
  Iterator<JsonNode> values(Query.FromSource source, Map<String, JsonNode> env, JsonNode start) {
    JsonNode v = start;
    for (Object seg : ((Query.Collection.Path) source.collection()).segments()) {
      if (v == null) {
        return Collections.emptyIterator();
      }
      Object key = seg instanceof Expr e ? expressions.of(e).eval(env, null) : seg;
      v = ExpressionCompiler.access(v, key instanceof JsonNode n ? toKey(n) : key);
    }
    if (v == null) {
      return Collections.emptyIterator();
    }
    if (source instanceof Query.FromSource.Iteration) {
      return v.isArray() ? v.elements() : Collections.emptyIterator();
    }
    return Collections.singletonList(v).iterator();
  }

  /**
   * The values of {@code source} over a subquery's {@code rows}: the rows themselves ({@code
   * (SELECT ...) AS x}), or each element of each row that is an array ({@code x IN (SELECT ...)}),
   * rows of other types ignored, as {@code x IN c.a} ignores a value that is not an array.
   */
  static Operator<JsonNode> values(Query.FromSource source, Operator<JsonNode> rows) {
    if (!(source instanceof Query.FromSource.Iteration)) {
      return rows;
    }
    return new Operator<>() {
      private Iterator<JsonNode> elements = Collections.emptyIterator();

      @Override
      public JsonNode next() {
        while (!elements.hasNext()) {
          JsonNode row = rows.next();
          if (row == null) {
            return null;
          }
          if (row.isArray()) {
            elements = row.elements();
          }
        }
        return elements.next();
      }
    };
  }

  private static Object toKey(JsonNode n) {
    if (n == null) {
      return null;
    }
    return n.isTextual() ? n.textValue() : n.isNumber() ? (Object) n.intValue() : null;
  }

  /** {@code env} with {@code alias} bound to {@code v}. */
  static Map<String, JsonNode> with(Map<String, JsonNode> env, String alias, JsonNode v) {
    if (env.isEmpty()) {
      return Map.of(alias, v); // the common single-source row: no hash map per row
    }
    return new Extended(env, alias, v);
  }

  /**
   * Bindings that add one alias to an enclosing set without copying it: a JOIN makes a row per
   * value, and copying every binding into a new hash map per row was most of a JOIN's cost. Lookups
   * walk the few aliases a query has, newest first, so an alias rebound shadows the old one.
   */
  private static final class Extended extends AbstractMap<String, JsonNode> {
    private final Map<String, JsonNode> parent;
    private final String alias;
    private final JsonNode value;

    Extended(Map<String, JsonNode> parent, String alias, JsonNode value) {
      this.parent = parent;
      this.alias = alias;
      this.value = value;
    }

    @Override
    public JsonNode get(Object key) {
      return alias.equals(key) ? value : parent.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
      return alias.equals(key) || parent.containsKey(key);
    }

    @Override
    public boolean isEmpty() {
      return false;
    }

    @Override
    public Set<Map.Entry<String, JsonNode>> entrySet() {
      Map<String, JsonNode> all = new HashMap<>(parent);
      all.put(alias, value);
      return all.entrySet();
    }
  }
}
