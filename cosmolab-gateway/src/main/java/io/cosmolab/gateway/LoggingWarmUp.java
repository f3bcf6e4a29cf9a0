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

  /** Does the warm-up the first time a server starts in this JVM; later calls do nothing. */
  static void once() {
    if (!DONE.compareAndSet(false, true)) {
      return;
    }
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
