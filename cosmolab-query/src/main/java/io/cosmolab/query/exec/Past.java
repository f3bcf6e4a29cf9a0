package io.cosmolab.query.exec;

import java.util.Comparator;

/**
 * The items of an ORDER BY that sort after a position an earlier page ended at ({@link
 * Executor.After}). Keys, input order and index among the input's rows give every row a position of
 * its own, so none sorts equal to the position but the row that was at it.
 */
final class Past<T> implements Operator<Keyed<T>> {
  private final Operator<Keyed<T>> upstream;
  private final Comparator<Keyed<?>> order;
  private final Keyed<Void> position;

  Past(Operator<Keyed<T>> upstream, Comparator<Keyed<?>> order, Executor.After after) {
    this.upstream = upstream;
    this.order = order;
    this.position = new Keyed<>(null, after.keys(), after.order(), after.index());
  }

  @Override
  public Keyed<T> next() {
    for (Keyed<T> item = upstream.next(); item != null; item = upstream.next()) {
      if (order.compare(item, position) > 0) {
        return item;
      }
    }
    return null;
  }
}
