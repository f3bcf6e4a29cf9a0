package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** Attaches each row's ORDER BY keys (none without ORDER BY), evaluated on its bindings. */
final class SortKeys implements Operator<Keyed<Row>> {
  private final Operator<Row> upstream;
  private final Projection projection;

  SortKeys(Operator<Row> upstream, Projection projection) {
    this.upstream = upstream;
    this.projection = projection;
  }

  @Override
  public Keyed<Row> next() {
    Row r = upstream.next();
    if (r == null) {
      return null;
    }
    List<JsonNode> keys = projection.keys(r.bindings(), null);
    return new Keyed<>(r, keys, r.order());
  }
}
