package io.cosmolab.engine.metrics;

import java.util.List;

/**
 * A change of a container's physical layout.
 *
 * @param timeMillis when it happened (injected clock)
 * @param kind what happened
 * @param before the range ids that existed before
 * @param after the range ids that exist after (empty for {@link Kind#SPLIT_BLOCKED})
 * @param at the split point, if any
 * @param reason why, in words (e.g. "storage 61 MB above the 50 MB limit")
 */
public record PartitionEvent(
    long timeMillis, Kind kind, List<String> before, List<String> after, String at, String reason) {
  public PartitionEvent {
    before = List.copyOf(before);
    after = List.copyOf(after);
  }

  /** The kinds of layout change. */
  public enum Kind {
    SPLIT,
    MERGE,
    /** A partition over its storage limit holds one logical partition, which cannot be split. */
    SPLIT_BLOCKED
  }
}
