package io.cosmolab.query.exec;

import java.util.Comparator;

/**
 * The items of an ORDER BY after a position an earlier page ended at ({@link Executor.After}):
 * those that sort after it, and of those that sort equal to it (rows a JOIN made of the position's
 * document, with the same keys) all but the ones already returned. Equal items arrive in the same
 * order on every run and the sorts keep arrival order, so "the first n of them" names the same rows
 * on each page.
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
