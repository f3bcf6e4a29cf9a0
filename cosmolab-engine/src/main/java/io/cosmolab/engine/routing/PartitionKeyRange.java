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
}
