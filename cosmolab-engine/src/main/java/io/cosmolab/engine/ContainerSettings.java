package io.cosmolab.engine;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.throughput.Throughput;

/**
 * What a new container is made of.
 *
 * @param id the container name
 * @param partitionKey its partition key definition
 * @param throughput dedicated throughput; null to use the database's shared throughput, or (in a
 *     database without one) the minimum manual throughput
 * @param defaultTimeToLive null: TTL off; -1: on, items never expire unless they say so; n > 0:
 *     items expire n seconds after their last write
 * @param physicalPartitions the number of physical partitions to start with, overriding the
 *     throughput rule; null to follow the rule
 * @param indexingPolicy which paths are indexed; null for the default (everything)
 * @param changeFeedRetentionMinutes the container's {@code changeFeedPolicy.retentionDuration}: how
 *     many minutes the all-versions-and-deletes feed keeps history; 0 for the latest-version feed
 *     only (an all-versions read answers 400, as on the service); null when the container has no
 *     policy ([A] the engine's window applies, and all-versions reads are served)
 * @param uniqueKeys the {@code uniqueKeyPolicy}: each unique key is a list of paths ({@code
 *     /address/zip}) whose values together are unique within a logical partition; empty for none.
 *     Fixed at creation, as on the service
 * @param storedProperties properties the engine keeps and echoes as sent but does not act on
 *     ({@code conflictResolutionPolicy}, {@code geospatialConfig}, {@code analyticalStorageTtl},
 *     ...): a JSON object, empty for none
 */
public record ContainerSettings(
    String id,
    PartitionKeyDefinition partitionKey,
    Throughput throughput,
    Integer defaultTimeToLive,
    Integer physicalPartitions,
    io.cosmolab.engine.index.IndexingPolicy indexingPolicy,
    Integer changeFeedRetentionMinutes,
    java.util.List<java.util.List<String>> uniqueKeys,
    com.fasterxml.jackson.databind.node.ObjectNode storedProperties) {

  public ContainerSettings {
    if (indexingPolicy == null) {
      indexingPolicy = io.cosmolab.engine.index.IndexingPolicy.DEFAULT;
    }
    java.util.List<java.util.List<String>> keys = new java.util.ArrayList<>();
    for (java.util.List<String> k :
        uniqueKeys == null ? java.util.List.<java.util.List<String>>of() : uniqueKeys) {
      if (k.isEmpty()) {
        throw CosmosError.BAD_REQUEST.exception(
            "a unique key in uniqueKeyPolicy needs at least one path");
      }
      for (String path : k) {
        if (path == null || !path.startsWith("/") || path.length() < 2) {
          throw CosmosError.BAD_REQUEST.exception(
              "unique key path '%s' must start with '/' and name a property, e.g. \"/email\"",
              path);
        }
      }
      keys.add(java.util.List.copyOf(k));
    }
    uniqueKeys = java.util.List.copyOf(keys);
    storedProperties =
        storedProperties == null
            ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
            : storedProperties.deepCopy();
    ResourceNames.check("container", id);
    if (partitionKey == null) {
      throw CosmosError.BAD_REQUEST.exception(
          "container '%s' needs a partition key definition (the service refuses containers"
              + " without one)",
          id);
    }
    checkTimeToLive(defaultTimeToLive);
    checkChangeFeedRetention(changeFeedRetentionMinutes);
    if (physicalPartitions != null && (physicalPartitions < 1 || physicalPartitions > 10_000)) {
      throw CosmosError.BAD_REQUEST.exception(
          "physicalPartitions must be between 1 and 10000, was %d", physicalPartitions);
    }
  }

  static void checkTimeToLive(Integer ttl) {
    if (ttl != null && ttl != -1 && ttl <= 0) {
      throw CosmosError.BAD_REQUEST.exception(
          "defaultTtl must be -1 (on, no default expiry) or a positive number of seconds, was %d",
          ttl);
    }
  }

  static void checkChangeFeedRetention(Integer minutes) {
    if (minutes != null && minutes < 0) {
      throw CosmosError.BAD_REQUEST.exception(
          "changeFeedPolicy.retentionDuration must be 0 (latest version only) or a number of"
              + " minutes, was %d",
          minutes);
    }
  }

  /** A container with this key and the default throughput. */
  public static ContainerSettings of(String id, PartitionKeyDefinition key) {
    return new ContainerSettings(id, key, null, null, null, null, null, null, null);
  }

  /** The container's change feed policy: minutes of all-versions history (0: latest only). */
  public ContainerSettings withChangeFeedRetentionMinutes(Integer minutes) {
    return new ContainerSettings(
        id,
        partitionKey,
        throughput,
        defaultTimeToLive,
        physicalPartitions,
        indexingPolicy,
        minutes,
        uniqueKeys,
        storedProperties);
  }

  public ContainerSettings withThroughput(Throughput t) {
    return new ContainerSettings(
        id,
        partitionKey,
        t,
        defaultTimeToLive,
        physicalPartitions,
        indexingPolicy,
        changeFeedRetentionMinutes,
        uniqueKeys,
        storedProperties);
  }

  public ContainerSettings withDefaultTimeToLive(Integer seconds) {
    return new ContainerSettings(
        id,
        partitionKey,
        throughput,
        seconds,
        physicalPartitions,
        indexingPolicy,
        changeFeedRetentionMinutes,
        uniqueKeys,
        storedProperties);
  }

  public ContainerSettings withPhysicalPartitions(Integer count) {
    return new ContainerSettings(
        id,
        partitionKey,
        throughput,
        defaultTimeToLive,
        count,
        indexingPolicy,
        changeFeedRetentionMinutes,
        uniqueKeys,
        storedProperties);
  }

  public ContainerSettings withIndexingPolicy(io.cosmolab.engine.index.IndexingPolicy policy) {
    return new ContainerSettings(
        id,
        partitionKey,
        throughput,
        defaultTimeToLive,
        physicalPartitions,
        policy,
        changeFeedRetentionMinutes,
        uniqueKeys,
        storedProperties);
  }

  /** The container's unique keys, each a list of paths (fixed at creation). */
  public ContainerSettings withUniqueKeys(java.util.List<java.util.List<String>> keys) {
    return new ContainerSettings(
        id,
        partitionKey,
        throughput,
        defaultTimeToLive,
        physicalPartitions,
        indexingPolicy,
        changeFeedRetentionMinutes,
        keys,
        storedProperties);
  }

  /** Properties kept and echoed as sent. */
  public ContainerSettings withStoredProperties(
      com.fasterxml.jackson.databind.node.ObjectNode properties) {
    return new ContainerSettings(
        id,
        partitionKey,
        throughput,
        defaultTimeToLive,
        physicalPartitions,
        indexingPolicy,
        changeFeedRetentionMinutes,
        uniqueKeys,
        properties);
  }
}
