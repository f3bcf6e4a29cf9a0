package io.cosmolab.engine.store;

import io.cosmolab.engine.partitioning.EpkRange;
import java.util.Iterator;
import java.util.List;

/**
 * The storage of one container: documents ordered by (EPK, id), and the change log ordered by LSN.
 * Because documents are ordered by EPK, a physical partition is a key range of the store, and a
 * split or merge moves no data.
 *
 * <p>Concurrency: the engine calls {@link #commit} from one writer per container at a time; readers
 * ({@link #get}, {@link #scan}, {@link #changesAfter}) may run concurrently with it and see each
 * committed document either before or after a commit.
 */
public interface ContainerStore {

  /** The document with this key, or {@code null}. */
  StoredDocument get(String epk, String id);

  /** The documents whose EPK is in {@code range}, in (EPK, id) order. */
  Iterator<StoredDocument> scan(EpkRange range);

  /** The change records with an LSN greater than {@code lsn}, in LSN order. */
  Iterator<ChangeRecord> changesAfter(long lsn);

  /**
   * Applies the writes atomically: all of them, or (on failure) none. A durable store has made them
   * durable when this returns.
   */
  void commit(List<Write> writes);

  /** The number of documents stored. */
  long documentCount();

  /** One write of a commit. */
  sealed interface Write {
    /** Stores a document version, replacing the one with the same (EPK, id). */
    record Put(StoredDocument document) implements Write {}

    /** Removes the document with this (EPK, id). */
    record Delete(String epk, String id) implements Write {}

    /** Appends a record to the change log. */
    record Append(ChangeRecord change) implements Write {}
  }
}
