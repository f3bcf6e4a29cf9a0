package io.cosmolab.engine.changefeed;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * A page of changes.
 *
 * @param items latest version: documents with {@code _lsn}; all versions and deletes: envelopes
 *     {@code {current, previous, metadata}}
 * @param continuation the position in the container's change log to continue after (the next
 *     request's {@link ChangeFeedStart.Continuation}); stays valid across splits and merges
 * @param requestCharge the RU charged
 * @param partitionLsn the current LSN of the physical partition read (the highest, if the range
 *     spans several), in the partitions' own numbering that the items' {@code _lsn} use: what the
 *     page's session token carries, as the service's does
 */
public record ChangeFeedPage(
    List<ObjectNode> items, long continuation, double requestCharge, long partitionLsn) {
  public ChangeFeedPage {
    items = List.copyOf(items);
  }

  /** True when nothing newer exists: the service answers 304 Not Modified. */
  public boolean notModified() {
    return items.isEmpty();
  }
}
