package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.ast.Expr;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GROUP BY and aggregating SELECTs: on the first pull, folds every row into its group's running
 * aggregates (groups in the order they first appear; one group, even when empty, without GROUP BY,
 * so COUNT is then 0), then produces one result per group, projected and keyed on the group's first
 * row. Memory grows with the groups, not with the rows ({@link Group}).
 */
final class Aggregate implements Operator<Keyed<JsonNode>> {
  private final Operator<Row> upstream;
  private final List<Eval> groupBy;
  private final Projection projection;
  private final Map<String, JsonNode> outer;
  private final Budget budget;
  private final List<Expr.Call> calls;
  private final List<Eval> arguments;
  private final Map<Expr.Call, Integer> slots;
  private Iterator<Group> groups;

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
    this.calls = projection.aggregateCalls();
    this.arguments = new ArrayList<>(calls.size());
    for (Expr.Call c : calls) {
      arguments.add(executor.expressions().of(c.arguments().get(0)));
    }
    this.slots = Group.slots(calls);
  }

  @Override
  public Keyed<JsonNode> next() {
    if (groups == null) {
      groups = fold();
    }
    while (groups.hasNext()) {
      Group group = groups.next();
      Row first = group.first() == null ? new Row(outer, 0) : group.first();
      JsonNode v = projection.project(first.bindings(), group);
      if (v != null) {
        return new Keyed<>(v, projection.keys(first.bindings(), group), first.order());
      }
    }
    return null;
  }

  private Iterator<Group> fold() {
    long held = 0;
    Map<List<Values.Key>, Group> out = new LinkedHashMap<>();
    for (Row r = upstream.next(); r != null; r = upstream.next()) {
      List<Values.Key> key = new ArrayList<>(groupBy.size()); // without GROUP BY: one, empty
      for (Eval g : groupBy) {
        key.add(new Values.Key(g.eval(r.bindings(), null)));
      }
      Group group = out.get(key);
      if (group == null) {
        group = new Group(r, slots, calls, arguments);
        out.put(key, group);
        held++;
        long bytes = Values.GROUP_BYTES + Values.ROW_BYTES * calls.size();
        for (Values.Key k : key) {
          bytes += Values.heldBytes(k.value());
        }
        budget.holdBytes(bytes);
      }
      held += group.add(r, budget);
      budget.hold(held);
    }
    if (groupBy.isEmpty() && out.isEmpty()) {
      return List.of(new Group(null, slots, calls, arguments)).iterator();
    }
    return out.values().iterator();
  }
}
