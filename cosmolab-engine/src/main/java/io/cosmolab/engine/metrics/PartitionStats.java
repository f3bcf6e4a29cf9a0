package io.cosmolab.engine.metrics;

import io.cosmolab.engine.partitioning.EpkRange;

/**
 * One physical partition at a moment.
 *
 * @param id the partition key range id
 * @param range the EPK range it owns
 * @param documents documents stored
 * @param storageBytes bytes stored
 * @param budgetRuPerSecond its share of the throughput (RU/s ÷ P)
 * @param ruLastSecond RU consumed in the last complete second
 * @param normalizedRuConsumption the highest per-second consumption ÷ budget in the last 60 seconds
 *     (the current one included), capped at 1 as Azure Monitor reports it
 * @param peakDemandRatio the same, uncapped (observe mode shows demand above the budget)
 * @param totalRu RU consumed since the partition exists
 * @param operations operations served
 * @param throttled operations refused with 429
 * @param wouldThrottle operations that observe mode let through but enforce mode would refuse
 */
public record PartitionStats(
    String id,
    EpkRange range,
    long documents,
    long storageBytes,
    double budgetRuPerSecond,
    double ruLastSecond,
    double normalizedRuConsumption,
    double peakDemandRatio,
    double totalRu,
    long operations,
    long throttled,
    long wouldThrottle) {}
