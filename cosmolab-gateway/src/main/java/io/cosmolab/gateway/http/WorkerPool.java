package io.cosmolab.gateway.http;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that run the Netty transport's requests, shared by all its connections: a fixed
 * number, and one more each time they have all been blocked for a while with requests waiting.
 *
 * <p>Concurrency: the pool is a {@link ThreadPoolExecutor}, thread-safe; what runs on it is
 * serialized per connection by {@link ConnectionLane}. The starvation check runs on one thread of
 * its own, which alone changes the pool's size and reads {@link #lastCompleted}.
 */
public final class WorkerPool implements Executor {
  /*
   * Why not a thread per busy connection: on two cores, more threads inside the engine than there
   * are cores to run them only queue on its locks (a container's write lock), and a thread
   * descheduled while it holds one stalls the others behind it. A fixed pool keeps the engine's
   * concurrency near the cores, as a database's connection pool does.
   *
   * Why a LinkedTransferQueue: a worker waiting in it for a task spins a little before it parks,
   * so the next request, arriving a few microseconds later, finds it awake rather than paying a
   * futex wake-up. With a LinkedBlockingQueue, whose takers park at once, 16 connections of point
   * reads ran at 28,700-32,900/s against 41,900-47,100/s with this queue (docs/benchmarks.md).
   *
   * Why it still grows: a fixed pool whose threads are all blocked (on a lock held elsewhere, on a
   * slow disk, in a long query) would stall every connection, which is what moving requests off
   * the event loops was for. So every CHECK_MS a check compares the tasks completed with the last
   * check's count: when none completed and tasks are waiting, each thread is taken to be blocked
   * and one more starts, at most one per check. When tasks are not waiting and threads are idle,
   * the pool shrinks by one per check back to its base size (a thread beyond it ends when it is
   * next idle). This is the starvation injection of .NET's thread pool, without its hill climbing.
   */
  static final long CHECK_MS = 50;

  private final int base;
  private final ThreadPoolExecutor pool;
  private final ScheduledExecutorService checks;
  private long lastCompleted;

  private WorkerPool(int base, ScheduledExecutorService checks) {
    this.base = base;
    this.pool =
        new ThreadPoolExecutor(
            base,
            Integer.MAX_VALUE,
            60,
            TimeUnit.SECONDS,
            new LinkedTransferQueue<>(),
            daemonThreads("cosmolab-worker-"));
    this.checks = checks;
  }

  /** A pool of {@code threads} threads, growing past them only while they are all blocked. */
  public static WorkerPool start(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("a worker pool needs a thread at least, was " + threads);
    }
    WorkerPool p =
        new WorkerPool(
            threads,
            Executors.newSingleThreadScheduledExecutor(daemonThreads("cosmolab-worker-check-")));
    p.pool.prestartAllCoreThreads();
    var unused =
        p.checks.scheduleWithFixedDelay(p::check, CHECK_MS, CHECK_MS, TimeUnit.MILLISECONDS);
    return p;
  }

  /** A pool without its periodic check, which the test calls itself. */
  static WorkerPool unchecked(int threads) {
    return new WorkerPool(threads, null);
  }

  @Override
  public void execute(Runnable task) {
    pool.execute(task);
  }

  /** One starvation check. */
  void check() {
    long completed = pool.getCompletedTaskCount();
    boolean waiting = !pool.getQueue().isEmpty();
    int size = pool.getCorePoolSize();
    if (waiting && completed == lastCompleted) {
      pool.setCorePoolSize(size + 1); // starts a thread, which takes a waiting task
    } else if (!waiting && size > base && pool.getActiveCount() < size) {
      pool.setCorePoolSize(size - 1);
    }
    lastCompleted = completed;
  }

  /** The threads the pool may keep now: its base size, plus those started for starvation. */
  int size() {
    return pool.getCorePoolSize();
  }

  /** The threads running a task now. */
  int active() {
    return pool.getActiveCount();
  }

  /** Stops the pool: lets its tasks finish for at most {@code patience}, then interrupts them. */
  public void close(Duration patience) {
    if (checks != null) {
      checks.shutdownNow();
    }
    pool.shutdown();
    try {
      if (!pool.awaitTermination(patience.toNanos(), TimeUnit.NANOSECONDS)) {
        pool.shutdownNow();
      }
    } catch (InterruptedException e) {
      pool.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  private static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
