package io.cosmolab.engine.cost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The published figures ({@code partitioning-model.md} §2.6 test vectors). */
class CostModelTest {
  private static final CostModel M = CostModel.PUBLISHED;
  private static final int KB = 1024;

  @Test
  void pointReads_followTheOfficialTable() {
    assertThat(M.pointRead(KB, false)).isEqualTo(1.00);
    assertThat(M.pointRead(300, false)).isEqualTo(1.00);
    assertThat(M.pointRead(128 * KB, false)).isEqualTo(9.95);
    assertThat(M.pointRead(100 * KB, false)).isCloseTo(10.0, within(2.5)); // "100 KB ≈ 10 RU"
    assertThat(M.pointRead(1024 * KB, false)).isEqualTo(145.90);
    assertThat(M.pointRead(KB, true)).isEqualTo(2.00);
  }

  @Test
  void writes_followTheRucFormula_withinOnePercentOfItsWorkedExamples() {
    assertThat(M.create(KB, 10)).isCloseTo(7.0, within(0.07));
    assertThat(M.replace(KB, 2)).isCloseTo(10.8, within(0.11));
    assertThat(M.patch(KB, 2, 2)).isCloseTo(11.6, within(0.12));
    assertThat(M.delete(KB, 10)).isCloseTo(7.0, within(0.07));
  }

  @Test
  void interpolation_isLinearBetweenTableRows_andMonotonic() {
    assertThat(M.pointRead(3 * KB, false)).isEqualTo(1.09);
    double previous = 0;
    for (int kb = 1; kb <= 2048; kb *= 2) {
      double r = M.pointRead(kb * KB, false);
      assertThat(r).isGreaterThanOrEqualTo(previous);
      previous = r;
    }
  }

  @Test
  void queries_payABasePerTargetedPartition() {
    double one = M.query(1, 0, 1.0);
    double ten = M.query(10, 0, 1.0);
    assertThat(ten - one).isEqualTo(22.5); // 2.5 RU x 9 more partitions
    assertThat(M.query(1, 400L * 1024 * 1024, 0)).isCloseTo(4002.5, within(1.0)); // ~10 RU/MB
  }
}
