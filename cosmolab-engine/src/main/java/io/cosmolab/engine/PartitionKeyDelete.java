package io.cosmolab.engine;

import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.store.StoredDocument;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Deletes every document of one logical partition, or of a hierarchical key's prefix: the SDKs'
 * {@code deleteAllItemsByPartitionKey}. Each document goes through the container's ordinary delete,
 * so the change log records every delete, each is charged through its physical partition's budget
 * (a 429 stops the sweep; the SDK's retry runs it again, and what is already gone stays gone), and
 * the layout's usage follows.
 *
 * <p>[A] The service accepts the request at once and deletes in the background over minutes;
 * cosmolab deletes before it answers, so a test can read the outcome straight after. The charge it
 * reports is the deletes' sum; the service's background work does not charge the caller.
 */
public final class PartitionKeyDelete {
  private PartitionKeyDelete() {}

  /** What one sweep did. */
  public record Result(int deleted, double requestCharge) {}

  public static Result run(Container container, PartitionKeyValue key) {
    EffectivePartitionKey.KeyScope scope =
        EffectivePartitionKey.scopeOf(container.partitionKey(), key);
    // Collected first: the scan walks the store that the deletes change.
    List<StoredDocument> doomed = new ArrayList<>();
    for (Iterator<StoredDocument> it = container.scan(scope.range()); it.hasNext(); ) {
      StoredDocument d = it.next();
      if (scope.exactEpk() == null || scope.exactEpk().equals(d.epk())) {
        doomed.add(d);
      }
    }
    double charge = 0;
    for (StoredDocument d : doomed) {
      charge += container.delete(d.partitionKey(), d.id()).requestCharge();
    }
    return new Result(doomed.size(), charge);
  }
}
