package io.cosmolab.engine.time;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when told: for deterministic tests and for rehearsals in virtual time.
 * Thread-safe.
 */
public final class ManualClock implements InstantSource {
  private final AtomicLong millis;

  public ManualClock(Instant start) {
    this.millis = new AtomicLong(start.toEpochMilli());
  }

  /** A clock at 2026-01-01T00:00:00Z. */
  public static ManualClock startingAtEpoch2026() {
    return new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis.get());
  }

  @Override
  public long millis() {
    return millis.get();
  }

  public void advance(Duration d) {
    millis.addAndGet(d.toMillis());
  }

  public void advanceMillis(long ms) {
    millis.addAndGet(ms);
  }

  public void set(Instant instant) {
    millis.set(instant.toEpochMilli());
  }
}
