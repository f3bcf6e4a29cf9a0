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
    String computed = key.computedPropertyOrNull();
    Map<String, Map<String, Long>> expected = new TreeMap<>(); // partition -> id -> hash
    long sourceDocs = 0;
    for (ObjectNode doc : source) {
      ObjectNode t = key.transform(Canonical.userContent(doc, null), onMissing.onceRunning());
      if (t == null) {
        continue;
      }
      sourceDocs++;
      expected
          .computeIfAbsent(key.keyTextOf(t), k -> new HashMap<>())
          .put(t.path("id").asText(), Canonical.hash(Canonical.userContent(t, computed)));
    }
    Map<String, Map<String, Long>> actual = new TreeMap<>();
    long targetDocs = 0;
    for (ObjectNode doc : target) {
      targetDocs++;
      actual
          .computeIfAbsent(key.keyTextOf(doc), k -> new HashMap<>())
          .put(doc.path("id").asText(), Canonical.hash(Canonical.userContent(doc, computed)));
    }
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
    return new VerifyReport(partitions.size(), differing, sourceDocs, targetDocs, differences);
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
