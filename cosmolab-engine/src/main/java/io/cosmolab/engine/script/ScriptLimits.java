package io.cosmolab.engine.script;

import java.time.Duration;

/**
 * What one execution of a stored procedure or trigger may use.
 *
 * @param timeout the wall-clock time after which the script is stopped and its writes rolled back
 *     (the service's is 5 s)
 * @param acceptedOperations after this many collection operations {@code isAccepted} is false, as
 *     the service answers a script near its budget: the continuation pattern (return how far it
 *     got, be called again) depends on it. [A] The service's point is time and resource based and
 *     not published; a count makes it deterministic
 * @param acceptedFraction the share of {@code timeout} after which {@code isAccepted} is false
 * @param memoryBytes the bytes a script's execution may allocate (not only keep), where the runtime
 *     can bound it; 0 for no bound
 */
public record ScriptLimits(
    Duration timeout, int acceptedOperations, double acceptedFraction, long memoryBytes) {
  /**
   * 5 s, as the service; 10,000 operations; half the time; 512 MB allocated (a bulk import of 1,000
   * documents allocates some tens of MB through the JSON bridge).
   */
  public static final ScriptLimits DEFAULT =
      new ScriptLimits(Duration.ofSeconds(5), 10_000, 0.5, 512L << 20);

  public ScriptLimits {
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("a script timeout must be positive, was " + timeout);
    }
    if (acceptedOperations < 1) {
      throw new IllegalArgumentException(
          "acceptedOperations must be >= 1, was " + acceptedOperations);
    }
  }

  public ScriptLimits withTimeout(Duration t) {
    return new ScriptLimits(t, acceptedOperations, acceptedFraction, memoryBytes);
  }

  public ScriptLimits withMemoryBytes(long bytes) {
    return new ScriptLimits(timeout, acceptedOperations, acceptedFraction, bytes);
  }

  public ScriptLimits withAcceptedOperations(int n) {
    return new ScriptLimits(timeout, n, acceptedFraction, memoryBytes);
  }
}
