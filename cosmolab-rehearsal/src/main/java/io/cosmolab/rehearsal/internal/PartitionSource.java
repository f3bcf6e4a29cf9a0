package io.cosmolab.rehearsal.internal;

import java.util.List;

/**
 * Where a candidate's heat map comes from: its physical partitions, their budgets, their layout
 * changes and what each served in a second. {@link EnginePartitions} reads the engine's own
 * per-partition metrics (the rehearsal in virtual time); {@code MeasuredPartitions} adds up what
 * the SDK measured, request by request (the rehearsal against a live endpoint).
 */
interface PartitionSource {
  /** A physical partition: its range id and EPK bounds (empty when not known). */
  record Range(String id, String minEpk, String maxEpk) {}

  /** A split or merge (or a split the engine could not make), at {@code millis} (epoch). */
  record LayoutEvent(
      String kind, List<String> before, List<String> after, String reason, long millis) {}

  /** What one partition served in one second; simulated counts. */
  record Served(double ru, long throttled, long operations) {}

  /** The largest and the hottest logical partition, as the report names them. */
  record Logical(double largestBytes, String largestKey, String hottestKey, double hottestShare) {}

  /** The partitions that serve now, in EPK order. */
  List<Range> ranges();

  /** RU/s budget of each partition now, by id; a partition without one is absent. */
  java.util.Map<String, Double> budgets();

  /** Moves whenever {@link #ranges} or {@link #budgets} change. */
  long layoutVersion();

  /** Every layout event so far, oldest first (a list that only grows). */
  List<LayoutEvent> layoutEvents();

  /** What partition {@code id} served in the epoch second {@code second}. */
  Served second(String id, long second);

  /** The largest logical partition by bytes and the one with most RU. */
  Logical logical();
}
