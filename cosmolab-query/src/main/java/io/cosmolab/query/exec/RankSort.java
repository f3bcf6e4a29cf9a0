package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.functions.Ranking;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;

/**
 * ORDER BY RANK: on the first pull, takes every item, ranks it by each scoring function (1-based,
 * equal scores share a rank, an undefined score ranks after every defined one), fuses the ranks
 * with RRF ({@link Ranking}) and returns the items best first; equal fused scores keep their input
 * order. One scoring function alone orders as its own score does.
 *
 * <p>The item's one key is its score, or with RRF the array of its component scores.
 */
final class RankSort<T> implements Operator<Keyed<T>> {
  private final Operator<Keyed<T>> upstream;
  private final Ranking ranking;
  private final Budget budget;
  private Iterator<Keyed<T>> sorted;

  RankSort(Operator<Keyed<T>> upstream, Ranking ranking, Budget budget) {
    this.upstream = upstream;
    this.ranking = ranking;
    this.budget = budget;
  }

  @Override
  public Keyed<T> next() {
    if (sorted == null) {
      sorted = rank().iterator();
    }
    return sorted.hasNext() ? sorted.next() : null;
  }

  private List<Keyed<T>> rank() {
    List<Keyed<T>> all = new ArrayList<>();
    for (Keyed<T> k = upstream.next(); k != null; k = upstream.next()) {
      all.add(k);
      budget.hold(all.size());
      budget.holdRow(k);
    }
    int m = ranking.components().size();
    double[] fused = new double[all.size()];
    for (int j = 0; j < m; j++) {
      Double[] scores = new Double[all.size()];
      for (int i = 0; i < all.size(); i++) {
        scores[i] = score(all.get(i), j, m);
      }
      boolean higherIsBetter = ranking.components().get(j).higherIsBetter();
      List<Integer> byScore = new ArrayList<>();
      for (int i = 0; i < scores.length; i++) {
        byScore.add(i);
      }
      Comparator<Double> best =
          higherIsBetter ? Comparator.reverseOrder() : Comparator.naturalOrder();
      byScore.sort(Comparator.comparing(i -> scores[i], Comparator.nullsLast(best)));
      int rank = 0;
      Double previous = null;
      for (int n = 0; n < byScore.size(); n++) {
        Double s = scores[byScore.get(n)];
        if (n == 0 || s == null || !s.equals(previous)) {
          rank++;
        }
        previous = s;
        fused[byScore.get(n)] += ranking.weights().get(j) / (Ranking.RRF_K + rank);
      }
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      order.add(i);
    }
    order.sort(
        Comparator.<Integer>comparingDouble(i -> -fused[i])
            .thenComparingLong(i -> all.get(i).order()));
    List<Keyed<T>> out = new ArrayList<>(all.size());
    for (int i : order) {
      out.add(all.get(i));
    }
    return out;
  }

  /** Component j's score of an item, or null when undefined. */
  private static Double score(Keyed<?> item, int j, int m) {
    JsonNode key = item.keys().get(0);
    JsonNode s = m == 1 && (key == null || !key.isArray()) ? key : key == null ? null : key.get(j);
    return s != null && s.isNumber() ? s.doubleValue() : null;
  }
}
