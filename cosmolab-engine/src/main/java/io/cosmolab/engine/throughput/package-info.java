/**
 * Provisioned throughput ({@link io.cosmolab.engine.throughput.Throughput}: manual, autoscale), the
 * per-physical-partition budget that answers 429 ({@link
 * io.cosmolab.engine.throughput.PartitionBudget}) and the three throttling modes. Spends the
 * charges computed by {@code cost}; the container asks it before each operation.
 */
package io.cosmolab.engine.throughput;
