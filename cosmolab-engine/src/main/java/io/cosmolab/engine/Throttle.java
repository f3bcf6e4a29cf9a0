package io.cosmolab.engine;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.metrics.PartitionMetrics;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.throughput.PartitionBudget;
import io.cosmolab.engine.throughput.PartitionBudget.Admission;
import io.cosmolab.engine.throughput.Priority;
import io.cosmolab.engine.throughput.ThrottlingMode;
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
 * Concurrency: stateless but for the budgets (synchronized) and the metrics (thread-safe). A range
 * named by a caller may have been split or merged since it read the layout: the budget is then
 * the one that owns the EPK in the layout now, never none.
 */
final class Throttle {
  private final CosmosEngine engine;
  private final Database database;
  private final boolean hashV1;
  private final PartitionMetrics metrics;
  private final PartitionLayout layout;
  private final BooleanSupplier dedicated;

  Throttle(
      CosmosEngine engine,
      Database database,
      boolean hashV1,
      PartitionMetrics metrics,
      PartitionLayout layout,
      BooleanSupplier dedicated) {
    this.engine = engine;
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
    Priority priority = Priority.current();
    Admission a = budget.admit(now, priority);
    if (a != Admission.THROTTLED) {
      return a;
    }
    if (mode == ThrottlingMode.ENFORCE) {
      metrics.recordThrottle(range.id(), now, true);
      long retryAfter = budget.retryAfterMillis(now, priority);
      String why =
          priority == Priority.LOW && budget.remaining(now) > 0
              ? "a low-priority request is refused while high-priority requests contend for"
                  + " physical partition %s's %s RU/s budget (priority-based execution)"
              : "physical partition %s has used its %s RU/s budget";
      throw new CosmosException(
          CosmosError.REQUEST_RATE_TOO_LARGE,
          String.format(
              "Request rate is large: "
                  + why
                  + ". More Request Units may be needed, so no changes were made. Retry after %d"
                  + " ms.",
              range.id(),
              Database.fmt(budget.ruPerSecond()),
              retryAfter),
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
      budgetFor(range, keyEpk != null ? keyEpk : range.range().min()).charge(ru, a, now);
    }
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
