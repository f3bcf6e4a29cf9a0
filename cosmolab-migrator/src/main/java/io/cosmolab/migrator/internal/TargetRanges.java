package io.cosmolab.migrator.internal;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.FeedRange;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import java.io.IOException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which physical partition of the target a write goes to: the target's feed ranges (one per
 * physical partition, from the SDK) and the effective partition key of the write's new key, hashed
 * by the engine's EPK code (bit-exact with the SDK's) under the target's own key definition.
 *
 * <p>The map is read on first use and again when it is older than {@link #REFRESH_MILLIS}. A stale
 * map after a split sends the two children's writes down one stream: slower under a throttle, never
 * wrong, since the SDK routes each operation itself and follows the split.
 *
 * <p>A feed range's text ({@link FeedRange#toString}) is the SDK's: base64url of {@code
 * {"Range":{"min":"…","max":"…"}}}, EPKs in upper-case hex, min inclusive, max exclusive.
 *
 * <p>Used by one thread at a time ({@link Writes#apply} partitions a step before starting its
 * streams).
 */
final class TargetRanges {
  /** How long a read of the target's partition map is used before it is read again. */
  static final long REFRESH_MILLIS = 30_000;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final CosmosContainer target;
  private final Sdk sdk;
  private final InstantSource clock;
  private PartitionKeyDefinition definition;
  private List<String> minimums = List.of(); // sorted; partition i holds [min(i), min(i+1))
  private long readAtMillis = Long.MIN_VALUE;

  TargetRanges(CosmosContainer target, Sdk sdk, InstantSource clock) {
    this.target = target;
    this.sdk = sdk;
    this.clock = clock;
  }

  /** The index of the physical partition holding {@code keyText} (a JSON array), from 0. */
  int partitionOf(String keyText) {
    refreshIfOld();
    if (minimums.size() == 1) {
      return 0;
    }
    String epk = EffectivePartitionKey.of(definition, valueOf(keyText));
    int lo = 0;
    int hi = minimums.size() - 1;
    while (lo < hi) { // the last range whose min <= epk
      int mid = (lo + hi + 1) >>> 1;
      if (minimums.get(mid).compareTo(epk) <= 0) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /** Physical partitions in the map. */
  int partitions() {
    refreshIfOld();
    return minimums.size();
  }

  private void refreshIfOld() {
    long now = clock.millis();
    if (definition != null && now - readAtMillis < REFRESH_MILLIS) {
      return;
    }
    if (definition == null) {
      definition =
          io.cosmolab.advisor.input.SdkForms.definition(
              sdk.call(() -> target.read(), r -> r.getRequestCharge())
                  .getProperties()
                  .getPartitionKeyDefinition());
    }
    List<String> mins = new ArrayList<>();
    for (FeedRange r : sdk.call(() -> target.getFeedRanges(), x -> 0)) {
      mins.add(minOf(r));
    }
    if (mins.isEmpty()) {
      throw new IllegalStateException("the target " + target.getId() + " has no feed ranges");
    }
    mins.sort(Comparator.naturalOrder());
    minimums = List.copyOf(mins);
    readAtMillis = now;
  }

  /** The inclusive lower EPK of a feed range. */
  static String minOf(FeedRange r) {
    return io.cosmolab.advisor.input.SdkForms.rangeOf(r).min();
  }

  private static PartitionKeyValue valueOf(String keyText) {
    try {
      return PartitionKeyValue.fromJson(JSON.readTree(keyText));
    } catch (IOException e) {
      throw new IllegalStateException("not a partition key: " + keyText, e);
    }
  }
}
