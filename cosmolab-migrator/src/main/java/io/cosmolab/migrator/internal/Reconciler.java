package io.cosmolab.migrator.internal;

import com.azure.cosmos.CosmosContainer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.migrator.TargetKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Removes from the target the documents no longer in the source: how deletes reach the target when
 * the source's change feed is the latest-version one, which has none.
 *
 * <p>Called with the feed drained to a position P (no concurrent apply). It reads the target first,
 * then the source, and deletes each target document whose id and source key the source no longer
 * has. That cannot lose a document: one unchanged since P is in the source's read, so kept; one
 * that changed after P (even deleted and created again while the source was read) is replayed by
 * the feed after P, which rewrites it. A document created after the target was read is not a
 * candidate. The candidates are held in memory (id and key, not bodies).
 */
public final class Reconciler {
  private final TargetKey key;
  private final Changes changes;
  private final Writes writes;
  private final Reads reads;

  public Reconciler(TargetKey key, Changes changes, Writes writes, Reads reads) {
    this.key = key;
    this.changes = changes;
    this.writes = writes;
    this.reads = reads;
  }

  /** Deletes the target's extra documents; returns how many. */
  public long reconcile(CosmosContainer source, CosmosContainer target) {
    Map<String, List<String>> candidates = new HashMap<>(); // id + source key -> target keys
    for (ObjectNode doc : reads.all(target)) {
      candidates.computeIfAbsent(identity(doc), k -> new ArrayList<>(1)).add(key.keyTextOf(doc));
    }
    for (ObjectNode doc : reads.all(source)) {
      candidates.remove(identity(doc));
      if (candidates.isEmpty()) {
        return 0;
      }
    }
    PageWrites work = new PageWrites(key);
    for (Map.Entry<String, List<String>> e : candidates.entrySet()) {
      String id = e.getKey().substring(0, e.getKey().indexOf('\u0000'));
      for (String keyText : e.getValue()) {
        work.delete(id, keyText);
      }
    }
    List<TargetWrite> deletes = work.writes();
    writes.apply(deletes);
    return deletes.size();
  }

  /** A document's id and source key: what one source document is, on either side. */
  private String identity(ObjectNode doc) {
    JsonNode sk = changes.sourceKeyJson(doc);
    return doc.path("id").asText() + '\u0000' + (sk == null ? "" : Canonical.text(sk));
  }
}
