package io.cosmolab.engine.routing;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.partitioning.EpkRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The partition key range map of a container: physical partitions that tile the key space {@code
 * ""}–{@code "FF"} without gap or overlap. Immutable; a split or merge builds a new map with the
 * next {@link #version()}.
 *
 * <p>Concurrency: a container holds its current map in an atomic reference and swaps the whole map
 * when its layout changes, so a reader works on one consistent snapshot — the old layout or the
 * new, never a mix — and never takes a lock.
 *
 * @param ranges the physical partitions in key order
 * @param version increases with every layout change (the {@code /pkranges} etag)
 * @param nextId the id the next new range gets
 */
public record RoutingMap(List<PartitionKeyRange> ranges, long version, int nextId) {

  public RoutingMap {
    ranges = List.copyOf(ranges);
    String expected = EpkRange.MIN;
    for (PartitionKeyRange r : ranges) {
      if (!r.range().min().equals(expected)) {
        throw new IllegalStateException(
            "ranges must tile the key space: expected a range starting at '"
                + expected
                + "', found "
                + r);
      }
      expected = r.range().max();
    }
    if (!expected.equals(EpkRange.MAX)) {
      throw new IllegalStateException("ranges must end at FF, last ends at " + expected);
    }
  }

  /** A map of {@code count} ranges over the key space, cut at the given boundaries. */
  public static RoutingMap of(List<String> boundaries) {
    List<PartitionKeyRange> ranges = new ArrayList<>();
    String min = EpkRange.MIN;
    int id = 0;
    for (String b : boundaries) {
      ranges.add(new PartitionKeyRange(Integer.toString(id++), new EpkRange(min, b), List.of()));
      min = b;
    }
    ranges.add(
        new PartitionKeyRange(Integer.toString(id++), new EpkRange(min, EpkRange.MAX), List.of()));
    return new RoutingMap(ranges, 1, id);
  }

  /** The physical partition that owns {@code epk}. */
  public PartitionKeyRange rangeFor(String epk) {
    int lo = 0;
    int hi = ranges.size() - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (ranges.get(mid).range().min().compareTo(epk) <= 0) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return ranges.get(lo);
  }

  public Optional<PartitionKeyRange> byId(String id) {
    for (PartitionKeyRange r : ranges) {
      if (r.id().equals(id)) {
        return Optional.of(r);
      }
    }
    return Optional.empty();
  }

  /**
   * The range with this id, or 410/1002 (PartitionKeyRangeGone) when it was split or merged away.
   */
  public PartitionKeyRange require(String id) {
    return byId(id)
        .orElseThrow(
            () ->
                CosmosError.PARTITION_KEY_RANGE_GONE.exception(
                    "partition key range '%s' does not exist in the current layout (version %d);"
                        + " it was split or merged: read /pkranges again",
                    id, version));
  }

  /** The physical partitions that hold some key of {@code range}, in key order. */
  public List<PartitionKeyRange> overlapping(EpkRange range) {
    List<PartitionKeyRange> out = new ArrayList<>();
    for (PartitionKeyRange r : ranges) {
      if (r.range().overlaps(range)) {
        out.add(r);
      }
    }
    return out;
  }

  public int size() {
    return ranges.size();
  }

  /** This map with range {@code id} cut in two at {@code at}; the children get new ids. */
  public RoutingMap split(String id, String at) {
    PartitionKeyRange parent = require(id);
    if (!(at.compareTo(parent.range().min()) > 0 && at.compareTo(parent.range().max()) < 0)) {
      throw CosmosError.BAD_REQUEST.exception(
          "split point %s is not inside partition %s %s", at, id, parent.range());
    }
    List<String> lineage = new ArrayList<>(parent.parents());
    lineage.add(parent.id());
    List<PartitionKeyRange> next = new ArrayList<>(ranges.size() + 1);
    for (PartitionKeyRange r : ranges) {
      if (r.id().equals(parent.id())) {
        next.add(
            new PartitionKeyRange(
                Integer.toString(nextId), new EpkRange(r.range().min(), at), lineage));
        next.add(
            new PartitionKeyRange(
                Integer.toString(nextId + 1), new EpkRange(at, r.range().max()), lineage));
      } else {
        next.add(r);
      }
    }
    return new RoutingMap(next, version + 1, nextId + 2);
  }

  /** This map with two adjacent ranges joined into one with a new id. */
  public RoutingMap merge(String leftId, String rightId) {
    PartitionKeyRange left = require(leftId);
    PartitionKeyRange right = require(rightId);
    if (!left.range().max().equals(right.range().min())) {
      throw CosmosError.BAD_REQUEST.exception(
          "partitions %s %s and %s %s are not adjacent (left must end where right starts)",
          leftId, left.range(), rightId, right.range());
    }
    List<String> lineage = new ArrayList<>(left.parents());
    lineage.add(left.id());
    for (String p : right.parents()) {
      if (!lineage.contains(p)) {
        lineage.add(p);
      }
    }
    lineage.add(right.id());
    List<PartitionKeyRange> next = new ArrayList<>(ranges.size() - 1);
    for (PartitionKeyRange r : ranges) {
      if (r.id().equals(left.id())) {
        next.add(
            new PartitionKeyRange(
                Integer.toString(nextId),
                new EpkRange(left.range().min(), right.range().max()),
                lineage));
      } else if (!r.id().equals(right.id())) {
        next.add(r);
      }
    }
    return new RoutingMap(next, version + 1, nextId + 1);
  }
}
