package io.cosmolab.engine;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;

/**
 * The lock a partition's document writes take: reentrant and not fair, as {@link
 * java.util.concurrent.locks.ReentrantLock}, but one object whose last 64 bytes are padding.
 *
 * <p>Why not ReentrantLock: its state lives in a second object it allocates, and a container's
 * partitions are allocated one after another, so one partition's lock state shared a 64-byte cache
 * line with the next partition's counters and budget. Two threads writing two partitions then wrote
 * the same line at every write, and each write waited for the line to come from the other core
 * (Epsilon, 2 threads on 2 partitions: +9 % with the partitions' written state padded apart,
 * docs/benchmarks.md). The padding follows the synchronizer's fields (a subclass's fields follow
 * its superclass's). What precedes them is the partition that holds the lock, allocated just before
 * it, whose last fields are references only read.
 */
@SuppressWarnings({"serial", "UnusedVariable"}) // never serialized; the padding is never read
final class PartitionLock extends AbstractQueuedSynchronizer {
  private long pad1;
  private long pad2;
  private long pad3;
  private long pad4;
  private long pad5;
  private long pad6;
  private long pad7;
  private long pad8;

  /** Takes the lock, waiting as long as it takes. */
  void lock() {
    if (!compareAndSetState(0, 1)) {
      acquire(1);
    } else {
      setExclusiveOwnerThread(Thread.currentThread());
    }
  }

  /** Takes the lock if it is free or this thread's already; never waits. */
  boolean tryLock() {
    return tryAcquire(1);
  }

  /** Takes the lock if it comes free within the wait. */
  boolean tryLock(long timeout, TimeUnit unit) throws InterruptedException {
    return tryAcquireNanos(1, unit.toNanos(timeout));
  }

  /** Lets go of one hold; the lock is free when every hold is let go. */
  void unlock() {
    release(1);
  }

  boolean isHeldByCurrentThread() {
    return isHeldExclusively();
  }

  @Override
  protected boolean tryAcquire(int acquires) {
    Thread me = Thread.currentThread();
    int c = getState();
    if (c == 0) {
      if (compareAndSetState(0, acquires)) {
        setExclusiveOwnerThread(me);
        return true;
      }
      return false;
    }
    if (getExclusiveOwnerThread() == me) {
      int next = c + acquires;
      if (next < 0) {
        throw new Error("Maximum lock count exceeded");
      }
      setState(next);
      return true;
    }
    return false;
  }

  @Override
  protected boolean tryRelease(int releases) {
    if (getExclusiveOwnerThread() != Thread.currentThread()) {
      throw new IllegalMonitorStateException("the partition lock is not this thread's");
    }
    int c = getState() - releases;
    boolean free = c == 0;
    if (free) {
      setExclusiveOwnerThread(null);
    }
    setState(c);
    return free;
  }

  @Override
  protected boolean isHeldExclusively() {
    return getExclusiveOwnerThread() == Thread.currentThread();
  }
}
