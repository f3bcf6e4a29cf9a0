package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.ast.Query;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;

/**
 * The first FROM source: the input documents (pulled one at a time, each starting a new document
 * for the {@link Budget}), an alias of the enclosing query (in a correlated subquery), or the rows
 * of a subquery. With no enclosing bindings, the WHERE clause is tested here on one reused binding,
 * so a document the filter drops costs no allocation.
 */
final class Scan implements Operator<Row> {
  private final Query.FromSource source;
  private final Map<String, JsonNode> outer;
  private final Budget budget;
  private final FromPath paths;
  private final Eval filter;
  private final Iterator<Executor.Input> inputs;
  private final Operator<JsonNode> subquery;
  private final SingleBinding probe = new SingleBinding();
  private Iterator<JsonNode> values = Collections.emptyIterator();
  private long order;

  /**
   * @param filter the WHERE clause when this is the only source and {@code outer} is empty, else
   *     null (a {@link Filter} tests it after the JOINs)
   */
  Scan(
      Executor executor,
      Query.FromSource source,
      Map<String, JsonNode> outer,
      Iterable<Executor.Input> inputs,
      Eval filter) {
    this.source = source;
    this.outer = outer;
    this.budget = executor.budget();
    this.paths = executor.paths();
    this.filter = filter;
    if (source.collection() instanceof Query.Collection.Path p && outer.containsKey(p.name())) {
      this.values = paths.values(source, outer, outer.get(p.name()));
      this.inputs = Collections.emptyIterator();
      this.subquery = null;
    } else if (source.collection() instanceof Query.Collection.Subquery sq) {
      this.inputs = Collections.emptyIterator();
      this.subquery = FromPath.values(source, executor.open(sq.query(), outer, inputs, -1));
    } else {
      this.inputs = inputs.iterator();
      this.subquery = null;
    }
  }

  @Override
  public Row next() {
    if (subquery != null) {
      for (JsonNode v = subquery.next(); v != null; v = subquery.next()) {
        budget.spend(1);
        Row r = new Row(FromPath.with(outer, source.alias(), v), order++);
        if (filter == null || Values.isTrue(filter.eval(r.bindings(), null))) {
          return r;
        }
      }
      return null;
    }
    while (true) {
      while (values.hasNext()) {
        JsonNode v = values.next();
        budget.spend(1);
        if (filter == null) {
          return new Row(FromPath.with(outer, source.alias(), v), order);
        }
        probe.set(source.alias(), v);
        if (Values.isTrue(filter.eval(probe, null))) {
          return new Row(Map.of(source.alias(), v), order);
        }
      }
      if (!inputs.hasNext()) {
        return null;
      }
      Executor.Input in = inputs.next();
      budget.nextDocument();
      order = in.order();
      values = paths.values(source, outer, in.document());
    }
  }

  /**
   * A mutable one-entry map: the bindings of a single-source row while its filter is tested.
   * Evaluation only reads it (subqueries copy what they need), so one instance serves every row.
   */
  private static final class SingleBinding extends java.util.AbstractMap<String, JsonNode> {
    private String key;
    private JsonNode value;

    void set(String k, JsonNode v) {
      key = k;
      value = v;
    }

    @Override
    public JsonNode get(Object k) {
      return key.equals(k) ? value : null;
    }

    @Override
    public boolean containsKey(Object k) {
      return key.equals(k);
    }

    @Override
    public boolean isEmpty() {
      return false;
    }

    @Override
    public int size() {
      return 1;
    }

    @Override
    public java.util.Set<Map.Entry<String, JsonNode>> entrySet() {
      return java.util.Set.of(Map.entry(key, value));
    }
  }
}
