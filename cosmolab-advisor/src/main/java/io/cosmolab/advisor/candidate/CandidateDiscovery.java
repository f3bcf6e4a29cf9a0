package io.cosmolab.advisor.candidate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the candidates worth weighing in a sample of documents: every path to a scalar (string,
 * number, boolean) that at least half of the documents have, up to three levels deep, except the
 * system properties; then, over the best-covered of them, synthetic concatenations of two paths,
 * and hierarchical keys of two and three levels with the fewer-valued paths first (the order that
 * keeps prefix queries useful), three-level ones also ending in a unique field such as the id.
 */
public final class CandidateDiscovery {
  private static final double MIN_COVERAGE = 0.5;
  private static final int MAX_DEPTH = 3;
  private static final int COMBINED = 4;

  private CandidateDiscovery() {}

  /**
   * One discovered path in the sample: the share of documents that have it, its distinct values,
   * the share of its most common value, and whether its values look like dates.
   */
  public record PathProfile(
      String path, double coverage, int distinctInSample, double topShare, boolean dateLike) {}

  private static final java.util.regex.Pattern DATE =
      java.util.regex.Pattern.compile("^\\d{4}-\\d{2}(-\\d{2})?([T ].*)?$");

  public static List<PathProfile> profile(List<ObjectNode> sample) {
    Map<String, Integer> present = new LinkedHashMap<>();
    Map<String, Map<String, Integer>> values = new HashMap<>();
    for (ObjectNode doc : sample) {
      walk(doc, "", 1, present, values);
    }
    List<PathProfile> out = new ArrayList<>();
    for (Map.Entry<String, Integer> e : present.entrySet()) {
      double coverage = sample.isEmpty() ? 0 : e.getValue() / (double) sample.size();
      if (coverage >= MIN_COVERAGE) {
        Map<String, Integer> counts = values.get(e.getKey());
        int top = counts.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        boolean dates = counts.keySet().stream().allMatch(v -> DATE.matcher(v).matches());
        out.add(
            new PathProfile(
                e.getKey(), coverage, counts.size(), top / (double) e.getValue(), dates));
      }
    }
    return out;
  }

  public static List<Candidate> discover(List<ObjectNode> sample) {
    List<PathProfile> paths = profile(sample);
    List<Candidate> out = new ArrayList<>();
    for (PathProfile p : paths) {
      out.add(Candidate.single(p.path()));
    }
    // combinations over the best-covered paths that are neither constant nor unique
    List<PathProfile> combinable = new ArrayList<>();
    for (PathProfile p : paths) {
      if (p.distinctInSample() > 1 && p.distinctInSample() < sample.size()) {
        combinable.add(p);
      }
    }
    combinable.sort(Comparator.comparingDouble(PathProfile::coverage).reversed());
    combinable = combinable.subList(0, Math.min(COMBINED, combinable.size()));
    for (int i = 0; i < combinable.size(); i++) {
      for (int j = i + 1; j < combinable.size(); j++) {
        PathProfile a = combinable.get(i);
        PathProfile b = combinable.get(j);
        PathProfile low = a.distinctInSample() <= b.distinctInSample() ? a : b;
        PathProfile high = low.equals(a) ? b : a;
        out.add(Candidate.synthetic(low.path(), high.path()));
        out.add(Candidate.hierarchical(low.path(), high.path()));
      }
    }
    // three levels: the pairs above, each ordered fewer-valued first, then a unique field last
    // (id as the last level lets even the largest prefix spread over partitions)
    PathProfile unique = null;
    for (PathProfile p : paths) {
      if (p.distinctInSample() == sample.size()
          && sample.size() > 1
          && (unique == null || p.path().equals("/id"))) {
        unique = p;
      }
    }
    List<PathProfile> ordered = new ArrayList<>(combinable);
    ordered.sort(Comparator.comparingInt(PathProfile::distinctInSample));
    for (int i = 0; i < ordered.size(); i++) {
      for (int j = i + 1; j < ordered.size(); j++) {
        for (int k = j + 1; k < ordered.size(); k++) {
          out.add(
              Candidate.hierarchical(
                  ordered.get(i).path(), ordered.get(j).path(), ordered.get(k).path()));
        }
        if (unique != null) {
          out.add(
              Candidate.hierarchical(ordered.get(i).path(), ordered.get(j).path(), unique.path()));
        }
      }
    }
    // the usual fixes for a hot key: a suffix of buckets, or the key plus the day
    for (PathProfile p : paths) {
      if (p.topShare() >= 0.1 && p.distinctInSample() >= 10 && !p.dateLike()) {
        out.add(Candidate.bucketed(p.path(), 10));
        for (PathProfile date : paths) {
          if (date.dateLike() && date.distinctInSample() > 1) {
            out.add(Candidate.synthetic(p.path(), date.path()));
          }
        }
      }
    }
    return new ArrayList<>(new java.util.LinkedHashSet<>(out));
  }

  private static void walk(
      JsonNode node,
      String prefix,
      int depth,
      Map<String, Integer> present,
      Map<String, Map<String, Integer>> values) {
    for (Map.Entry<String, JsonNode> f : node.properties()) {
      String name = f.getKey();
      if (depth == 1 && name.startsWith("_")) {
        continue; // _rid, _etag, _ts ...: set by the service, never a key
      }
      String path = prefix + "/" + name;
      JsonNode v = f.getValue();
      if (v.isObject() && depth < MAX_DEPTH) {
        walk(v, path, depth + 1, present, values);
      } else if (v.isValueNode() && !v.isNull()) {
        present.merge(path, 1, Integer::sum);
        values.computeIfAbsent(path, k -> new HashMap<>()).merge(v.asText(), 1, Integer::sum);
      }
    }
  }
}
