package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.ast.Query;
import java.util.Collections;
import java.util.Iterator;

/**
 * A JOIN source: for each upstream row, one row per value the source yields under that row's
 * bindings (a path from one of its aliases, or a correlated subquery). Rows are made one at a time
 * as they are pulled, each counted against the {@link Budget}, so a cross product never exists
 * beyond the row being filtered.
 */
final class Join implements Operator<Row> {
  private final Executor executor;
  private final Operator<Row> upstream;
  private final Query.FromSource source;
  private Row current;
  private Iterator<JsonNode> values = Collections.emptyIterator();
  private Operator<JsonNode> subquery;

  Join(Executor executor, Operator<Row> upstream, Query.FromSource source) {
    this.executor = executor;
    this.upstream = upstream;
    this.source = source;
  }

  @Override
  public Row next() {
    while (true) {
      JsonNode v = nextValue();
      if (v != null) {
        executor.budget().spend(1);
        return new Row(FromPath.with(current.bindings(), source.alias(), v), current.order());
      }
      current = upstream.next();
      if (current == null) {
        return null;
      }
      if (source.collection() instanceof Query.Collection.Path p) {
        values =
            executor.paths().values(source, current.bindings(), current.bindings().get(p.name()));
      } else {
        Query q = ((Query.Collection.Subquery) source.collection()).query();
        subquery =
            FromPath.values(source, executor.open(q, current.bindings(), java.util.List.of(), -1));
      }
    }
  }

  private JsonNode nextValue() {
    if (current == null) {
      return null;
    }
    if (subquery != null) {
      JsonNode v = subquery.next();
      if (v == null) {
        subquery = null;
      }
      return v;
    }
    return values.hasNext() ? values.next() : null;
  }
}
