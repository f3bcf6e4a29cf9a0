package io.cosmolab.advisor.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ValueKindsTest {
  /** The pattern the loop replaced: the loop must answer as it did. */
  private static final Pattern ISO_PREFIX =
      Pattern.compile("^\\d{4}-\\d{2}(-\\d{2}([T ]\\d{2}(:\\d{2}(:\\d{2}([.,]\\d+)?)?)?)?)?.*");

  @Test
  void isDateTime_answersAsTheIsoPrefixPattern_onDatesAndOnNearMisses() {
    List<String> cases =
        List.of(
            "2026-11",
            "2026-11-02",
            "2026-11-02T10:00:00Z",
            "2026-11-02 10:00:00.123+01:00",
            "2026-1",
            "2026/11/02",
            "x2026-11-02",
            "20261102",
            "2026-11\nsecond line",
            "2026-11-02\u2028",
            "2026-ab-02",
            "",
            "tenant-7");
    for (String s : cases) {
      assertThat(ValueKinds.isDateTime(s)).as(s).isEqualTo(ISO_PREFIX.matcher(s).matches());
    }
    Random r = new Random(5);
    String alphabet = "0123456789-T:Z .\n";
    for (int n = 0; n < 20_000; n++) {
      StringBuilder b = new StringBuilder();
      int len = r.nextInt(12);
      for (int i = 0; i < len; i++) {
        b.append(alphabet.charAt(r.nextInt(alphabet.length())));
      }
      String s = b.toString();
      assertThat(ValueKinds.isDateTime(s))
          .as("seed 5, %s", s)
          .isEqualTo(ISO_PREFIX.matcher(s).matches());
    }
  }
}
