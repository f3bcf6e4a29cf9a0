package io.cosmolab.gateway.http;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One connection's work, run in the order it was submitted, one task at a time, on a pool shared by
 * all connections. A task's effects happen-before the next task starts, whichever pool thread runs
 * it; so responses written by the tasks leave in request order, as HTTP/1.1 requires, while a task
 * that blocks holds up its own connection only.
 *
 * <p>Concurrency: lock-free. Any thread may {@link #execute}; the tasks run confined to whichever
 * pool thread holds the lane's drain at the time, and at most one does.
 */
final class ConnectionLane implements Executor {
  /*
   * The mailbox of an actor. `pending` counts the tasks submitted and not yet finished; a task is
   * added to the queue before the count is raised, and the submitter that raises it from 0 owns
   * the drain and hands it to the pool. The drain runs a task, lowers the count, and goes on while
   * the count is still above 0: that task's submitter added it to the queue before raising the
   * count, so poll() finds it. After BATCH tasks the drain gives its thread back to the pool and
   * queues itself again, so a client that pipelines many requests shares the threads fairly.
   */
  private static final int BATCH = 16;

  private final Executor pool;
  private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
  private final AtomicInteger pending = new AtomicInteger();
  private final Runnable drain = this::drain;

  ConnectionLane(Executor pool) {
    this.pool = pool;
  }

  /**
   * Runs {@code task} after every task submitted before it. Tasks should not throw: one that does
   * is reported to its thread's uncaught-exception handler, and the tasks after it still run.
   */
  @Override
  public void execute(Runnable task) {
    tasks.add(task);
    if (pending.getAndIncrement() == 0) {
      pool.execute(drain);
    }
  }

  /** Tasks submitted and not yet finished, the running one included. */
  int pending() {
    return pending.get();
  }

  private void drain() {
    for (int ran = 1; ; ran++) {
      run(tasks.poll());
      if (pending.decrementAndGet() == 0) {
        return;
      }
      if (ran == BATCH) {
        pool.execute(drain); // still this lane's: the count stays above 0 until it runs
        return;
      }
    }
  }

  private static void run(Runnable task) {
    try {
      task.run();
    } catch (RuntimeException | Error e) { // the lane goes on; the thread's handler reports it
      Thread t = Thread.currentThread();
      t.getUncaughtExceptionHandler().uncaughtException(t, e);
    }
  }
}
