package io.cosmolab.advisor;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.candidate.CandidateDiscovery;
import io.cosmolab.advisor.load.Reservoir;
import io.cosmolab.advisor.load.Route;
import io.cosmolab.advisor.stats.CandidateStats;
import io.cosmolab.advisor.stats.ValueKinds;
import io.cosmolab.advisor.workload.Access;
import io.cosmolab.advisor.workload.Operation;
import io.cosmolab.engine.document.DocumentShape;
import io.cosmolab.engine.limits.Limits;
import io.cosmolab.engine.throughput.Throughput;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Ranks candidate partition keys over sample documents and a workload at peak.
 *
 * <pre>{@code
 * List<Advice> ranked = Advisor.analyze(documents, null, AdvisorOptions.of(Throughput.manual(20_000)));
 * }</pre>
 *
 * Every key is hashed and laid out by the engine itself (EPK V2 and MultiHash, the service's rule
 * for initial partitions, 50 GB per physical and 20 GB per logical partition), and every operation
 * costed by its published cost model, so what the advisor predicts is what the emulator does.
 * Memory is bounded by the sketches and the reservoir, not the input.
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
    return analyze("container", documents, candidates, options).candidates();
  }

  /**
   * Ranks the candidates of container {@code name}.
   *
   * @param candidates the keys to weigh, or null to discover them from the first {@value
   *     #DISCOVERY_SAMPLE} documents
   */
  public static Report.ContainerAdvice analyze(
      String name,
      Iterator<ObjectNode> documents,
      List<Candidate> candidates,
      AdvisorOptions options) {
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
    // Without a workload the sample serves only the layout model, which needs it for the
    // hierarchical candidates alone (to place storage splits inside a prefix); none, no sample.
    List<CandidateStats> sampled = stats;
    if (options.peak().isEmpty()) {
      sampled = new ArrayList<>();
      for (CandidateStats s : stats) {
        if (s.candidate().kind() == Candidate.Kind.HIERARCHICAL) {
          sampled.add(s);
        }
      }
    }
    Reservoir reservoir =
        sampled.isEmpty()
            ? null
            : new Reservoir(
                addressedFields(options, candidates), sampled, !options.peak().isEmpty());
    // what the values are: date-time keys, and without a workload all there is to say how a key
    // is used
    ValueKinds kinds = new ValueKinds(candidates);
    Pass pass = new Pass(stats, reservoir, kinds);
    for (ObjectNode d : head) {
      pass.add(d);
    }
    while (documents.hasNext()) {
      pass.add(documents.next());
    }
    int meanSize = pass.documents == 0 ? 0 : (int) (pass.bytes / pass.documents);
    int meanTerms = options.peak().isEmpty() ? 0 : reservoir.meanTerms();
    List<Advice> out = new ArrayList<>();
    for (CandidateStats s : stats) {
      out.add(Findings.advise(s, options, reservoir, meanSize, meanTerms, kinds));
    }
    if (options.findMinimum()) {
      out = Findings.comparedByCost(out);
    }
    List<String> operations = new ArrayList<>();
    for (int i = 0; i < options.peak().size(); i++) {
      Operation op = options.peak().get(i);
      operations.add(
          String.format(
              java.util.Locale.ROOT,
              "%s: %s %.0f/s%s",
              op.label(i),
              op.type().name().toLowerCase(java.util.Locale.ROOT),
              op.rate(),
              op.sql() == null ? "" : " " + op.sql()));
    }
    out.sort(
        Comparator.comparingInt(Advice::score)
            .reversed()
            .thenComparingDouble(
                a ->
                    a.peak() == null || a.peak().minimumRuPerSecond() == null
                        ? Double.MAX_VALUE
                        : a.peak().minimumRuPerSecond())
            .thenComparingDouble(a -> a.layout().hotPartitionRatio())
            .thenComparing(a -> -a.distinct().estimate()));
    String throughput =
        options.findMinimum()
            ? "minimum"
            : options.throughput().kind() + " " + Math.round(options.throughput().maxRuPerSecond());
    return new Report.ContainerAdvice(
        name, pass.documents, pass.bytes, throughput, operations, out);
  }

  /**
   * The fields the operations address with a distribution other than the data's, and those a query
   * that visits every partition in document order filters by (how many documents it matches decides
   * which partitions give its page: {@code Demand}).
   */
  private static List<String> addressedFields(AdvisorOptions options, List<Candidate> candidates) {
    Set<String> out = new LinkedHashSet<>();
    for (Operation op : options.peak()) {
      for (Candidate c : candidates) {
        Route route = Route.of(op, c);
        Access a = route.access();
        if (a.distribution() != Access.Distribution.DATA
            || (a.by() != null
                && route.reach() == Route.Reach.ALL
                && route.inDocumentOrder()
                && !route.lookup())) {
          out.add(a.by());
        }
      }
      if (op.parameters() != null) {
        for (Map.Entry<String, Access> p : op.parameters().entrySet()) {
          if (p.getValue().by() != null) {
            out.add(p.getValue().by());
          }
        }
      }
    }
    return new ArrayList<>(out);
  }

  /** One read of the documents: every candidate's statistics, the reservoir, the mean shape. */
  private static final class Pass {
    final List<CandidateStats> stats;
    final Reservoir reservoir;
    final ValueKinds kinds;
    final long[] hashes;
    long documents;
    long bytes;
    long touched;

    Pass(List<CandidateStats> stats, Reservoir reservoir, ValueKinds kinds) {
      this.stats = stats;
      this.reservoir = reservoir;
      this.kinds = kinds;
      this.hashes = new long[stats.size()];
    }

    void add(ObjectNode d) {
      int size = DocumentShape.sizeOf(d);
      documents++;
      bytes += size;
      if (reservoir != null) {
        reservoir.offer(d, size);
      }
      if (kinds != null) {
        kinds.add(d);
      }
      // Three passes: every candidate's key hash (the document is in cache), then a read of every
      // candidate's window slot (independent loads: their cache misses overlap), then the
      // counting. The reads are kept in a field so they are not optimised away.
      int n = hashes.length;
      for (int k = 0; k < n; k++) {
        hashes[k] = stats.get(k).keyHash(d);
      }
      long t = touched;
      for (int k = 0; k < n; k++) {
        t ^= stats.get(k).touch(hashes[k]);
      }
      touched = t;
      for (int k = 0; k < n; k++) {
        stats.get(k).add(d, size, hashes[k]);
      }
    }
  }

  /** The physical partitions a throughput creates, and at least {@code storage}. */
  static int partitions(Throughput t, int storage) {
    double per = t.creationRuPerPartition(Limits.SERVICE);
    return (int) Math.max(storage, Math.max(1, Math.ceil(t.maxRuPerSecond() / per)));
  }
}
