/**
 * Request units: {@link io.cosmolab.engine.cost.CostModel} charges every operation from the
 * published tables and formulas. Used by the container for every operation, and by {@code
 * throughput}, which spends the charges against each partition's budget.
 */
package io.cosmolab.engine.cost;
