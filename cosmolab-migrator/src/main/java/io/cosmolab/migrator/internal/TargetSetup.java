package io.cosmolab.migrator.internal;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.ChangeFeedPolicy;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.ThroughputProperties;
import io.cosmolab.migrator.MigrationSpec;

/**
 * Creates the target: the new key, and the source's indexing policy, default TTL, unique keys,
 * computed properties and change-feed policy; its throughput is the source's unless the spec gives
 * one (none when the source shares its database's: the target then shares its own database's). An
 * existing target with the same key is reused (a run that crashed between creating it and saving
 * its state); one with another key is refused.
 */
public final class TargetSetup {
  private TargetSetup() {}

  public static void create(
      MigrationSpec spec, Sdk sdk, CosmosContainer source, CosmosClient client, CosmosContainer t) {
    CosmosContainerProperties sp =
        sdk.call(() -> source.read(), r -> r.getRequestCharge()).getProperties();
    try {
      CosmosContainerProperties existing = t.read().getProperties();
      if (!existing.getPartitionKeyDefinition().getPaths().equals(spec.key().targetPaths())) {
        throw new IllegalStateException(
            "the target "
                + spec.targetContainer()
                + " exists with the key "
                + existing.getPartitionKeyDefinition().getPaths()
                + ", not "
                + spec.key().targetPaths());
      }
      return;
    } catch (CosmosException e) {
      if (e.getStatusCode() != 404) {
        throw e;
      }
    }
    CosmosContainerProperties tp =
        new CosmosContainerProperties(
            spec.targetContainer().container(), spec.key().sdkDefinition());
    if (sp.getIndexingPolicy() != null) {
      tp.setIndexingPolicy(sp.getIndexingPolicy());
    }
    if (sp.getDefaultTimeToLiveInSeconds() != null) {
      tp.setDefaultTimeToLiveInSeconds(sp.getDefaultTimeToLiveInSeconds());
    }
    if (sp.getUniqueKeyPolicy() != null && !sp.getUniqueKeyPolicy().getUniqueKeys().isEmpty()) {
      tp.setUniqueKeyPolicy(sp.getUniqueKeyPolicy());
    }
    if (sp.getComputedProperties() != null && !sp.getComputedProperties().isEmpty()) {
      tp.setComputedProperties(sp.getComputedProperties());
    }
    ChangeFeedPolicy feed = sp.getChangeFeedPolicy();
    if (feed != null) {
      tp.setChangeFeedPolicy(feed);
    }
    ThroughputProperties throughput = throughputFor(spec, source);
    client.createDatabaseIfNotExists(spec.targetContainer().database());
    var db = client.getDatabase(spec.targetContainer().database());
    if (throughput == null) {
      db.createContainer(tp);
    } else {
      db.createContainer(tp, throughput);
    }
  }

  /**
   * The target's throughput: the spec's, else the source's (manual or autoscale); null when the
   * source shares its database's throughput.
   */
  public static ThroughputProperties throughputFor(MigrationSpec spec, CosmosContainer source) {
    if (spec.targetThroughput() > 0) {
      return ThroughputProperties.createManualThroughput(spec.targetThroughput());
    }
    try {
      ThroughputProperties t = source.readThroughput().getProperties();
      if (t.getAutoscaleMaxThroughput() > 0) {
        return ThroughputProperties.createAutoscaledThroughput(t.getAutoscaleMaxThroughput());
      }
      return t.getManualThroughput() == null
          ? null
          : ThroughputProperties.createManualThroughput(t.getManualThroughput());
    } catch (CosmosException e) {
      if (e.getStatusCode() == 400 || e.getStatusCode() == 404) {
        return null;
      }
      throw e;
    }
  }
}
