package io.cosmolab.query.exec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * ORDER BY when at most {@code k} sorted items can be used (TOP, OFFSET + LIMIT, or as many rows as
 * the caller will read): keeps the best {@code k} in a heap while the input streams past, so memory
 * is bounded by {@code k}, not by the input. Equal items keep their arrival order, as in {@link
 * Sort}, so both give the same prefix.
 */
final class TopK<T> implements Operator<Keyed<T>> {
  private final Operator<Keyed<T>> upstream;
  private final Comparator<Keyed<?>> keyOrder;
  private final Comparator<Entry<T>> order;
  private final int k;
  private final Budget budget;
  private Iterator<Entry<T>> best;

  private record Entry<T>(Keyed<T> item, long arrival) {}

  TopK(Operator<Keyed<T>> upstream, Comparator<Keyed<?>> order, int k, Budget budget) {
    this.upstream = upstream;
    this.keyOrder = order;
    this.order =
        Comparator.<Entry<T>, Keyed<?>>comparing(Entry::item, order)
            .thenComparingLong(Entry::arrival);
    this.k = k;
    this.budget = budget;
  }

  @Override
  public Keyed<T> next() {
    if (best == null) {
      best = select();
    }
    return best.hasNext() ? best.next().item() : null;
  }

  private Iterator<Entry<T>> select() {
    PriorityQueue<Entry<T>> heap = new PriorityQueue<>(Math.min(k, 1024) + 1, order.reversed());
    long arrival = 0;
    for (Keyed<T> item = upstream.next(); item != null; item = upstream.next()) {
      long arrived = arrival++;
      if (heap.size() < k) {
        heap.add(new Entry<>(item, arrived));
        budget.hold(heap.size());
        budget.holdRow(item);
      } else if (k > 0 && keyOrder.compare(item, heap.peek().item()) < 0) {
        // an equal item arrived later, so only a strictly better one takes the worst's place
        Entry<T> worst = heap.poll();
        heap.add(new Entry<>(item, arrived));
        budget.holdBytes(Values.rowBytes(item) - Values.rowBytes(worst.item()));
      }
    }
    List<Entry<T>> kept = new ArrayList<>(heap);
    kept.sort(order);
    return kept.iterator();
  }
}
