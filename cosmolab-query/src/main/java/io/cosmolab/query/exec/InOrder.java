package io.cosmolab.query.exec;

import java.util.Comparator;

/**
 * ORDER BY over inputs that arrive in its order already (an index walked in sort order): the items
 * pass through as they come, so a page stops its input after its own rows. Each item is checked
 * against the one before it; one that sorts earlier means the walk broke its promise, and the query
 * fails rather than return rows out of order.
 */
final class InOrder<T> implements Operator<Keyed<T>> {
  private final Operator<Keyed<T>> upstream;
  private final Comparator<Keyed<?>> order;
  private Keyed<T> previous;

  InOrder(Operator<Keyed<T>> upstream, Comparator<Keyed<?>> order) {
    this.upstream = upstream;
    this.order = order;
  }

  @Override
  public Keyed<T> next() {
    Keyed<T> item = upstream.next();
    if (item != null && previous != null && order.compare(previous, item) > 0) {
      throw new IllegalStateException(
          "an input said to be in ORDER BY order is not: keys "
              + item.keys()
              + " (input "
              + item.order()
              + ") came after "
              + previous.keys()
              + " (input "
              + previous.order()
              + ")");
    }
    previous = item;
    return item;
  }
}
