package io.cosmolab.engine;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

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
 * log has a gap there, which readers skip. A transaction takes its LSNs in blocks, so that no other
 * write's fall between them (LogPositions); one that commits gives back the unused end of
 * its last block the same way.
 *
 * Concurrency: no lock. Every write of every partition passes here twice, so it was a monitor
 * around a TreeSet, and with two writers on two partitions it was the one lock they shared (a
 * JFR recording of PointOperationsBenchmark.createOwnPartition, 2 threads: 263 blocked entries,
 * 1.27 s in 10 s). Now:
 *
 *   - An open transaction holds a slot: a cell of its own cache line in a small array, claimed by
 *     compare-and-set from the thread's home cell on. It first writes a lower bound of its LSN
 *     there, then takes its LSN from the counter, then writes the LSN itself. So a reader that saw
 *     the counter pass an open transaction's first LSN sees its slot: the slot was written before
 *     the counter moved. The bound is the committed LSN plus one, which no LSN taken later can be
 *     below (the last LSN taken plus one could: a give-back may move the counter down between
 *     reading it and taking). It is kept negated, so the first take knows it is the first. The
 *     transaction keeps its slot's index and frees that slot: a slot is never looked up by the
 *     LSN it holds, as a given-back LSN may be taken again by another transaction while the one
 *     giving it back still holds its slot (a reviewer found that the first version, which looked
 *     slots up by LSN, could then free the wrong one).
 *   - The committed LSN is recomputed when it is asked for (a change-feed page, a query, a
 *     retention sweep), not when a transaction finishes: the counter first, then the slots; the
 *     smallest value found, less one, or the counter when every slot is empty. Each value so
 *     computed was true when it was read (nothing at or below it was open), so the volatile
 *     committed LSN only moves up, to the highest computed (a compare-and-set loop). Finishing a
 *     transaction is then one store to its own slot: when each finish recomputed it, every write
 *     of every partition read the other writers' slots and compare-and-set the one committed LSN,
 *     a cache line the writers of two partitions passed between their cores every write. A
 *     transaction's bound (above) is then the committed LSN as last published, which may be as old
 *     as the last time it was asked for (under writes, the retention sweep asks every 100 ms of
 *     the clock): a lower bound still. A recomputation that meets such a bound, in the moment
 *     between a transaction's open and its first take, publishes nothing newer, and its caller
 *     gets the value published before; the next one sees past it.
 *   - Giving LSNs back moves the counter down, which breaks "the counter only grows": a
 *     recomputation could read the counter before the give-back and the slots after the
 *     transaction left, and count the given-back LSNs as committed, though another write may take
 *     them again. So the give-back moves the counter, then bumps a give-back count, then frees the
 *     slot; a recomputation reads the count before the counter and after the slots, and starts
 *     again when it changed.
 *   - More open transactions than slots (8 per core, 16 at least) wait for one to free, spinning
 *     a while, then parking for 10 µs at a time. A slot holder waits for nothing a waiter holds
 *     (it holds its own partition's lock and the slot, and needs neither another lock nor another
 *     slot), so this cannot deadlock.
 */
final class CommitGate {
  private static final int STRIDE = 8; // longs: a cell per 64-byte cache line
  private static final long FREE = 0; // LSNs start at 1

  private final AtomicLong last;
  private final AtomicLong givenBack = new AtomicLong();
  private final AtomicLong committed;
  private final AtomicLongArray slots; // each open one's first LSN, or minus a lower bound of it
  private final int mask;

  private final HighWaterMarks marks;

  CommitGate(long recovered, HighWaterMarks marks) {
    this(recovered, marks, Math.max(16, 8 * Runtime.getRuntime().availableProcessors()));
  }

  /** With {@code openAtOnce} transactions open at most before one waits (a power of two above). */
  CommitGate(long recovered, HighWaterMarks marks, int openAtOnce) {
    int cells = Integer.highestOneBit(Math.max(1, openAtOnce - 1)) << 1;
    this.last = new AtomicLong(recovered);
    this.committed = new AtomicLong(recovered);
    this.slots = new AtomicLongArray(cells * STRIDE);
    this.mask = cells - 1;
    this.marks = marks;
  }

  /**
   * Opens a transaction: claims a free slot for it with a lower bound of its first LSN in it, which
   * its first {@link #take} raises to that LSN, and which {@link #finish} or {@link #abandon}
   * frees. Returns the slot.
   */
  int open() {
    int home = (int) Thread.currentThread().getId();
    for (int attempt = 0; ; attempt++) {
      long bound = -(committed.get() + 1);
      for (int i = 0; i <= mask; i++) {
        int slot = ((home + i) & mask) * STRIDE;
        if (slots.get(slot) == FREE && slots.compareAndSet(slot, FREE, bound)) {
          return slot;
        }
      }
      if (attempt < 64) {
        Thread.onSpinWait(); // every slot open: wait for a transaction to finish
      } else {
        java.util.concurrent.locks.LockSupport.parkNanos(10_000);
      }
    }
  }

  /** The next LSN of the transaction holding {@code slot}; its first is its position. */
  long take(int slot) {
    return take(slot, 1);
  }

  /**
   * The next {@code n} LSNs in a row for the transaction holding {@code slot}, no other write's
   * between them: returns the first. A transaction that takes its LSNs in one block has its change
   * records next to each other in the log, so a change-feed page that reads one of them reads all
   * (ChangeFeedReader); what it does not use it gives back at {@link #finish(int, long, long)}.
   */
  long take(int slot, int n) {
    long end = last.addAndGet(n);
    long first = end - n + 1;
    if (slots.get(slot) < 0) {
      slots.set(slot, first); // its first: raised from the bound (see the class comment)
    }
    marks.coverLsn(end); // saved before any commit can use them
    return first;
  }

  /** Closes the transaction holding {@code slot}, committed or not. */
  void finish(int slot) {
    slots.set(slot, FREE);
  }

  /**
   * Closes the transaction holding {@code slot}, which committed and left {@code unusedFrom} to
   * {@code unusedTo}, the end of its last block, unused: they are given back if no LSN was taken
   * after them, else they stay a gap, which readers skip. Nothing is given back when {@code
   * unusedFrom > unusedTo}.
   */
  void finish(int slot, long unusedFrom, long unusedTo) {
    if (unusedFrom <= unusedTo) {
      giveBack(unusedFrom, unusedTo);
    }
    finish(slot);
  }

  /**
   * Closes the transaction holding {@code slot}, which wrote nothing: its {@code count} LSNs,
   * {@code firstLsn} to {@code lastLsn}, are given back when they are the last ones taken and no
   * other transaction's came between them (so a failed write leaves no trace), else they stay a
   * gap. (A script may take several blocks, and a write to another partition may take an LSN
   * between two of them: giving the range back then would hand that write's committed LSN out
   * again.)
   */
  void abandon(int slot, long firstLsn, long lastLsn, int count) {
    if (lastLsn - firstLsn + 1 == count) {
      giveBack(firstLsn, lastLsn);
    }
    finish(slot);
  }

  /** Moves the counter back below {@code from} if {@code to} is still the last LSN taken. */
  private void giveBack(long from, long to) {
    if (last.compareAndSet(to, from - 1)) {
      givenBack.incrementAndGet(); // after the counter moved, before the slot frees (above)
    }
  }

  /**
   * The last LSN taken: a write that finished took its LSNs at or below it (a give-back only takes
   * back unused LSNs at the top: a failed write's, or the end of a committed one's last block).
   */
  long lastTaken() {
    return last.get();
  }

  /** The highest LSN such that no write at or below it is still in progress. */
  long committed() {
    advance();
    return committed.get();
  }

  /** Recomputes the committed LSN from the counter and the open slots (see the class comment). */
  private void advance() {
    long upTo;
    while (true) {
      long gaveBack = givenBack.get();
      long oldestOpen = last.get() + 1;
      for (int i = 0; i <= mask; i++) {
        long v = Math.abs(slots.get(i * STRIDE)); // an LSN, or a bound (negated)
        if (v != FREE && v < oldestOpen) {
          oldestOpen = v;
        }
      }
      if (givenBack.get() == gaveBack) {
        upTo = oldestOpen - 1;
        break;
      }
    }
    long now = committed.get();
    while (upTo > now && !committed.compareAndSet(now, upTo)) {
      now = committed.get();
    }
  }
}
