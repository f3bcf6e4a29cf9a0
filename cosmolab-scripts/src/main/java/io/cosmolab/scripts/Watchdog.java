package io.cosmolab.scripts;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.graalvm.polyglot.Context;

/**
 * Stops scripts that run too long or allocate too much: one daemon thread samples every running
 * execution every {@value #TICK_MILLIS} ms and cancels its context ({@link Context#close(boolean)}
 * with {@code true}, which the executing thread sees as a cancelled {@code PolyglotException}).
 *
 * <p>Memory is bounded by the bytes the executing thread allocates (HotSpot's per-thread counter),
 * since GraalJS community has no heap limit of its own (Oracle GraalVM's {@code
 * sandbox.MaxHeapMemory} is not in it): a stricter bound than live heap, and as cheap to read. Each
 * execution has its own bound, and the executions running at once share one more ({@link
 * #sharedAllocationLimit}): when what they allocated together passes it, the one that allocated
 * most is stopped. Without it, scripts that each stay under their bound could together fill the
 * heap.
 *
 * <p>Thread-safe: executions are a concurrent map; the thread starts with the first execution.
 */
final class Watchdog {
  static final int TICK_MILLIS = 10;

  /** Why an execution was stopped. */
  enum Stop {
    TIMEOUT,
    MEMORY,
    /**
     * stopped as the one that allocated most when the running executions passed their shared bound
     */
    SHARED_MEMORY
  }

  /** One watched execution. */
  static final class Watch implements AutoCloseable {
    private final Context context;
    private final long thread;
    private final long deadline;
    private final long allocationLimit;
    private final long allocatedAtStart;
    private volatile Stop stopped;
    private final Map<Watch, Boolean> owner;

    Watch(Context context, long timeoutNanos, long allocationLimit, Map<Watch, Boolean> owner) {
      this.context = context;
      this.thread = Thread.currentThread().threadId();
      this.deadline = System.nanoTime() + timeoutNanos;
      this.allocationLimit = allocationLimit;
      this.allocatedAtStart = allocated(thread);
      this.owner = owner;
    }

    /**
     * Bytes the watched thread allocated since the watch began, or 0 where the JVM does not count
     * them.
     */
    long allocatedSinceStart() {
      return allocatedAtStart < 0 ? 0 : Math.max(0, allocated(thread) - allocatedAtStart);
    }

    /** Why it was stopped, or null. */
    Stop stopped() {
      return stopped;
    }

    void check(long now) {
      if (stopped != null) {
        return;
      }
      if (now - deadline > 0) {
        stop(Stop.TIMEOUT);
      } else if (allocationLimit > 0 && allocatedSinceStart() > allocationLimit) {
        stop(Stop.MEMORY);
      }
    }

    boolean running() {
      return stopped == null;
    }

    private void stop(Stop why) {
      stopped = why;
      try {
        context.close(true);
      } catch (RuntimeException alreadyClosing) {
        // the execution finished meanwhile
      }
    }

    @Override
    public void close() {
      owner.remove(this);
    }
  }

  private final Map<Watch, Boolean> running = new ConcurrentHashMap<>();
  private volatile ScheduledExecutorService ticker;
  private final long sharedAllocationLimit;

  /**
   * @param sharedAllocationLimit the bytes the executions running at once may allocate together; 0
   *     for no shared bound
   */
  Watchdog(long sharedAllocationLimit) {
    this.sharedAllocationLimit = sharedAllocationLimit;
  }

  /** The shared bound: what the executions running at once allocated together. */
  long sharedAllocationLimit() {
    return sharedAllocationLimit;
  }

  /** Watches {@code context}, run by the calling thread, until the returned watch is closed. */
  Watch watch(Context context, long timeoutNanos, long allocationLimit) {
    start();
    Watch w = new Watch(context, timeoutNanos, allocationLimit, running);
    running.put(w, Boolean.TRUE);
    return w;
  }

  private void start() {
    if (ticker != null) {
      return;
    }
    synchronized (this) {
      if (ticker == null) {
        ScheduledExecutorService t =
            Executors.newSingleThreadScheduledExecutor(
                r -> {
                  Thread th = new Thread(r, "cosmolab-script-watchdog");
                  th.setDaemon(true);
                  return th;
                });
        var unused =
            t.scheduleWithFixedDelay(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
        ticker = t;
      }
    }
  }

  private void tick() {
    long now = System.nanoTime();
    // per thread, its watch that allocated most: a watch within another on the same thread (a
    // procedure's query calling a UDF) counts bytes its outer watch counts too
    Map<Long, Watch> outermost = new java.util.HashMap<>();
    Map<Long, Long> byThread = new java.util.HashMap<>();
    for (Watch w : running.keySet()) {
      w.check(now);
      if (w.running()) {
        long bytes = w.allocatedSinceStart();
        if (bytes > byThread.getOrDefault(w.thread, -1L)) {
          byThread.put(w.thread, bytes);
          outermost.put(w.thread, w);
        }
      }
    }
    long together = 0;
    Watch most = null;
    for (Map.Entry<Long, Long> e : byThread.entrySet()) {
      together += e.getValue();
      if (most == null || e.getValue() > byThread.get(most.thread)) {
        most = outermost.get(e.getKey());
      }
    }
    if (sharedAllocationLimit > 0
        && together > sharedAllocationLimit
        && most != null
        && running.containsKey(most)) {
      most.stop(Stop.SHARED_MEMORY); // one per tick: the next tick counts the others without it
    }
  }

  private static final java.lang.management.ThreadMXBean THREADS =
      java.lang.management.ManagementFactory.getThreadMXBean();

  /** Bytes the thread has allocated, or -1 where the JVM does not count them. */
  static long allocated(long threadId) {
    if (THREADS instanceof com.sun.management.ThreadMXBean t
        && t.isThreadAllocatedMemorySupported()
        && t.isThreadAllocatedMemoryEnabled()) {
      return t.getThreadAllocatedBytes(threadId);
    }
    return -1;
  }
}
