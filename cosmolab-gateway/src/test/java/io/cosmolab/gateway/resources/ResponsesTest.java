package io.cosmolab.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The request-charge header's text, written without the formatter where it can be. */
class ResponsesTest {

  @Property
  void charge_isWhatPercentTwoFFormats(@ForAll @DoubleRange(min = 0, max = 1e7) double ru) {
    assertThat(Responses.charge(ru)).isEqualTo(String.format(Locale.ROOT, "%.2f", ru));
  }

  @Property
  void charge_ofWholeHundredths_isWhatPercentTwoFFormats(
      @ForAll @IntRange(min = 0, max = 100_000_000) int hundredths) {
    double ru = hundredths / 100.0;
    assertThat(Responses.charge(ru)).isEqualTo(String.format(Locale.ROOT, "%.2f", ru));
  }

  @Test
  void charge_ofAPointRead() {
    assertThat(Responses.charge(1.0)).isEqualTo("1.00");
    assertThat(Responses.charge(0.05)).isEqualTo("0.05");
    assertThat(Responses.charge(12.3)).isEqualTo("12.30");
  }
}
