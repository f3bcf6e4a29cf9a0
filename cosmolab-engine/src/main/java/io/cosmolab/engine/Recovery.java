package io.cosmolab.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.resource.ResourceIds;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.store.ChangeRecord;
import io.cosmolab.engine.store.ContainerStore;
import io.cosmolab.engine.store.StoredDocument;
import java.util.Iterator;
import java.util.Map;

/**
 * Where a container's counters continue when it is opened: above the highest LSN and document
 * sequence it used (RIDs and LSNs never go back), from the change log's retention horizon, and with
 * each physical partition's saved LSN bound.
 *
 * @param lsn the container's last LSN
 * @param documentSequence the last document sequence (the RID's document part, shifted)
 * @param retentionHorizon the change log's horizon: records at or below it are gone
 * @param rangeLsns each partition key range's saved LSN bound, by range id
 * @param stragglersFrom where the change records the store refused to drop begin (0: none)
 */
record Recovery(
    long lsn,
    long documentSequence,
    long retentionHorizon,
    Map<String, Long> rangeLsns,
    long stragglersFrom) {
  /** A new container: everything starts at 0. */
  static final Recovery NEW = new Recovery(0, 0, 0, Map.of(), 0);

  Recovery {
    rangeLsns = Map.copyOf(rangeLsns);
  }

  /**
   * Reopens a stored container: rebuilds what is derived from its documents — usage per logical
   * partition and the time-to-live schedule — in one pass, and continues from the saved high-water
   * marks; for a store written before marks existed, from the highest LSN and sequence found in the
   * documents and the change log.
   */
  static Recovery of(ContainerStore store, LogicalPartitions logical, TimeToLive ttl) {
    long maxLsn = 0;
    long maxSequence = 0;
    Iterator<StoredDocument> docs = store.scan(EpkRange.FULL);
    while (docs.hasNext()) {
      StoredDocument d = docs.next();
      logical.add(d.epk(), d.partitionKey(), d.sizeBytes(), 1);
      ttl.track(d);
      maxLsn = Math.max(maxLsn, d.lsn());
      maxSequence = Math.max(maxSequence, sequenceOf(d.body()));
    }
    ContainerStore.Marks saved = store.marks();
    if (saved != null) {
      return new Recovery(
          Math.max(maxLsn, saved.lsn()),
          Math.max(maxSequence, saved.documentSequence()),
          saved.retentionHorizon(),
          saved.rangeLsns(),
          saved.stragglersFrom());
    }
    Iterator<ChangeRecord> changes = store.changesAfter(0);
    while (changes.hasNext()) {
      ChangeRecord c = changes.next();
      maxLsn = Math.max(maxLsn, c.lsn());
      if (c.previous() != null) {
        maxSequence = Math.max(maxSequence, sequenceOf(c.previous()));
      }
    }
    return new Recovery(maxLsn, maxSequence, 0, Map.of(), 0);
  }

  /**
   * Where a physical partition's LSN starts: 0 for a new container; after a restart the bound saved
   * for its range (its last LSN after a clean close, at most one block above it after a crash), or
   * its parents' when a split was not saved under its own id; for a store written before partitions
   * numbered their own, the container's last LSN, so no number a client holds goes back.
   */
  long startLsn(PartitionKeyRange r) {
    Long own = rangeLsns.get(r.id());
    if (own != null) {
      return own;
    }
    long fromParents = -1;
    for (String parent : r.parents()) {
      Long p = rangeLsns.get(parent);
      if (p != null) {
        fromParents = Math.max(fromParents, p);
      }
    }
    return fromParents >= 0 ? fromParents : lsn;
  }

  private static long sequenceOf(JsonNode body) {
    JsonNode rid = body.get("_rid");
    String text = rid == null ? null : rid.textValue();
    if (text == null) {
      return 0;
    }
    try { // read from the text, not decoded whole: start-up asks it of every document
      return ResourceIds.documentPart(text) >>> 8;
    } catch (IllegalArgumentException e) {
      return 0; // not a document RID: it numbers nothing
    }
  }
}
