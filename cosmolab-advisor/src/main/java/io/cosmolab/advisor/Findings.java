package io.cosmolab.advisor;

import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.load.Demand;
import io.cosmolab.advisor.load.Layouts;
import io.cosmolab.advisor.load.Reservoir;
import io.cosmolab.advisor.load.Route;
import io.cosmolab.advisor.stats.CandidateStats;
import io.cosmolab.advisor.stats.ValueKinds;
import io.cosmolab.advisor.workload.ContainerWorkload;
import io.cosmolab.advisor.workload.Operation;
import io.cosmolab.advisor.workload.QueryShape;
import io.cosmolab.engine.limits.Limits;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.throughput.Throughput;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One candidate's numbers, and the reasons they predict, ordered by harm. The score starts at 100
 * and each reason takes points off; the thresholds are ours, chosen to name the failures {@code
 * partitioning-model.md} §3 describes. [I] They are not the service's numbers.
 */
final class Findings {
  private static final double GB = 1L << 30;

  /** A reason and how much harm it predicts: 0 fails writes outright, higher wastes less. */
  private record Finding(int harm, String text) {}

  private final List<Finding> findings = new ArrayList<>();
  private int score = 100;

  private Findings() {}

  private void add(int harm, int points, String format, Object... args) {
    score -= points;
    findings.add(new Finding(harm, String.format(Locale.ROOT, format, args)));
  }

  /** Recommended (80 and up), risky (50 and up) or rejected. */
  static String verdictOf(int score) {
    return score >= 80 ? "recommended" : score >= 50 ? "risky" : "rejected";
  }

  private static String shortKey(String key) {
    return key.length() <= 40 ? key : key.substring(0, 37) + "...";
  }

  /**
   * @param kinds what each path's values are, when there is no workload (null with one)
   */
  static Advice advise(
      CandidateStats s,
      AdvisorOptions options,
      Reservoir reservoir,
      int meanSize,
      int meanTerms,
      ValueKinds kinds) {
    Limits limits = Limits.SERVICE;
    Candidate candidate = s.candidate();
    long docs = s.documents();
    double now = options.documents() > 0 ? options.documents() : docs;
    double factorNow = docs == 0 ? 1 : now / docs;
    double factorHorizon = docs == 0 ? 1 : options.documentsAtHorizon(docs) / docs;
    // the layout the service reaches by the horizon: created by the throughput, split for storage
    Layouts layouts = Layouts.of(s, reservoir, factorHorizon, limits);
    double monotonicity = s.monotonicity();
    // A key that rises with arrival order is harmless when each write has its own value (the
    // hash spreads them); it is the "time-based key" trap when consecutive writes share one.
    boolean rising = monotonicity >= 0.9 && s.meanRun() >= 5 && docs >= 100;
    // Date-time values shared by many documents (a day, an hour) are the same trap even when the
    // sample is not in arrival order: the writes of one moment carry the moment's value.
    double perValue = s.distinctEstimate() <= 0 ? 0 : docs / s.distinctEstimate();
    boolean timeValued =
        kinds != null && kinds.allTime(candidate.paths()) && perValue >= 5 && docs >= 100;
    boolean timeBased = rising || timeValued;
    Demand demand =
        options.peak().isEmpty()
            ? null
            : new Demand(s, reservoir, options.peak(), meanSize, meanTerms, timeBased, now);
    Demand.Sizing minimum =
        demand == null ? null : demand.minimum(options.throughput(), layouts, limits);
    Throughput throughput = options.throughput();
    Layouts.Layout layout = layouts.created(Advisor.partitions(throughput, 1));
    if (options.findMinimum()) {
      if (minimum != null) {
        throughput = minimum.throughput();
        layout = minimum.layout();
      } else {
        throughput = saturated(options.throughput(), demand, layouts, limits);
        layout = layouts.created(Advisor.partitions(throughput, 1));
      }
    }
    int partitions = layout.size();

    List<long[]> load = s.perPartition(layout.bounds());
    double keyedBytes = 0;
    for (long[] p : load) {
      keyedBytes += p[1];
    }
    List<Double> shares = new ArrayList<>();
    double max = 0;
    for (long[] p : load) {
      double share = keyedBytes == 0 ? 0 : p[1] / keyedBytes;
      shares.add(share);
      max = Math.max(max, share);
    }
    double hotRatio = max * partitions;
    List<CandidateStats.Heavy> topDocs = s.heaviestByDocuments(5);
    List<CandidateStats.Heavy> topBytes = s.heaviestByBytes(5);
    // no key reached the sketch (each was seen once in its window): the largest of those is it
    long largestSample =
        topBytes.isEmpty() ? s.largestSingleDocumentKeyBytes() : topBytes.get(0).estimate();
    long largestNow = Math.round(largestSample * factorNow);
    long largest = Math.round(largestSample * factorHorizon);
    double missingShare = docs == 0 ? 0 : s.missing() / (double) docs;
    double distinct = s.distinctEstimate();

    Findings f = new Findings();
    long surely =
        Math.round(
            (topBytes.isEmpty() ? largestSample : topBytes.get(0).lowerBound()) * factorHorizon);
    f.storageReasons(s, options, missingShare, topBytes, largest, surely);
    f.keyReasons(s, topDocs, partitions, hotRatio, rising, timeValued ? perValue : 0);
    if (demand == null && kinds != null) {
      f.unjudged(candidate, kinds, timeBased);
    }

    Advice.Peak peak = null;
    Advice.Routing routing =
        new Advice.Routing(0, 0, 0, 0, 0, 0, readMultiplier(candidate), List.of());
    List<Advice.Share> byRu = new ArrayList<>();
    if (demand != null && !demand.isEmpty()) {
      double[] perPartition = demand.at(layout);
      double busiest = 0;
      double total = 0;
      List<Double> ru = new ArrayList<>();
      for (double d : perPartition) {
        busiest = Math.max(busiest, d);
        total += d;
        ru.add(d);
      }
      double budget = throughput.maxRuPerSecond() / partitions;
      double over = demand.rejectedShare(layout, budget);
      Double minimumRu = minimum == null ? null : minimum.throughput().maxRuPerSecond();
      StorageCurve.Curve ruCurve =
          StorageCurve.of(
              new ArrayList<>(demand.perKey().values()), distinct, demand.keyedRuPerSecond());
      peak =
          new Advice.Peak(
              ru,
              busiest,
              budget,
              over,
              minimumRu,
              total == 0 ? 1 : busiest * partitions / total,
              ruCurve.gini(),
              ruCurve.points());
      byRu = topByRu(demand.perKey(), total);
      routing = f.routing(demand, candidate, partitions, total, options.peak(), meanSize);
      if (minimum == null) {
        f.unservable(candidate, demand, layouts, byRu, busiest, limits);
      } else if (over > 0.001) {
        f.add(
            2,
            25,
            "at peak the busiest partition needs %.0f RU/s against a budget of %.0f: ~%.1f%% of"
                + " requests would get 429; with this key the container needs %.0f RU/s",
            busiest,
            budget,
            over * 100,
            minimumRu);
      }
    }
    if (candidate.kind() == Candidate.Kind.BUCKETED) {
      f.add(
          6,
          10,
          "synthetic-key read fan-out: a read by %s alone must visit %d buckets (read multiplier"
              + " ×%d)%s",
          candidate.paths().get(0),
          candidate.buckets(),
          candidate.buckets(),
          routing.fanOutRuPerSecond() > 0
              ? String.format(Locale.ROOT, "; fan-out adds %.0f RU/s", routing.fanOutRuPerSecond())
              : "");
    }
    if (surely > limits.logicalPartitionBytes()) {
      f.score = Math.min(f.score, 40); // a hard failure, whatever else is right: never recommend
    }
    int score = Math.max(0, f.score);
    String verdict = verdictOf(score);
    List<String> reasons = f.reasons();
    List<Advice.Share> byDocs = new ArrayList<>();
    for (CandidateStats.Heavy h : topDocs) {
      byDocs.add(Advice.share(h, (double) docs, factorNow));
    }
    List<Advice.Share> byBytes = new ArrayList<>();
    for (CandidateStats.Heavy h : topBytes) {
      byBytes.add(Advice.share(h, (double) s.bytes(), factorNow));
    }
    Advice.Storage storage =
        StorageCurve.of(
            s,
            Math.round(now),
            Math.round(options.documentsAtHorizon(docs)),
            largestNow,
            largest,
            factorHorizon);
    return new Advice(
        candidate.name(),
        candidate.kind().name(),
        score,
        verdict,
        reasons,
        new Advice.Range(distinct, s.distinctLowerBound(), s.distinctUpperBound()),
        missingShare,
        monotonicity,
        byDocs,
        byBytes,
        byRu,
        storage,
        new Advice.Layout(
            throughput.maxRuPerSecond(), throughput.kind(), partitions, shares, hotRatio),
        peak,
        routing);
  }

  /**
   * Reasons from storage: documents that cannot supply the key, and a logical partition near or
   * past 20 GB ({@code largest} is the sketch's estimate at the horizon, {@code surely} its lower
   * bound).
   */
  private void storageReasons(
      CandidateStats s,
      AdvisorOptions options,
      double missingShare,
      List<CandidateStats.Heavy> topBytes,
      long largest,
      long surely) {
    Limits limits = Limits.SERVICE;
    Candidate candidate = s.candidate();
    if (missingShare > 0) {
      add(
          3,
          25,
          "%.1f%% of documents have no %s: their writes cannot supply the key",
          missingShare * 100,
          candidate.name());
    }
    // the sketch's estimate is an upper bound once it holds fewer keys than there are: reject on
    // the lower bound, warn on the estimate
    if (surely <= limits.logicalPartitionBytes() && largest > limits.logicalPartitionBytes()) {
      add(
          0,
          15,
          "logical partition %s may reach %.1f GB%s (between %.1f and %.1f GB: the sketch's"
              + " bounds), near or past the 20 GB limit",
          shortKey(topBytes.get(0).key()),
          largest / GB,
          options.horizonDays() > 0 ? " at the horizon" : "",
          surely / GB,
          largest / GB);
    } else if (largest > limits.logicalPartitionBytes()) {
      add(
          0,
          40,
          "logical partition %s reaches %.1f GB%s, past the 20 GB limit: its writes will fail"
              + " (403/1014) and it can never be split",
          shortKey(topBytes.get(0).key()),
          largest / GB,
          options.horizonDays() > 0 ? " at the horizon" : "");
    } else if (largest > 0.8 * limits.logicalPartitionBytes()) {
      add(
          0,
          15,
          "logical partition %s reaches %.1f GB, within 20%% of the 20 GB limit",
          shortKey(topBytes.get(0).key()),
          largest / GB);
    }
  }

  /**
   * Reasons from the key's shape: a hot key, an uneven layout, a time-based key, too few values,
   * hierarchical levels in the wrong order.
   */
  private void keyReasons(
      CandidateStats s,
      List<CandidateStats.Heavy> topDocs,
      int partitions,
      double hotRatio,
      boolean rising,
      double perTimeValue) {
    Candidate candidate = s.candidate();
    long docs = s.documents();
    double monotonicity = s.monotonicity();
    double distinct = s.distinctEstimate();
    boolean hotKey = false;
    if (!topDocs.isEmpty() && docs > 0) {
      double topShare = topDocs.get(0).estimate() / (double) docs;
      // hot when one key alone brings half a partition's fair share or more
      if (topShare >= 0.1 && topShare > 0.5 / partitions) {
        hotKey = true;
        add(
            2,
            30,
            "hot key %s holds %.0f%% of documents (a hot user or tenant): its partition carries"
                + " %.1f× the mean",
            shortKey(topDocs.get(0).key()),
            topShare * 100,
            hotRatio);
      }
    }
    if (hotRatio > 1.5 && !hotKey) {
      add(5, 20, "uneven partitions: the busiest holds %.1f× the mean of %d", hotRatio, partitions);
    }
    if (rising) {
      add(
          1,
          35,
          "time-based key: values rise with arrival order (%.0f%%) and ~%.0f consecutive writes"
              + " share each one, so each moment's writes land on one logical and one physical"
              + " partition",
          monotonicity * 100,
          s.meanRun());
    } else if (perTimeValue > 0) {
      add(
          1,
          35,
          "time-based key: its values are date-times and ~%.0f documents share each one, so each"
              + " moment's writes carry the same value and land on one logical and one physical"
              + " partition",
          perTimeValue);
    }
    if (rising || perTimeValue > 0) {
      score = Math.min(score, 45); // the busiest hour all goes to one partition: reject
    }
    if (distinct < Math.max(100, 10.0 * partitions)) {
      add(
          4,
          30,
          "only ~%.0f distinct values: the data cannot spread beyond them, and a logical"
              + " partition never splits",
          distinct);
    }
    double[] perLevel = s.distinctPerLevel();
    for (int level = 1; level < perLevel.length; level++) {
      if (perLevel[level - 1] > 2 * perLevel[level]) {
        add(
            3,
            25,
            "hierarchical levels in the wrong order: %s (~%.0f values) comes before %s (~%.0f);"
                + " put the fewer-valued level first, so prefix queries target few partitions",
            candidate.paths().get(level - 1),
            perLevel[level - 1],
            candidate.paths().get(level),
            perLevel[level]);
        break;
      }
    }
  }

  /**
   * No throughput serves the peak on the layout the service reaches. Only a logical partition that
   * alone needs more than one physical partition's RU/s is past every remedy; a hierarchical key's
   * prefix is not: its logical partitions can be spread by a split inside it, which storage splits
   * make once the prefix's data fills a partition, and a manual split makes at once.
   */
  private void unservable(
      Candidate candidate,
      Demand demand,
      Layouts layouts,
      List<Advice.Share> byRu,
      double busiest,
      Limits limits) {
    double ceiling = limits.physicalPartitionRu();
    if (!byRu.isEmpty() && byRu.get(0).weight() > ceiling) {
      add(
          1,
          40,
          "no throughput avoids 429: %s alone needs ~%.0f RU/s at peak, past the %,.0f RU/s one"
              + " physical partition serves, and a logical partition is never split",
          shortKey(byRu.get(0).key()),
          byRu.get(0).weight(),
          ceiling);
      score = Math.min(score, 40);
      return;
    }
    // under a hierarchical key, the busiest logical partition may be small while its prefix is
    // not: the prefix spreads only as far as storage splits inside it take it by the horizon
    com.fasterxml.jackson.databind.JsonNode prefix =
        candidate.kind() == Candidate.Kind.HIERARCHICAL && !byRu.isEmpty()
            ? firstLevel(byRu.get(0).key())
            : null;
    if (prefix != null) {
      Layouts.Layout best = demand.leastBusy(layouts);
      EpkRange range =
          EffectivePartitionKey.prefixRange(
              candidate.definition(), PartitionKeyValue.fromJson(prefix));
      int spans = best.routing().overlapping(range).size();
      add(
          2,
          25,
          "no throughput avoids 429 on the layouts the service reaches: the prefix %s holds"
              + " %s by the horizon, so storage splits at the median spread it over %d"
              + " physical partition%s at most, and the busiest still needs ~%.0f RU/s at peak,"
              + " past the %,.0f one serves; throughput splits cut at range midpoints, never"
              + " inside a prefix [A]. Its busiest logical partition needs only ~%.0f RU/s, so a"
              + " manual split inside the prefix (or a first level that spreads) serves it",
          shortKey(prefix.toString()),
          io.cosmolab.advisor.report.HtmlReport.bytes(layouts.bytesWithin(range)),
          spans,
          spans == 1 ? "" : "s",
          demand.busiest(best),
          ceiling,
          byRu.get(0).weight());
      return;
    }
    add(
        1,
        40,
        "no throughput up to %d physical partitions avoids 429: the busiest still needs ~%.0f"
            + " RU/s at peak, past the %,.0f RU/s one serves",
        Demand.maxPartitions(),
        busiest,
        ceiling);
    score = Math.min(score, 40);
  }

  /** {@code ["acme"]} of a hierarchical key's text {@code ["acme","u1"]}, or null. */
  private static com.fasterxml.jackson.databind.JsonNode firstLevel(String keyText) {
    try {
      com.fasterxml.jackson.databind.JsonNode k = PREFIX_READER.readTree(keyText);
      return k.isArray() && k.size() > 1 ? PREFIX_READER.createArrayNode().add(k.get(0)) : null;
    } catch (java.io.IOException e) {
      return null;
    }
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper PREFIX_READER =
      new com.fasterxml.jackson.databind.ObjectMapper();

  /**
   * Without a workload: says what could not be judged, and takes points from keys whose names or
   * values suggest they change (a state, a quantity, a flag), or that are time-valued (each
   * moment's writes share one value: how many there are, only a workload says).
   */
  private void unjudged(Candidate candidate, ValueKinds kinds, boolean timeBased) {
    List<String> measures = new ArrayList<>();
    int times = 0;
    for (String p : candidate.paths()) {
      switch (kinds.kindOf(p)) {
        case MEASURE, STATE, FLAG -> measures.add(p);
        case TIME -> times++;
        default -> {}
      }
    }
    if (!measures.isEmpty()) {
      add(
          4,
          30,
          "%s %s a value that changes (a state, a quantity, a flag: by its name or its values):"
              + " an update cannot change a key, and queries seldom filter by it exactly",
          String.join(", ", measures),
          measures.size() == 1 ? "looks like" : "look like");
    }
    if (times == candidate.paths().size() && !timeBased) {
      add(
          4,
          20,
          "values are date-times: every write of one moment shares one value, so at a busy"
              + " moment they all land on one logical partition (the write rate, only a"
              + " workload gives)");
    }
    add(
        7,
        10,
        "not judged without a workload: reads by the key (targeted or fan-out), writes that"
            + " lack it, and updates that change it. Give the operations at peak (--workload) to"
            + " rank by them");
  }

  /**
   * Routing numbers, and the reasons they give: writes that cannot supply the key, updates that
   * change it, point operations that must look their document up, reads that fan out, and joins
   * that are cross-partition under this key.
   */
  private Advice.Routing routing(
      Demand demand,
      Candidate candidate,
      int partitions,
      double total,
      List<Operation> peak,
      int meanSize) {
    double keyless = 0;
    double keyChange = 0;
    List<String> keylessOps = new ArrayList<>();
    List<String> changing = new ArrayList<>();
    List<String> lookups = new ArrayList<>();
    List<String> fanOut = new ArrayList<>();
    List<String> joins = new ArrayList<>();
    double lookupRate = 0;
    double joinRate = 0;
    for (Demand.Note n : demand.notes()) {
      String op = n.operation() + String.format(Locale.ROOT, " (%.0f/s)", n.rate());
      switch (n.kind()) {
        case KEYLESS_WRITE -> {
          keyless += n.rate();
          keylessOps.add(op);
        }
        case KEY_CHANGE -> {
          keyChange += n.rate();
          changing.add(op);
        }
        case LOOKUP -> {
          lookupRate += n.rate();
          lookups.add(op);
        }
        case FAN_OUT -> {
          if (n.operation().startsWith(ContainerWorkload.JOIN_LABEL)) {
            joinRate += n.rate();
            joins.add(n.operation().substring(ContainerWorkload.JOIN_LABEL.length()));
          } else {
            fanOut.add(op);
          }
        }
        case TARGETED -> {}
      }
    }
    String key = String.join(", ", candidate.paths());
    if (keyless > 0) {
      add(
          3,
          25,
          "writes that cannot supply the key: %s do not have %s",
          String.join(", ", keylessOps),
          key);
    }
    if (keyChange > 0) {
      add(
          3,
          20,
          "updates that change the key: %s change %s, which is impossible in place; each becomes"
              + " a delete and a create",
          String.join(", ", changing),
          key);
    }
    if (joinRate > 0) {
      add(
          4,
          15,
          "joins are cross-partition with this key: lookups from %s (%.0f/s) visit every"
              + " partition (%d at this throughput)",
          String.join(", ", joins),
          joinRate,
          partitions);
    }
    double[] reads = demand.reads();
    double allReads = reads[0] + reads[1] + reads[2];
    double fanOutRu = demand.fanOutRuPerSecond(partitions);
    if (lookupRate > 0) {
      add(
          5,
          10,
          "point operations without the key: %s must first query all %d partitions for their"
              + " document",
          String.join(", ", lookups),
          partitions);
    }
    if (!fanOut.isEmpty()
        && partitions > 1
        && (reads[2] >= 0.1 * allReads || fanOutRu >= 0.1 * total)) {
      add(
          5,
          fanOutRu >= 0.3 * total ? 25 : 15, // a third of the RU/s spent on fan-out is a risk
          "cross-partition reads: %s visit all %d partitions; fan-out adds %.0f RU/s",
          String.join(", ", fanOut),
          partitions,
          fanOutRu);
    }
    List<Advice.Alternative> alternatives =
        alternatives(demand, candidate, partitions, peak, meanSize);
    return new Advice.Routing(
        allReads == 0 ? 0 : reads[0] / allReads,
        allReads == 0 ? 0 : reads[1] / allReads,
        allReads == 0 ? 0 : reads[2] / allReads,
        fanOutRu,
        keyless,
        keyChange,
        readMultiplier(candidate),
        alternatives);
  }

  /**
   * For each query that visits every partition under this key, what the service offers beside
   * re-keying: a global secondary index or a change-feed materialized view keyed by the query's
   * equality filter, with their costs ({@link Advice.Alternative}); said as a note (no points).
   */
  private List<Advice.Alternative> alternatives(
      Demand demand, Candidate candidate, int partitions, List<Operation> peak, int meanSize) {
    List<Advice.Alternative> out = new ArrayList<>();
    if (partitions <= 1) {
      return out; // nothing fans out on one partition
    }
    double[] writes = demand.writes();
    double view =
        writes[1]
            + writes[0] * io.cosmolab.engine.cost.CostModel.PUBLISHED.pointRead(meanSize, false);
    double perPartition = io.cosmolab.engine.cost.CostModel.PUBLISHED.queryPerPartition();
    for (int i = 0; i < peak.size(); i++) {
      Operation op = peak.get(i);
      Route route = Route.of(op, candidate);
      if (op.type() != Operation.Type.QUERY || route.reach() != Route.Reach.ALL) {
        continue;
      }
      List<String> key = new ArrayList<>(QueryShape.of(op.sql()).fixed().keySet());
      double fanOut = op.rate() * perPartition * (partitions - 1);
      String label = op.label(i);
      if (key.isEmpty()) {
        add(
            6,
            0,
            "%s (%.0f/s) fixes no field by equality: no key, index or view serves it from one"
                + " partition; it adds %.0f RU/s of fan-out over %d partitions",
            label,
            op.rate(),
            fanOut,
            partitions);
        continue;
      }
      out.add(new Advice.Alternative(label, op.rate(), key, fanOut, writes[1], view));
      String by = String.join(", ", key);
      add(
          6,
          0,
          "instead of the fan-out of %s (%.0f/s, +%.0f RU/s over %d partitions): a global"
              + " secondary index keyed by %s serves it from one partition for ~%.0f RU/s of index"
              + " writes (%.0f writes/s; preview, autoscale); a change-feed materialized view keyed"
              + " by %s, for ~%.0f RU/s (its writes and the feed reads); or a key that starts with"
              + " %s [I]",
          label,
          op.rate(),
          fanOut,
          partitions,
          by,
          writes[1],
          writes[0],
          by,
          view,
          key.get(0));
    }
    return out;
  }

  private static int readMultiplier(Candidate c) {
    return c.kind() == Candidate.Kind.BUCKETED ? c.buckets() : 1;
  }

  private List<String> reasons() {
    findings.sort(Comparator.comparingInt(Finding::harm));
    List<String> out = new ArrayList<>();
    for (Finding x : findings) {
      out.add(x.text());
    }
    return out;
  }

  private static List<Advice.Share> topByRu(Map<String, Double> perKey, double total) {
    List<Map.Entry<String, Double>> entries = new ArrayList<>(perKey.entrySet());
    entries.sort(
        Map.Entry.<String, Double>comparingByValue()
            .reversed()
            .thenComparing(Map.Entry.comparingByKey()));
    List<Advice.Share> out = new ArrayList<>();
    for (Map.Entry<String, Double> e : entries.subList(0, Math.min(5, entries.size()))) {
      out.add(new Advice.Share(e.getKey(), e.getValue(), total == 0 ? 0 : e.getValue() / total));
    }
    return out;
  }

  /** When no throughput serves the peak: the throughput that would carry its total demand. */
  private static Throughput saturated(
      Throughput kind, Demand demand, Layouts layouts, Limits limits) {
    double one = 0;
    for (double x : demand.at(layouts.created(1))) {
      one += x;
    }
    double floor =
        kind instanceof Throughput.Autoscale ? limits.minAutoscaleMaxRu() : limits.minManualRu();
    return kind.withValue(Math.max(floor, Math.min(limits.maxRu(), Math.ceil(one / 100) * 100)));
  }

  /**
   * With throughput found per candidate, a key that needs far more than the cheapest costs that
   * much more every hour: it loses points for it.
   */
  static List<Advice> comparedByCost(List<Advice> all) {
    double best = Double.MAX_VALUE;
    String bestName = null;
    for (Advice a : all) {
      if (a.peak() != null && a.peak().minimumRuPerSecond() != null && a.score() >= 50) {
        if (a.peak().minimumRuPerSecond() < best) {
          best = a.peak().minimumRuPerSecond();
          bestName = a.candidate();
        }
      }
    }
    if (bestName == null) {
      return all;
    }
    List<Advice> out = new ArrayList<>();
    for (Advice a : all) {
      Double m = a.peak() == null ? null : a.peak().minimumRuPerSecond();
      if (m != null && m > 1.5 * best) {
        List<String> reasons = new ArrayList<>(a.reasons());
        reasons.add(
            String.format(
                Locale.ROOT,
                "costs more: needs %.0f RU/s, %.1f× the %.0f RU/s of %s",
                m,
                m / best,
                best,
                bestName));
        int score = Math.max(0, a.score() - 15);
        a =
            new Advice(
                a.candidate(),
                a.kind(),
                score,
                verdictOf(score),
                reasons,
                a.distinct(),
                a.missingShare(),
                a.monotonicity(),
                a.topByDocuments(),
                a.topByBytes(),
                a.topByRu(),
                a.storage(),
                a.layout(),
                a.peak(),
                a.routing());
      }
      out.add(a);
    }
    return out;
  }
}
