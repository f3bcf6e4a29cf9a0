package io.cosmolab.engine.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.partitioning.PartitionKind;
import io.cosmolab.engine.routing.SplitPoints.KeyBytes;
import java.util.List;
import org.junit.jupiter.api.Test;

class SplitPointsTest {
  private static final PartitionKeyDefinition V2 = PartitionKeyDefinition.hash("/p");
  private static final PartitionKeyDefinition V1 =
      new PartitionKeyDefinition(List.of("/p"), PartitionKind.HASH, 1);

  @Test
  void midpointOfTheWholeV2Space_isTheMiddleOfTheHashSpace() {
    assertThat(SplitPoints.midpoint(EpkRange.FULL, V2))
        .isEqualTo("20000000000000000000000000000000");
    assertThat(SplitPoints.midpoint(new EpkRange("", "20000000000000000000000000000000"), V2))
        .isEqualTo("10000000000000000000000000000000");
  }

  @Test
  void midpointInsideOneFirstLevelValue_goesToTheSecondLevel() {
    PartitionKeyDefinition h = PartitionKeyDefinition.hierarchical("/t", "/u");
    String prefix = EffectivePartitionKey.of(h, PartitionKeyValue.of("acme"));
    String mid = SplitPoints.midpoint(new EpkRange(prefix, prefix + "FF"), h);
    assertThat(mid).hasSize(64).startsWith(prefix);
    assertThat(SplitPoints.midpoint(new EpkRange(prefix, prefix + "FF"), V2)).isNull();
  }

  @Test
  void v1Boundaries_areEncodedHashNumbers_thatDecodeBack() {
    String mid = SplitPoints.midpoint(EpkRange.FULL, V1);
    assertThat(mid).startsWith("05C1");
    assertThat(SplitPoints.decodeV1Hash(mid)).isEqualTo(2147483648.0);
    for (double h : new double[] {0, 1, 5, 12345, 4294967295.0}) {
      assertThat(SplitPoints.decodeV1Hash(EffectivePartitionKey.encodeV1Number(h))).isEqualTo(h);
    }
    // a real V1 EPK decodes to its hash, so V1 containers split between documents
    String epk = EffectivePartitionKey.hashV1(PartitionKeyValue.of("redmond").components());
    double hash = SplitPoints.decodeV1Hash(epk);
    assertThat(hash).isBetween(0.0, 4294967295.0);
    assertThat(EffectivePartitionKey.encodeV1Number(hash).compareTo(epk)).isLessThanOrEqualTo(0);
  }

  @Test
  void evenBoundaries_cutTheHashSpaceIntoEqualParts() {
    assertThat(SplitPoints.evenBoundaries(V2, 2))
        .containsExactly("20000000000000000000000000000000");
    assertThat(SplitPoints.evenBoundaries(V2, 1)).isEmpty();
    List<String> v1 = SplitPoints.evenBoundaries(V1, 4);
    assertThat(v1).hasSize(3).isSorted();
  }

  @Test
  void storageMedian_picksTheLogicalBoundaryClosestToHalfTheBytes() {
    List<KeyBytes> lps =
        List.of(
            new KeyBytes("10", 10),
            new KeyBytes("20", 10),
            new KeyBytes("30", 60),
            new KeyBytes("40", 20));
    assertThat(SplitPoints.storageMedian(lps.iterator(), 100)).isEqualTo("30");
    List<KeyBytes> skewed = List.of(new KeyBytes("10", 90), new KeyBytes("20", 10));
    assertThat(SplitPoints.storageMedian(skewed.iterator(), 100)).isEqualTo("20");
  }

  @Test
  void storageMedian_ofASingleLogicalPartition_isNone() {
    assertThat(SplitPoints.storageMedian(List.of(new KeyBytes("10", 100)).iterator(), 100))
        .isNull();
  }
}
