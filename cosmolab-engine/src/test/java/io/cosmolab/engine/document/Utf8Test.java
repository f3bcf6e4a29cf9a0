package io.cosmolab.engine.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Strict UTF-8, against the JDK's decoder told to report every malformed input. */
class Utf8Test {

  private static byte[] bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) values[i];
    }
    return b;
  }

  private static boolean jdkAccepts(byte[] b) {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  @Test
  void overlongForms_surrogates_andPastTheLastCodePoint_areInvalid() {
    assertThat(Utf8.firstInvalid(bytes('x', 0xC1, 0xA1))).isEqualTo(1); // 'a', overlong
    assertThat(Utf8.firstInvalid(bytes(0xC0, 0xAF))).isZero(); // '/', overlong
    assertThat(Utf8.firstInvalid(bytes(0xE0, 0x80, 0xAF))).isZero();
    assertThat(Utf8.firstInvalid(bytes(0xF0, 0x80, 0x80, 0xAF))).isZero();
    assertThat(Utf8.firstInvalid(bytes(0xED, 0xA0, 0x80))).isZero(); // U+D800
    assertThat(Utf8.firstInvalid(bytes(0xF4, 0x90, 0x80, 0x80))).isZero(); // U+110000
    assertThat(Utf8.firstInvalid(bytes('a', 'b', 0x80))).isEqualTo(2); // stray continuation
    assertThat(Utf8.firstInvalid(bytes('a', 0xE2, 0x82))).isEqualTo(1); // cut short
    assertThat(Utf8.firstInvalid(bytes(0xFF))).isZero();
  }

  @Test
  void everyStringTheJdkEncodes_isValid() {
    String text = "plain ASCII for more than eight bytes, é, €, 😀, 中文, \u0000 and \uFFFF";
    assertThat(Utf8.firstInvalid(text.getBytes(StandardCharsets.UTF_8))).isEqualTo(-1);
    assertThat(Utf8.firstInvalid(new byte[0])).isEqualTo(-1);
  }

  @Test
  void randomBytes_areJudgedAsTheJdksStrictDecoderJudgesThem() {
    Random random = new Random(7);
    int invalid = 0;
    for (int round = 0; round < 20_000; round++) {
      byte[] b = new byte[random.nextInt(24)];
      for (int i = 0; i < b.length; i++) {
        // mostly ASCII with lead and continuation bytes mixed in, as text near the edges looks
        int pick = random.nextInt(10);
        b[i] =
            (byte)
                (pick < 5
                    ? random.nextInt(0x80)
                    : pick < 8 ? 0x80 + random.nextInt(0x40) : 0xC0 + random.nextInt(0x40));
      }
      boolean valid = Utf8.firstInvalid(b) < 0;
      assertThat(valid).as("%s", java.util.HexFormat.of().formatHex(b)).isEqualTo(jdkAccepts(b));
      invalid += valid ? 0 : 1;
    }
    assertThat(invalid).isBetween(1_000, 19_000); // both kinds were tried
  }

  @Test
  void length_isTheLengthOfTheEncodedBytes_forAnyChars() {
    // chars from every encoded length, and surrogates paired, reversed and alone
    char[] alphabet = {'a', '~', 0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0xD83D, 0xDE00, 0xDBFF, 0xDC00};
    Random random = new Random(13);
    for (int round = 0; round < 20_000; round++) {
      StringBuilder s = new StringBuilder();
      for (int i = random.nextInt(12); i > 0; i--) {
        s.append(alphabet[random.nextInt(alphabet.length)]);
      }
      String text = s.toString();
      assertThat(Utf8.length(text))
          .as("UTF-8 length of %s", text.chars().mapToObj(Integer::toHexString).toList())
          .isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
    }
  }

  @Test
  void aBodyNotValidUtf8_isAParseErrorNamingTheOffset() {
    assertThatThrownBy(
            () -> JsonTrees.readStrict(bytes('{', '"', 'a', '"', ':', '"', 0xC1, 0xA1, '"', '}')))
        .hasMessageContaining("not valid UTF-8 at byte offset 6 (0xC1)");
  }
}
