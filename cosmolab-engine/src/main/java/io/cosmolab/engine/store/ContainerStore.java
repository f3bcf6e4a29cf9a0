package io.cosmolab.engine.store;

import io.cosmolab.engine.partitioning.EpkRange;
import java.util.Iterator;
import java.util.List;

/**
 * The storage of one container: documents ordered by (EPK, id), and the change log ordered by LSN.
 * Because documents are ordered by EPK, a physical partition is a key range of the store, and a
 * split or merge moves no data.
 *
 * <p>Concurrency: the engine calls {@link #commit} from several threads at once, but never two
 * commits that write documents of the same logical partition (EPK) at once: those are serialized by
 * the partition's lock. Commits that only drop change records (retention) may run beside any.
 * Readers ({@link #get}, {@link #scan}, {@link #changesAfter}) run concurrently with commits and
 * see a commit's documents of one logical partition all or none; ids within an EPK are ordered by
 * {@link Utf8Order}.
 */
public interface ContainerStore {

  /** The document with this key, or {@code null}. */
  StoredDocument get(String epk, String id);

  /**
   * Documents of one logical partition by id, read from one state of it: a commit to it (a batch)
   * is seen entirely or not at all. Absent documents are left out; the order is that of {@code
   * ids}.
   */
  List<StoredDocument> getAll(String epk, List<String> ids);

  /** The documents whose EPK is in {@code range}, in (EPK, id) order. */
  Iterator<StoredDocument> scan(EpkRange range);

  /**
   * The documents whose EPK is in {@code range} at or after (fromEpk, fromId), in (EPK, id) order:
   * a seek, so a query page that resumes inside a large logical partition does not walk the ids
   * before its position. {@code fromEpk} lies in {@code range}.
   */
  Iterator<StoredDocument> scanFrom(EpkRange range, String fromEpk, String fromId);

  /** The change records with an LSN greater than {@code lsn}, in LSN order. */
  Iterator<ChangeRecord> changesAfter(long lsn);

  /**
   * Applies the writes atomically: all of them, or (on failure) none. A durable store has made them
   * durable when this returns.
   */
  void commit(List<Write> writes);

  /** The number of documents stored. */
  long documentCount();

  /** The marks last saved, or null if none ever were (a store written before they existed). */
  Marks marks();

  /**
   * Durably records marks, before any commit uses an LSN or a document sequence above the marks
   * saved before. A durable store orders this write with its commits (one log).
   */
  void saveMarks(Marks marks);

  /**
   * High-water marks: every LSN and every document sequence number used so far is at most these, so
   * a restart continues above them without reading the whole change log.
   *
   * @param lsn no LSN used is greater
   * @param documentSequence no document RID sequence used is greater
   * @param retentionHorizon the change log's retention had passed this LSN (history at or below it
   *     may be gone), or less
   * @param rangeLsns per physical partition (by range id), no LSN of that partition's own numbering
   *     used is greater; empty in a store written before partitions numbered their own
   * @param stragglersFrom the lowest LSN of a change record at or below the horizon that the
   *     retention meant to drop and the store refused (a full disk), so the sweeps after a restart
   *     look again from there; 0 when there is none
   */
  record Marks(
      long lsn,
      long documentSequence,
      long retentionHorizon,
      java.util.Map<String, Long> rangeLsns,
      long stragglersFrom) {
    public Marks {
      rangeLsns = java.util.Map.copyOf(rangeLsns);
    }

    /** Marks with no stragglers. */
    public Marks(
        long lsn,
        long documentSequence,
        long retentionHorizon,
        java.util.Map<String, Long> rangeLsns) {
      this(lsn, documentSequence, retentionHorizon, rangeLsns, 0);
    }
  }

  /** One write of a commit. */
  sealed interface Write {
    /** Stores a document version, replacing the one with the same (EPK, id). */
    record Put(StoredDocument document) implements Write {}

    /** Removes the document with this (EPK, id). */
    record Delete(String epk, String id) implements Write {}

    /** Appends a record to the change log. */
    record Append(ChangeRecord change) implements Write {}

    /** Removes the change record with this LSN, if present (the log's retention). */
    record DropChange(long lsn) implements Write {}
  }
}
