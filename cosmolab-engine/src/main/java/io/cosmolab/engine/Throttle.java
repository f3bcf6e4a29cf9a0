package io.cosmolab.engine;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.metrics.PartitionMetrics;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.throughput.PartitionBudget;
import io.cosmolab.engine.throughput.PartitionBudget.Admission;
import io.cosmolab.engine.throughput.PartitionBudget.Ask;
import io.cosmolab.engine.throughput.RequestClass;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.ThroughputBuckets;
import java.util.function.BooleanSupplier;

/**
 * Admission and charging of a container's operations against the budget of the partition that
 * serves them: the container's own per-partition budgets, or its database's shared ones.
 */
/*
 * Before an operation runs, the budget of the partition that will serve it is asked
 * (PartitionBudget.admit): in ENFORCE mode a refused operation throws 429/3200 with the
 * retry-after and writes nothing; in OBSERVE mode it runs, is counted as a would-be 429, and does
 * not spend the budget (so the bucket follows what enforce mode would do). The charge is spent
 * after the operation, when it is known.
 *
 * The request's class (RequestClass: priority and throughput bucket) comes from the scope the gateway
 * opened; the bucket's share from the container's throughput buckets, which this class keeps. They
 * apply to a container's dedicated throughput only: a shared database's budgets are not divided
 * by bucket.
 *
 * Concurrency: stateless but for the budgets and the metrics (both lock-free) and the
 * bucket configuration (one volatile immutable value, replaced under this object's lock). A range
 * named by a caller may have been split or merged since it read the layout: the budget is then
 * the one that owns the EPK in the layout now, never none.
 */
final class Throttle {
  static final long BUCKET_RECONFIGURATION_MILLIS = 10 * 60 * 1000;
  private final CosmosEngine engine;
  private final Database database;
  private final boolean hashV1;
  private final PartitionMetrics metrics;
  private final PartitionLayout layout;
  private final BooleanSupplier dedicated;
  private volatile ThroughputBuckets buckets;
  // when the buckets last changed, on the engine's clock (MIN_VALUE: never since start)
  private long bucketsChangedMillis = Long.MIN_VALUE;

  Throttle(
      CosmosEngine engine,
      Database database,
      boolean hashV1,
      PartitionMetrics metrics,
      PartitionLayout layout,
      BooleanSupplier dedicated,
      ThroughputBuckets buckets) {
    this.engine = engine;
    this.buckets = buckets;
    this.database = database;
    this.hashV1 = hashV1;
    this.metrics = metrics;
    this.layout = layout;
    this.dedicated = dedicated;
  }

  /** Asks the budget of {@code range} (that serves {@code epk}); 429 in enforce mode. */
  Admission admit(PartitionKeyRange range, String epk, long now) {
    ThrottlingMode mode = engine.throttling();
    if (mode == ThrottlingMode.OFF) {
      return Admission.ADMITTED;
    }
    PartitionBudget budget = budgetFor(range, epk);
    Ask ask = ask();
    Admission a = budget.admit(now, ask);
    if (a != Admission.THROTTLED) {
      return a;
    }
    if (mode == ThrottlingMode.ENFORCE) {
      metrics.recordThrottle(range.id(), now, true);
      long retryAfter = budget.retryAfterMillis(now, ask);
      String rate = io.cosmolab.engine.throughput.Throughput.format(budget.ruPerSecond());
      String why;
      CosmosError error = CosmosError.REQUEST_RATE_TOO_LARGE;
      switch (budget.refusal(now, ask)) {
        case LOW_PRIORITY ->
            why =
                String.format(
                    "a low-priority request is refused while high-priority requests contend for"
                        + " physical partition %s's %s RU/s budget (priority-based execution)",
                    range.id(), rate);
        case BUCKET -> {
          error = CosmosError.THROUGHPUT_BUCKET_EXHAUSTED;
          why =
              String.format(
                  "throughput bucket %d has used its %d%% of physical partition %s's %s RU/s",
                  ask.bucket(), Math.round(ask.bucketShare() * 100), range.id(), rate);
        }
        default ->
            why =
                String.format(
                    "physical partition %s has used its %s RU/s budget", range.id(), rate);
      }
      throw new CosmosException(
          error,
          "Request rate is large: "
              + why
              + ". More Request Units may be needed, so no changes were made. Retry after "
              + retryAfter
              + " ms.",
          retryAfter,
          0);
    }
    metrics.recordThrottle(range.id(), now, false);
    return Admission.THROTTLED;
  }

  /**
   * Records and spends a charge on {@code range}; {@code keyEpk}, when not null, is the logical
   * partition it is also counted to (for the hottest-keys metric).
   */
  void spend(PartitionKeyRange range, String keyEpk, Admission a, double ru, long now) {
    metrics.recordOperation(range.id(), now, ru, keyEpk);
    if (engine.throttling() != ThrottlingMode.OFF && a != Admission.THROTTLED) {
      budgetFor(range, keyEpk != null ? keyEpk : range.range().min()).charge(ru, a, now, ask());
    }
  }

  /**
   * What the running request asks of a budget: its priority, and the share of the bucket it runs in
   * (the one it names, or the default one) when the container's throughput is its own.
   */
  private Ask ask() {
    RequestClass rc = RequestClass.current();
    ThroughputBuckets configured = buckets;
    if (configured.isEmpty() || !dedicated.getAsBoolean()) {
      return Ask.of(rc.priority());
    }
    return configured
        .forRequest(rc.bucket())
        .map(b -> new Ask(rc.priority(), b.id(), b.share()))
        .orElseGet(() -> Ask.of(rc.priority()));
  }

  /** The container's throughput buckets. */
  ThroughputBuckets buckets() {
    return buckets;
  }

  /**
   * Replaces the throughput buckets. [D] throughput buckets: a configuration can change once every
   * 10 minutes; a change sooner is refused with 429/3213 and the wait until it may. Setting the
   * same buckets again is not a change. [A] The 10 minutes are counted from the last change since
   * this engine started.
   *
   * @return whether they changed
   */
  synchronized boolean configure(ThroughputBuckets next, long now) {
    if (!checkConfigurable(next, now)) {
      return false;
    }
    buckets = next;
    bucketsChangedMillis = now;
    return true;
  }

  /**
   * Whether {@code next} would change the buckets; throws as {@link #configure} would.
   *
   * @throws CosmosException 429/3213 when they changed less than 10 minutes ago
   */
  synchronized boolean checkConfigurable(ThroughputBuckets next, long now) {
    if (next.equals(buckets)) {
      return false;
    }
    if (bucketsChangedMillis != Long.MIN_VALUE
        && now - bucketsChangedMillis < BUCKET_RECONFIGURATION_MILLIS) {
      long wait = bucketsChangedMillis + BUCKET_RECONFIGURATION_MILLIS - now;
      throw new CosmosException(
          CosmosError.THROUGHPUT_BUCKETS_RECONFIGURING,
          "throughput buckets can change once every 10 minutes; they last changed "
              + (now - bucketsChangedMillis) / 1000
              + " s ago. Retry after "
              + wait
              + " ms.",
          wait,
          0);
    }
    return true;
  }

  /** The RU/s the partition of {@code range} may use now. */
  double rate(PartitionKeyRange range) {
    return budgetFor(range, range.range().min()).ruPerSecond();
  }

  private PartitionBudget budgetFor(PartitionKeyRange range, String epk) {
    if (!dedicated.getAsBoolean()) {
      return database.sharedBudgetFor(epk, hashV1);
    }
    Layout now = layout.current();
    Layout.Partition p = now.partition(range.id());
    return (p != null ? p : now.partitionFor(epk)).budget;
  }
}
