package io.cosmolab.query.exec;

/** WHERE: passes the rows whose filter is exactly true. */
final class Filter implements Operator<Row> {
  private final Operator<Row> upstream;
  private final Eval condition;

  Filter(Operator<Row> upstream, Eval condition) {
    this.upstream = upstream;
    this.condition = condition;
  }

  @Override
  public Row next() {
    for (Row r = upstream.next(); r != null; r = upstream.next()) {
      if (Values.isTrue(condition.eval(r.bindings(), null))) {
        return r;
      }
    }
    return null;
  }
}
