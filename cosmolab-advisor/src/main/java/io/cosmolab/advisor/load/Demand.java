package io.cosmolab.advisor.load;

import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.stats.CandidateStats;
import io.cosmolab.advisor.stats.EpkBuckets;
import io.cosmolab.advisor.workload.Operation;
import io.cosmolab.engine.cost.CostModel;
import io.cosmolab.engine.limits.Limits;
import io.cosmolab.engine.throughput.Throughput;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The RU/s a candidate's partitions must serve at peak. Each operation is costed by the engine's
 * published cost model for the sample's mean document, routed ({@link Route}) and spread over EPK
 * buckets by its access ({@link AccessWeights}); a request that visits every partition also pays
 * each one the per-partition query charge (2.5 RU). Any layout's per-partition demand then follows
 * by summing buckets, which is how the minimum throughput is searched.
 *
 * <p>A query that visits every partition, and whose rows come in document order (no ORDER BY, GROUP
 * BY, DISTINCT or aggregate: those read a page from every partition to merge), reads its page of
 * rows from the partitions in EPK order: the first one that holds matches gives as many as it
 * holds, up to the page, then the next. That is how the SDKs page a cross-partition query by
 * default (the Java SDK's {@code maxDegreeOfParallelism} 0 drains one partition at a time, {@code
 * ParallelDocumentQueryExecutionContext}), and how the engine pages one; so when each partition
 * holds a page of matches, the first partition serves every page's rows while the others pay only
 * the per-partition charge. The matches of a request are its value's share of the documents ({@link
 * AccessWeights#matchShare}), spread over the partitions like the documents [I].
 *
 * <p>Assumptions [I]: replaces change every indexed term, patches two; a query loads only the
 * documents it returns (its filter is served by the index); an update that changes a key field is a
 * delete and a create; a time-based key sends every create to the partition of its newest value.
 */
public final class Demand {
  private static final CostModel COSTS = CostModel.PUBLISHED;

  /** An operation whose routing a report should name, and how much of it there is. */
  public record Note(Kind kind, String operation, double rate, Route route) {}

  /** What a note is about. */
  public enum Kind {
    /** a read that visits every partition */
    FAN_OUT,
    /** a read that visits a few */
    TARGETED,
    /** a create or upsert whose caller lacks a key field */
    KEYLESS_WRITE,
    /** a replace, patch or upsert that changes a key field */
    KEY_CHANGE,
    /** a point operation whose caller lacks the key: it finds the document by a query first */
    LOOKUP
  }

  private final double[] perBucket = new double[EpkBuckets.COUNT];

  /**
   * One operation's load: its RU/s by bucket, whether each request visits every partition, and for
   * a request that visits a few ({@code fanOut} key values), its per-partition query charges by
   * bucket as if each value were its own partition ({@code legs}, null otherwise), which {@link
   * #legsAt} scales to the partitions those values really fall in.
   */
  @SuppressWarnings("ArrayRecordComponent") // internal, never compared
  private record Load(
      double rate,
      double[] perBucket,
      boolean broadcast,
      double[] legs,
      double fanOut,
      FirstPage page) {}

  /**
   * A query that visits every partition and reads one page of {@code rows}: its rows' RU/s, the
   * documents that match a request, and where the documents are (a share per bucket), to fill the
   * page from the partitions in EPK order on a layout.
   */
  @SuppressWarnings("ArrayRecordComponent") // internal, never compared
  private record FirstPage(double ruPerSecond, double rows, double matches, double[] documents) {}

  private final List<Load> loads = new ArrayList<>();
  private final List<Load> targetedLoads = new ArrayList<>();
  private final List<Load> pagedLoads = new ArrayList<>();
  private final Candidate candidate;
  private final Map<String, Double> perKey = new HashMap<>();
  private final List<Note> notes = new ArrayList<>();
  private double broadcastRate; // requests per second that visit every partition
  private final List<double[]> targeted = new ArrayList<>(); // {rate, keys per request}
  private double singleReads;
  private double targetedReads;
  private double allReads;
  private double total;
  private double writes; // per second: creates, upserts, replaces, patches, deletes
  private double writeRu; // their RU/s

  /**
   * @param meanSize the sample's mean document size, bytes
   * @param meanTerms its mean indexed terms
   * @param timeBased whether the key follows arrival order (creates go to the newest value)
   */
  public Demand(
      CandidateStats stats,
      Reservoir reservoir,
      List<Operation> operations,
      int meanSize,
      int meanTerms,
      boolean timeBased) {
    this(stats, reservoir, operations, meanSize, meanTerms, timeBased, (double) stats.documents());
  }

  /**
   * @param meanSize the sample's mean document size, bytes
   * @param meanTerms its mean indexed terms
   * @param timeBased whether the key follows arrival order (creates go to the newest value)
   * @param documentsNow the documents the container holds at peak, for the matches of a query
   */
  public Demand(
      CandidateStats stats,
      Reservoir reservoir,
      List<Operation> operations,
      int meanSize,
      int meanTerms,
      boolean timeBased,
      double documentsNow) {
    this.candidate = stats.candidate();
    double[] documentShares = stats.documentsPerBucket();
    double documentTotal = 0;
    for (double d : documentShares) {
      documentTotal += d;
    }
    for (int b = 0; b < documentShares.length && documentTotal > 0; b++) {
      documentShares[b] /= documentTotal;
    }
    double read = COSTS.pointRead(meanSize, false);
    for (int i = 0; i < operations.size(); i++) {
      Operation op = operations.get(i);
      Route route = Route.of(op, candidate);
      String label = op.label(i);
      boolean keyChange =
          op.changes().stream().anyMatch(candidate.paths()::contains) && !op.type().isRead();
      double unit =
          switch (op.type()) {
            case READ -> read;
            case CREATE -> COSTS.create(meanSize, meanTerms);
            case UPSERT ->
                keyChange
                    ? COSTS.delete(meanSize, meanTerms) + COSTS.create(meanSize, meanTerms)
                    : COSTS.create(meanSize, meanTerms);
            case REPLACE, PATCH ->
                keyChange
                    ? COSTS.delete(meanSize, meanTerms) + COSTS.create(meanSize, meanTerms)
                    : op.type() == Operation.Type.REPLACE
                        ? COSTS.replace(meanSize, meanTerms)
                        : COSTS.patch(meanSize, 2, 1);
            case DELETE -> COSTS.delete(meanSize, meanTerms);
            case QUERY -> {
              double rows = op.rowsOrDefault();
              yield COSTS.query(0, Math.round(rows * meanSize), rows * read);
            }
          };
      if (keyChange) {
        notes.add(new Note(Kind.KEY_CHANGE, label, op.rate(), route));
      }
      if (!op.type().isRead()) {
        writes += op.rate();
        writeRu += op.rate() * unit;
      }
      if (op.type().createsDocuments() && !candidate.paths().stream().allMatch(op::knows)) {
        notes.add(new Note(Kind.KEYLESS_WRITE, label, op.rate(), route));
      }
      double base = COSTS.queryPerPartition();
      double spread = op.rate() * unit; // RU/s that lands where the addressed documents are
      double legs = 0; // a targeted request's per-partition charges, one per key value it names
      switch (route.reach()) {
        case SINGLE -> {
          if (op.type() == Operation.Type.QUERY) {
            spread += op.rate() * base;
          }
        }
        case TARGETED -> {
          legs = op.rate() * base * route.fanOut();
          targeted.add(new double[] {op.rate(), route.fanOut()});
          notes.add(new Note(Kind.TARGETED, label, op.rate(), route));
        }
        case ALL -> {
          broadcastRate += op.rate();
          if (route.lookup()) {
            spread += op.rate() * read; // the lookup's one row
            notes.add(new Note(Kind.LOOKUP, label, op.rate(), route));
          } else {
            notes.add(new Note(Kind.FAN_OUT, label, op.rate(), route));
          }
        }
      }
      if (op.type().isRead() || route.lookup()) {
        switch (route.reach()) {
          case SINGLE -> singleReads += op.rate();
          case TARGETED -> targetedReads += op.rate();
          case ALL -> allReads += op.rate();
        }
      }
      double[] weights;
      Map<String, Double> keys;
      FirstPage page = null;
      if (timeBased && op.type().createsDocuments() && !keyChange) {
        weights = new double[EpkBuckets.COUNT];
        weights[stats.latestBucket()] = 1;
        keys = Map.of();
      } else {
        AccessWeights w = AccessWeights.of(route.access(), stats, reservoir);
        weights = w.perBucket();
        keys = w.perKey();
        if (op.type() == Operation.Type.QUERY
            && route.reach() == Route.Reach.ALL
            && route.inDocumentOrder()
            && !route.lookup()
            && !Double.isNaN(w.matchShare())
            && documentTotal > 0) {
          page =
              new FirstPage(
                  spread, op.rowsOrDefault(), w.matchShare() * documentsNow, documentShares);
        }
      }
      double[] mine = new double[weights.length];
      double[] myLegs = legs > 0 ? new double[weights.length] : null;
      for (int b = 0; b < weights.length; b++) {
        mine[b] = spread * weights[b];
        if (page == null) {
          perBucket[b] += mine[b];
        }
        if (myLegs != null) {
          myLegs[b] = legs * weights[b];
        }
      }
      Load load =
          new Load(op.rate(), mine, route.reach() == Route.Reach.ALL, myLegs, route.fanOut(), page);
      if (page != null) {
        pagedLoads.add(load);
      }
      loads.add(load);
      if (myLegs != null) {
        targetedLoads.add(load);
      }
      for (Map.Entry<String, Double> e : keys.entrySet()) {
        perKey.merge(e.getKey(), (spread + legs) * e.getValue(), Double::sum);
      }
      total += spread + legs;
    }
  }

  /** The RU/s that lands where the addressed documents are (all but the fan-out base). */
  public double keyedRuPerSecond() {
    return total;
  }

  /** Writes per second (creates, upserts, replaces, patches, deletes), and their RU/s. */
  public double[] writes() {
    return new double[] {writes, writeRu};
  }

  /** Whether there is any load to place. */
  public boolean isEmpty() {
    return total == 0 && broadcastRate == 0;
  }

  /** The demand of each partition of {@code layout}, RU/s. */
  public double[] at(Layouts.Layout layout) {
    double[] out = EpkBuckets.sum(perBucket, layout.bounds());
    for (Load l : pagedLoads) {
      double[] rows = pageAt(l.page(), layout);
      for (int p = 0; p < out.length; p++) {
        out[p] += rows[p];
      }
    }
    for (Load l : targetedLoads) {
      double[] legs = legsAt(l, layout);
      for (int p = 0; p < out.length; p++) {
        out[p] += legs[p];
      }
    }
    double each = broadcastRate * COSTS.queryPerPartition();
    for (int p = 0; p < out.length; p++) {
      out[p] += each;
    }
    return out;
  }

  /**
   * A targeted load's per-partition query charges on {@code layout}. A request naming k key values
   * visits each partition that holds one of them once, not once per value: with the values hashed
   * evenly over P partitions [I], it visits P × (1 − (1 − 1/P)^k) of them on average, so the
   * charges by value are scaled by that over k (for 20 buckets on 10 partitions, 8.8 visits, not
   * 20), and stay where the values' documents are.
   */
  private static double[] legsAt(Load l, Layouts.Layout layout) {
    double[] legs = EpkBuckets.sum(l.legs(), layout.bounds());
    int partitions = layout.size();
    double k = Math.max(1, l.fanOut());
    double visits = partitions * (1 - Math.pow(1 - 1.0 / partitions, k));
    double scale = Math.min(1, visits / k);
    for (int p = 0; p < legs.length; p++) {
      legs[p] *= scale;
    }
    return legs;
  }

  /**
   * A fan-out query's rows' RU/s on {@code layout}: each partition in EPK order gives the page as
   * many rows as it holds matches (the request's matches spread like the documents), until the page
   * is full; a page that finds fewer rows than it asks for costs that much less.
   */
  private static double[] pageAt(FirstPage page, Layouts.Layout layout) {
    double[] share = EpkBuckets.sum(page.documents(), layout.bounds());
    double[] out = new double[share.length];
    double left = page.rows();
    for (int p = 0; p < share.length && left > 0; p++) {
      double served = Math.min(left, page.matches() * share[p]);
      out[p] = page.ruPerSecond() * served / page.rows();
      left -= served;
    }
    return out;
  }

  /** The RU/s of one load on each partition of {@code layout}, before any per-partition charge. */
  private static double[] placed(Load l, Layouts.Layout layout) {
    return l.page() != null
        ? pageAt(l.page(), layout)
        : EpkBuckets.sum(l.perBucket(), layout.bounds());
  }

  /** The RU/s that visiting more than one partition adds, with {@code partitions}. */
  public double fanOutRuPerSecond(int partitions) {
    double ru = broadcastRate * COSTS.queryPerPartition() * (partitions - 1);
    for (double[] t : targeted) {
      ru += t[0] * COSTS.queryPerPartition() * (Math.min(t[1], partitions) - 1);
    }
    return Math.max(0, ru);
  }

  /** Reads per second by reach: {single, targeted, all}. */
  public double[] reads() {
    return new double[] {singleReads, targetedReads, allReads};
  }

  public List<Note> notes() {
    return Collections.unmodifiableList(notes);
  }

  /** RU/s of the key values the model placed individually. */
  public Map<String, Double> perKey() {
    return Collections.unmodifiableMap(perKey);
  }

  /**
   * The share of requests that would be answered with 429 on {@code layout}, each partition with
   * {@code budget} RU/s. A partition whose offered demand exceeds its budget admits the share
   * budget ÷ demand of its requests; a request that visits every partition needs each of them to
   * admit it (taken as independent), and one rejected anywhere costs nothing elsewhere, so the
   * admission rates are solved together (a damped fixed point). For point operations alone this
   * equals the RU/s beyond budget over all RU/s; with fan-out, one hot partition rejects whole
   * requests. [I] A targeted request that visits a few partitions is taken as visiting one.
   */
  public double rejectedShare(Layouts.Layout layout, double budget) {
    if (loads.isEmpty()) {
      return 0;
    }
    int partitions = layout.size();
    int n = loads.size();
    double[][] ru = new double[n][];
    double[][] share = new double[n][];
    double base = COSTS.queryPerPartition();
    for (int o = 0; o < n; o++) {
      Load l = loads.get(o);
      ru[o] = placed(l, layout);
      if (l.legs() != null) {
        double[] legs = legsAt(l, layout);
        for (int p = 0; p < partitions; p++) {
          ru[o][p] += legs[p];
        }
      }
      double sum = 0;
      for (double x : ru[o]) {
        sum += x;
      }
      share[o] = new double[partitions];
      for (int p = 0; p < partitions; p++) {
        share[o][p] = sum == 0 ? 1.0 / partitions : ru[o][p] / sum;
        if (l.broadcast()) {
          ru[o][p] += l.rate() * base;
        }
      }
    }
    double[] admit = new double[partitions];
    java.util.Arrays.fill(admit, 1);
    for (int round = 0; round < 200; round++) {
      double all = 1;
      for (double a : admit) {
        all *= a;
      }
      double change = 0;
      for (int p = 0; p < partitions; p++) {
        double offered = 0;
        for (int o = 0; o < n; o++) {
          offered += ru[o][p] * (loads.get(o).broadcast() ? all / admit[p] : 1);
        }
        double next = offered <= budget ? 1 : budget / offered;
        double damped = (admit[p] + next) / 2;
        change = Math.max(change, Math.abs(damped - admit[p]));
        admit[p] = damped;
      }
      if (change < 1e-9) {
        break;
      }
    }
    double all = 1;
    for (double a : admit) {
      all *= a;
    }
    double rejected = 0;
    double requests = 0;
    for (int o = 0; o < n; o++) {
      Load l = loads.get(o);
      double success = 0;
      if (l.broadcast()) {
        success = all;
      } else {
        for (int p = 0; p < partitions; p++) {
          success += share[o][p] * admit[p];
        }
      }
      // shares sum to 1 only within rounding: a success a hair above 1 is not a negative 429 share
      rejected += l.rate() * Math.max(0, 1 - success);
      requests += l.rate();
    }
    return requests == 0 ? 0 : rejected / requests;
  }

  /** The largest partitions searched for a minimum: a quarter of the buckets. */
  private static final int MAX_PARTITIONS = EpkBuckets.COUNT / 4;

  /** The most physical partitions {@link #minimum} tries. */
  public static int maxPartitions() {
    return MAX_PARTITIONS;
  }

  /**
   * Of the layouts {@link #minimum} searches, the one whose busiest partition needs least: what the
   * best a throughput can do looks like when no throughput serves the peak.
   */
  public Layouts.Layout leastBusy(Layouts layouts) {
    Layouts.Layout best = null;
    double least = Double.MAX_VALUE;
    for (int p = 1; p <= MAX_PARTITIONS; p++) {
      Layouts.Layout layout = layouts.created(p);
      double busiest = busiest(layout);
      if (busiest < least) {
        least = busiest;
        best = layout;
      }
    }
    return best;
  }

  /** The demand of the busiest partition of {@code layout}, RU/s. */
  public double busiest(Layouts.Layout layout) {
    double busiest = 0;
    for (double x : at(layout)) {
      busiest = Math.max(busiest, x);
    }
    return busiest;
  }

  /** A throughput and the layout it runs on. */
  public record Sizing(Throughput throughput, Layouts.Layout layout) {
    /** The physical partitions. */
    public int partitions() {
      return layout.size();
    }
  }

  /**
   * The least throughput of {@code kind} (manual or autoscale) at which no partition's demand
   * exceeds its budget, and the layout it runs on, searched over the partitions a container is
   * created with, each layout split further for storage as the data grows ({@link Layouts}). A
   * container with P partitions can be raised to P × 10,000 RU/s at once, without a split ({@code
   * partitioning-model.md} §1.4), so P partitions serve a peak whose busiest partition needs at
   * most 10,000 RU/s, at busiest × P. Null when no layout can: a key alone needs more than one
   * physical partition serves.
   */
  public Sizing minimum(Throughput kind, Layouts layouts, Limits limits) {
    double floor =
        kind instanceof Throughput.Autoscale ? limits.minAutoscaleMaxRu() : limits.minManualRu();
    Sizing best = null;
    for (int p = 1; p <= MAX_PARTITIONS; p++) {
      Layouts.Layout layout = layouts.created(p);
      int n = layout.size();
      if (best != null && n * floor > best.throughput().maxRuPerSecond()) {
        break; // more partitions can only cost more from here
      }
      double busiest = busiest(layout);
      if (busiest > limits.physicalPartitionRu()) {
        continue;
      }
      double t = Math.max(floor, Math.ceil(busiest * n / 100) * 100);
      if (best == null || t < best.throughput().maxRuPerSecond()) {
        best = new Sizing(kind.withValue(t), layout);
      }
      if (busiest * n <= floor) {
        break; // the floor serves it: nothing is cheaper
      }
    }
    return best;
  }
}
