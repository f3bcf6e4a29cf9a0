package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;

/** SELECT: each row's result; a row whose SELECT VALUE is undefined gives no result. */
final class Project implements Operator<Keyed<JsonNode>> {
  private final Operator<Keyed<Row>> upstream;
  private final Projection projection;

  Project(Operator<Keyed<Row>> upstream, Projection projection) {
    this.upstream = upstream;
    this.projection = projection;
  }

  @Override
  public Keyed<JsonNode> next() {
    for (Keyed<Row> r = upstream.next(); r != null; r = upstream.next()) {
      JsonNode v = projection.project(r.item().bindings(), null);
      if (v != null) {
        return new Keyed<>(v, r.keys(), r.order(), r.index());
      }
    }
    return null;
  }
}
