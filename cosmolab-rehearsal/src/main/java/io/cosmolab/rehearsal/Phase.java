package io.cosmolab.rehearsal;

import java.time.Duration;

/**
 * A stretch of the rehearsal during which every operation's rate is the workload's rate times a
 * multiplier: constant ({@code from == to}) or a linear ramp from {@code from} to {@code to}.
 *
 * @param name how reports call it
 * @param duration how long it lasts
 * @param from the multiplier at its start
 * @param to the multiplier at its end
 */
public record Phase(String name, Duration duration, double from, double to) {

  public Phase {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a phase needs a name");
    }
    if (duration == null || duration.toMillis() < 1000) {
      throw new IllegalArgumentException(
          "phase '" + name + "' lasts " + duration + ": a phase lasts at least one second");
    }
    if (!(from >= 0) || !(to >= 0) || Double.isInfinite(from) || Double.isInfinite(to)) {
      throw new IllegalArgumentException(
          "phase '"
              + name
              + "': rate multipliers are finite and 0 or more, were "
              + from
              + ", "
              + to);
    }
  }

  /** A phase at a constant multiplier. */
  public static Phase constant(String name, Duration duration, double multiplier) {
    return new Phase(name, duration, multiplier, multiplier);
  }

  /** A phase that ramps linearly from one multiplier to another. */
  public static Phase ramp(String name, Duration duration, double from, double to) {
    return new Phase(name, duration, from, to);
  }

  /** The multiplier {@code millis} into this phase (linear between from and to). */
  public double multiplierAt(long millis) {
    double f = Math.min(1, Math.max(0, millis / (double) duration.toMillis()));
    return from + (to - from) * f;
  }
}
