package io.cosmolab.gateway.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** The date reader's fast form against the JDK's RFC 1123 formatter as the oracle. */
class Rfc1123Test {
  /** How the SDKs write {@code x-ms-date}. */
  private static final DateTimeFormatter SDK_FORM =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
          .withZone(ZoneOffset.UTC);

  /** What the JDK makes of a text: its instant, or null when it refuses it. */
  private static Instant oracle(String text) {
    try {
      return ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static Instant ours(String text) {
    try {
      return Rfc1123.parse(text);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  @Property(tries = 2000)
  void everyDateAsTheSdksWriteIt_isReadByPosition_toTheFormattersInstant(
      @ForAll @LongRange(min = -2_208_988_800L, max = 7_258_118_399L) long epochSecond) {
    String text = SDK_FORM.format(Instant.ofEpochSecond(epochSecond)); // 1900 to 2199
    assertThat(Rfc1123.canonical(text)).isEqualTo(epochSecond);
    assertThat(Rfc1123.parse(text)).isEqualTo(oracle(text));
  }

  @Property(tries = 2000)
  void everyDateAsTheJdkWritesIt_oneDigitDaysToo_isReadByPosition(
      @ForAll @LongRange(min = -2_208_988_800L, max = 7_258_118_399L) long epochSecond) {
    String text =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(
            Instant.ofEpochSecond(epochSecond).atOffset(ZoneOffset.UTC));
    assertThat(Rfc1123.canonical(text)).as(text).isEqualTo(epochSecond);
    assertThat(Rfc1123.parse(text)).isEqualTo(oracle(text));
  }

  @Property(tries = 3000)
  void aDateWithOneCharacterChanged_readsAsTheFormatterReadsIt(
      @ForAll @LongRange(min = 0, max = 4_102_444_799L) long epochSecond,
      @ForAll @IntRange(min = 0, max = 28) int at,
      @ForAll @CharRange(from = ' ', to = 'z') char c) {
    char[] text = SDK_FORM.format(Instant.ofEpochSecond(epochSecond)).toCharArray();
    text[at] = c;
    String changed = new String(text);
    assertThat(ours(changed)).as(changed).isEqualTo(oracle(changed));
    if (at == 5) { // and with the day's first digit dropped, as a one-digit day
      String shorter = changed.substring(0, 5) + changed.substring(6);
      assertThat(ours(shorter)).as(shorter).isEqualTo(oracle(shorter));
    }
  }

  @Test
  void textsOutsideTheSdksForm_areLeftToTheFormatter() {
    for (String text :
        new String[] {
          " Fri, 4 Dec 2026 22:19:13 GMT", // a one-digit day after a space
          "Fri,  4 Dec 2026 22:19:13 GMT", // the same, padded
          "Fri, 04 Dec 2026 22:19:13 +0100", // an offset
          "04 Dec 2026 22:19:13 GMT", // no day name
          "Mon, 04 Dec 2026 22:19:13 GMT", // a day name that disagrees
          "Sat, 31 Feb 2026 22:19:13 GMT", // past the month's end
          "Fri, 04 Dec 2026 24:00:00 GMT",
          "Fri, 04 Dec 2026 22:19:60 GMT",
          "fri, 04 dec 2026 22:19:13 gmt",
        }) {
      assertThat(Rfc1123.canonical(text)).as(text).isEqualTo(Long.MIN_VALUE);
      assertThat(ours(text)).as(text).isEqualTo(oracle(text));
    }
    assertThat(Rfc1123.parse("Fri, 4 Dec 2026 22:19:13 +0100"))
        .isEqualTo(Instant.parse("2026-12-04T21:19:13Z"));
    assertThatThrownBy(() -> Rfc1123.parse("yesterday")).isInstanceOf(DateTimeParseException.class);
  }

  @Test
  void writtenDates_haveTwoDigitDays_asHttpAndTheSdksWriteThem() {
    long sunday = Instant.parse("2026-12-06T06:02:49Z").getEpochSecond();
    assertThat(Rfc1123.format(sunday)).isEqualTo("Sun, 06 Dec 2026 06:02:49 GMT");
    assertThat(Rfc1123.format(sunday)).isEqualTo(SDK_FORM.format(Instant.ofEpochSecond(sunday)));
  }

  @Property(tries = 300)
  void whatIsWritten_readsBackAsTheSameSecond(
      @ForAll @LongRange(min = 0, max = 253_402_300_799L) long epochSecond) {
    assertThat(Rfc1123.parse(Rfc1123.format(epochSecond)).getEpochSecond()).isEqualTo(epochSecond);
  }
}
