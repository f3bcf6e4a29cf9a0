package io.cosmolab.engine.changefeed;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyValue;

/**
 * A change-feed page request.
 *
 * @param range the EPK range to read: the container, a physical partition, part of one, or a
 *     hierarchical prefix's range
 * @param partitionKey if set, only this logical partition (within {@code range})
 * @param mode latest version, or all versions and deletes
 * @param start where to start
 * @param maxItems the page size (at least 1)
 */
public record ChangeFeedRequest(
    EpkRange range,
    PartitionKeyValue partitionKey,
    ChangeFeedMode mode,
    ChangeFeedStart start,
    int maxItems) {

  public ChangeFeedRequest {
    if (range == null || mode == null || start == null) {
      throw CosmosError.BAD_REQUEST.exception(
          "a change feed request needs a range, mode and start");
    }
    if (maxItems < 1) {
      throw CosmosError.BAD_REQUEST.exception(
          "change feed page size must be >= 1, was %d", maxItems);
    }
  }

  /** The whole container, latest version, from the beginning, 100 per page. */
  public static ChangeFeedRequest wholeContainer(ChangeFeedStart start) {
    return new ChangeFeedRequest(EpkRange.FULL, null, ChangeFeedMode.LATEST_VERSION, start, 100);
  }

  public ChangeFeedRequest withStart(ChangeFeedStart newStart) {
    return new ChangeFeedRequest(range, partitionKey, mode, newStart, maxItems);
  }

  public ChangeFeedRequest withMode(ChangeFeedMode newMode) {
    return new ChangeFeedRequest(range, partitionKey, newMode, start, maxItems);
  }

  public ChangeFeedRequest withMaxItems(int n) {
    return new ChangeFeedRequest(range, partitionKey, mode, start, n);
  }
}
