package io.cosmolab.gateway.auth;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Reads the {@code x-ms-date} of a signed request: an RFC 1123 date such as {@code Fri, 04 Dec 2026
 * 22:19:13 GMT}.
 *
 * <p>Every SDK writes the one form {@code EEE, dd MMM yyyy HH:mm:ss GMT} (two-digit day, English
 * names, {@code GMT}: the Java SDK's {@code Utils.nowAsRFC1123}, JavaScript's {@code toUTCString});
 * the JDK's own {@link DateTimeFormatter#RFC_1123_DATE_TIME} writes a day below 10 with one digit.
 * Both forms are read here by position, about a hundredth of what the formatter costs, which made
 * date parsing a tenth of a point read's server time when clients' dates did not repeat. Anything
 * else the RFC allows (an offset instead of {@code GMT}, no day name), and any text these forms do
 * not make an exact date of (a day past its month's end, a day name that disagrees with the date),
 * goes to the formatter, which decides: so the two always agree (tested).
 */
public final class Rfc1123 {
  private static final String DAYS = "MonTueWedThuFriSatSun";
  private static final String MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";

  /**
   * HTTP's date form (RFC 9110 IMF-fixdate: a two-digit day), as the service and every SDK write
   * it; the JDK's {@link DateTimeFormatter#RFC_1123_DATE_TIME} writes {@code Sun, 6 Dec 2026}.
   */
  private static final DateTimeFormatter HTTP_DATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", java.util.Locale.US);

  private Rfc1123() {}

  /** {@code epochSecond} as HTTP writes a date: {@code Sun, 06 Dec 2026 06:02:49 GMT}. */
  public static String format(long epochSecond) {
    return HTTP_DATE.format(Instant.ofEpochSecond(epochSecond).atOffset(java.time.ZoneOffset.UTC));
  }

  /**
   * The instant {@code text} names.
   *
   * @throws java.time.format.DateTimeParseException when it is not an RFC 1123 date
   */
  static Instant parse(String text) {
    long seconds = canonical(text);
    if (seconds != Long.MIN_VALUE) {
      return Instant.ofEpochSecond(seconds);
    }
    return ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
  }

  /**
   * The epoch second of {@code text} in the SDKs' form, or {@link Long#MIN_VALUE} when it is not
   * exactly that form naming a real date (the formatter then decides).
   */
  static long canonical(String text) {
    // 0         1         2
    // 01234567890123456789012345678
    // Fri, 04 Dec 2026 22:19:13 GMT     (the JDK's formatter writes "Fri, 4 Dec ...": o = -1)
    int o = text.length() - 29;
    if ((o != 0 && o != -1)
        || text.charAt(3) != ','
        || text.charAt(4) != ' '
        || text.charAt(7 + o) != ' '
        || text.charAt(11 + o) != ' '
        || text.charAt(16 + o) != ' '
        || text.charAt(19 + o) != ':'
        || text.charAt(22 + o) != ':'
        || !text.startsWith(" GMT", 25 + o)) {
      return Long.MIN_VALUE;
    }
    int dayName = nameIndex(DAYS, text, 0);
    int month = nameIndex(MONTHS, text, 8 + o) + 1;
    int day = digits(text, 5, 2 + o);
    int year = digits(text, 12 + o, 4);
    int hour = digits(text, 17 + o, 2);
    int minute = digits(text, 20 + o, 2);
    int second = digits(text, 23 + o, 2);
    if (dayName < 0
        || month < 1
        || day < 1
        || year < 0
        || hour < 0
        || hour > 23
        || minute < 0
        || minute > 59
        || second < 0
        || second > 59) {
      return Long.MIN_VALUE;
    }
    LocalDate date = LocalDate.of(year, month, 1);
    if (day > date.lengthOfMonth()) {
      return Long.MIN_VALUE;
    }
    long epochDay = date.toEpochDay() + day - 1;
    if (Math.floorMod(epochDay + 3, 7) != dayName) { // 1970-01-01 was a Thursday (index 3)
      return Long.MIN_VALUE;
    }
    return epochDay * 86_400 + hour * 3600L + minute * 60L + second;
  }

  /** The index of the three letters at {@code at} among {@code names}, or -1. */
  private static int nameIndex(String names, String text, int at) {
    for (int i = 0; i < names.length(); i += 3) {
      if (text.regionMatches(at, names, i, 3)) {
        return i / 3;
      }
    }
    return -1;
  }

  /** The decimal number of {@code n} ASCII digits at {@code at}, or -1. */
  private static int digits(String text, int at, int n) {
    int v = 0;
    for (int i = at; i < at + n; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }
}
