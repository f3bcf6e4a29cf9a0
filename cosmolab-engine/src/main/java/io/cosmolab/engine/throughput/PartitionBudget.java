package io.cosmolab.engine.throughput;

import io.cosmolab.engine.limits.Limits;

/**
 * The per-second RU budget of one physical partition (or one slice of a shared-throughput
 * database), with optional burst capacity.
 */
/*
 * How and why.
 *
 * The service accounts RU per physical partition per second, so the budget is a per-second
 * window: R = RU/s ÷ P may be used within each second of the injected clock. An operation is
 * admitted while the current second has used less than R, and then pays its full charge, which
 * may take the second past R (an expensive write admitted near the limit). That excess is debt:
 * it is carried into the following seconds, R per second, before they admit anything. A refused
 * operation's retry-after is the time to the first second whose carried debt is below R: at
 * least the rest of the current second, which matches the 286–500 ms the service was seen to send
 * (gateway-protocol §10). A second never serves much more than R plus one operation's charge.
 *
 * (A token bucket holding one second of RU was the first model; it let a partition serve 2 × R
 * within one calendar second after an idle second, which the per-second model rules out.)
 *
 * Burst capacity ([D] BURST): when the account enables it and R < 3,000 RU/s, the budget a second
 * leaves unused goes to a bank of at most 300 s × R. When the current second's budget is used up,
 * an operation may draw from the bank, but a second spends at most 3,000 RU in all (R from the
 * budget and 3,000 − R from the bank).
 *
 * Priority-based execution ([D] "priority-based execution": when there are more requests than the
 * RU/s in a second, low-priority requests are throttled so that high-priority ones run): a
 * low-priority request is refused while the partition is contended, that is, in the second a
 * high-priority request was refused and the one after it; otherwise it shares the budget like any
 * other. [A] The service does not document how it detects contention or for how long it favours
 * high priority; one second of memory is ours.
 *
 * Throughput buckets ([D] throughput buckets: a bucket caps the share of the throughput its
 * requests may use, and reserves none): a request in a bucket is refused while the bucket's RU in
 * this second, carried debt included, is at its share of R; otherwise it shares the budget like any
 * other, so a bucket is refused either for its own cap or for the partition's. [A] The service
 * describes the cap as a share of the container's throughput without saying where it is counted;
 * as everything else it counts per physical partition here, share × R each second.
 *
 * Time comes from the caller (the injected clock), so tests and rehearsals are deterministic.
 * Concurrency: every method is synchronized; contention is per partition.
 */
public final class PartitionBudget {
  private double rate;
  private final boolean burstEnabled;
  private final double burstSpendRate;
  private long second; // the epoch second the counters below belong to
  private double used; // RU attributed to that second, carried debt included
  private double burstUsed; // RU drawn from the bank in that second
  private double bank;
  // the last second a high-priority request was refused (MIN_VALUE: never)
  private long highRefusedSecond = Long.MIN_VALUE;
  // per throughput bucket (index = id): RU attributed to the current second, carried debt included,
  // and the RU per second its share allowed when it last ran
  private final double[] bucketUsed = new double[RequestClass.MAX_BUCKET + 1];
  private final double[] bucketRate = new double[RequestClass.MAX_BUCKET + 1];

  /**
   * What an operation asks of the budget beyond its charge.
   *
   * @param bucket the throughput bucket it runs in (1–5), or 0 for none
   * @param bucketShare that bucket's share of the RU/s, 0–1 (ignored without a bucket)
   */
  public record Ask(Priority priority, int bucket, double bucketShare) {
    /** High priority, in no bucket. */
    public static final Ask HIGH = new Ask(Priority.HIGH, 0, 0);

    /** An operation of {@code priority} in no bucket. */
    public static Ask of(Priority priority) {
      return priority == Priority.HIGH ? HIGH : new Ask(priority, 0, 0);
    }

    boolean capped() {
      return bucket > 0 && bucketShare > 0;
    }
  }

  /** Why an operation is refused. */
  public enum Refusal {
    /** The partition used its RU for this second. */
    BUDGET,
    /** A low-priority operation, while high-priority ones contend for the partition. */
    LOW_PRIORITY,
    /** The operation's throughput bucket used its share of the partition's RU for this second. */
    BUCKET
  }

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
    this.second = Math.floorDiv(nowMillis, 1000);
  }

  /** RU per second this partition may consume. */
  public synchronized double ruPerSecond() {
    return rate;
  }

  /** Changes the rate (throughput changed without a split); carried debt is kept. */
  public synchronized void setRuPerSecond(double ruPerSecond, long nowMillis) {
    roll(nowMillis);
    this.rate = ruPerSecond;
  }

  private boolean burstEligible() {
    return burstEnabled && rate < burstSpendRate;
  }

  /** Moves the window to the current second, repaying debt and banking unused budget. */
  private void roll(long nowMillis) {
    long now = Math.floorDiv(nowMillis, 1000);
    if (now <= second) {
      return;
    }
    long elapsed = now - second;
    if (burstEligible()) {
      double unused = Math.max(0, rate - used) + rate * Math.max(0, elapsed - 1 - debtSeconds());
      bank = Math.min(bank + unused, Limits.BURST_BANK_SECONDS * rate);
    }
    used = Math.max(0, used - rate * elapsed);
    for (int b = 1; b < bucketUsed.length; b++) {
      bucketUsed[b] = Math.max(0, bucketUsed[b] - bucketRate[b] * elapsed);
    }
    burstUsed = 0;
    second = now;
  }

  /** Whole seconds that carried debt fills beyond the current one. */
  private long debtSeconds() {
    return used > rate ? (long) Math.floor((used - rate) / rate) : 0;
  }

  /** Whether a high-priority operation may run now. Does not consume anything. */
  public synchronized Admission admit(long nowMillis) {
    return admit(nowMillis, Ask.HIGH);
  }

  /** Whether an operation of {@code priority}, in no bucket, may run now. */
  public synchronized Admission admit(long nowMillis, Priority priority) {
    return admit(nowMillis, Ask.of(priority));
  }

  /** Whether an operation asking {@code ask} may run now. Does not consume anything. */
  public synchronized Admission admit(long nowMillis, Ask ask) {
    roll(nowMillis);
    if (ask.priority() == Priority.LOW && contended()) {
      return Admission.THROTTLED;
    }
    if (bucketFull(ask)) {
      return Admission.THROTTLED;
    }
    if (used < rate) {
      return Admission.ADMITTED;
    }
    if (burstEligible() && bank > 0 && burstUsed < burstSpendRate - rate) {
      return Admission.BURST;
    }
    if (ask.priority() == Priority.HIGH) {
      highRefusedSecond = second;
    }
    return Admission.THROTTLED;
  }

  /**
   * Why {@link #admit(long, Ask)} would refuse {@code ask} now, in the order it checks: priority,
   * bucket, budget.
   */
  public synchronized Refusal refusal(long nowMillis, Ask ask) {
    roll(nowMillis);
    if (ask.priority() == Priority.LOW && contended()) {
      return Refusal.LOW_PRIORITY;
    }
    return bucketFull(ask) ? Refusal.BUCKET : Refusal.BUDGET;
  }

  private boolean bucketFull(Ask ask) {
    return ask.capped() && bucketUsed[ask.bucket()] >= ask.bucketShare() * rate;
  }

  /** Whether a high-priority request was refused in this second or the one before. */
  private boolean contended() {
    return highRefusedSecond != Long.MIN_VALUE && second - highRefusedSecond <= 1;
  }

  /** Pays for an operation admitted as {@code admission}, in no bucket. */
  public synchronized void charge(double ru, Admission admission, long nowMillis) {
    charge(ru, admission, nowMillis, Ask.HIGH);
  }

  /** Pays for an operation admitted as {@code admission}; its bucket is charged too. */
  public synchronized void charge(double ru, Admission admission, long nowMillis, Ask ask) {
    roll(nowMillis);
    if (admission == Admission.BURST) {
      bank -= ru;
      burstUsed += ru;
    } else {
      used += ru;
    }
    if (ask.capped()) {
      bucketUsed[ask.bucket()] += ru;
      bucketRate[ask.bucket()] = ask.bucketShare() * rate;
    }
  }

  /** Milliseconds until an operation of {@code priority}, in no bucket, would be admitted again. */
  public synchronized long retryAfterMillis(long nowMillis, Priority priority) {
    return retryAfterMillis(nowMillis, Ask.of(priority));
  }

  /**
   * Milliseconds until an operation asking {@code ask} would be admitted again; at least 1. A
   * low-priority one refused for contention waits for the end of the contention window; one in a
   * full bucket, for the first second its bucket's carried debt leaves room in.
   */
  public synchronized long retryAfterMillis(long nowMillis, Ask ask) {
    roll(nowMillis);
    long wait = retryAfterMillis(nowMillis);
    if (ask.priority() == Priority.LOW && contended()) {
      wait = Math.max(wait, (highRefusedSecond + 2) * 1000 - nowMillis);
    }
    if (bucketFull(ask)) {
      double cap = ask.bucketShare() * rate;
      long k = (long) Math.floor(bucketUsed[ask.bucket()] / cap);
      wait = Math.max(wait, (second + k) * 1000 - nowMillis);
    }
    return Math.max(1, wait);
  }

  /** Milliseconds until an operation would be admitted again; at least 1. */
  public synchronized long retryAfterMillis(long nowMillis) {
    roll(nowMillis);
    if (used < rate) {
      return 1;
    }
    // the first second k ahead with used - k × rate < rate
    long k = (long) Math.floor(used / rate);
    long due = (second + k) * 1000;
    return Math.max(1, due - nowMillis);
  }

  /** RU banked for bursts (0 when burst is off or the partition is not eligible). */
  public synchronized double burstBank(long nowMillis) {
    roll(nowMillis);
    return bank;
  }

  /** RU left in the current second (negative while carried debt exceeds it). */
  public synchronized double remaining(long nowMillis) {
    roll(nowMillis);
    return rate - used;
  }
}
