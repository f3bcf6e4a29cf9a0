package io.cosmolab.engine.metrics;

import io.cosmolab.engine.partitioning.EpkRange;

/**
 * A physical partition that a split or a merge replaced. Its per-second history stays in the
 * metrics window after it is gone, so a heat map can show the parent's row up to the split and its
 * children's after it.
 *
 * @param id its partition key range id
 * @param range the EPK range it owned
 * @param budgetRuPerSecond its RU/s budget when it was replaced (0 under a database's shared
 *     throughput, whose budgets are not per container partition)
 * @param retiredMillis when it was replaced (injected clock)
 */
public record RetiredPartition(
    String id, EpkRange range, double budgetRuPerSecond, long retiredMillis) {}
