package io.cosmolab.engine.metrics;

import io.cosmolab.engine.partitioning.PartitionKeyValue;

/**
 * One logical partition (one key value) in a top-N list.
 *
 * @param partitionKey the key value
 * @param epk its effective partition key
 * @param rangeId the physical partition holding it now
 * @param value bytes stored (by storage) or RU consumed (by RU)
 * @param errorBound for RU lists from the sketch: the most the value may be overstated; 0 if exact
 * @param documents documents stored (by storage lists; 0 in RU lists)
 */
public record LogicalPartitionStats(
    PartitionKeyValue partitionKey,
    String epk,
    String rangeId,
    double value,
    double errorBound,
    long documents) {}
