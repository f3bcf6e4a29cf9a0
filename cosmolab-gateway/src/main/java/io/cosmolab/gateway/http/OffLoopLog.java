package io.cosmolab.gateway.http;

import java.lang.System.Logger.Level;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Error reports made where nothing may wait, event loops above all, written by a thread of their
 * own.
 *
 * <p>A logger writes to a console or a file synchronously: a full pipe or a slow disk would stall
 * the caller, and on an event loop that is every connection the loop serves. A report here is
 * queued and returns at once. When the queue is full (a burst of failures, a log nobody drains) the
 * report is dropped and counted, and the next report written says how many were lost.
 */
public final class OffLoopLog {
  /** One error report: a message and the failure, if any. */
  public record Report(String message, Throwable cause) {}

  private static final System.Logger LOG = System.getLogger("io.cosmolab.gateway");

  /** The gateway's: reports go to the {@code io.cosmolab.gateway} logger. */
  public static final OffLoopLog GATEWAY =
      new OffLoopLog(r -> LOG.log(Level.ERROR, r.message(), r.cause()), 1024);

  private final Consumer<Report> sink;
  private final BlockingQueue<Report> queue;
  private final AtomicLong dropped = new AtomicLong();

  /**
   * Starts the writer thread (a daemon) now, so that a report made later, perhaps while memory or
   * stack is short, only allocates its record and queues it.
   *
   * @param sink where reports are written, on the log's own thread
   * @param capacity reports waiting at most; more are dropped and counted
   */
  public OffLoopLog(Consumer<Report> sink, int capacity) {
    this.sink = sink;
    this.queue = new ArrayBlockingQueue<>(capacity);
    Thread t = new Thread(this::drain, "cosmolab-error-log");
    t.setDaemon(true);
    t.start();
  }

  /** Queues an error report; never waits. */
  public void error(String message, Throwable cause) {
    if (!queue.offer(new Report(message, cause))) {
      dropped.incrementAndGet();
    }
  }

  /** Reports dropped so far because the queue was full. */
  public long dropped() {
    return dropped.get();
  }

  private void drain() {
    long reportedDrops = 0;
    while (true) {
      Report r;
      try {
        r = queue.take();
      } catch (InterruptedException e) {
        return;
      }
      long lost = dropped.get() - reportedDrops;
      if (lost > 0) {
        reportedDrops += lost;
        write(
            new Report(
                lost + " error report(s) dropped: they came faster than the log was written",
                null));
      }
      write(r);
    }
  }

  /**
   * Writes {@code r}; a sink that fails does not end the thread that writes every later report. Nor
   * does running out of memory while formatting one, as when the error reported was the heap
   * filling: the report is then written again without its stack trace, the part that takes memory
   * to format, so its message (with the activity id a 500 names) still reaches the log.
   */
  @SuppressWarnings("CatchingUnchecked") // the sink's exceptions and errors alike are its own
  private void write(Report r) {
    try {
      sink.accept(r);
    } catch (RuntimeException e) {
      // a broken sink: nothing to do but go on
    } catch (VirtualMachineError e) {
      if (r.cause() != null) {
        try {
          sink.accept(
              new Report(
                  r.message() + " (" + r.cause() + "; stack trace not written: " + e + ")", null));
        } catch (RuntimeException | VirtualMachineError again) {
          // still no memory: the report is lost, the thread goes on
        }
      }
    }
  }
}
