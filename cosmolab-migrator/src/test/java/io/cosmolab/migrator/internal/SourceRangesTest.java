package io.cosmolab.migrator.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.migrator.RangeProgress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-range view of the SDK's composite change-feed continuation. */
class SourceRangesTest {
  private static String continuation(String... rangesAndTokens) {
    StringBuilder list = new StringBuilder();
    for (int i = 0; i < rangesAndTokens.length; i += 3) {
      if (i > 0) {
        list.append(',');
      }
      list.append("{\"token\":\"\\\"")
          .append(rangesAndTokens[i + 2])
          .append("\\\"\",\"range\":{\"min\":\"")
          .append(rangesAndTokens[i])
          .append("\",\"max\":\"")
          .append(rangesAndTokens[i + 1])
          .append("\"}}");
    }
    String json =
        "{\"V\":1,\"Rid\":\"r1\",\"Mode\":\"INCREMENTAL\",\"StartFrom\":{\"Type\":\"NOW\"},"
            + "\"Continuation\":{\"V\":1,\"Rid\":\"r1\",\"Continuation\":["
            + list
            + "],\"Range\":{\"min\":\"\",\"max\":\"FF\"}}}";
    return Base64.getUrlEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void positions_readEachRangesTokenFromTheComposite_sortedByTheirLowerBound() {
    assertThat(SourceRanges.positions(continuation("7F", "FF", "57", "", "7F", "41")))
        .containsExactly(
            new SourceRanges.Position("", "7F", "\"41\""),
            new SourceRanges.Position("7F", "FF", "\"57\""));
  }

  @Test
  void positions_ofSomethingElse_areEmpty_andProgressFallsBackToOneRange() {
    assertThat(SourceRanges.positions("not base64 !")).isEmpty();
    assertThat(
            SourceRanges.positions(
                Base64.getUrlEncoder().encodeToString("{}".getBytes(StandardCharsets.UTF_8))))
        .isEmpty();
    assertThat(SourceRanges.align(List.of(), "garbage"))
        .containsExactly(new RangeProgress("", "FF", null, 0, 0, -1, false));
  }

  @Test
  void align_afterASplit_keepsTheParentsCountsMarkedSplit_andTheChildrenStartAtZero() {
    List<RangeProgress> before =
        List.of(
            new RangeProgress("", "7F", "\"41\"", 120, 30, 2, false),
            new RangeProgress("7F", "FF", "\"57\"", 80, 10, 0, false));
    List<RangeProgress> after =
        SourceRanges.align(
            before, continuation("", "3F", "41", "3F", "7F", "41", "7F", "FF", "60"));
    assertThat(after)
        .containsExactly(
            new RangeProgress("", "3F", "\"41\"", 0, 0, -1, false),
            new RangeProgress("3F", "7F", "\"41\"", 0, 0, -1, false),
            new RangeProgress("7F", "FF", "\"60\"", 80, 10, 0, false),
            new RangeProgress("", "7F", "\"41\"", 120, 30, 2, true));
    assertThat(SourceRanges.lagDocuments(after)).isZero();
    assertThat(SourceRanges.lagDocuments(SourceRanges.drained(after))).isZero();
  }

  @Test
  void sessionLsn_isThePartitionsLsn_ofASingleRangesToken() {
    assertThat(SourceRanges.sessionLsn("0:-1#57")).isEqualTo(57);
    assertThat(SourceRanges.sessionLsn("3:-1#12#1=12")).isEqualTo(12);
    assertThat(SourceRanges.sessionLsn("0:-1#5,1:-1#7")).isEqualTo(-1);
    assertThat(SourceRanges.sessionLsn(null)).isEqualTo(-1);
    assertThat(SourceRanges.sessionLsn("0:x")).isEqualTo(-1);
  }

  @Test
  void aRangeHoldsItsLowerBound_butNotItsUpperOne_exceptTheEndOfTheKeySpace() {
    RangeProgress r = new RangeProgress("3F", "7F", null, 0, 0, 0, false);
    assertThat(r.holds("3F")).isTrue();
    assertThat(r.holds("7EFF")).isTrue();
    assertThat(r.holds("7F")).isFalse();
    assertThat(new RangeProgress("7F", "FF", null, 0, 0, 0, false).holds("FE99")).isTrue();
  }
}
