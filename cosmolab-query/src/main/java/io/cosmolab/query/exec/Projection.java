package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.query.ast.Expr;
import io.cosmolab.query.ast.Query;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A query's SELECT and ORDER BY, compiled: what a row (or group) projects to, and its sort keys.
 */
final class Projection {
  private final Query.Select select;
  private final String root;
  private final List<String> names;
  private final List<Eval> items;
  private final List<Eval> keys;
  private final List<Expr.Call> aggregateCalls = new ArrayList<>();
  private final boolean aggregating;

  Projection(Query q, ExpressionCompiler expressions) {
    this.select = q.select();
    this.root = q.from().isEmpty() ? null : q.from().get(0).alias();
    this.items = new ArrayList<>();
    if (select instanceof Query.Select.Value v) {
      items.add(expressions.of(v.expression()));
      Executor.aggregateCalls(v.expression(), aggregateCalls);
      names = List.of();
    } else if (select instanceof Query.Select.Items list) {
      names = Executor.projectionNames(list.items());
      for (Query.Select.Item item : list.items()) {
        items.add(expressions.of(item.expression()));
        Executor.aggregateCalls(item.expression(), aggregateCalls);
      }
    } else {
      names = List.of();
    }
    this.aggregating = !aggregateCalls.isEmpty(); // the SELECT's; ORDER BY's are added below
    this.keys = new ArrayList<>(q.orderBy().size());
    for (Query.OrderItem o : q.orderBy()) {
      keys.add(expressions.of(o.expression()));
      Executor.aggregateCalls(o.expression(), aggregateCalls);
    }
  }

  /** True when the SELECT calls an aggregate outside subqueries ({@link Executor#hasAggregate}). */
  boolean aggregating() {
    return aggregating;
  }

  /** The aggregate calls of the SELECT and ORDER BY, outside subqueries, in the order written. */
  List<Expr.Call> aggregateCalls() {
    return aggregateCalls;
  }

  /** The result for a row's bindings (and its group while aggregating); null for undefined. */
  JsonNode project(Map<String, JsonNode> env, Group group) {
    if (select instanceof Query.Select.Star) {
      return env.get(root);
    }
    if (select instanceof Query.Select.Value) {
      return items.get(0).eval(env, group);
    }
    ObjectNode out = Values.NODES.objectNode();
    for (int i = 0; i < names.size(); i++) {
      JsonNode v = items.get(i).eval(env, group);
      if (v != null) {
        out.set(names.get(i), v);
      }
    }
    return out;
  }

  /** The ORDER BY keys (an element is null when undefined); empty without ORDER BY. */
  List<JsonNode> keys(Map<String, JsonNode> env, Group group) {
    if (keys.isEmpty()) {
      return List.of();
    }
    if (keys.size() == 1) {
      return java.util.Collections.singletonList(keys.get(0).eval(env, group));
    }
    List<JsonNode> out = new ArrayList<>(keys.size());
    for (Eval k : keys) {
      out.add(k.eval(env, group));
    }
    return java.util.Collections.unmodifiableList(out);
  }
}
