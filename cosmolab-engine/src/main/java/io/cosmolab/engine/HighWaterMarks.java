package io.cosmolab.engine;

import io.cosmolab.engine.store.ContainerStore;

/**
 * Keeps a container's LSNs (the change log's container-wide sequence and each physical partition's
 * own numbering) and document sequence numbers above everything used before a restart, without
 * reading the change log at start-up.
 */
/*
 * How and why (hi/lo allocation). Before a write may use an LSN or a sequence number above the
 * bound last saved, the bound is raised by a block of 10,000 and saved in the store; a restart
 * continues from the saved bounds, skipping at most one block. The save goes through the store's
 * log ahead of the commits that use the new block, so a crash that keeps a commit keeps the
 * bound it needed. A clean close saves the values last used instead, so only a crash skips.
 * Each save also records the change log's retention horizon as it is then, so an all-versions
 * reader whose history was pruned before a restart still gets its 400 (after a crash, the horizon
 * of the last save: at most one block behind), and where the records the store refused to drop
 * begin, so the sweeps after a restart drop them.
 * Start-up then reads the documents (for usage and TTL) but not the change log,
 * whose length follows the writes.
 *
 * Each physical partition's LSN has its bound too, by range id, raised the same way. A split or a
 * merge saves the bounds of the new ranges (their parent's LSN, where they start) before any write
 * can reach them, and drops those of the ranges that are gone; it happens under the exclusive
 * layout, with no write in flight.
 *
 * Concurrency: the bounds are volatile; raising them is a monitor, so saves are in increasing
 * order. Reads of a bound that already covers a number take no lock.
 */
final class HighWaterMarks {
  static final long BLOCK = 10_000;

  private final ContainerStore store;
  private final java.util.function.LongSupplier horizon;
  private final java.util.function.LongSupplier stragglers;
  private volatile long lsnBound;
  private volatile long sequenceBound;
  // per range id: no LSN of that partition's numbering above it is used; replaced whole, read
  // without a lock
  private volatile java.util.Map<String, Long> rangeBounds;

  HighWaterMarks(
      ContainerStore store,
      long lsn,
      long sequence,
      java.util.Map<String, Long> rangeLsns,
      java.util.function.LongSupplier horizon,
      java.util.function.LongSupplier stragglers) {
    this.store = store;
    this.horizon = horizon;
    this.stragglers = stragglers;
    this.lsnBound = lsn;
    this.sequenceBound = sequence;
    this.rangeBounds = java.util.Map.copyOf(rangeLsns);
  }

  /** Returns once {@code lsn} of the partition {@code rangeId} is at or below its saved bound. */
  void coverRangeLsn(String rangeId, long lsn) {
    Long bound = rangeBounds.get(rangeId);
    if (bound == null || lsn > bound) {
      raiseRange(rangeId, lsn);
    }
  }

  private synchronized void raiseRange(String rangeId, long lsn) {
    Long bound = rangeBounds.get(rangeId);
    if (bound == null || lsn > bound) {
      java.util.Map<String, Long> next = new java.util.HashMap<>(rangeBounds);
      next.put(rangeId, lsn + BLOCK);
      save(lsnBound, sequenceBound, next);
    }
  }

  /**
   * A split or merge (under the exclusive layout): the ranges {@code gone} are no more, the ranges
   * {@code started} start at these LSNs; saved before any write reaches them.
   */
  synchronized void rangesReplaced(
      java.util.Collection<String> gone, java.util.Map<String, Long> started) {
    java.util.Map<String, Long> next = new java.util.HashMap<>(rangeBounds);
    next.keySet().removeAll(gone);
    next.putAll(started);
    save(lsnBound, sequenceBound, next);
  }

  /** Returns once {@code lsn} is at or below the saved bound. */
  void coverLsn(long lsn) {
    if (lsn > lsnBound) {
      raise(lsn, 0);
    }
  }

  /** Returns once {@code sequence} is at or below the saved bound. */
  void coverSequence(long sequence) {
    if (sequence > sequenceBound) {
      raise(0, sequence);
    }
  }

  /**
   * At a clean close, with no write in flight and none to come: saves the values last used, so the
   * next start carries on from them instead of skipping the rest of the block.
   */
  synchronized void closeAt(long lsn, long sequence, java.util.Map<String, Long> rangeLsns) {
    save(lsn, sequence, rangeLsns);
  }

  private synchronized void raise(long lsn, long sequence) {
    long l = lsn > lsnBound ? lsn + BLOCK : lsnBound;
    long s = sequence > sequenceBound ? sequence + BLOCK : sequenceBound;
    if (l != lsnBound || s != sequenceBound) {
      save(l, s, rangeBounds);
    }
  }

  /** Under the monitor: durably first, then the bounds that let writes use them. */
  private void save(long lsn, long sequence, java.util.Map<String, Long> ranges) {
    store.saveMarks(
        new ContainerStore.Marks(
            lsn, sequence, horizon.getAsLong(), ranges, stragglers.getAsLong()));
    lsnBound = lsn;
    sequenceBound = sequence;
    rangeBounds = java.util.Map.copyOf(ranges);
  }
}
