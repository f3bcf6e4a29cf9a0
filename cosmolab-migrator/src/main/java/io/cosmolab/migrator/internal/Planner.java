package io.cosmolab.migrator.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.Advisor;
import io.cosmolab.advisor.AdvisorOptions;
import io.cosmolab.engine.cost.CostModel;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.migrator.MigrationSpec;
import io.cosmolab.migrator.OnMissing;
import io.cosmolab.migrator.Plan;
import io.cosmolab.migrator.PlanWorkload;
import io.cosmolab.migrator.TargetKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The preflight: one pass over the source's documents, counting what would stop or surprise a
 * migration (documents lacking the new key's paths, ids that would meet in one new logical
 * partition, documents already holding the computed property with another value), the new logical
 * partitions' sizes, and the RU a copy costs by the published cost model (a read and a create per
 * document).
 */
public final class Planner {
  /** Ids listed per finding; the counts are always whole. */
  private static final int LISTED = 20;

  private Planner() {}

  /**
   * Plans over {@code documents}; with a {@code throughput}, the advisor judges the new key over
   * the same pass.
   */
  public static Plan plan(
      MigrationSpec spec, Iterable<ObjectNode> documents, Throughput throughput) {
    return plan(spec, documents, throughput, null);
  }

  /**
   * Plans over {@code documents}; with a {@code throughput}, the advisor judges the new key over
   * the same pass, and with a {@code workload} also at its peak: at the target's throughput when
   * the spec names one, else at the least throughput that serves that peak.
   */
  public static Plan plan(
      MigrationSpec spec,
      Iterable<ObjectNode> documents,
      Throughput throughput,
      PlanWorkload workload) {
    Tally tally = new Tally(spec);
    if (throughput == null) {
      for (ObjectNode doc : documents) {
        tally.add(doc);
      }
      return tally.plan(null);
    }
    // one pass: the advisor pulls the documents, and the preflight counts each as it goes by
    Iterator<ObjectNode> source = documents.iterator();
    Iterator<ObjectNode> counted =
        new Iterator<>() {
          @Override
          public boolean hasNext() {
            return source.hasNext();
          }

          @Override
          public ObjectNode next() {
            ObjectNode d = source.next();
            tally.add(d); // reads d, changes nothing in it
            return d;
          }
        };
    AdvisorOptions options = options(spec, throughput, workload);
    io.cosmolab.advisor.Advice a =
        Advisor.analyze(counted, List.of(spec.key().candidate()), options).get(0);
    Plan.Peak peak = null;
    if (a.peak() != null) {
      peak =
          new Plan.Peak(
              workload.container().name(),
              options.findMinimum(),
              a.peak().minimumRuPerSecond(),
              a.peak().busiestRuPerSecond(),
              a.peak().budgetRuPerSecond(),
              a.peak().predicted429Share());
    }
    return tally.plan(
        new Plan.Advice(
            a.verdict(),
            a.score(),
            a.reasons(),
            a.layout().throughputKind(),
            a.layout().throughputRuPerSecond(),
            a.layout().physicalPartitions(),
            a.layout().hotPartitionRatio(),
            peak));
  }

  /**
   * The advisor's options: the documents are all the data (every one is read), the target's
   * throughput; a workload adds its growth, horizon and peak operations, and the search for the
   * least throughput unless the spec names the target's.
   */
  private static AdvisorOptions options(
      MigrationSpec spec, Throughput throughput, PlanWorkload workload) {
    if (workload == null) {
      return new AdvisorOptions(throughput, 0);
    }
    AdvisorOptions w = AdvisorOptions.of(workload.container(), workload.all(), throughput);
    if (w.peak().isEmpty()) {
      throw new IllegalArgumentException(
          "the workload's container "
              + workload.container().name()
              + " has no operations: the advisor needs them to weigh the peak");
    }
    return new AdvisorOptions(
        throughput, spec.targetThroughput() == 0, 0, w.growthPerDay(), w.horizonDays(), w.peak());
  }

  /** The preflight's counts, one document at a time. */
  private static final class Tally {
    private final MigrationSpec spec;
    private final TargetKey key;
    private final OnMissing onMissing;
    private final String computed;
    private long count;
    private long bytes;
    private long missing;
    private final List<String> missingIds = new ArrayList<>();
    private long overwrites;
    private final List<String> overwriteIds = new ArrayList<>();
    private final Map<String, Long> partitionBytes = new HashMap<>();
    private final Map<String, Integer> perKeyAndId = new HashMap<>();
    private double ru;

    Tally(MigrationSpec spec) {
      this.spec = spec;
      this.key = spec.key();
      this.onMissing = spec.onMissing();
      this.computed = key.computedPropertyOrNull();
    }

    void add(ObjectNode doc) {
      count++;
      ObjectNode user = Canonical.userContent(doc, null);
      int size = user.toString().getBytes(StandardCharsets.UTF_8).length;
      bytes += size;
      ru +=
          CostModel.PUBLISHED.pointRead(size, false)
              + CostModel.PUBLISHED.create(size, terms(user));
      String id = doc.path("id").asText();
      if (!key.hasAllPaths(doc)) {
        missing++;
        listed(missingIds, id);
        if (onMissing.mode() != OnMissing.Mode.DEFAULT) {
          return;
        }
      }
      ObjectNode t = key.transform(user, onMissing.onceRunning());
      if (t == null) {
        return;
      }
      if (computed != null && doc.has(computed) && !doc.get(computed).equals(t.get(computed))) {
        overwrites++;
        listed(overwriteIds, id);
      }
      String k = key.keyTextOf(t);
      partitionBytes.merge(k, (long) size, Long::sum);
      perKeyAndId.merge(k + "\u0000" + id, 1, Integer::sum);
    }

    Plan plan(Plan.Advice advice) {
      String largest = null;
      long largestBytes = 0;
      for (Map.Entry<String, Long> e : new TreeMap<>(partitionBytes).entrySet()) {
        if (e.getValue() > largestBytes) {
          largest = e.getKey();
          largestBytes = e.getValue();
        }
      }
      return new Plan(
          spec.sourceContainer().toString(),
          key.text(),
          count,
          bytes,
          partitionBytes.size(),
          missing,
          missingIds,
          collisions(perKeyAndId),
          overwrites,
          overwriteIds,
          largest,
          largestBytes,
          ru,
          spec.maxRu(),
          spec.maxRu() > 0 ? ru / spec.maxRu() : 0,
          advice);
    }
  }

  private static void listed(List<String> ids, String id) {
    if (ids.size() < LISTED) {
      ids.add(id);
    }
  }

  private static List<Plan.Collision> collisions(Map<String, Integer> perKeyAndId) {
    List<Plan.Collision> collisions = new ArrayList<>();
    perKeyAndId.forEach(
        (k, n) -> {
          if (n > 1) {
            int cut = k.indexOf('\u0000');
            collisions.add(new Plan.Collision(k.substring(0, cut), k.substring(cut + 1), n));
          }
        });
    collisions.sort(Comparator.comparing(Plan.Collision::key).thenComparing(Plan.Collision::id));
    return collisions;
  }

  /** The index terms a document writes, as the cost model counts them: its leaf values. */
  private static int terms(JsonNode node) {
    if (node.isContainerNode()) {
      int n = 0;
      for (JsonNode child : node) {
        n += terms(child);
      }
      return n;
    }
    return 1;
  }
}
