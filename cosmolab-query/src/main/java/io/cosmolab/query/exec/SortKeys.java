package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Attaches each row's ORDER BY keys (none without ORDER BY), evaluated on its bindings, and its
 * index among its input's rows.
 */
final class SortKeys implements Operator<Keyed<Row>> {
  private final Operator<Row> upstream;
  private final Projection projection;
  private long lastOrder = Long.MIN_VALUE;
  private int index;

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
    // a document's rows arrive together, in the same order on every run: number them
    index = r.order() == lastOrder ? index + 1 : 0;
    lastOrder = r.order();
    return new Keyed<>(r, keys, r.order(), index);
  }
}
