package io.cosmolab.query.exec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;

/**
 * ORDER BY without a bound: on the first pull, takes every item and sorts them, stably (equal keys
 * and order keep the order they came in).
 */
final class Sort<T> implements Operator<Keyed<T>> {
  private final Operator<Keyed<T>> upstream;
  private final Comparator<Keyed<?>> order;
  private final Budget budget;
  private Iterator<Keyed<T>> sorted;

  Sort(Operator<Keyed<T>> upstream, Comparator<Keyed<?>> order, Budget budget) {
    this.upstream = upstream;
    this.order = order;
    this.budget = budget;
  }

  @Override
  public Keyed<T> next() {
    if (sorted == null) {
      List<Keyed<T>> all = new ArrayList<>();
      for (Keyed<T> k = upstream.next(); k != null; k = upstream.next()) {
        all.add(k);
        budget.hold(all.size());
        budget.holdRow(k);
      }
      all.sort(order);
      sorted = all.iterator();
    }
    return sorted.hasNext() ? sorted.next() : null;
  }
}
