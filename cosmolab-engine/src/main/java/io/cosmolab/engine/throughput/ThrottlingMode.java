package io.cosmolab.engine.throughput;

/** What happens when a physical partition's RU/s budget is exhausted. */
public enum ThrottlingMode {
  /** The operation fails with 429 / 3200 and a retry-after, and changes nothing (the service). */
  ENFORCE,
  /** The operation runs; the 429 it would have got is counted in the metrics. */
  OBSERVE,
  /** Budgets are not checked; charges are still computed and recorded. */
  OFF
}
