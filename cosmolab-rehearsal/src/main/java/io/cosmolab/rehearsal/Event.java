package io.cosmolab.rehearsal;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;

/**
 * Something that happens at a moment of the rehearsal, and stays so until the end.
 *
 * <ul>
 *   <li>{@link Kind#HOT}: from {@code at}, a share of new documents get {@code value} at {@code
 *       field}, and the same share of reads and queries address the documents that have it: a VIP
 *       tenant onboarded, a device gone hot, a reseller's bot on Black Friday.
 *   <li>{@link Kind#THROUGHPUT}: the container's throughput becomes {@code throughput} RU/s (an
 *       operator's reaction); raising it past P × 10,000 RU/s splits partitions, at once here (the
 *       service takes 4–6 hours).
 * </ul>
 *
 * @param at when, from the start of the rehearsal
 * @param name how reports call it
 * @param kind what happens
 * @param field for HOT: the document path that gets the hot value
 * @param value for HOT: the value
 * @param share for HOT: the share of new documents and of reads it takes, in (0, 1]
 * @param throughput for THROUGHPUT: the new RU/s (manual, or the autoscale maximum)
 */
public record Event(
    Duration at,
    String name,
    Kind kind,
    String field,
    JsonNode value,
    double share,
    double throughput) {

  /** What an event does. */
  public enum Kind {
    HOT,
    THROUGHPUT
  }

  public Event {
    if (at == null || at.isNegative()) {
      throw new IllegalArgumentException("an event needs at: when it happens, 0s or later");
    }
    if (kind == null) {
      throw new IllegalArgumentException("an event needs hot: {...} or throughput: RU/s");
    }
    if (kind == Kind.HOT) {
      io.cosmolab.engine.partitioning.PartitionKeyDefinition.segmentsOf(field);
      if (value == null || value.isContainerNode() || value.isNull()) {
        throw new IllegalArgumentException("a hot event needs value: a string, number or boolean");
      }
      if (!(share > 0 && share <= 1)) {
        throw new IllegalArgumentException("the share of a hot event is in (0, 1], was " + share);
      }
    } else if (!(throughput > 0) || Double.isInfinite(throughput)) {
      throw new IllegalArgumentException(
          "a throughput event needs a positive RU/s, was " + throughput);
    }
    name = name != null ? name : kind == Kind.HOT ? field + " = " + value : throughput + " RU/s";
  }

  /** From {@code at}, {@code share} of new documents and of reads go to {@code field = value}. */
  public static Event hot(Duration at, String name, String field, JsonNode value, double share) {
    return new Event(at, name, Kind.HOT, field, value, share, 0);
  }

  /** At {@code at}, the throughput becomes {@code ru} RU/s. */
  public static Event throughput(Duration at, String name, double ru) {
    return new Event(at, name, Kind.THROUGHPUT, null, null, 0, ru);
  }
}
