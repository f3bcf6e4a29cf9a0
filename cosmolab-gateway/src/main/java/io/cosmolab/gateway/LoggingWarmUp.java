package io.cosmolab.gateway;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Initialises, when a server starts, what the first logged warning would otherwise load lazily —
 * and what needs a file descriptor to load: the time-zone data ({@code lib/tzdb.dat}, read the
 * first time {@code java.util.logging}'s formatter prints a date) and the logging back ends behind
 * {@link System.Logger} and Netty's logger. A warning logged when the process has run out of
 * descriptors (a failed accept, a refused registration) then prints instead of failing with a
 * {@link NoClassDefFoundError} that ends the thread that logged it — which, on Netty's boss loop,
 * ended accepting for good.
 */
final class LoggingWarmUp {
  private LoggingWarmUp() {}

  private static final AtomicBoolean DONE = new AtomicBoolean();

  /**
   * Starts the warm-up the first time a server starts in this JVM; later calls do nothing. It runs
   * on a daemon thread, {@value #DELAY_MILLIS} ms after the start: formatting a first log record
   * loads over a hundred JDK classes (formatters, locale data, time-zone rules), and on two cores
   * that work, done at once, slowed a cold in-process start by 10–15 ms
   * (scripts/bench-gateway-pair). A process does not run out of descriptors in its first second.
   */
  static void once() {
    if (!DONE.compareAndSet(false, true)) {
      return;
    }
    Thread t =
        new Thread(
            () -> {
              try {
                Thread.sleep(DELAY_MILLIS);
                warmUp();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } finally {
                WARM.countDown();
              }
            },
            "cosmolab-logging-warm-up");
    t.setDaemon(true);
    t.start();
  }

  static final long DELAY_MILLIS = 1_000;

  private static final java.util.concurrent.CountDownLatch WARM =
      new java.util.concurrent.CountDownLatch(1);

  /**
   * Waits up to {@code millis} for the warm-up; true once it is done (tests that then exhaust the
   * process's descriptors wait for it).
   */
  static boolean awaitDone(long millis) throws InterruptedException {
    return WARM.await(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  private static void warmUp() {
    var unusedRules = java.time.ZoneId.systemDefault().getRules();
    var unusedZone = java.util.TimeZone.getDefault();
    java.util.logging.LogRecord record =
        new java.util.logging.LogRecord(java.util.logging.Level.WARNING, "warm-up {0}");
    record.setParameters(new Object[] {"of the log formatter"});
    record.setThrown(new IllegalStateException("warm-up"));
    var unusedText = new java.util.logging.SimpleFormatter().format(record);
    var unusedLoggable =
        System.getLogger("io.cosmolab.gateway").isLoggable(System.Logger.Level.ERROR);
    var unusedNetty =
        io.netty.util.internal.logging.InternalLoggerFactory.getInstance(GatewayServer.class)
            .isWarnEnabled();
  }
}
