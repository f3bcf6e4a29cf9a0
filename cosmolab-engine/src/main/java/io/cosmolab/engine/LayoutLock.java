package io.cosmolab.engine;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A read-write lock for many short shared holders and a rare exclusive one: a container's document
 * writes (shared, on any partition, from any thread) against its layout changes (exclusive: splits,
 * merges, throughput and TTL-rule changes). The shared side costs one atomic add on a cache line of
 * the thread's own and one read of a flag nobody writes in between; nothing that the writers of
 * other partitions write.
 *
 * <p>Not reentrant on the shared side while an exclusive holder waits: a thread that holds the
 * shared side must not take it again (the engine never does: a write runs one {@code shared} call
 * and takes no other). The exclusive side is reentrant, and its holder may take the shared side.
 */
/*
 * Why not ReentrantReadWriteLock: its read side is one compare-and-set on the lock's one state
 * word, plus a thread-local hold count once two threads read; every write of every partition took
 * and released it, so with two writers on two partitions that word moved between the two cores
 * twice a write (PointOperationsBenchmark.createOwnPartition, 2 threads, docs/benchmarks.md).
 *
 * How. Each shared holder counts itself in a cell chosen by its thread (its own 128-byte stretch,
 * so two threads' cells never share a cache line or its prefetched pair; two threads may share a
 * cell, which is only slower). It adds one to its cell and then reads the flag; the exclusive
 * holder sets the flag and then reads every cell until all are zero. Both are sequentially
 * consistent (atomic and volatile accesses), so either the shared holder sees the flag (and backs
 * out: takes one off and waits for the exclusive holder's mutex) or the exclusive holder sees its
 * count (and waits for it to leave). Exclusive holders queue on the mutex among themselves.
 */
final class LayoutLock {
  private static final int STRIDE = 16; // longs: 128 bytes
  private static final int CELLS = 64;

  private final AtomicLongArray holders = new AtomicLongArray(CELLS * STRIDE);
  private final ReentrantLock exclusive = new ReentrantLock();
  private volatile boolean changing;

  /** Takes the shared side; returns the token to give {@link #unlockShared}. */
  int lockShared() {
    int cell = cellOf(Thread.currentThread());
    while (true) {
      holders.getAndIncrement(cell);
      if (!changing || exclusive.isHeldByCurrentThread()) {
        return cell;
      }
      holders.getAndDecrement(cell);
      exclusive.lock(); // waits for the change under way to finish
      try {
        // nothing: the wait was the point
      } finally {
        exclusive.unlock();
      }
    }
  }

  /** Gives back the shared side taken with {@code token}. */
  void unlockShared(int token) {
    holders.getAndDecrement(token);
  }

  /** Takes the exclusive side: waits for every shared holder to leave, and keeps new ones out. */
  void lockExclusive() {
    exclusive.lock();
    changing = true;
    for (int cell = 0; cell < CELLS * STRIDE; cell += STRIDE) {
      for (int spins = 0; holders.get(cell) != 0; spins++) {
        if (spins < 100) {
          Thread.onSpinWait();
        } else {
          LockSupport.parkNanos(10_000);
        }
      }
    }
  }

  /** Gives back the exclusive side (the outermost hold lets the shared holders in again). */
  void unlockExclusive() {
    if (exclusive.getHoldCount() == 1) {
      changing = false;
    }
    exclusive.unlock();
  }

  private static int cellOf(Thread t) {
    long id = t.getId();
    int h = (int) (id ^ (id >>> 32)) * 0x9E3779B9; // spreads consecutive ids
    return (h >>> 26) * STRIDE; // the top 6 bits: one of 64 cells
  }
}
