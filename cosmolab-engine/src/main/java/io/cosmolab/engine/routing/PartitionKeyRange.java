package io.cosmolab.engine.routing;

import io.cosmolab.engine.partitioning.EpkRange;
import java.util.List;

/**
 * A physical partition: the contiguous EPK range it owns, its id (as the SDKs see it in {@code
 * /pkranges}) and the ids of every range it descends from.
 */
public record PartitionKeyRange(String id, EpkRange range, List<String> parents) {
  public PartitionKeyRange {
    parents = List.copyOf(parents);
  }

  public boolean contains(String epk) {
    return range.contains(epk);
  }

  /** The position in {@code ranges} of the range holding {@code epk}, or 0 if none does. */
  public static int indexOfOwner(java.util.List<PartitionKeyRange> ranges, String epk) {
    for (int i = 0; i < ranges.size(); i++) {
      if (ranges.get(i).contains(epk)) {
        return i;
      }
    }
    return 0;
  }
}
