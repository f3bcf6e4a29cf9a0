package io.cosmolab.engine.alerts;

import java.util.Locale;

/** The built-in rules, each named as in a rules file and in the {@code rule} label of metrics. */
public enum AlertRule {
  /** A physical partition above a share of its RU/s budget for a while (80 % for 5 minutes). */
  HOT_PARTITION("hot-partition"),
  /** A logical partition above a size (16 GB, 4 GB short of the 20 GB limit; scaled). */
  LARGE_LOGICAL_PARTITION("large-logical-partition"),
  /** 429s, real or would-be, above a share of a physical partition's requests (1 % over 5 min). */
  THROTTLE_RATE("throttle-rate"),
  /** Cross-partition queries above a share of a container's queries (5 % over 5 min). */
  CROSS_PARTITION_QUERIES("cross-partition-queries"),
  /** A query that retrieved many documents per document it returned (over 50, in 5 min). */
  QUERY_FAN_OUT("query-fan-out"),
  /**
   * Requests still naming a partition that a split or a merge replaced, well after it went (10 in 5
   * distinct seconds of a minute, from 30 s after): a client not recovering from the layout change.
   */
  GONE_RANGE_REQUESTS("gone-range-requests");

  private final String id;

  AlertRule(String id) {
    this.id = id;
  }

  /** The rule's name in files, logs and metrics, e.g. {@code hot-partition}. */
  public String id() {
    return id;
  }

  /** The rule named {@code id} (as {@link #id()}, any case), or null. */
  public static AlertRule byId(String id) {
    for (AlertRule r : values()) {
      if (r.id.equals(id.toLowerCase(Locale.ROOT))) {
        return r;
      }
    }
    return null;
  }
}
