package io.cosmolab.advisor;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.candidate.CandidateDiscovery;
import io.cosmolab.advisor.stats.CandidateStats;
import io.cosmolab.advisor.workload.Workload;
import io.cosmolab.engine.cost.CostModel;
import io.cosmolab.engine.document.DocumentShape;
import io.cosmolab.engine.limits.Limits;
import io.cosmolab.engine.routing.RoutingMap;
import io.cosmolab.engine.routing.SplitPoints;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * Ranks candidate partition keys over sample documents.
 *
 * <pre>{@code
 * List<Advice> ranked = Advisor.analyze(documents, null, AdvisorOptions.of(Throughput.manual(20_000)));
 * }</pre>
 *
 * Every key is hashed and laid out by the engine itself (EPK V2 and MultiHash, the service's rule
 * for initial partitions, 50 GB per physical and 20 GB per logical partition), so what the advisor
 * predicts is what the emulator does. Memory is bounded by the sketches, not the input.
 */
public final class Advisor {
  /** Documents read before candidates are discovered, when none are named. */
  public static final int DISCOVERY_SAMPLE = 1000;

  private Advisor() {}

  /**
   * @param candidates the keys to weigh, or null to discover them from the first {@value
   *     #DISCOVERY_SAMPLE} documents
   */
  public static List<Advice> analyze(
      Iterator<ObjectNode> documents, List<Candidate> candidates, AdvisorOptions options) {
    List<ObjectNode> head = new ArrayList<>();
    if (candidates == null) {
      while (head.size() < DISCOVERY_SAMPLE && documents.hasNext()) {
        head.add(documents.next());
      }
      candidates = CandidateDiscovery.discover(head);
    }
    List<CandidateStats> stats = new ArrayList<>();
    for (Candidate c : candidates) {
      stats.add(new CandidateStats(c));
    }
    long[] shape = new long[3]; // documents, bytes, indexed terms
    boolean terms = !options.peak().isEmpty();
    for (ObjectNode d : head) {
      add(stats, d, shape, terms);
    }
    while (documents.hasNext()) {
      add(stats, documents.next(), shape, terms);
    }
    Peak peak = Peak.of(options.peak(), shape);
    List<Advice> out = new ArrayList<>();
    for (CandidateStats s : stats) {
      out.add(advise(s, options, peak));
    }
    out.sort(
        Comparator.comparingInt(Advice::score)
            .reversed()
            .thenComparingDouble(Advice::hotPartitionRatio)
            .thenComparing(a -> -a.distinct().estimate()));
    return out;
  }

  /** A reason and how much harm it predicts: 0 fails writes outright, higher wastes less. */
  private record Finding(int harm, String text) {}

  private static String shortKey(String key) {
    return key.length() <= 40 ? key : key.substring(0, 37) + "...";
  }

  private static void add(List<CandidateStats> stats, ObjectNode d, long[] shape, boolean terms) {
    int size = DocumentShape.sizeOf(d);
    shape[0]++;
    shape[1] += size;
    if (terms) {
      shape[2] += DocumentShape.indexedTermsCheckingDepth(d);
    }
    for (CandidateStats s : stats) {
      s.add(d, size);
    }
  }

  /**
   * The RU/s the peak operations cost, for the sample's mean document, by the engine's published
   * cost model. Every operation addresses a document by its key, so its load spreads like the
   * documents. Replaces are assumed to change every indexed term, patches two. [I]
   */
  record Peak(double ruPerSecond) {
    static Peak of(List<Workload.Operation> ops, long[] shape) {
      if (ops.isEmpty() || shape[0] == 0) {
        return new Peak(0);
      }
      int size = (int) (shape[1] / shape[0]);
      int terms = (int) (shape[2] / shape[0]);
      CostModel costs = CostModel.PUBLISHED;
      double total = 0;
      for (Workload.Operation op : ops) {
        double unit =
            switch (op.type()) {
              case CREATE, UPSERT -> costs.create(size, terms);
              case REPLACE -> costs.replace(size, terms);
              case PATCH -> costs.patch(size, 2, 1);
              case DELETE -> costs.delete(size, terms);
              case READ -> costs.pointRead(size, false);
            };
        total += op.rate() * unit;
      }
      return new Peak(total);
    }
  }

  static Advice advise(CandidateStats s, AdvisorOptions options, Peak peak) {
    long docs = s.documents();
    double factor =
        options.projectedDocuments() > docs && docs > 0
            ? options.projectedDocuments() / (double) docs
            : 1;
    Limits limits = Limits.SERVICE;
    double projectedBytes = s.bytes() * factor;
    int byThroughput =
        (int)
            Math.max(
                1,
                Math.ceil(
                    options.throughput().maxRuPerSecond()
                        / options.throughput().creationRuPerPartition(limits)));
    int byStorage = (int) Math.ceil(projectedBytes / limits.physicalPartitionBytes());
    int partitions = Math.max(byThroughput, Math.max(1, byStorage));
    RoutingMap layout =
        RoutingMap.of(SplitPoints.evenBoundaries(s.candidate().definition(), partitions));
    List<long[]> load = s.perPartition(layout);
    List<Double> shares = new ArrayList<>();
    double keyed = 0; // bytes of documents that have the key
    long keyedDocs = 0;
    for (long[] p : load) {
      keyedDocs += p[0];
      keyed += p[1];
    }
    double max = 0;
    for (long[] p : load) {
      double share = keyed == 0 ? 0 : p[1] / keyed;
      shares.add(share);
      max = Math.max(max, share);
    }
    double hotRatio = max * partitions;
    double budget = options.throughput().maxRuPerSecond() / partitions;
    double peakDemand = 0;
    double over = 0;
    for (long[] p : load) {
      double demand = keyedDocs == 0 ? 0 : peak.ruPerSecond() * p[0] / keyedDocs;
      peakDemand = Math.max(peakDemand, demand);
      over += Math.max(0, demand - budget);
    }
    double predicted429 = peak.ruPerSecond() == 0 ? 0 : over / peak.ruPerSecond();
    double minimum =
        peak.ruPerSecond() == 0 ? 0 : Math.max(400, Math.ceil(peakDemand * partitions / 100) * 100);
    List<CandidateStats.Heavy> topDocs = s.heaviestByDocuments(5);
    List<CandidateStats.Heavy> topBytes = s.heaviestByBytes(5);
    long largest = topBytes.isEmpty() ? 0 : Math.round(topBytes.get(0).estimate() * factor);
    double missingShare = docs == 0 ? 0 : s.missing() / (double) docs;
    double distinct = s.distinctEstimate();

    int score = 100;
    List<Finding> findings = new ArrayList<>();
    if (missingShare > 0) {
      score -= 25;
      findings.add(
          new Finding(
              3,
              String.format(
                  Locale.ROOT,
                  "%.1f%% of documents have no %s: their writes cannot supply the key",
                  missingShare * 100,
                  s.candidate().name())));
    }
    double gb = 1L << 30;
    if (largest > limits.logicalPartitionBytes()) {
      score -= 40;
      findings.add(
          new Finding(
              0,
              String.format(
                  Locale.ROOT,
                  "logical partition %s reaches %.1f GB, past the 20 GB limit: its writes will fail"
                      + " (403/1014) and it can never be split",
                  shortKey(topBytes.get(0).key()),
                  largest / gb)));
    } else if (largest > 0.8 * limits.logicalPartitionBytes()) {
      score -= 15;
      findings.add(
          new Finding(
              0,
              String.format(
                  Locale.ROOT,
                  "logical partition %s reaches %.1f GB, within 20%% of the 20 GB limit",
                  shortKey(topBytes.get(0).key()),
                  largest / gb)));
    }
    if (!topDocs.isEmpty() && docs > 0) {
      double topShare = topDocs.get(0).estimate() / (double) docs;
      // hot when one key alone brings half a partition's fair share or more
      if (topShare >= 0.1 && topShare > 0.5 / partitions) {
        score -= 30;
        findings.add(
            new Finding(
                2,
                String.format(
                    Locale.ROOT,
                    "hot key %s holds %.0f%% of documents (a hot user or tenant): its partition"
                        + " carries %.1f× the mean",
                    shortKey(topDocs.get(0).key()),
                    topShare * 100,
                    hotRatio)));
      }
    }
    if (hotRatio > 1.5 && findings.stream().noneMatch(f -> f.text().startsWith("hot key"))) {
      score -= 20;
      findings.add(
          new Finding(
              5,
              String.format(
                  Locale.ROOT,
                  "uneven partitions: the busiest holds %.1f× the mean of %d",
                  hotRatio,
                  partitions)));
    }
    double monotonicity = s.monotonicity();
    // A key that rises with arrival order is harmless when each write has its own value (the
    // hash spreads them); it is the "time-based key" trap when consecutive writes share one.
    boolean timeBased = monotonicity >= 0.9 && s.meanRun() >= 5 && s.documents() >= 100;
    if (timeBased) {
      score = Math.min(score - 35, 45); // the busiest hour all goes to one partition: reject
      findings.add(
          new Finding(
              1,
              String.format(
                  Locale.ROOT,
                  "time-based key: values rise with arrival order (%.0f%%) and ~%.0f consecutive"
                      + " writes share each one, so each moment's writes land on one logical and one"
                      + " physical partition",
                  monotonicity * 100,
                  s.meanRun())));
    }
    if (distinct < Math.max(100, 10.0 * partitions)) {
      score -= 30;
      findings.add(
          new Finding(
              4,
              String.format(
                  Locale.ROOT,
                  "only ~%.0f distinct values: the data cannot spread beyond them, and a logical"
                      + " partition never splits",
                  distinct)));
    }
    if (predicted429 > 0.001) {
      score -= 25;
      findings.add(
          new Finding(
              2,
              String.format(
                  Locale.ROOT,
                  "at peak the busiest partition needs %.0f RU/s against a budget of %.0f: ~%.1f%%"
                      + " of requests would get 429; with this key the container needs %.0f RU/s",
                  peakDemand,
                  budget,
                  predicted429 * 100,
                  minimum)));
    }
    double[] perLevel = s.distinctPerLevel();
    for (int level = 1; level < perLevel.length; level++) {
      if (perLevel[level - 1] > 2 * perLevel[level]) {
        score -= 25;
        findings.add(
            new Finding(
                3,
                String.format(
                    Locale.ROOT,
                    "hierarchical levels in the wrong order: %s (~%.0f values) comes before %s"
                        + " (~%.0f); put the fewer-valued level first, so prefix queries target"
                        + " few partitions",
                    s.candidate().paths().get(level - 1),
                    perLevel[level - 1],
                    s.candidate().paths().get(level),
                    perLevel[level])));
        break;
      }
    }
    if (s.candidate().kind() == Candidate.Kind.BUCKETED) {
      score -= 10;
      findings.add(
          new Finding(
              6,
              String.format(
                  Locale.ROOT,
                  "synthetic-key read fan-out: a read by %s alone must visit %d buckets (read"
                      + " multiplier ×%d)",
                  s.candidate().paths().get(0),
                  s.candidate().buckets(),
                  s.candidate().buckets())));
    }
    if (largest > limits.logicalPartitionBytes()) {
      score = Math.min(score, 40); // a hard failure, whatever else is right: never recommend it
    }
    score = Math.max(0, score);
    String verdict = score >= 80 ? "recommended" : score >= 50 ? "risky" : "rejected";
    findings.sort(Comparator.comparingInt(Finding::harm));
    List<String> reasons = new ArrayList<>();
    for (Finding f : findings) {
      reasons.add(f.text());
    }
    List<Advice.Share> byDocs = new ArrayList<>();
    for (CandidateStats.Heavy h : topDocs) {
      byDocs.add(Advice.share(h, (double) docs, factor));
    }
    List<Advice.Share> byBytes = new ArrayList<>();
    for (CandidateStats.Heavy h : topBytes) {
      byBytes.add(Advice.share(h, (double) s.bytes(), factor));
    }
    return new Advice(
        s.candidate().name(),
        s.candidate().kind().name(),
        new Advice.Range(distinct, s.distinctLowerBound(), s.distinctUpperBound()),
        byDocs,
        byBytes,
        missingShare,
        largest,
        partitions,
        shares,
        hotRatio,
        monotonicity,
        peakDemand,
        budget,
        predicted429,
        minimum,
        score,
        verdict,
        reasons);
  }
}
