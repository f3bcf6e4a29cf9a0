package io.cosmolab.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Utf8Order against its definition: the unsigned order of the strings' UTF-8 bytes. */
class Utf8OrderTest {
  private static final int[] CODE_POINTS = {
    'a', 'z', 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF
  };

  private static int bytes(String a, String b) {
    return Integer.signum(
        Arrays.compareUnsigned(
            a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void supplementaryCharacters_sortAfterTheTopOfTheBasicPlane_asUtf8Does() {
    String emoji = new String(Character.toChars(0x1F600));
    assertThat("\uFFFD".compareTo(emoji)).isPositive(); // UTF-16 code units disagree
    assertThat(Utf8Order.compare("\uFFFD", emoji)).isNegative();
    assertThat(Utf8Order.compare("a" + emoji, "a\uE000")).isPositive();
  }

  @Test
  void randomStrings_orderAsTheirUtf8Bytes() {
    long seed = System.nanoTime();
    Random r = new Random(seed);
    for (int i = 0; i < 20_000; i++) {
      String a = random(r);
      String b = random(r);
      assertThat(Integer.signum(Utf8Order.compare(a, b)))
          .as("seed %d: %s vs %s", seed, a, b)
          .isEqualTo(bytes(a, b));
    }
  }

  private static String random(Random r) {
    StringBuilder s = new StringBuilder();
    int n = r.nextInt(4);
    for (int i = 0; i < n; i++) {
      s.appendCodePoint(CODE_POINTS[r.nextInt(CODE_POINTS.length)]);
    }
    return s.toString();
  }
}
