package io.cosmolab.migrator.internal;

import java.util.ArrayDeque;

/**
 * Rates over a sliding window of samples (time, RU spent so far, documents written so far): the
 * difference between the newest sample and the oldest one inside the window, over the time between
 * them. Samples come from the run's own saves, so the clock is the injected one.
 */
public final class Rates {
  private record Sample(long millis, double requestUnits, long written) {}

  private final long windowMillis;
  private final ArrayDeque<Sample> samples = new ArrayDeque<>();

  public Rates(long windowMillis) {
    this.windowMillis = windowMillis;
  }

  public void sample(long millis, double requestUnits, long written) {
    samples.addLast(new Sample(millis, requestUnits, written));
    while (samples.size() > 2 && samples.peekFirst().millis() < millis - windowMillis) {
      samples.removeFirst();
    }
  }

  public double requestUnitsPerSecond() {
    return rate(true);
  }

  public double documentsPerSecond() {
    return rate(false);
  }

  private double rate(boolean ru) {
    if (samples.size() < 2) {
      return 0;
    }
    Sample a = samples.peekFirst();
    Sample b = samples.peekLast();
    long ms = b.millis() - a.millis();
    if (ms <= 0) {
      return 0;
    }
    double d = ru ? b.requestUnits() - a.requestUnits() : b.written() - a.written();
    return d * 1000.0 / ms;
  }
}
