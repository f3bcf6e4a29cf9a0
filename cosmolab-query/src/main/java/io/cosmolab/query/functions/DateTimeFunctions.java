package io.cosmolab.query.functions;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.exec.Values;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * Date and time functions on the injected clock. Date-times are ISO-8601 UTC strings in the
 * service's format ({@code 2026-01-01T00:00:00.0000000Z}); timestamps are milliseconds since the
 * Unix epoch; ticks are 100-nanosecond intervals since the Unix epoch too, as the reference says
 * ("ticks that have elapsed since the Unix epoch": {@code DateTimeToTicks("2015-05-19T12:00:00")}
 * is 14320368000000000, {@code TicksToDateTime(-116444736000000000)} is 1601-01-01), not since
 * .NET's year 1. The {@code ...Static} variants and the plain ones agree within a query: the clock
 * is read once per query.
 */
final class DateTimeFunctions {
  private DateTimeFunctions() {}

  /**
   * The reference's grammar of a date-time string [D "IS_DATETIME"]: {@code YYYY-MM-DD}, then
   * nothing, {@code Z}, or a space or {@code T} and {@code hh:mm:ss} with an optional fraction of 1
   * to 7 digits and an optional {@code Z}; and the date and time must exist [H].
   */
  private static final java.util.regex.Pattern DATE_TIME =
      java.util.regex.Pattern.compile(
          "(\\d{4})-(\\d{2})-(\\d{2})(?:Z|[ T](\\d{2}):(\\d{2}):(\\d{2})(?:\\.\\d{1,7})?Z?)?");

  private static boolean isDateTime(JsonNode v) {
    if (v == null || !v.isTextual()) {
      return false;
    }
    java.util.regex.Matcher m = DATE_TIME.matcher(v.textValue());
    if (!m.matches()) {
      return false;
    }
    try {
      java.time.LocalDate.of(
          Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
    } catch (java.time.DateTimeException e) {
      return false;
    }
    return m.group(4) == null
        || (Integer.parseInt(m.group(4)) < 24
            && Integer.parseInt(m.group(5)) < 60
            && Integer.parseInt(m.group(6)) < 60);
  }

  /** A date-time string of the reference's grammar as a UTC date-time, or null. */
  private static LocalDateTime localDateTime(JsonNode v) {
    if (!isDateTime(v)) {
      return null;
    }
    String s = v.textValue().replace(' ', 'T');
    if (s.endsWith("Z")) {
      s = s.substring(0, s.length() - 1);
    }
    return s.length() == 10 ? java.time.LocalDate.parse(s).atStartOfDay() : LocalDateTime.parse(s);
  }

  private static JsonNode datePart(JsonNode v, ChronoUnit unit) {
    Instant t = instant(v);
    if (t == null && v != null && v.isTextual() && v.textValue().length() == 10) {
      try {
        t = java.time.LocalDate.parse(v.textValue()).atStartOfDay(ZoneOffset.UTC).toInstant();
      } catch (java.time.format.DateTimeParseException e) {
        return null;
      }
    }
    if (t == null) {
      return null;
    }
    LocalDateTime d = LocalDateTime.ofInstant(t, ZoneOffset.UTC);
    return Values.number(
        switch (unit) {
          case YEARS -> d.getYear();
          case MONTHS -> d.getMonthValue();
          default -> d.getDayOfMonth();
        });
  }

  static void register(SystemFunctions.Registrar r) {
    for (String suffix : new String[] {"", "STATIC"}) {
      r.def(
          "GETCURRENTDATETIME" + suffix,
          0,
          0,
          (a, c) -> Values.text(SystemFunctions.formatDateTime(c.now())));
      r.def("GETCURRENTTIMESTAMP" + suffix, 0, 0, (a, c) -> Values.number(c.now().toEpochMilli()));
      r.def("GETCURRENTTICKS" + suffix, 0, 0, (a, c) -> Values.number(ticks(c.now())));
    }
    r.def(
        "DATETIMEADD",
        3,
        3,
        (a, c) -> {
          ChronoUnit unit = part(a.get(0));
          Instant t = instant(a.get(2));
          if (unit == null || t == null || !isWhole(a.get(1))) {
            return null;
          }
          long n = a.get(1).longValue();
          LocalDateTime d = LocalDateTime.ofInstant(t, ZoneOffset.UTC);
          return Values.text(
              SystemFunctions.formatDateTime(d.plus(n, unit).toInstant(ZoneOffset.UTC)));
        });
    // AGO(part, n) and NOW(part, n): the query's clock moved back or forward [D "AGO", "NOW"]
    r.def("AGO", 2, 2, (a, c) -> shifted(a.get(0), a.get(1), c.now(), true));
    r.def(
        "NOW",
        0,
        2,
        (a, c) ->
            a.isEmpty()
                ? Values.text(SystemFunctions.formatDateTime(c.now()))
                : a.size() == 2 ? shifted(a.get(0), a.get(1), c.now(), false) : null);
    r.def(
        "DATETIMEDIFF",
        3,
        3,
        (a, c) -> {
          ChronoUnit unit = part(a.get(0));
          Instant start = instant(a.get(1));
          Instant end = instant(a.get(2));
          if (unit == null || start == null || end == null) {
            return null;
          }
          // the number of unit boundaries crossed, as DateDiff counts them
          LocalDateTime s = LocalDateTime.ofInstant(start, ZoneOffset.UTC);
          LocalDateTime e = LocalDateTime.ofInstant(end, ZoneOffset.UTC);
          return Values.number(unit.between(truncate(s, unit), truncate(e, unit)));
        });
    // DAY, MONTH, YEAR: DateTimePart's day, month and year, which also take a date alone
    // ("2024-01-10"), as the reference's examples do [D "DAY"]
    r.def("IS_DATETIME", 1, 1, (a, c) -> Values.bool(isDateTime(a.get(0))));
    r.def(
        "DATETIMEFORMAT",
        2,
        2,
        (a, c) -> {
          LocalDateTime t = localDateTime(a.get(0));
          JsonNode f = a.get(1);
          if (t == null || f == null || !f.isTextual()) {
            return null;
          }
          String s = DateTimeFormat.format(t, f.textValue());
          return s == null ? null : Values.text(s);
        });
    r.def("DAY", 1, 1, (a, c) -> datePart(a.get(0), ChronoUnit.DAYS));
    r.def("MONTH", 1, 1, (a, c) -> datePart(a.get(0), ChronoUnit.MONTHS));
    r.def("YEAR", 1, 1, (a, c) -> datePart(a.get(0), ChronoUnit.YEARS));
    r.def(
        "DATETIMEPART",
        2,
        2,
        (a, c) -> {
          ChronoUnit unit = part(a.get(0));
          Instant t = instant(a.get(1));
          if (unit == null || t == null) {
            return null;
          }
          LocalDateTime d = LocalDateTime.ofInstant(t, ZoneOffset.UTC);
          return Values.number(
              switch (unit) {
                case YEARS -> d.getYear();
                case MONTHS -> d.getMonthValue();
                case DAYS -> d.getDayOfMonth();
                case HOURS -> d.getHour();
                case MINUTES -> d.getMinute();
                case SECONDS -> d.getSecond();
                case MILLIS -> d.getNano() / 1_000_000;
                case MICROS -> d.getNano() / 1_000;
                default -> d.getNano();
              });
        });
    r.def(
        "DATETIMEBIN",
        2,
        4,
        (a, c) -> {
          Instant t = instant(a.get(0));
          ChronoUnit unit = part(a.get(1));
          if (t == null || unit == null || unit == ChronoUnit.YEARS || unit == ChronoUnit.MONTHS) {
            return null;
          }
          // [D] undefined when the bin size is not a whole number, is zero or negative
          if (a.size() > 2 && !isWhole(a.get(2))) {
            return null;
          }
          long size = a.size() > 2 ? a.get(2).longValue() : 1;
          Instant origin = a.size() > 3 ? instant(a.get(3)) : Instant.EPOCH;
          if (size <= 0 || origin == null) {
            return null;
          }
          // In exact nanoseconds: from the documented Windows epoch (1601) to today is more
          // nanoseconds than a long holds.
          java.math.BigInteger bin =
              java.math.BigInteger.valueOf(Duration.of(1, unit).toNanos())
                  .multiply(java.math.BigInteger.valueOf(size));
          java.math.BigInteger since = nanos(Duration.between(origin, t));
          // BigInteger.mod is never negative: a date before the bin start floors to the bin below
          java.math.BigInteger start = since.subtract(since.mod(bin));
          java.math.BigInteger[] secondsAndNanos =
              start.divideAndRemainder(java.math.BigInteger.valueOf(1_000_000_000L));
          Instant binned =
              origin
                  .plusSeconds(secondsAndNanos[0].longValueExact())
                  .plusNanos(secondsAndNanos[1].longValue());
          return Values.text(SystemFunctions.formatDateTime(binned));
        });
    r.def(
        "DATETIMEFROMPARTS",
        3,
        7,
        (a, c) -> {
          for (JsonNode x : a) {
            if (!isWhole(x)) {
              return null;
            }
          }
          try {
            LocalDateTime d =
                LocalDateTime.of(
                    a.get(0).intValue(),
                    a.get(1).intValue(),
                    a.get(2).intValue(),
                    a.size() > 3 ? a.get(3).intValue() : 0,
                    a.size() > 4 ? a.get(4).intValue() : 0,
                    a.size() > 5 ? a.get(5).intValue() : 0,
                    a.size() > 6 ? a.get(6).intValue() * 100 : 0);
            return Values.text(SystemFunctions.formatDateTime(d.toInstant(ZoneOffset.UTC)));
          } catch (java.time.DateTimeException e) {
            return null;
          }
        });
    r.def(
        "DATETIMETOTICKS",
        1,
        1,
        (a, c) -> {
          Instant t = instant(a.get(0));
          return t == null ? null : Values.number(ticks(t));
        });
    r.def(
        "DATETIMETOTIMESTAMP",
        1,
        1,
        (a, c) -> {
          Instant t = instant(a.get(0));
          return t == null ? null : Values.number(t.toEpochMilli());
        });
    r.def(
        "TICKSTODATETIME",
        1,
        1,
        (a, c) -> {
          if (!isWhole(a.get(0))) {
            return null;
          }
          long sinceEpoch = a.get(0).longValue();
          Instant t =
              Instant.ofEpochSecond(
                  Math.floorDiv(sinceEpoch, 10_000_000L),
                  Math.floorMod(sinceEpoch, 10_000_000L) * 100);
          return Values.text(SystemFunctions.formatDateTime(t));
        });
    r.def(
        "TIMESTAMPTODATETIME",
        1,
        1,
        (a, c) ->
            isWhole(a.get(0))
                ? Values.text(
                    SystemFunctions.formatDateTime(Instant.ofEpochMilli(a.get(0).longValue())))
                : null);
  }

  /**
   * {@code t} moved by {@code n} of {@code part} (back when {@code back}); undefined if invalid.
   */
  private static JsonNode shifted(JsonNode part, JsonNode n, Instant t, boolean back) {
    ChronoUnit unit = part(part);
    if (unit == null || !isWhole(n)) {
      return null;
    }
    long by = back ? -n.longValue() : n.longValue();
    LocalDateTime d = LocalDateTime.ofInstant(t, ZoneOffset.UTC);
    return Values.text(SystemFunctions.formatDateTime(d.plus(by, unit).toInstant(ZoneOffset.UTC)));
  }

  private static java.math.BigInteger nanos(Duration d) {
    return java.math.BigInteger.valueOf(d.getSeconds())
        .multiply(java.math.BigInteger.valueOf(1_000_000_000L))
        .add(java.math.BigInteger.valueOf(d.getNano()));
  }

  private static long ticks(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 10_000_000L), t.getNano() / 100);
  }

  private static boolean isWhole(JsonNode v) {
    return v != null && v.isNumber() && v.doubleValue() == Math.rint(v.doubleValue());
  }

  private static Instant instant(JsonNode v) {
    return v != null && v.isTextual() ? SystemFunctions.parseDateTime(v.textValue()) : null;
  }

  private static LocalDateTime truncate(LocalDateTime d, ChronoUnit unit) {
    return switch (unit) {
      case YEARS -> d.withDayOfYear(1).truncatedTo(ChronoUnit.DAYS);
      case MONTHS -> d.withDayOfMonth(1).truncatedTo(ChronoUnit.DAYS);
      default -> d.truncatedTo(unit);
    };
  }

  /** The service's date-part names and abbreviations. */
  private static ChronoUnit part(JsonNode v) {
    if (v == null || !v.isTextual()) {
      return null;
    }
    return switch (v.textValue().toLowerCase(Locale.ROOT)) {
      case "year", "yyyy", "yy" -> ChronoUnit.YEARS;
      case "month", "mm", "m" -> ChronoUnit.MONTHS;
      case "day", "dd", "d" -> ChronoUnit.DAYS;
      case "hour", "hh" -> ChronoUnit.HOURS;
      case "minute", "mi", "n" -> ChronoUnit.MINUTES;
      case "second", "ss", "s" -> ChronoUnit.SECONDS;
      case "millisecond", "ms" -> ChronoUnit.MILLIS;
      case "microsecond", "mcs" -> ChronoUnit.MICROS;
      case "nanosecond", "ns" -> ChronoUnit.NANOS;
      default -> null;
    };
  }
}
