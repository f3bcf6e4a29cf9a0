package io.cosmolab.migrator;

import java.util.Objects;

/**
 * What to migrate: from which container to which, under which new key.
 *
 * @param source the source account
 * @param sourceContainer the container whose key changes
 * @param target the target account (may be the source's)
 * @param targetContainer the container to create (or reuse, when it exists with the same key)
 * @param partitionKey the new key, in the advisor's forms
 * @param onMissing what to do with documents lacking the new key's paths
 * @param maxRu request units per second the migrator may spend on each side; 0 for no cap
 * @param targetThroughput manual RU/s for a new target container; 0 to copy the source's
 */
public record MigrationSpec(
    Endpoint source,
    ContainerRef sourceContainer,
    Endpoint target,
    ContainerRef targetContainer,
    String partitionKey,
    OnMissing onMissing,
    double maxRu,
    int targetThroughput) {

  public MigrationSpec {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(sourceContainer, "sourceContainer");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(targetContainer, "targetContainer");
    Objects.requireNonNull(onMissing, "onMissing");
    TargetKey.parse(partitionKey); // fails naming what is wrong
    if (maxRu < 0 || targetThroughput < 0) {
      throw new IllegalArgumentException("--max-ru and the target throughput are 0 or more");
    }
    if (source.uri().equals(target.uri()) && sourceContainer.equals(targetContainer)) {
      throw new IllegalArgumentException("the target must be another container than the source");
    }
  }

  public TargetKey key() {
    return TargetKey.parse(partitionKey);
  }

  public MigrationSpec withOnMissing(OnMissing m) {
    return new MigrationSpec(
        source, sourceContainer, target, targetContainer, partitionKey, m, maxRu, targetThroughput);
  }

  public MigrationSpec withMaxRu(double ru) {
    return new MigrationSpec(
        source,
        sourceContainer,
        target,
        targetContainer,
        partitionKey,
        onMissing,
        ru,
        targetThroughput);
  }
}
