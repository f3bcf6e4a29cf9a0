package io.cosmolab.advisor.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.stats.CandidateStats;
import io.cosmolab.advisor.stats.EpkBuckets;
import io.cosmolab.advisor.workload.Access;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where an operation's requests land under one candidate key: the share of requests per EPK bucket
 * (summing to 1), and the share per key value for the heaviest keys.
 *
 * <p>Requests spread like the documents use the exact per-bucket counts. Other distributions weigh
 * the sampled documents ({@link Reservoir}): each value of the addressed field gets its share of
 * requests (Zipf by rank, values ranked by their documents, most first; uniform; a hot set; one
 * fixed value), split evenly over that value's sampled documents, which then land where the
 * candidate puts them. The requests the sample cannot place (values it did not draw) spread like
 * the documents. [I] Ranking values by their documents assumes that the values with most data are
 * also the most requested.
 *
 * <p>{@code matchShare} is the share of all documents a request's value holds, on average over
 * requests: Σ over values of (the value's share of requests × its share of the sampled documents).
 * A query by that field finds about that share of the container; NaN when the sample has no values
 * of the field to say.
 *
 * @param perBucket the share of requests per EPK bucket
 * @param perKey the share of requests of each key value that the model could place individually
 * @param matchShare the share of the documents that hold the value a request addresses
 */
@SuppressWarnings("ArrayRecordComponent") // a computed value, never compared or shared
public record AccessWeights(double[] perBucket, Map<String, Double> perKey, double matchShare) {

  /** Computes the weights of {@code access} for candidate {@code stats}. */
  public static AccessWeights of(Access access, CandidateStats stats, Reservoir reservoir) {
    double[] data = stats.documentsPerBucket();
    double total = 0;
    for (double d : data) {
      total += d;
    }
    if (total > 0) {
      for (int i = 0; i < data.length; i++) {
        data[i] /= total;
      }
    }
    Map<String, Double> perKey = new HashMap<>();
    boolean sampled =
        reservoir != null && access.by() != null && reservoir.fieldIndex(access.by()) >= 0;
    Map<String, Integer> counts = new HashMap<>();
    int field = sampled ? reservoir.fieldIndex(access.by()) : -1;
    if (sampled) {
      for (Reservoir.Sampled d : reservoir.sample()) {
        String v = d.fields()[field];
        if (v != null) {
          counts.merge(v, 1, Integer::sum);
        }
      }
    }
    double sampleSize = sampled ? reservoir.sample().size() : 0;
    if (access.distribution() == Access.Distribution.DATA || !sampled) {
      for (CandidateStats.Heavy h : stats.heaviestByDocuments(32)) {
        perKey.put(h.key(), total == 0 ? 0 : h.estimate() / total);
      }
      double matches = Double.NaN;
      if (sampled && sampleSize > 0 && access.distribution() == Access.Distribution.DATA) {
        matches = 0; // a request takes a document's value: values are drawn by their documents
        for (int c : counts.values()) {
          matches += (c / sampleSize) * (c / sampleSize);
        }
      }
      return new AccessWeights(data, perKey, matches);
    }
    int candidate = reservoir.candidateIndex(stats.candidate());
    List<String> ranked = new ArrayList<>(counts.keySet());
    ranked.sort(
        Comparator.comparing((String v) -> counts.get(v))
            .reversed()
            .thenComparing(Comparator.naturalOrder()));
    double n = Math.max(ranked.size(), reservoir.distinct(field));
    Map<String, Double> mass = new HashMap<>(); // share of requests per value
    Map<JsonNode, Double> unsampled = new HashMap<>(); // named values the sample did not draw
    switch (access.distribution()) {
      case UNIFORM -> ranked.forEach(v -> mass.put(v, 1 / n));
      case ZIPF -> {
        double h = harmonic(n, access.exponent());
        for (int r = 0; r < ranked.size(); r++) {
          mass.put(ranked.get(r), Math.pow(r + 1, -access.exponent()) / h);
        }
      }
      case HOT -> {
        if (access.values() != null) {
          for (JsonNode v : access.values()) {
            double share = access.share() / access.values().size();
            if (counts.containsKey(v.asText())) {
              mass.merge(v.asText(), share, Double::sum);
            } else {
              unsampled.merge(v, share, Double::sum);
            }
          }
        } else {
          double hot = Math.max(1, Math.round(access.top() * n));
          for (int r = 0; r < ranked.size() && r < hot; r++) {
            mass.put(ranked.get(r), access.share() / hot);
          }
        }
      }
      case FIXED -> {
        if (counts.containsKey(access.value().asText())) {
          mass.put(access.value().asText(), 1.0);
        } else {
          unsampled.put(access.value(), 1.0);
        }
      }
      case DATA -> throw new AssertionError("handled above");
    }
    double[] out = new double[EpkBuckets.COUNT];
    double placed = 0;
    for (Reservoir.Sampled d : reservoir.sample()) {
      String v = d.fields()[field];
      Double m = v == null ? null : mass.get(v);
      int b = d.buckets()[candidate];
      if (m == null || b < 0) {
        continue;
      }
      double w = m / counts.get(v);
      out[b] += w;
      placed += w;
      perKey.merge(d.keys()[candidate], w, Double::sum);
    }
    for (Map.Entry<JsonNode, Double> e : unsampled.entrySet()) {
      Candidate.Key key = stats.keyOf(documentWith(access.by(), e.getKey()));
      if (key != null) {
        out[stats.bucketOf(key)] += e.getValue();
        placed += e.getValue();
        perKey.merge(key.text(), e.getValue(), Double::sum);
      }
    }
    double rest = Math.max(0, 1 - placed);
    for (int i = 0; i < out.length; i++) {
      out[i] += rest * data[i];
    }
    double matches = 0; // values the sample lacks hold too few documents to count here
    for (Map.Entry<String, Double> m : mass.entrySet()) {
      matches += m.getValue() * counts.get(m.getKey()) / Math.max(1, sampleSize);
    }
    return new AccessWeights(out, perKey, matches);
  }

  /** A document holding only {@code value} at {@code path}: a named value the sample lacks. */
  private static ObjectNode documentWith(String path, JsonNode value) {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    ObjectNode node = root;
    List<String> segments = PartitionKeyDefinition.segmentsOf(path);
    for (int i = 0; i < segments.size() - 1; i++) {
      node = node.putObject(segments.get(i));
    }
    node.set(segments.get(segments.size() - 1), value);
    return root;
  }

  /** The generalized harmonic number H(n, s) = Σ_{r=1..n} r^-s, exact to 10^6 terms. */
  static double harmonic(double n, double s) {
    long exact = (long) Math.min(n, 1_000_000);
    double h = 0;
    for (long r = exact; r >= 1; r--) {
      h += Math.pow((double) r, -s);
    }
    if (n > exact) { // the rest by the integral of x^-s from exact + 0.5 to n + 0.5
      double a = exact + 0.5;
      double b = n + 0.5;
      h += s == 1 ? Math.log(b / a) : (Math.pow(b, 1 - s) - Math.pow(a, 1 - s)) / (1 - s);
    }
    return h;
  }
}
