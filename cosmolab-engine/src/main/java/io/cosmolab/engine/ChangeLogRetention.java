package io.cosmolab.engine;

import io.cosmolab.engine.changefeed.Retention;
import io.cosmolab.engine.store.ChangeRecord;
import io.cosmolab.engine.store.ContainerStore;
import io.cosmolab.engine.store.StoredDocument;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;

/** Keeps a container's change log bounded: drops the records that no feed needs any more. */
/*
 * How and why. Every write appends a record holding the new version (and the one it replaced).
 * Kept forever, a fixed set of documents upserted over and over grows the log without bound. The
 * latest-version feed needs, per live document, only its newest record; the all-versions feed
 * needs every record within its retention window. So a record can go once it is both out of the
 * window and superseded (a newer version, or a delete, of its document exists) — and a delete
 * record once it is out of the window.
 *
 * The horizon is the LSN up to which records have been looked at: a record at or below it is the
 * newest of a live document, or gone. Two paths keep that true, without a lock between them:
 * - the sweep walks the records that age out, in LSN order: it first moves the horizon to a
 *   record, then drops it if it is superseded;
 * - a write that supersedes a record below the horizon drops it itself: in the same commit when
 *   the horizon had passed it already, else after its commit, looking at the horizon again.
 * If a write reads the horizon below a record (so does not drop it), the sweep had not yet moved
 * there, and will read the store after the write's commit and find the record superseded. Each
 * side writes, then reads what the other writes (volatile horizon, concurrent store), so one of
 * them always sees the other; both dropping is harmless.
 *
 * An all-versions reader that resumes from below the horizon may have lost history: 400, as the
 * service answers past its retention window.
 *
 * Drops after a write's commit (its own, or a sweep's that the write runs on its way out) are
 * housekeeping: when the store refuses one (a full disk), the write has committed all the same and
 * is acknowledged, and the records wait in a queue for the next sweep to drop them (the sweep's
 * walk has passed them already). The queue is memory; the lowest LSN in it is saved with the marks,
 * and after a restart the sweeps walk the records from there up to the horizon again, a block at a
 * time, dropping what is superseded.
 *
 * The horizon is saved with the container's high-water marks (HighWaterMarks): exactly at a clean
 * close, as of the last block of LSNs after a crash, so a restart may re-examine some records.
 */
final class ChangeLogRetention {
  private static final long SWEEP_EVERY_MILLIS = 100;
  private static final int DROPS_PER_COMMIT = 1024;
  private static final System.Logger LOG = System.getLogger("io.cosmolab.engine");

  private final ContainerStore store;
  private volatile Retention retention;
  private final ReentrantLock sweeping = new ReentrantLock();
  private volatile long horizon;
  private volatile long nextSweep;
  private final ConcurrentLinkedQueue<Long> failedDrops = new ConcurrentLinkedQueue<>();
  // records from here up to the horizon are to be looked at again (refused drops before a restart);
  // 0 when none. Written under the sweep's lock.
  private volatile long stragglersFrom;
  // the lowest LSN of the failed drops a sweep is retrying now (out of the queue meanwhile), or 0
  private volatile long retryingFrom;

  ChangeLogRetention(
      ContainerStore store, Retention retention, long recoveredHorizon, long stragglersFrom) {
    this.store = store;
    this.retention = retention;
    this.horizon = recoveredHorizon;
    this.stragglersFrom = stragglersFrom;
  }

  /**
   * The lowest LSN of a superseded record at or below the horizon whose drop the store refused and
   * that no sweep has dropped since, or 0: saved with the marks, so a restart drops them too.
   */
  long stragglersFrom() {
    return lowest(lowest(stragglersFrom, retryingFrom), lowestFailedDrop());
  }

  /** The lower of two LSNs where 0 means none. */
  private static long lowest(long a, long b) {
    return a == 0 ? b : b == 0 ? a : Math.min(a, b);
  }

  /** The lowest LSN waiting in the failed drops' queue, or 0 when it is empty. */
  private long lowestFailedDrop() {
    long lowest = 0;
    for (Long lsn : failedDrops) {
      lowest = lowest(lowest, lsn);
    }
    return lowest;
  }

  Retention retention() {
    return retention;
  }

  /** A new window (the container's change feed policy changed); the next sweep applies it. */
  void setRetention(Retention r) {
    this.retention = r;
  }

  /** Records at or below this LSN may be gone: an all-versions reader cannot resume below it. */
  long horizon() {
    return horizon;
  }

  /** Before a commit: drop, in the same commit, the record it supersedes if the sweep passed it. */
  boolean dropWith(long supersededLsn, List<ContainerStore.Write> writes) {
    if (supersededLsn > 0 && supersededLsn <= horizon) {
      writes.add(new ContainerStore.Write.DropChange(supersededLsn));
      return true;
    }
    return false;
  }

  /**
   * After a commit: the records it superseded that the sweep passed meanwhile. Never throws: the
   * write has committed; a drop the store refuses waits for the next sweep.
   */
  void dropAfter(List<Long> supersededLsns) {
    List<Long> due = null;
    long h = horizon;
    for (long lsn : supersededLsns) {
      if (lsn <= h) {
        if (due == null) {
          due = new ArrayList<>(supersededLsns.size());
        }
        due.add(lsn);
      }
    }
    if (due != null) {
      drop(due);
    }
  }

  /** Drops these records now, or queues them for the next sweep when the store refuses. */
  private void drop(List<Long> lsns) {
    List<ContainerStore.Write> drops = new ArrayList<>(lsns.size());
    for (long lsn : lsns) {
      drops.add(new ContainerStore.Write.DropChange(lsn));
    }
    try {
      store.commit(drops);
    } catch (RuntimeException e) {
      failedDrops.addAll(lsns);
      LOG.log(
          System.Logger.Level.WARNING,
          "dropping "
              + lsns.size()
              + " superseded change record(s) failed; the next sweep tries again: "
              + e.getMessage());
    }
  }

  /**
   * Drops the records that aged out, up to the committed LSN; at most one thread sweeps at a time
   * (the others go on), and at most every 100 ms of the clock.
   */
  void sweep(long now, java.util.function.LongSupplier committed) {
    if (now < nextSweep || !sweeping.tryLock()) {
      return;
    }
    try {
      long committedLsn = committed.getAsLong(); // only when sweeping: it reads every writer's slot
      nextSweep = now + SWEEP_EVERY_MILLIS;
      retryFailedDrops();
      revisitStragglers();
      Retention window = retention;
      long cutoffMillis = now - window.window().toMillis();
      long cutoffLsn = committedLsn - window.maxHistory();
      List<Long> drops = new ArrayList<>();
      Iterator<ChangeRecord> it = store.changesAfter(horizon);
      while (it.hasNext()) {
        ChangeRecord r = it.next();
        if (r.lsn() > committedLsn
            || (r.timestampMillis() >= cutoffMillis && r.lsn() > cutoffLsn)) {
          break;
        }
        horizon = r.lsn(); // first the horizon, then the look: see the class comment
        if (superseded(r)) {
          drops.add(r.lsn());
          if (drops.size() == DROPS_PER_COMMIT) {
            drop(drops);
            drops = new ArrayList<>();
          }
        }
      }
      if (!drops.isEmpty()) {
        drop(drops);
      }
    } finally {
      sweeping.unlock();
    }
  }

  /**
   * After a restart that left records the store had refused to drop: looks at up to a block of the
   * records from there to the horizon, per sweep, and drops the superseded ones (under the sweep's
   * lock). Those in between that are still needed (the newest version of a live document) stay.
   */
  private void revisitStragglers() {
    long from = stragglersFrom;
    if (from == 0) {
      return;
    }
    long h = horizon;
    List<Long> drops = new ArrayList<>();
    Iterator<ChangeRecord> it = store.changesAfter(from - 1);
    long next = 0; // done: nothing left below the horizon
    for (int looked = 0; it.hasNext(); looked++) {
      ChangeRecord r = it.next();
      if (r.lsn() > h) {
        break;
      }
      if (looked == DROPS_PER_COMMIT) {
        next = r.lsn(); // the next sweep goes on from here
        break;
      }
      if (superseded(r)) {
        drops.add(r.lsn());
      }
    }
    if (!drops.isEmpty()) {
      drop(drops); // a refusal queues them again
    }
    stragglersFrom = next;
  }

  /** The drops that failed after their writes' commits (under the sweep's lock). */
  private void retryFailedDrops() {
    if (failedDrops.isEmpty()) {
      return;
    }
    // first: marks saved while they are out of the queue still name them
    retryingFrom = lowestFailedDrop();
    List<Long> lsns = new ArrayList<>();
    for (Long lsn; (lsn = failedDrops.poll()) != null; ) {
      lsns.add(lsn);
    }
    try {
      drop(lsns); // a refusal queues them again
    } finally {
      retryingFrom = 0;
    }
  }

  private boolean superseded(ChangeRecord r) {
    if (r.operation() == ChangeRecord.Operation.DELETE) {
      return true;
    }
    StoredDocument d = store.get(r.epk(), r.id());
    return d == null || d.lsn() != r.lsn();
  }
}
