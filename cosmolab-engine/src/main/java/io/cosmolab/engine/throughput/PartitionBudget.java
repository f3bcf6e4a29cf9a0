package io.cosmolab.engine.throughput;

import io.cosmolab.engine.limits.Limits;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

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
 *
 * Concurrency: lock-free. The counters are one immutable State behind an AtomicReference; every
 * method reads the state, rolls it to its own time, decides, and installs the state it computed
 * with one compare-and-set, trying again from the new state if another thread got there first. So
 * no caller ever waits for another: a point read served on a network event loop may ask and pay
 * without the loop stalling behind a thread that was descheduled mid-update (issue 13 item 4). Each
 * method is linearizable at its successful compare-and-set; as before, every call persists its
 * roll, so the arithmetic is the one a synchronized version did, call for call. (It was
 * synchronized; a monitor is the one thing a loop must not wait on.)
 */
public final class PartitionBudget {
  private final boolean burstEnabled;
  private final double burstSpendRate;
  private final AtomicReference<State> state;

  /**
   * The reference every charge compare-and-sets, with 64 bytes after it: a container's budgets are
   * made one after another, and without them one partition's reference shared a cache line with the
   * next partition's objects, which that partition's writers write at every write (PartitionLock,
   * in the engine, says more).
   */
  @SuppressWarnings({"serial", "UnusedVariable"}) // never serialized; the padding is never read
  private static final class PaddedReference<T> extends AtomicReference<T> {
    private long pad1;
    private long pad2;
    private long pad3;
    private long pad4;
    private long pad5;
    private long pad6;
    private long pad7;
    private long pad8;

    PaddedReference(T initial) {
      super(initial);
    }
  }

  /** The counters at one moment; never changed once published. */
  private static final class State {
    final double rate;
    final long second; // the epoch second the counters below belong to
    final double used; // RU attributed to that second, carried debt included
    final double burstUsed; // RU drawn from the bank in that second
    final double bank;
    // the last second a high-priority request was refused (MIN_VALUE: never)
    final long highRefusedSecond;
    // per throughput bucket (index = id): RU attributed to the current second, carried debt
    // included, and the RU per second its share allowed when it last ran; null until a bucket ran.
    // Copied, never written, once published.
    final double[] bucketUsed;
    final double[] bucketRate;

    State(
        double rate,
        long second,
        double used,
        double burstUsed,
        double bank,
        long highRefusedSecond,
        double[] bucketUsed,
        double[] bucketRate) {
      this.rate = rate;
      this.second = second;
      this.used = used;
      this.burstUsed = burstUsed;
      this.bank = bank;
      this.highRefusedSecond = highRefusedSecond;
      this.bucketUsed = bucketUsed;
      this.bucketRate = bucketRate;
    }

    State withRate(double next) {
      return new State(
          next, second, used, burstUsed, bank, highRefusedSecond, bucketUsed, bucketRate);
    }

    /** This state after an operation paid {@code ru}, from the bank if {@code burst}. */
    State charged(double ru, boolean burst, Ask ask) {
      double[] buckets = bucketUsed;
      double[] bucketRates = bucketRate;
      if (ask.capped()) {
        buckets = buckets == null ? new double[RequestClass.MAX_BUCKET + 1] : buckets.clone();
        bucketRates =
            bucketRates == null ? new double[RequestClass.MAX_BUCKET + 1] : bucketRates.clone();
        buckets[ask.bucket()] += ru;
        bucketRates[ask.bucket()] = ask.bucketShare() * rate;
      }
      return new State(
          rate,
          second,
          burst ? used : used + ru,
          burst ? burstUsed + ru : burstUsed,
          burst ? bank - ru : bank,
          highRefusedSecond,
          buckets,
          bucketRates);
    }

    State withHighRefused() {
      return highRefusedSecond == second
          ? this
          : new State(rate, second, used, burstUsed, bank, second, bucketUsed, bucketRate);
    }

    /** Whole seconds that carried debt fills beyond the current one. */
    long debtSeconds() {
      return used > rate ? (long) Math.floor((used - rate) / rate) : 0;
    }

    /** Whether a high-priority request was refused in this second or the one before. */
    boolean contended() {
      return highRefusedSecond != Long.MIN_VALUE && second - highRefusedSecond <= 1;
    }

    boolean bucketFull(Ask ask) {
      return ask.capped() && bucketUsed(ask.bucket()) >= ask.bucketShare() * rate;
    }

    double bucketUsed(int bucket) {
      return bucketUsed == null ? 0 : bucketUsed[bucket];
    }
  }

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
    this.burstEnabled = burstEnabled;
    this.burstSpendRate = limits.burstMaxRuPerSecond();
    this.state =
        new PaddedReference<>(
            new State(
                ruPerSecond, Math.floorDiv(nowMillis, 1000), 0, 0, 0, Long.MIN_VALUE, null, null));
  }

  /** RU per second this partition may consume. */
  public double ruPerSecond() {
    return state.get().rate;
  }

  /** Changes the rate (throughput changed without a split); carried debt is kept. */
  public void setRuPerSecond(double ruPerSecond, long nowMillis) {
    update(nowMillis, r -> r.withRate(ruPerSecond));
  }

  private boolean burstEligible(State s) {
    return burstEnabled && s.rate < burstSpendRate;
  }

  /**
   * {@code s} moved to the current second, debt repaid and unused budget banked; {@code s} itself
   * when the second has not changed.
   */
  private State rolled(State s, long nowMillis) {
    long now = Math.floorDiv(nowMillis, 1000);
    if (now <= s.second) {
      return s;
    }
    long elapsed = now - s.second;
    double rate = s.rate;
    double bank = s.bank;
    if (burstEligible(s)) {
      double unused =
          Math.max(0, rate - s.used) + rate * Math.max(0, elapsed - 1 - s.debtSeconds());
      bank = Math.min(bank + unused, Limits.BURST_BANK_SECONDS * rate);
    }
    double[] bucketUsed = s.bucketUsed;
    if (bucketUsed != null) {
      bucketUsed = bucketUsed.clone();
      for (int b = 1; b < bucketUsed.length; b++) {
        bucketUsed[b] = Math.max(0, bucketUsed[b] - s.bucketRate[b] * elapsed);
      }
    }
    return new State(
        rate,
        now,
        Math.max(0, s.used - rate * elapsed),
        0,
        bank,
        s.highRefusedSecond,
        bucketUsed,
        s.bucketRate);
  }

  /** The state rolled to {@code nowMillis}, installed (as every call did when it was locked). */
  private State settled(long nowMillis) {
    return update(nowMillis, r -> r);
  }

  /**
   * Installs {@code change} of the state rolled to {@code nowMillis}, from whatever state is
   * current when it succeeds (another thread's update first means computing it again); returns what
   * it installed. Admission has its own loop: it returns a decision besides the state.
   */
  private State update(long nowMillis, UnaryOperator<State> change) {
    for (; ; ) {
      State s = state.get();
      State next = change.apply(rolled(s, nowMillis));
      if (next == s || state.compareAndSet(s, next)) {
        return next;
      }
    }
  }

  /** Whether a high-priority operation may run now. Does not consume anything. */
  public Admission admit(long nowMillis) {
    return admit(nowMillis, Ask.HIGH);
  }

  /** Whether an operation of {@code priority}, in no bucket, may run now. */
  public Admission admit(long nowMillis, Priority priority) {
    return admit(nowMillis, Ask.of(priority));
  }

  /** Whether an operation asking {@code ask} may run now. Does not consume anything. */
  public Admission admit(long nowMillis, Ask ask) {
    for (; ; ) {
      State s = state.get();
      State r = rolled(s, nowMillis);
      State next = r;
      Admission a;
      if (ask.priority() == Priority.LOW && r.contended()) {
        a = Admission.THROTTLED;
      } else if (r.bucketFull(ask)) {
        a = Admission.THROTTLED;
      } else if (r.used < r.rate) {
        a = Admission.ADMITTED;
      } else if (burstEligible(r) && r.bank > 0 && r.burstUsed < burstSpendRate - r.rate) {
        a = Admission.BURST;
      } else {
        if (ask.priority() == Priority.HIGH) {
          next = r.withHighRefused();
        }
        a = Admission.THROTTLED;
      }
      if (next == s || state.compareAndSet(s, next)) {
        return a;
      }
    }
  }

  /**
   * Why {@link #admit(long, Ask)} would refuse {@code ask} now, in the order it checks: priority,
   * bucket, budget.
   */
  public Refusal refusal(long nowMillis, Ask ask) {
    State r = settled(nowMillis);
    if (ask.priority() == Priority.LOW && r.contended()) {
      return Refusal.LOW_PRIORITY;
    }
    return r.bucketFull(ask) ? Refusal.BUCKET : Refusal.BUDGET;
  }

  /** Pays for an operation admitted as {@code admission}, in no bucket. */
  public void charge(double ru, Admission admission, long nowMillis) {
    charge(ru, admission, nowMillis, Ask.HIGH);
  }

  /** Pays for an operation admitted as {@code admission}; its bucket is charged too. */
  public void charge(double ru, Admission admission, long nowMillis, Ask ask) {
    // update's loop written out: a capturing lambda on every operation's path costs a few ns here
    for (; ; ) {
      State s = state.get();
      if (state.compareAndSet(
          s, rolled(s, nowMillis).charged(ru, admission == Admission.BURST, ask))) {
        return;
      }
    }
  }

  /** Milliseconds until an operation of {@code priority}, in no bucket, would be admitted again. */
  public long retryAfterMillis(long nowMillis, Priority priority) {
    return retryAfterMillis(nowMillis, Ask.of(priority));
  }

  /**
   * Milliseconds until an operation asking {@code ask} would be admitted again; at least 1. A
   * low-priority one refused for contention waits for the end of the contention window; one in a
   * full bucket, for the first second its bucket's carried debt leaves room in.
   */
  public long retryAfterMillis(long nowMillis, Ask ask) {
    State r = settled(nowMillis);
    long wait = retryAfterMillis(r, nowMillis);
    if (ask.priority() == Priority.LOW && r.contended()) {
      wait = Math.max(wait, (r.highRefusedSecond + 2) * 1000 - nowMillis);
    }
    if (r.bucketFull(ask)) {
      double cap = ask.bucketShare() * r.rate;
      long k = (long) Math.floor(r.bucketUsed(ask.bucket()) / cap);
      wait = Math.max(wait, (r.second + k) * 1000 - nowMillis);
    }
    return Math.max(1, wait);
  }

  /** Milliseconds until an operation would be admitted again; at least 1. */
  public long retryAfterMillis(long nowMillis) {
    return retryAfterMillis(settled(nowMillis), nowMillis);
  }

  private static long retryAfterMillis(State r, long nowMillis) {
    if (r.used < r.rate) {
      return 1;
    }
    // the first second k ahead with used - k × rate < rate
    long k = (long) Math.floor(r.used / r.rate);
    long due = (r.second + k) * 1000;
    return Math.max(1, due - nowMillis);
  }

  /** RU banked for bursts (0 when burst is off or the partition is not eligible). */
  public double burstBank(long nowMillis) {
    return settled(nowMillis).bank;
  }

  /** RU left in the current second (negative while carried debt exceeds it). */
  public double remaining(long nowMillis) {
    State r = settled(nowMillis);
    return r.rate - r.used;
  }
}
