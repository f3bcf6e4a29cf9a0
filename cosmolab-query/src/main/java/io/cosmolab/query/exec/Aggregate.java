package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.ast.Expr;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GROUP BY and aggregating SELECTs: on the first pull, takes every row into its group (in the order
 * groups first appear; one group, even when empty, without GROUP BY, so COUNT is then 0), then
 * produces one result per group, projected and keyed on the group's first row.
 */
final class Aggregate implements Operator<Keyed<JsonNode>> {
  private final Operator<Row> upstream;
  private final List<Eval> groupBy;
  private final Projection projection;
  private final Map<String, JsonNode> outer;
  private final Budget budget;
  private Iterator<List<Row>> groups;

  Aggregate(
      Executor executor,
      Operator<Row> upstream,
      List<Expr> groupBy,
      Projection projection,
      Map<String, JsonNode> outer) {
    this.upstream = upstream;
    this.groupBy = new ArrayList<>(groupBy.size());
    for (Expr g : groupBy) {
      this.groupBy.add(executor.expressions().of(g));
    }
    this.projection = projection;
    this.outer = outer;
    this.budget = executor.budget();
  }

  @Override
  public Keyed<JsonNode> next() {
    if (groups == null) {
      groups = group();
    }
    while (groups.hasNext()) {
      List<Row> group = groups.next();
      Row first = group.isEmpty() ? new Row(outer, 0) : group.get(0);
      JsonNode v = projection.project(first.bindings(), group);
      if (v != null) {
        return new Keyed<>(v, projection.keys(first.bindings(), group), first.order());
      }
    }
    return null;
  }

  private Iterator<List<Row>> group() {
    long held = 0;
    if (groupBy.isEmpty()) {
      List<Row> all = new ArrayList<>();
      for (Row r = upstream.next(); r != null; r = upstream.next()) {
        budget.hold(++held);
        all.add(r);
      }
      return Collections.singletonList(all).iterator();
    }
    Map<List<Values.Key>, List<Row>> out = new LinkedHashMap<>();
    for (Row r = upstream.next(); r != null; r = upstream.next()) {
      List<Values.Key> key = new ArrayList<>(groupBy.size());
      for (Eval g : groupBy) {
        key.add(new Values.Key(g.eval(r.bindings(), null)));
      }
      budget.hold(++held);
      out.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
    }
    return out.values().iterator();
  }
}
