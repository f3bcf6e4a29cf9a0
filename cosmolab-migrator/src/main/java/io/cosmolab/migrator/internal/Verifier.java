package io.cosmolab.migrator.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.migrator.OnMissing;
import io.cosmolab.migrator.TargetKey;
import io.cosmolab.migrator.VerifyReport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Source against target, per logical partition of the target: the source's documents are
 * transformed as the run writes them and grouped under their new key; each side's partition gets a
 * count and an order-independent hash (the sum of its documents' canonical hashes, system
 * properties and the computed key property left out). Partitions that agree on both are equal; for
 * the others every document is compared by id, so the report names each missing, extra and
 * different document.
 */
public final class Verifier {
  private Verifier() {}

  public static VerifyReport verify(
      TargetKey key,
      OnMissing onMissing,
      Iterable<ObjectNode> source,
      Iterable<ObjectNode> target) {
    Map<String, Map<String, Long>> expected = new TreeMap<>();
    long sourceDocs = digestSource(key, onMissing, source, p -> true, expected, null);
    Map<String, Map<String, Long>> actual = new TreeMap<>();
    long targetDocs = digestTarget(key, target, p -> true, actual);
    TreeSet<String> partitions = new TreeSet<>(expected.keySet());
    partitions.addAll(actual.keySet());
    List<VerifyReport.Difference> differences = new ArrayList<>();
    long differing = 0;
    for (String p : partitions) {
      Map<String, Long> e = expected.getOrDefault(p, Map.of());
      Map<String, Long> a = actual.getOrDefault(p, Map.of());
      if (e.size() == a.size() && sum(e) == sum(a)) {
        continue;
      }
      differing++;
      differences(p, e, a, differences);
    }
    return new VerifyReport(
        partitions.size(),
        differing,
        sourceDocs,
        targetDocs,
        differences,
        partitions.size(),
        sourceDocs + targetDocs,
        0);
  }

  /**
   * Adds to {@code into} (partition, id, hash) each source document as the run writes it, for the
   * partitions {@code keep} accepts; {@code values}, when given, gets a source-values array of one
   * document per partition. Returns the documents read.
   */
  static long digestSource(
      TargetKey key,
      OnMissing onMissing,
      Iterable<ObjectNode> source,
      java.util.function.Predicate<String> keep,
      Map<String, Map<String, Long>> into,
      Map<String, String> values) {
    String computed = key.computedPropertyOrNull();
    long read = 0;
    for (ObjectNode doc : source) {
      read++;
      ObjectNode t = key.transform(Canonical.userContent(doc, null), onMissing.onceRunning());
      if (t == null) {
        continue;
      }
      String p = key.keyTextOf(t);
      if (!keep.test(p)) {
        continue;
      }
      into.computeIfAbsent(p, k -> new HashMap<>())
          .put(t.path("id").asText(), Canonical.hash(Canonical.userContent(t, computed)));
      if (values != null) {
        values.putIfAbsent(p, key.sourceValuesOf(t).toString());
      }
    }
    return read;
  }

  /** Adds the target's documents in the partitions {@code keep} accepts; returns those read. */
  static long digestTarget(
      TargetKey key,
      Iterable<ObjectNode> target,
      java.util.function.Predicate<String> keep,
      Map<String, Map<String, Long>> into) {
    String computed = key.computedPropertyOrNull();
    long read = 0;
    for (ObjectNode doc : target) {
      read++;
      String p = key.keyTextOf(doc);
      if (keep.test(p)) {
        into.computeIfAbsent(p, k -> new HashMap<>())
            .put(doc.path("id").asText(), Canonical.hash(Canonical.userContent(doc, computed)));
      }
    }
    return read;
  }

  /** One partition compared: its ledger entry. */
  static VerifyLedger.Entry compare(
      String partition,
      Map<String, Long> e,
      Map<String, Long> a,
      String sourceValues,
      long nowMillis) {
    List<VerifyReport.Difference> out = new ArrayList<>();
    boolean equal = e.size() == a.size() && sum(e) == sum(a);
    if (!equal) {
      differences(partition, e, a, out);
    }
    return new VerifyLedger.Entry(e.size(), a.size(), equal, out, sourceValues, nowMillis);
  }

  private static void differences(
      String partition,
      Map<String, Long> e,
      Map<String, Long> a,
      List<VerifyReport.Difference> out) {
    TreeSet<String> ids = new TreeSet<>(e.keySet());
    ids.addAll(a.keySet());
    for (String id : ids) {
      Long x = e.get(id);
      Long y = a.get(id);
      if (y == null) {
        out.add(new VerifyReport.Difference(VerifyReport.Kind.MISSING, partition, id));
      } else if (x == null) {
        out.add(new VerifyReport.Difference(VerifyReport.Kind.EXTRA, partition, id));
      } else if (!x.equals(y)) {
        out.add(new VerifyReport.Difference(VerifyReport.Kind.DIFFERENT, partition, id));
      }
    }
  }

  private static long sum(Map<String, Long> hashes) {
    long s = 0;
    for (long h : hashes.values()) {
      s += h;
    }
    return s;
  }
}
