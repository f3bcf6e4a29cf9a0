package io.cosmolab.engine.alerts;

import java.util.List;

/**
 * One active alert.
 *
 * @param rule the rule that fired
 * @param database the database id
 * @param container the container id
 * @param partitionKeyRangeId the physical partition it concerns, or null for a container-wide rule
 *     (the query rules)
 * @param sinceMillis when it started (injected clock)
 * @param hottestKeys the partition keys that carry it, hottest first, as JSON arrays (e.g. {@code
 *     ["tenant-7"]}); for the query rules, empty
 * @param value the measured value (a ratio for the share rules, bytes for the size rule)
 * @param threshold the value it is above
 * @param message one line for a log or a page
 */
public record Alert(
    AlertRule rule,
    String database,
    String container,
    String partitionKeyRangeId,
    long sinceMillis,
    List<String> hottestKeys,
    double value,
    double threshold,
    String message) {
  public Alert {
    hottestKeys = List.copyOf(hottestKeys);
  }

  /** What identifies an alert across evaluations: rule, container, partition (and key). */
  public String key() {
    return rule.id()
        + "|"
        + database
        + "|"
        + container
        + "|"
        + (partitionKeyRangeId == null ? "" : partitionKeyRangeId)
        + (rule == AlertRule.LARGE_LOGICAL_PARTITION && !hottestKeys.isEmpty()
            ? "|" + hottestKeys.get(0)
            : "");
  }
}
