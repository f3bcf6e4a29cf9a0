package io.cosmolab.migrator.internal;

import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.FeedResponse;
import io.cosmolab.migrator.MigratorOptions;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * Every SDK call goes through here: it waits for the RU cap (a token bucket refilled at {@code
 * maxRu} per second, one second deep, empty at the start; each call's charge is taken when it is
 * known, so the bucket can go into debt and the next calls wait it off), honours a 429's
 * retry-after as often as it comes, and retries timeouts and 503s with a backoff. The bulk writes
 * ({@link Writes}) take from the same bucket by {@link #reserve} and {@link #settle}, and wait out
 * their own 429s.
 */
public final class Sdk {
  private static final int TRANSIENT_RETRIES = 10;

  private final MigratorOptions options;
  private final double maxRu;
  private final AtomicLong throttled = new AtomicLong();
  private final DoubleAdder charged = new DoubleAdder();
  private double tokens;
  private long refilledAtNanos;

  public Sdk(MigratorOptions options, double maxRu) {
    this.options = options;
    this.maxRu = maxRu;
    this.tokens = 0; // no burst at the start: the first second spends at the rate too
    this.refilledAtNanos = nanos();
  }

  private long nanos() {
    java.time.Instant t = options.clock().instant();
    return t.getEpochSecond() * 1_000_000_000L + t.getNano();
  }

  /** 429s seen. */
  public long throttled() {
    return throttled.get();
  }

  /** Request units charged. */
  public double charged() {
    return charged.sum();
  }

  /**
   * What a batch of writes took from the bucket before it was sent: {@code operations} at the
   * estimated {@code requestUnits} in all (0 when no estimate was known: then it is charged after,
   * as a single call is).
   */
  public record Reservation(int operations, double requestUnits) {}

  /**
   * Waits until the bucket holds tokens, then takes as many of {@code wanted} operations as they
   * cover at {@code estimate} RU each, at least one; with no cap, all of them. An estimate of 0 or
   * less (unknown) takes one operation and nothing from the bucket. {@link #settle} charges the
   * batch's real cost and corrects the bucket by the difference, so the bucket is charged exactly
   * what was spent, and a batch overruns it by at most one operation's estimate plus the error of
   * the estimate, which the next batches wait off.
   */
  public Reservation reserve(int wanted, double estimate) {
    if (wanted < 1) {
      throw new IllegalArgumentException("reserve at least one operation, not " + wanted);
    }
    if (maxRu <= 0) {
      return new Reservation(wanted, 0);
    }
    if (estimate <= 0) {
      awaitBudget();
      return new Reservation(1, 0);
    }
    while (true) {
      long waitNanos;
      synchronized (this) {
        refill();
        if (tokens > 0) {
          int n = (int) Math.max(1, Math.min(wanted, Math.floor(tokens / estimate)));
          tokens -= n * estimate;
          return new Reservation(n, n * estimate);
        }
        waitNanos = (long) (-tokens / maxRu * 1e9) + 1_000_000;
      }
      sleep(Duration.ofNanos(waitNanos));
    }
  }

  /** Charges what a reserved batch cost ({@code charged}, every response's charge summed). */
  public void settle(Reservation r, double charged) {
    this.charged.add(charged);
    if (maxRu > 0) {
      synchronized (this) {
        tokens -= charged - r.requestUnits();
      }
    }
  }

  /**
   * Counts {@code n} 429s that the caller waits out itself (a bulk batch's throttled operations).
   */
  public void countThrottled(int n) {
    throttled.addAndGet(n);
  }

  /** Runs {@code op} within the cap, retrying throttles and transient failures. */
  public <T> T call(Supplier<T> op, ToDoubleFunction<T> charge) {
    int transients = 0;
    while (true) {
      awaitBudget();
      try {
        T result = op.get();
        spend(charge.applyAsDouble(result));
        return result;
      } catch (CosmosException e) {
        if (backedOff(e)) {
          continue;
        }
        if ((e.getStatusCode() == 408 || e.getStatusCode() == 503 || e.getStatusCode() == 449)
            && transients++ < TRANSIENT_RETRIES) {
          sleep(Duration.ofMillis(50L << Math.min(transients, 6)));
        } else {
          throw e;
        }
      }
    }
  }

  /**
   * One page of an SDK iterator: within the cap, but a 429 is not retried here (the iterator cannot
   * be resumed after an error): its retry-after is waited, and the 429 thrown, so the caller starts
   * a new iterator from its last continuation.
   */
  public <T> T page(Supplier<T> op, ToDoubleFunction<T> charge) {
    awaitBudget();
    try {
      T result = op.get();
      spend(charge.applyAsDouble(result));
      return result;
    } catch (CosmosException e) {
      backedOff(e);
      throw e;
    }
  }

  /**
   * The next page of an SDK page iterator through {@link #page}, or null when it has no more: how
   * the copy, the catch-up and whole-container reads all step through their pages.
   */
  public <T> FeedResponse<T> nextPage(Iterator<FeedResponse<T>> pages) {
    return page(
        () -> pages.hasNext() ? pages.next() : null, p -> p == null ? 0 : p.getRequestCharge());
  }

  /** The first line of an exception's message: what the SDK's multi-line messages lead with. */
  public static String firstLine(Exception e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  /**
   * Spends what a failed request was charged; for a 429, counts it and waits its retry-after (100
   * ms if it gave none) and returns true.
   */
  private boolean backedOff(CosmosException e) {
    spend(e.getRequestCharge());
    if (e.getStatusCode() != 429) {
      return false;
    }
    throttled.incrementAndGet();
    Duration wait = e.getRetryAfterDuration();
    sleep(wait == null || wait.isZero() ? Duration.ofMillis(100) : wait);
    return true;
  }

  private void spend(double ru) {
    charged.add(ru);
    if (maxRu > 0) {
      synchronized (this) {
        tokens -= ru;
      }
    }
  }

  private void awaitBudget() {
    if (maxRu <= 0) {
      return;
    }
    while (true) {
      long waitNanos;
      synchronized (this) {
        refill();
        if (tokens > 0) {
          return;
        }
        waitNanos = (long) (-tokens / maxRu * 1e9) + 1_000_000;
      }
      sleep(Duration.ofNanos(waitNanos));
    }
  }

  /** Adds the tokens of the time since the last refill, up to one second's worth. */
  private void refill() {
    long now = nanos();
    tokens = Math.min(maxRu, tokens + (now - refilledAtNanos) / 1e9 * maxRu);
    refilledAtNanos = now;
  }

  /** Waits through the injected sleeper; an interrupt ends the run. */
  public void sleep(Duration d) {
    try {
      options.sleeper().sleep(d);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
