package io.cosmolab.engine.changefeed;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * A page of changes.
 *
 * @param items latest version: documents with {@code _lsn}; all versions and deletes: envelopes
 *     {@code {current, previous, metadata}}
 * @param continuation the LSN to continue after (the next request's {@link
 *     ChangeFeedStart.Continuation}); stays valid across splits and merges
 * @param requestCharge the RU charged
 */
public record ChangeFeedPage(List<ObjectNode> items, long continuation, double requestCharge) {
  public ChangeFeedPage {
    items = List.copyOf(items);
  }

  /** True when nothing newer exists: the service answers 304 Not Modified. */
  public boolean notModified() {
    return items.isEmpty();
  }
}
