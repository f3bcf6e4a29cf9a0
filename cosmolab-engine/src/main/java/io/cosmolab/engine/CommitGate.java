package io.cosmolab.engine;

import java.util.TreeSet;

/**
 * Hands out a container's LSNs and says how far its change log may be read: the committed LSN is
 * the highest LSN below which every write has either committed or given up.
 */
/*
 * How and why. Writes to different physical partitions commit at once, so LSNs are taken in one
 * order and finish in another: a write can take LSN 5, another LSN 6, and the second finish first.
 * A change-feed reader that went up to 6 and saved 6 as its continuation would never see 5. So
 * each write (a transaction, which may take several LSNs in a row) registers the first LSN it
 * takes; the committed LSN is one below the oldest still open, or the last LSN taken when none is.
 * A transaction that fails gives its LSNs back if no later LSN was taken meanwhile; otherwise the
 * log has a gap there, which readers skip.
 *
 * Concurrency: a monitor around a few map operations per transaction; the committed LSN is
 * volatile, so readers take no lock.
 */
final class CommitGate {
  private long last; // guarded by this
  private final TreeSet<Long> open = new TreeSet<>(); // first LSN of each open transaction
  private volatile long committed;

  private final HighWaterMarks marks;

  CommitGate(long recovered, HighWaterMarks marks) {
    this.last = recovered;
    this.committed = recovered;
    this.marks = marks;
  }

  /** The next LSN; {@code first} says it opens a transaction (which must then be finished). */
  synchronized long take(boolean first) {
    long lsn = ++last;
    marks.coverLsn(lsn); // saved before any commit can use it
    if (first) {
      open.add(lsn);
    }
    return lsn;
  }

  /** Closes the transaction whose first LSN is {@code firstLsn}, committed or not. */
  synchronized void finish(long firstLsn) {
    open.remove(firstLsn);
    committed = open.isEmpty() ? last : open.first() - 1;
  }

  /**
   * Closes a transaction that wrote nothing: its {@code count} LSNs, {@code firstLsn} to {@code
   * lastLsn}, are given back when they are the last ones taken and no other transaction's came
   * between them (so a failed write leaves no trace), else they stay a gap. (A batch takes an LSN
   * per operation, and a write to another partition may take one between two of them: giving the
   * range back then would hand that write's committed LSN out again.)
   */
  synchronized void abandon(long firstLsn, long lastLsn, int count) {
    if (lastLsn == last && lastLsn - firstLsn + 1 == count) {
      last = firstLsn - 1;
    }
    finish(firstLsn);
  }

  /** The highest LSN such that no write at or below it is still in progress. */
  long committed() {
    return committed;
  }
}
