package io.cosmolab.query.functions;

import java.time.LocalDateTime;
import java.time.format.TextStyle;
import java.util.Locale;

/**
 * {@code DATETIMEFORMAT}'s format strings: the service is .NET, and its format string is .NET's
 * custom date and time format, read here with the invariant culture [D DATETIMEFORMAT, whose
 * examples are the golden cases].
 *
 * <pre>
 * y yy yyy yyyy   year: last two digits unpadded, padded to 2, at least 3, at least 4 digits
 * M MM MMM MMMM   month: 1, 01, Oct, October        d dd ddd dddd  day: 1, 01, Thu, Thursday
 * H HH  h hh      hour of 24 / of 12                m mm  s ss     minute, second
 * f…fffffff       1–7 fraction digits               F…FFFFFFF      the same without trailing zeros
 * t tt            A / AM                            z zz zzz K     +0, +00, +00:00, Z (all UTC)
 * \c              the character c                   'text' "text"  text as it is
 * %c              the one specifier c               anything else  itself (':' and '/' included)
 * </pre>
 *
 * [A] Culture-dependent names and separators are the invariant culture's (English); a value is
 * always UTC, so the offset specifiers write a zero offset. A specifier run longer than .NET allows
 * ({@code ffffffff}, {@code HHH}) is refused, as .NET refuses it, and the function's result is then
 * undefined.
 */
final class DateTimeFormat {
  private DateTimeFormat() {}

  /** The formatted value, or null when .NET would refuse the format. */
  static String format(LocalDateTime t, String pattern) {
    if (pattern.isEmpty()) {
      return null;
    }
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < pattern.length()) {
      char c = pattern.charAt(i);
      if (c == '\\') {
        if (i + 1 >= pattern.length()) {
          return null; // a trailing escape
        }
        out.append(pattern.charAt(i + 1));
        i += 2;
        continue;
      }
      if (c == '\'' || c == '"') {
        int end = pattern.indexOf(c, i + 1);
        if (end < 0) {
          return null; // an unterminated quote
        }
        out.append(pattern, i + 1, end);
        i = end + 1;
        continue;
      }
      if (c == '%') {
        i++; // "%d": the specifier d alone
        continue;
      }
      int run = 1;
      while (i + run < pattern.length() && pattern.charAt(i + run) == c) {
        run++;
      }
      String piece = specifier(t, c, run);
      if (piece == null) {
        out.append(pattern, i, i + run); // not a specifier: the characters themselves
      } else if (piece.isEmpty() && c != 'F') {
        return null; // a run .NET refuses
      } else {
        out.append(piece);
      }
      i += run;
    }
    return out.toString();
  }

  /** What {@code run} × {@code c} writes; null when c is not a specifier; "" when refused. */
  private static String specifier(LocalDateTime t, char c, int run) {
    return switch (c) {
      case 'y' ->
          run == 1
              ? Integer.toString(t.getYear() % 100)
              : pad(run == 2 ? t.getYear() % 100 : t.getYear(), run);
      case 'M' ->
          switch (run) {
            case 1, 2 -> pad(t.getMonthValue(), run);
            case 3 -> t.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH);
            default -> t.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
          };
      case 'd' ->
          switch (run) {
            case 1, 2 -> pad(t.getDayOfMonth(), run);
            case 3 -> t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ENGLISH);
            default -> t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
          };
      case 'H' -> run > 2 ? "" : pad(t.getHour(), run);
      case 'h' -> run > 2 ? "" : pad(t.getHour() % 12 == 0 ? 12 : t.getHour() % 12, run);
      case 'm' -> run > 2 ? "" : pad(t.getMinute(), run);
      case 's' -> run > 2 ? "" : pad(t.getSecond(), run);
      case 'f', 'F' -> {
        if (run > 7) {
          yield "";
        }
        // the fraction of the second only: the whole seconds are the 's' specifier's
        @SuppressWarnings("JavaLocalDateTimeGetNano")
        int nanos = t.getNano();
        String digits = String.format(Locale.ROOT, "%09d", nanos).substring(0, run);
        if (c == 'F') {
          int end = digits.length();
          while (end > 0 && digits.charAt(end - 1) == '0') {
            end--;
          }
          digits = digits.substring(0, end);
        }
        yield digits;
      }
      case 't' -> t.getHour() < 12 ? (run == 1 ? "A" : "AM") : (run == 1 ? "P" : "PM");
      case 'z' -> run == 1 ? "+0" : run == 2 ? "+00" : "+00:00";
      case 'K' -> "Z".repeat(run);
      default -> null;
    };
  }

  private static String pad(int value, int width) {
    String s = Integer.toString(value);
    return s.length() >= width ? s : "0".repeat(width - s.length()) + s;
  }
}
