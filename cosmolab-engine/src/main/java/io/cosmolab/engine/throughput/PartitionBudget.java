package io.cosmolab.engine.throughput;

import io.cosmolab.engine.limits.Limits;

/**
 * The per-second RU budget of one physical partition (or one slice of a shared-throughput
 * database), with optional burst capacity.
 */
/*
 * How and why.
 *
 * The budget is a token bucket refilled at R = RU/s ÷ P per second with a capacity of one second
 * (R tokens): the service accounts RU per partition per second. An operation is admitted while the
 * bucket is positive and then pays its full charge, which may drive the bucket negative: that debt
 * is repaid by the refill, and until it is, operations are refused with a retry-after of exactly
 * the time the debt takes to repay. So a partition serves R RU/s on average whatever the mix of
 * cheap and expensive operations, and the retry-after is always positive.
 *
 * Burst capacity ([D] BURST): when the account enables it and R < 3,000 RU/s, the tokens that
 * overflow a full bucket (idle capacity) go to a bank of at most 300 s × R. When the bucket is
 * empty, an operation may draw from the bank, at a total spending rate of at most 3,000 RU/s
 * (a second bucket of 3,000 − R per second enforces the rate).
 *
 * Time comes from the caller (the injected clock), so tests and rehearsals are deterministic.
 * Concurrency: every method is synchronized; the bucket is tiny and contention is per partition.
 */
public final class PartitionBudget {
  private double rate;
  private final boolean burstEnabled;
  private final double burstSpendRate;
  private double tokens;
  private double bank;
  private double burstTokens;
  private long lastMillis;

  /** The result of asking to run an operation. */
  public enum Admission {
    /** Within the per-second budget. */
    ADMITTED,
    /** Over the budget, served from banked burst capacity. */
    BURST,
    /** Over the budget: a 429. */
    THROTTLED
  }

  public PartitionBudget(double ruPerSecond, boolean burstEnabled, Limits limits, long nowMillis) {
    this.rate = ruPerSecond;
    this.burstEnabled = burstEnabled;
    this.burstSpendRate = limits.burstMaxRuPerSecond();
    this.tokens = ruPerSecond;
    this.lastMillis = nowMillis;
  }

  /** RU per second this partition may consume. */
  public synchronized double ruPerSecond() {
    return rate;
  }

  /** Changes the rate (throughput changed without a split); the bucket keeps its level. */
  public synchronized void setRuPerSecond(double ruPerSecond, long nowMillis) {
    refill(nowMillis);
    this.rate = ruPerSecond;
    tokens = Math.min(tokens, rate);
  }

  private boolean burstEligible() {
    return burstEnabled && rate < burstSpendRate;
  }

  private void refill(long nowMillis) {
    if (nowMillis <= lastMillis) {
      return;
    }
    double seconds = (nowMillis - lastMillis) / 1000.0;
    lastMillis = nowMillis;
    tokens += seconds * rate;
    if (tokens > rate) {
      if (burstEligible()) {
        bank = Math.min(bank + (tokens - rate), Limits.BURST_BANK_SECONDS * rate);
      }
      tokens = rate;
    }
    if (burstEligible()) {
      double extra = burstSpendRate - rate;
      burstTokens = Math.min(extra, burstTokens + seconds * extra);
    }
  }

  /** Whether an operation may run now. Does not consume anything. */
  public synchronized Admission admit(long nowMillis) {
    refill(nowMillis);
    if (tokens > 0) {
      return Admission.ADMITTED;
    }
    if (burstEligible() && bank > 0 && burstTokens > 0) {
      return Admission.BURST;
    }
    return Admission.THROTTLED;
  }

  /** Pays for an operation admitted as {@code admission}. */
  public synchronized void charge(double ru, Admission admission, long nowMillis) {
    refill(nowMillis);
    if (admission == Admission.BURST) {
      bank -= ru;
      burstTokens -= ru;
    } else {
      tokens -= ru;
    }
  }

  /** Milliseconds until an operation would be admitted again; at least 1. */
  public synchronized long retryAfterMillis(long nowMillis) {
    refill(nowMillis);
    if (tokens > 0) {
      return 1;
    }
    // the bucket must rise above zero: repay the debt and one hundredth of a RU more
    double millis = (-tokens + 0.01) / rate * 1000;
    return Math.max(1, (long) Math.ceil(millis));
  }

  /** RU banked for bursts (0 when burst is off or the partition is not eligible). */
  public synchronized double burstBank(long nowMillis) {
    refill(nowMillis);
    return bank;
  }

  /** The current bucket level (negative while repaying debt). */
  public synchronized double tokens(long nowMillis) {
    refill(nowMillis);
    return tokens;
  }
}
