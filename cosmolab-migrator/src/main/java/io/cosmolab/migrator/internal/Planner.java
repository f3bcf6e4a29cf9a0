package io.cosmolab.migrator.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.cost.CostModel;
import io.cosmolab.migrator.MigrationSpec;
import io.cosmolab.migrator.OnMissing;
import io.cosmolab.migrator.Plan;
import io.cosmolab.migrator.TargetKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
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

  public static Plan plan(MigrationSpec spec, Iterable<ObjectNode> documents) {
    TargetKey key = spec.key();
    OnMissing onMissing = spec.onMissing();
    long count = 0;
    long bytes = 0;
    long missing = 0;
    List<String> missingIds = new ArrayList<>();
    long overwrites = 0;
    List<String> overwriteIds = new ArrayList<>();
    Map<String, Long> partitionBytes = new HashMap<>();
    Map<String, Integer> perKeyAndId = new HashMap<>();
    double ru = 0;
    String computed = key.computedPropertyOrNull();
    for (ObjectNode doc : documents) {
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
          continue;
        }
      }
      ObjectNode t = key.transform(user, onMissing.onceRunning());
      if (t == null) {
        continue;
      }
      if (computed != null && doc.has(computed) && !doc.get(computed).equals(t.get(computed))) {
        overwrites++;
        listed(overwriteIds, id);
      }
      String k = key.keyTextOf(t);
      partitionBytes.merge(k, (long) size, Long::sum);
      perKeyAndId.merge(k + "\u0000" + id, 1, Integer::sum);
    }
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
        spec.maxRu() > 0 ? ru / spec.maxRu() : 0);
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
