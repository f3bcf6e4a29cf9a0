package io.cosmolab.advisor;

import io.cosmolab.advisor.stats.CandidateStats;
import java.util.ArrayList;
import java.util.List;

/**
 * How storage (and RU) is shared among key values: the Lorenz curve, its Gini coefficient, and the
 * size classes of logical partitions at the horizon. The heaviest keys come from the frequent-items
 * sketch, by their lower bounds (exact while there are fewer keys than its counters; beyond, the
 * bytes counted since the sketch last took the key in, so they never sum past the total); the rest
 * of the bytes are shared equally by the keys it does not hold. [I] The curve is therefore exact
 * for a few hundred keys and, beyond, close at the heavy end, where the risk is.
 */
final class StorageCurve {
  private static final String[] LABELS = {
    "< 1 MB", "1–10 MB", "10–100 MB", "100 MB–1 GB", "1–10 GB", "10–20 GB", "> 20 GB"
  };
  private static final long[] UP_TO = {
    1L << 20, 10L << 20, 100L << 20, 1L << 30, 10L << 30, 20L << 30, Long.MAX_VALUE
  };
  private static final int POINTS = 20;

  private StorageCurve() {}

  static Advice.Storage of(
      CandidateStats s,
      long documentsNow,
      long documentsAtHorizon,
      long largestNow,
      long largestAtHorizon,
      double factorHorizon) {
    List<Double> heavy = new ArrayList<>();
    for (CandidateStats.Heavy h : s.heaviestByBytes(Integer.MAX_VALUE)) {
      heavy.add((double) h.lowerBound());
    }
    List<double[]> groups = groups(heavy, s.distinctEstimate(), (double) s.bytesWithKey());
    Curve curve = curve(groups);
    long[] counts = new long[UP_TO.length];
    for (double[] g : groups) {
      double projected = g[1] * factorHorizon;
      for (int c = 0; c < UP_TO.length; c++) {
        if (projected < UP_TO[c]) {
          counts[c] += Math.round(g[0]);
          break;
        }
      }
    }
    List<Advice.SizeClass> sizes = new ArrayList<>();
    for (int c = 0; c < UP_TO.length; c++) {
      sizes.add(
          new Advice.SizeClass(LABELS[c], UP_TO[c] == Long.MAX_VALUE ? -1 : UP_TO[c], counts[c]));
    }
    return new Advice.Storage(
        documentsNow,
        documentsAtHorizon,
        largestNow,
        largestAtHorizon,
        curve.gini(),
        curve.points(),
        sizes);
  }

  /** A Lorenz curve and its Gini coefficient. */
  record Curve(List<Advice.Point> points, double gini) {}

  /**
   * The curve of a weight over key values: {@code heavy} are the weights of the keys known one by
   * one, the rest of {@code total} is shared equally by the other {@code keys}. [I]
   */
  static Curve of(List<Double> heavy, double keys, double total) {
    return curve(groups(heavy, keys, total));
  }

  /** Groups of equal keys, smallest first: {keys, weight each}. */
  private static List<double[]> groups(List<Double> heavy, double distinct, double total) {
    double keys = Math.max(heavy.size(), distinct);
    double heavyWeight = 0;
    for (double h : heavy) {
      heavyWeight += h;
    }
    double tailKeys = Math.max(0, keys - heavy.size());
    double tailWeight = Math.max(0, total - heavyWeight);
    List<double[]> groups = new ArrayList<>();
    if (tailKeys > 0) {
      groups.add(new double[] {tailKeys, tailWeight / tailKeys});
    }
    for (double h : heavy) {
      groups.add(new double[] {1, h});
    }
    groups.sort((a, b) -> Double.compare(a[1], b[1]));
    return groups;
  }

  private static Curve curve(List<double[]> groups) {
    double keys = 0;
    double total = 0;
    for (double[] g : groups) {
      keys += g[0];
      total += g[0] * g[1];
    }
    List<Advice.Point> lorenz = new ArrayList<>();
    lorenz.add(new Advice.Point(0, 0));
    double area = 0; // under the curve, for the Gini coefficient
    double x = 0;
    double y = 0;
    int next = 1;
    for (double[] g : groups) {
      double dx = keys == 0 ? 0 : g[0] / keys;
      double dy = total == 0 ? 0 : g[0] * g[1] / total;
      // emit the curve at every 1/POINTS of the keys this group crosses
      while (next <= POINTS && x + dx >= next / (double) POINTS - 1e-12) {
        double t = dx == 0 ? 1 : (next / (double) POINTS - x) / dx;
        lorenz.add(new Advice.Point(next / (double) POINTS, round(y + t * dy)));
        next++;
      }
      area += dx * (y + dy / 2);
      x += dx;
      y += dy;
    }
    double gini = keys <= 1 || total == 0 ? 0 : Math.max(0, 1 - 2 * area);
    return new Curve(lorenz, round(gini));
  }

  private static double round(double v) {
    return Math.round(v * 10_000) / 10_000.0;
  }
}
