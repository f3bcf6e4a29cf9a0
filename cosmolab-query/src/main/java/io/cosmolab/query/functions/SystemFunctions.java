package io.cosmolab.query.functions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.query.exec.Values;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The built-in (system) functions of the query language, by family, from the public reference
 * ("System functions" pages): type checking, string, mathematical (including the {@code Int*}
 * functions and {@code NumberBin}), array, date and time (on the injected clock), conditional
 * ({@code IIF}) and spatial.
 *
 * <p>Every function returns undefined (Java null) for arguments of the wrong type, as the service
 * does, rather than failing the query. The aggregates (COUNT, SUM, MIN, MAX, AVG, MAKELIST,
 * MAKESET) are not here: they work over groups and live in the executor.
 */
public final class SystemFunctions {
  private SystemFunctions() {}

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final com.fasterxml.jackson.databind.ObjectReader WHOLE_VALUE =
      MAPPER
          .reader()
          .with(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  /** What a function may read besides its arguments. */
  public interface Context {
    /** The injected clock. */
    Instant now();

    /** Wraps text so that regular-expression matching counts against the query's work budget. */
    CharSequence budgeted(String text);

    /** Counts {@code units} of work against the query's budget. */
    void spend(long units);

    /** The next number of RAND, in [0, 1), from the query's seeded source. */
    double random();

    /**
     * True when the container's {@code geospatialConfig} is {@code Geometry}: the spatial functions
     * then work in the plane, not on the Earth.
     */
    default boolean geometry() {
      return false;
    }
  }

  /** The characters {@code \\s} matches in a Java regex: LTRIM and RTRIM remove these. */
  private static boolean isRegexSpace(char ch) {
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\u000B' || ch == '\f' || ch == '\r';
  }

  private static String trimLeading(String s) {
    int i = 0;
    while (i < s.length() && isRegexSpace(s.charAt(i))) {
      i++;
    }
    return s.substring(i);
  }

  private static String trimTrailing(String s) {
    int end = s.length();
    while (end > 0 && isRegexSpace(s.charAt(end - 1))) {
      end--;
    }
    return s.substring(0, end);
  }

  /** A function implementation. */
  @FunctionalInterface
  public interface Impl {
    JsonNode apply(List<JsonNode> args, Context ctx);
  }

  /** A registered function: its arity and implementation. */
  public record Function(String name, int minArgs, int maxArgs, Impl impl) {}

  private static final Map<String, Function> FUNCTIONS = new HashMap<>();

  /** The aggregate function names. */
  public static final java.util.Set<String> AGGREGATES =
      java.util.Set.of("COUNT", "SUM", "MIN", "MAX", "AVG", "MAKELIST", "MAKESET");

  /** The function with this (upper-case) name, or null. */
  public static Function lookup(String upperName) {
    return FUNCTIONS.get(upperName);
  }

  private static void def(String name, int min, int max, Impl impl) {
    FUNCTIONS.put(name.toUpperCase(Locale.ROOT), new Function(name, min, max, impl));
  }

  private static boolean isString(JsonNode v) {
    return v != null && v.isTextual();
  }

  private static boolean isNumber(JsonNode v) {
    return v != null && v.isNumber();
  }

  private static boolean allNumbers(List<JsonNode> args) {
    for (JsonNode a : args) {
      if (!isNumber(a)) {
        return false;
      }
    }
    return true;
  }

  private static JsonNode math1(List<JsonNode> a, java.util.function.DoubleUnaryOperator f) {
    return isNumber(a.get(0)) ? Values.number(f.applyAsDouble(a.get(0).doubleValue())) : null;
  }

  private static boolean ignoreCase(List<JsonNode> a, int at) {
    return a.size() > at && a.get(at) != null && a.get(at).isBoolean() && a.get(at).booleanValue();
  }

  /** The sum (0), average (1) or median (2) of an array of numbers; undefined otherwise. */
  private static JsonNode arrayNumbers(JsonNode array, int what) {
    if (array == null || !array.isArray()) {
      return null;
    }
    double[] values = new double[array.size()];
    double sum = 0;
    for (int i = 0; i < values.length; i++) {
      JsonNode v = array.get(i);
      if (!isNumber(v)) {
        return null;
      }
      values[i] = v.doubleValue();
      sum += values[i];
    }
    if (what == 0) {
      return Values.number(sum);
    }
    if (values.length == 0) {
      return null;
    }
    if (what == 1) {
      return Values.number(sum / values.length);
    }
    java.util.Arrays.sort(values);
    int mid = values.length / 2;
    return Values.number(
        values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2);
  }

  /** The greatest or least primitive of an array in the cross-type order; undefined otherwise. */
  private static JsonNode arrayExtreme(JsonNode array, boolean max) {
    if (array == null || !array.isArray()) {
      return null;
    }
    JsonNode best = null;
    for (JsonNode v : array) {
      if (v.isContainerNode()) {
        return null;
      }
      int cmp = best == null ? 0 : Values.ORDER.compare(v, best);
      if (best == null || (max ? cmp > 0 : cmp < 0)) {
        best = v;
      }
    }
    return best;
  }

  private static JsonNode trim(
      List<JsonNode> a,
      boolean leading,
      boolean trailing,
      java.util.function.UnaryOperator<String> whitespace) {
    if (!isString(a.get(0))) {
      return null;
    }
    if (a.size() < 2) {
      return Values.text(whitespace.apply(a.get(0).textValue()));
    }
    if (!isString(a.get(1))) {
      return null;
    }
    String s = a.get(0).textValue();
    String chars = a.get(1).textValue();
    int start = 0;
    int end = s.length();
    while (leading && start < end && chars.indexOf(s.charAt(start)) >= 0) {
      start++;
    }
    while (trailing && end > start && chars.indexOf(s.charAt(end - 1)) >= 0) {
      end--;
    }
    return Values.text(s.substring(start, end));
  }

  /**
   * Within the 64-bit signed range, as doubles see it: 9223372036854775807 reads as 2^63, and the
   * reference's examples count it (and -2^63) as integers, 18446744073709551615 not [D].
   */
  private static boolean isInteger(JsonNode v) {
    return isNumber(v)
        && v.doubleValue() == Math.rint(v.doubleValue())
        && Math.abs(v.doubleValue()) <= 0x1p63;
  }

  static {
    // ---------------------------------------------------------------- type checking
    def("IS_ARRAY", 1, 1, (a, c) -> Values.bool(a.get(0) != null && a.get(0).isArray()));
    Impl isBool = (a, c) -> Values.bool(a.get(0) != null && a.get(0).isBoolean());
    def("IS_BOOL", 1, 1, isBool);
    // Not in the reference, but the service takes it: the Java SDK's ORDER BY resume filter writes
    // IS_BOOLEAN (OrderByDocumentQueryExecutionContext.IsSystemFunctions) for the types a page
    // resumes past, so resuming ORDER BY ... DESC over numbers or strings sends it.
    def("IS_BOOLEAN", 1, 1, isBool);
    def("IS_DEFINED", 1, 1, (a, c) -> Values.bool(a.get(0) != null));
    def("IS_NULL", 1, 1, (a, c) -> Values.bool(a.get(0) != null && a.get(0).isNull()));
    def("IS_NUMBER", 1, 1, (a, c) -> Values.bool(isNumber(a.get(0))));
    def("IS_OBJECT", 1, 1, (a, c) -> Values.bool(a.get(0) != null && a.get(0).isObject()));
    def("IS_STRING", 1, 1, (a, c) -> Values.bool(isString(a.get(0))));
    def(
        "IS_PRIMITIVE",
        1,
        1,
        (a, c) -> Values.bool(a.get(0) != null && !a.get(0).isContainerNode()));
    def("IS_INTEGER", 1, 1, (a, c) -> Values.bool(isInteger(a.get(0))));
    def(
        "IS_FINITE_NUMBER",
        1,
        1,
        (a, c) -> Values.bool(isNumber(a.get(0)) && Double.isFinite(a.get(0).doubleValue())));

    // ---------------------------------------------------------------- strings
    def(
        "CONCAT",
        2,
        Integer.MAX_VALUE,
        (a, c) -> {
          StringBuilder b = new StringBuilder();
          for (JsonNode x : a) {
            if (!isString(x)) {
              return null;
            }
            b.append(x.textValue());
          }
          return Values.text(b.toString());
        });
    def("CONTAINS", 2, 3, (a, c) -> stringTest(a, (s, t) -> s.contains(t)));
    def("STARTSWITH", 2, 3, (a, c) -> stringTest(a, (s, t) -> s.startsWith(t)));
    def("ENDSWITH", 2, 3, (a, c) -> stringTest(a, (s, t) -> s.endsWith(t)));
    def("STRINGEQUALS", 2, 3, (a, c) -> stringTest(a, (s, t) -> s.equals(t)));
    // CONTAINS_ANY(s, e1, ... eN) is CONTAINS(s, e1) OR ... OR CONTAINS(s, eN), _ALL the same with
    // AND, _CI with each CONTAINS ignoring case [D "CONTAINS_ANY_CI"]: three-valued, so an
    // undefined term decides only what the others leave open
    def("CONTAINS_ANY", 2, Integer.MAX_VALUE, (a, c) -> containsStrings(a, false, false));
    def("CONTAINS_ANY_CI", 2, Integer.MAX_VALUE, (a, c) -> containsStrings(a, false, true));
    def("CONTAINS_ALL", 2, Integer.MAX_VALUE, (a, c) -> containsStrings(a, true, false));
    def("CONTAINS_ALL_CI", 2, Integer.MAX_VALUE, (a, c) -> containsStrings(a, true, true));
    // the reference's names for the case-sensitive forms [D "CONTAINS_ALL_CS", "CONTAINS_ANY_CS"]
    def("CONTAINS_ANY_CS", 2, Integer.MAX_VALUE, (a, c) -> containsStrings(a, false, false));
    def("CONTAINS_ALL_CS", 2, Integer.MAX_VALUE, (a, c) -> containsStrings(a, true, false));
    def(
        "INDEX_OF",
        2,
        3,
        (a, c) -> {
          if (!isString(a.get(0)) || !isString(a.get(1))) {
            return null;
          }
          int from = a.size() > 2 && isNumber(a.get(2)) ? a.get(2).intValue() : 0;
          return Values.number(
              a.get(0).textValue().indexOf(a.get(1).textValue(), Math.max(0, from)));
        });
    // the last occurrence that ends at or before the optional position: the reference's examples
    // give LASTINDEXOF("abcdeabc", "abc", 6) = 0 and (…, 7) = 5 [D "LASTINDEXOF"]
    def(
        "LASTINDEXOF",
        2,
        3,
        (a, c) -> {
          if (!isString(a.get(0)) || !isString(a.get(1)) || (a.size() > 2 && !isNumber(a.get(2)))) {
            return null;
          }
          String text = a.get(0).textValue();
          String sought = a.get(1).textValue();
          long from =
              a.size() > 2 ? (long) a.get(2).doubleValue() - sought.length() + 1 : text.length();
          if (from < 0) {
            return Values.number(-1);
          }
          return Values.number(text.lastIndexOf(sought, (int) Math.min(from, text.length())));
        });
    def(
        "LEFT",
        2,
        2,
        (a, c) ->
            isString(a.get(0)) && isNumber(a.get(1))
                ? Values.text(
                    a.get(0)
                        .textValue()
                        .substring(0, clamp(a.get(1).intValue(), 0, a.get(0).textValue().length())))
                : null);
    def(
        "RIGHT",
        2,
        2,
        (a, c) -> {
          if (!isString(a.get(0)) || !isNumber(a.get(1))) {
            return null;
          }
          String s = a.get(0).textValue();
          int n = clamp(a.get(1).intValue(), 0, s.length());
          return Values.text(s.substring(s.length() - n));
        });
    def(
        "LENGTH",
        1,
        1,
        (a, c) -> isString(a.get(0)) ? Values.number(a.get(0).textValue().length()) : null);
    def("LOWER", 1, 1, (a, c) -> str(a, s -> s.toLowerCase(Locale.ROOT)));
    def("UPPER", 1, 1, (a, c) -> str(a, s -> s.toUpperCase(Locale.ROOT)));
    // a loop, not "\\s+$": that regex backtracks over every run of spaces, quadratic on input
    // such as 100,000 spaces and a letter
    // With a second argument, any of its characters are trimmed instead of whitespace [D "TRIM":
    // TRIM("-_-AdventureWorks-_-", "-_") is "AdventureWorks"]; LTRIM and RTRIM alike [H]
    def("LTRIM", 1, 2, (a, c) -> trim(a, true, false, SystemFunctions::trimLeading));
    def("RTRIM", 1, 2, (a, c) -> trim(a, false, true, SystemFunctions::trimTrailing));
    def("TRIM", 1, 2, (a, c) -> trim(a, true, true, String::strip));
    def("REVERSE", 1, 1, (a, c) -> str(a, s -> new StringBuilder(s).reverse().toString()));
    def(
        "REPLACE",
        3,
        3,
        (a, c) ->
            isString(a.get(0)) && isString(a.get(1)) && isString(a.get(2))
                ? Values.text(
                    a.get(1).textValue().isEmpty()
                        ? a.get(0).textValue()
                        : a.get(0).textValue().replace(a.get(1).textValue(), a.get(2).textValue()))
                : null);
    def(
        "REPLICATE",
        2,
        2,
        (a, c) -> {
          if (!isString(a.get(0)) || !isNumber(a.get(1)) || a.get(1).intValue() < 0) {
            return null;
          }
          long total = (long) a.get(0).textValue().length() * a.get(1).intValue();
          if (total > 10_000) {
            return null; // the service limits the result to 10,000 characters
          }
          return Values.text(a.get(0).textValue().repeat(a.get(1).intValue()));
        });
    def(
        "SUBSTRING",
        3,
        3,
        (a, c) -> {
          if (!isString(a.get(0)) || !isNumber(a.get(1)) || !isNumber(a.get(2))) {
            return null;
          }
          String s = a.get(0).textValue();
          int start = clamp(a.get(1).intValue(), 0, s.length());
          int end = clamp(start + Math.max(0, a.get(2).intValue()), start, s.length());
          return Values.text(s.substring(start, end));
        });
    def(
        "REGEXMATCH",
        2,
        3,
        (a, c) -> {
          if (!isString(a.get(0)) || !isString(a.get(1))) {
            return null;
          }
          if (a.size() > 2 && !isString(a.get(2))) {
            return null;
          }
          String modifiers = a.size() > 2 ? a.get(2).textValue() : "";
          Boolean found = RegexMatch.find(a.get(0).textValue(), a.get(1).textValue(), modifiers, c);
          return found == null ? null : Values.bool(found);
        });
    def(
        "TOSTRING",
        1,
        1,
        (a, c) -> {
          JsonNode v = a.get(0);
          if (v == null) {
            return null;
          }
          if (v.isNumber() && !Double.isFinite(v.doubleValue())) {
            return Values.text(Double.toString(v.doubleValue())); // NaN, Infinity, -Infinity
          }
          return Values.text(v.isTextual() ? v.textValue() : v.toString());
        });
    def("STRINGTOARRAY", 1, 1, (a, c) -> parsed(a, JsonNode::isArray));
    def("STRINGTOOBJECT", 1, 1, (a, c) -> parsed(a, JsonNode::isObject));
    def("STRINGTOBOOLEAN", 1, 1, (a, c) -> parsed(a, JsonNode::isBoolean));
    def("STRINGTONULL", 1, 1, (a, c) -> parsed(a, JsonNode::isNull));
    def(
        "STRINGTONUMBER",
        1,
        1,
        (a, c) -> {
          JsonNode n = parsed(a, JsonNode::isNumber);
          // written as any other number: "1.000000" is 1 [D "StringToNumber"]
          return n == null || n.isIntegralNumber() ? n : Values.number(n.doubleValue());
        });
    def(
        "STRINGJOIN",
        2,
        2,
        (a, c) -> {
          if (a.get(0) == null || !a.get(0).isArray() || !isString(a.get(1))) {
            return null;
          }
          List<String> parts = new ArrayList<>();
          for (JsonNode e : a.get(0)) {
            if (!isString(e)) {
              return null;
            }
            parts.add(e.textValue());
          }
          return Values.text(String.join(a.get(1).textValue(), parts));
        });
    def(
        "STRINGSPLIT",
        2,
        2,
        (a, c) -> {
          if (!isString(a.get(0)) || !isString(a.get(1))) {
            return null;
          }
          ArrayNode out = NODES.arrayNode();
          if (a.get(1).textValue().isEmpty()) { // the whole string [D "StringSplit"]
            return out.add(a.get(0).textValue());
          }
          for (String s : a.get(0).textValue().split(Pattern.quote(a.get(1).textValue()), -1)) {
            out.add(s);
          }
          return out;
        });

    // ---------------------------------------------------------------- mathematics
    def("ABS", 1, 1, (a, c) -> math1(a, Math::abs));
    def("ACOS", 1, 1, (a, c) -> math1(a, Math::acos));
    def("ASIN", 1, 1, (a, c) -> math1(a, Math::asin));
    def("ATAN", 1, 1, (a, c) -> math1(a, Math::atan));
    // ATN2(y, x): the reference's example ATN2(35.175643, 129.44) is 0.265344532064832 [D]
    def(
        "ATN2",
        2,
        2,
        (a, c) ->
            allNumbers(a)
                ? Values.number(Math.atan2(a.get(0).doubleValue(), a.get(1).doubleValue()))
                : null);
    def("CEILING", 1, 1, (a, c) -> math1(a, Math::ceil));
    def("COS", 1, 1, (a, c) -> math1(a, Math::cos));
    def("COT", 1, 1, (a, c) -> math1(a, x -> 1 / Math.tan(x)));
    def("DEGREES", 1, 1, (a, c) -> math1(a, Math::toDegrees));
    def("EXP", 1, 1, (a, c) -> math1(a, Math::exp));
    def("FLOOR", 1, 1, (a, c) -> math1(a, Math::floor));
    def(
        "LOG",
        1,
        2,
        (a, c) -> {
          if (!allNumbers(a)) {
            return null;
          }
          double x = a.get(0).doubleValue();
          // with a base, as the service computes it: LOG(2, 10) is exactly LOG10(2) [D "LOG"]
          return Values.number(
              a.size() == 2 ? Math.log10(x) / Math.log10(a.get(1).doubleValue()) : Math.log(x));
        });
    def("LOG10", 1, 1, (a, c) -> math1(a, Math::log10));
    def("PI", 0, 0, (a, c) -> Values.number(Math.PI));
    def(
        "POWER",
        2,
        2,
        (a, c) ->
            allNumbers(a)
                ? Values.number(Math.pow(a.get(0).doubleValue(), a.get(1).doubleValue()))
                : null);
    def("RADIANS", 1, 1, (a, c) -> math1(a, Math::toRadians));
    def("RAND", 0, 0, (a, c) -> Values.number(c.random()));
    def(
        "ROUND",
        1,
        1,
        (a, c) -> math1(a, x -> Math.signum(x) * Math.floor(Math.abs(x) + 0.5))); // half away
    def("SIGN", 1, 1, (a, c) -> math1(a, Math::signum));
    def("SIN", 1, 1, (a, c) -> math1(a, Math::sin));
    def("SQRT", 1, 1, (a, c) -> math1(a, Math::sqrt));
    def("SQUARE", 1, 1, (a, c) -> math1(a, x -> x * x));
    def("TAN", 1, 1, (a, c) -> math1(a, Math::tan));
    def("TRUNC", 1, 1, (a, c) -> math1(a, x -> x < 0 ? Math.ceil(x) : Math.floor(x)));
    def(
        "NUMBERBIN",
        1,
        2,
        (a, c) -> {
          if (!allNumbers(a)) {
            return null;
          }
          double size = a.size() == 2 ? a.get(1).doubleValue() : 1;
          // undefined for a bin of 0 only: a negative bin floors too, NumberBin(37.752, -100) =
          // floor(-0.37752) * -100 = 100, as the reference's example shows [D "NumberBin"]
          if (size == 0) {
            return null;
          }
          return Values.number(Math.floor(a.get(0).doubleValue() / size) * size);
        });
    intOp("INTADD", (x, y) -> x + y);
    intOp("INTSUB", (x, y) -> x - y);
    intOp("INTMUL", (x, y) -> x * y);
    intOp("INTDIV", (x, y) -> y == 0 ? null : x / y);
    intOp("INTMOD", (x, y) -> y == 0 ? null : x % y);
    intOp("INTBITAND", (x, y) -> x & y);
    intOp("INTBITOR", (x, y) -> x | y);
    intOp("INTBITXOR", (x, y) -> x ^ y);
    intOp("INTBITLEFTSHIFT", (x, y) -> x << y);
    intOp("INTBITRIGHTSHIFT", (x, y) -> x >> y);
    def(
        "INTBITNOT",
        1,
        1,
        (a, c) -> isInteger(a.get(0)) ? Values.number(~a.get(0).longValue()) : null);

    // ---------------------------------------------------------------- arrays
    def(
        "ARRAY_CONCAT",
        2,
        Integer.MAX_VALUE,
        (a, c) -> {
          ArrayNode out = NODES.arrayNode();
          for (JsonNode x : a) {
            if (x == null || !x.isArray()) {
              return null;
            }
            out.addAll((ArrayNode) x);
          }
          return out;
        });
    def(
        "ARRAY_CONTAINS",
        2,
        3,
        (a, c) -> {
          if (a.get(0) == null || !a.get(0).isArray()) {
            return null;
          }
          boolean partial = a.size() > 2 && Values.isTrue(a.get(2));
          for (JsonNode e : a.get(0)) {
            if (partial ? partialMatch(e, a.get(1)) : Values.deepEquals(e, a.get(1))) {
              return Values.bool(true);
            }
          }
          return Values.bool(false);
        });
    def("ARRAY_CONTAINS_ANY", 2, Integer.MAX_VALUE, (a, c) -> containsSome(a, false));
    def("ARRAY_CONTAINS_ALL", 2, Integer.MAX_VALUE, (a, c) -> containsSome(a, true));
    // ARRAY_SUM, ARRAY_AVG, ARRAY_MEDIAN: numbers only, else undefined [D "ARRAY_SUM"]; the
    // reference's examples: ARRAY_SUM([1, 2, 3, 4]) = 10, of strings or a mix undefined. AVG and
    // MEDIAN of no numbers are undefined [H].
    def("ARRAY_SUM", 1, 1, (a, c) -> arrayNumbers(a.get(0), 0));
    def("ARRAY_AVG", 1, 1, (a, c) -> arrayNumbers(a.get(0), 1));
    def("ARRAY_MEDIAN", 1, 1, (a, c) -> arrayNumbers(a.get(0), 2));
    // ARRAY_MAX, ARRAY_MIN: numbers, strings, booleans and nulls, compared across types in the
    // order null < booleans < numbers < strings [D "ARRAY_MAX"]; ARRAY_MIN mirrors it [H]
    def("ARRAY_MAX", 1, 1, (a, c) -> arrayExtreme(a.get(0), true));
    def("ARRAY_MIN", 1, 1, (a, c) -> arrayExtreme(a.get(0), false));
    def(
        "ARRAY_LENGTH",
        1,
        1,
        (a, c) -> a.get(0) != null && a.get(0).isArray() ? Values.number(a.get(0).size()) : null);
    def(
        "ARRAY_SLICE",
        2,
        3,
        (a, c) -> {
          if (a.get(0) == null || !a.get(0).isArray() || !isNumber(a.get(1))) {
            return null;
          }
          int n = a.get(0).size();
          int start = a.get(1).intValue();
          start = start < 0 ? Math.max(0, n + start) : Math.min(start, n);
          int length = a.size() > 2 && isNumber(a.get(2)) ? a.get(2).intValue() : n;
          int end = length < 0 ? Math.max(start, n + length) : Math.min(n, start + length);
          ArrayNode out = NODES.arrayNode();
          for (int i = start; i < end; i++) {
            out.add(a.get(0).get(i));
          }
          return out;
        });
    def("SETINTERSECT", 2, 2, (a, c) -> setOp(a, true));
    def("SETUNION", 2, 2, (a, c) -> setOp(a, false));
    // the first array's distinct elements that the second lacks [D "SETDIFFERENCE"]
    def(
        "SETDIFFERENCE",
        2,
        2,
        (a, c) -> {
          if (a.get(0) == null || !a.get(0).isArray() || a.get(1) == null || !a.get(1).isArray()) {
            return null;
          }
          ArrayNode out = NODES.arrayNode();
          for (JsonNode x : a.get(0)) {
            if (!contains(out, x) && !contains(a.get(1), x)) {
              out.add(x);
            }
          }
          return out;
        });
    // equal once duplicates are removed, in any order [D "SETEQUAL"]
    def(
        "SETEQUAL",
        2,
        2,
        (a, c) -> {
          if (a.get(0) == null || !a.get(0).isArray() || a.get(1) == null || !a.get(1).isArray()) {
            return null;
          }
          for (JsonNode x : a.get(0)) {
            if (!contains(a.get(1), x)) {
              return Values.bool(false);
            }
          }
          for (JsonNode x : a.get(1)) {
            if (!contains(a.get(0), x)) {
              return Values.bool(false);
            }
          }
          return Values.bool(true);
        });
    def(
        "CHOOSE",
        2,
        Integer.MAX_VALUE,
        (a, c) -> {
          if (!isNumber(a.get(0))) {
            return null;
          }
          int i = a.get(0).intValue();
          return i >= 1 && i < a.size() ? a.get(i) : null;
        });
    def(
        "OBJECTTOARRAY",
        1,
        3,
        (a, c) -> {
          // ObjectToArray(object [, keyName [, valueName]]): "k" and "v" unless named
          if (a.get(0) == null
              || !a.get(0).isObject()
              || (a.size() > 1 && !isString(a.get(1)))
              || (a.size() > 2 && !isString(a.get(2)))) {
            return null;
          }
          String k = a.size() > 1 ? a.get(1).textValue() : "k";
          String v = a.size() > 2 ? a.get(2).textValue() : "v";
          ArrayNode out = NODES.arrayNode();
          for (Map.Entry<String, JsonNode> e : a.get(0).properties()) {
            ObjectNode kv = out.addObject();
            kv.put(k, e.getKey());
            kv.set(v, e.getValue());
          }
          return out;
        });

    // ---------------------------------------------------------------- conditional
    def("IIF", 3, 3, (a, c) -> Values.isTrue(a.get(0)) ? a.get(1) : a.get(2));

    DateTimeFunctions.register(SystemFunctions::def);
    SpatialFunctions.register(SystemFunctions::def);
    VectorSearch.register(SystemFunctions::def);
    StringParts.register(SystemFunctions::def);
    // DOCUMENTID(alias): the document's number within its container, from its _rid [D "DOCUMENTID":
    // "an integer value that is only unique within a single physical partition"]. [A] cosmolab's
    // RIDs keep the number in bytes 8-14, big-endian (ResourceIds.document); the service's example
    // (_rid 36ZyAPW+uN8NAAAAAAAAAA== is 13) keeps it little-endian, so the numbers differ
    def(
        "DOCUMENTID",
        1,
        1,
        (a, c) -> {
          JsonNode rid = a.get(0) == null ? null : a.get(0).get("_rid");
          if (rid == null || !rid.isTextual()) {
            return null;
          }
          byte[] bytes;
          try {
            bytes = java.util.Base64.getDecoder().decode(rid.textValue().replace('-', '/'));
          } catch (IllegalArgumentException e) {
            return null;
          }
          if (bytes.length < 16) {
            return null;
          }
          return Values.number(java.nio.ByteBuffer.wrap(bytes, 8, 8).getLong() >>> 8);
        });
    FullText.register(SystemFunctions::def);
    // RRF(score, score, ... [, weights]): only in ORDER BY RANK, where the executor fuses the ranks
    def("RRF", 1, Integer.MAX_VALUE, FullText.impl("RRF", null));
  }

  /** Registers a function; used by the families defined in other classes. */
  interface Registrar {
    void def(String name, int min, int max, Impl impl);
  }

  private interface LongOp {
    Long apply(long x, long y);
  }

  private static void intOp(String name, LongOp op) {
    def(
        name,
        2,
        2,
        (a, c) -> {
          if (!isInteger(a.get(0)) || !isInteger(a.get(1))) {
            return null;
          }
          Long r = op.apply(a.get(0).longValue(), a.get(1).longValue());
          return r == null ? null : NODES.numberNode(r.longValue());
        });
  }

  private interface StringTest {
    boolean test(String s, String t);
  }

  private static JsonNode stringTest(List<JsonNode> a, StringTest test) {
    if (!isString(a.get(0)) || !isString(a.get(1))) {
      return null;
    }
    String s = a.get(0).textValue();
    String t = a.get(1).textValue();
    if (ignoreCase(a, 2)) {
      s = s.toLowerCase(Locale.ROOT);
      t = t.toLowerCase(Locale.ROOT);
    }
    return Values.bool(test.test(s, t));
  }

  /** The OR ({@code all} false) or AND of CONTAINS(a[0], a[i], ignoreCase), three-valued. */
  private static JsonNode containsStrings(List<JsonNode> a, boolean all, boolean ignoreCase) {
    boolean undefined = false;
    for (int i = 1; i < a.size(); i++) {
      if (!isString(a.get(0)) || !isString(a.get(i))) {
        undefined = true;
        continue;
      }
      String s = a.get(0).textValue();
      String t = a.get(i).textValue();
      boolean found =
          ignoreCase
              ? s.toLowerCase(Locale.ROOT).contains(t.toLowerCase(Locale.ROOT))
              : s.contains(t);
      if (found != all) {
        return Values.bool(found); // a true decides ANY, a false decides ALL
      }
    }
    return undefined ? null : Values.bool(all);
  }

  private static JsonNode str(List<JsonNode> a, java.util.function.UnaryOperator<String> f) {
    return isString(a.get(0)) ? Values.text(f.apply(a.get(0).textValue())) : null;
  }

  private static JsonNode parsed(List<JsonNode> a, java.util.function.Predicate<JsonNode> kind) {
    if (!isString(a.get(0))) {
      return null;
    }
    try {
      // the whole string must be the one value: "99     54" is no number [D "StringToNumber"]
      JsonNode n = WHOLE_VALUE.readTree(a.get(0).textValue().strip());
      return n != null && !n.isMissingNode() && kind.test(n) ? n : null;
    } catch (IOException e) {
      return null;
    }
  }

  private static int clamp(int v, int lo, int hi) {
    return Math.max(lo, Math.min(hi, v));
  }

  /** Partial match for ARRAY_CONTAINS: every property of {@code pattern} matches in {@code e}. */
  private static boolean partialMatch(JsonNode e, JsonNode pattern) {
    if (pattern == null || !pattern.isObject() || e == null || !e.isObject()) {
      return Values.deepEquals(e, pattern);
    }
    for (Map.Entry<String, JsonNode> p : pattern.properties()) {
      if (!partialMatch(e.get(p.getKey()), p.getValue())) {
        return false;
      }
    }
    return true;
  }

  /**
   * ARRAY_CONTAINS_ANY (any) and _ALL (all). An undefined search value matches nothing, and makes
   * the answer undefined when the defined ones do not decide it: ANY([1, 2], 5, undefined) and
   * ALL([1, 2], 1, undefined) are undefined, ALL([1, 2], 5, undefined) is false, as the reference's
   * examples show [D].
   */
  private static JsonNode containsSome(List<JsonNode> a, boolean all) {
    if (a.get(0) == null || !a.get(0).isArray()) {
      return null;
    }
    boolean undefinedSought = false;
    for (int i = 1; i < a.size(); i++) {
      if (a.get(i) == null) {
        undefinedSought = true;
        continue;
      }
      boolean found = contains(a.get(0), a.get(i));
      if (found && !all) {
        return Values.bool(true);
      }
      if (!found && all) {
        return Values.bool(false);
      }
    }
    return undefinedSought ? null : Values.bool(all);
  }

  private static boolean contains(JsonNode array, JsonNode v) {
    for (JsonNode x : array) {
      if (Values.deepEquals(x, v)) {
        return true;
      }
    }
    return false;
  }

  private static JsonNode setOp(List<JsonNode> a, boolean intersect) {
    if (a.get(0) == null || !a.get(0).isArray() || a.get(1) == null || !a.get(1).isArray()) {
      return null;
    }
    ArrayNode out = NODES.arrayNode();
    // an intersection keeps the second array's order, a union the first's, then the second's
    // [D "SetIntersect": SetIntersect([1, 2, 3, 4], ["A", 1]) is ["A", 1]]
    ArrayNode first = (ArrayNode) (intersect ? a.get(1) : a.get(0));
    ArrayNode second = (ArrayNode) (intersect ? a.get(0) : a.get(1));
    java.util.function.BiPredicate<ArrayNode, JsonNode> has =
        (arr, v) -> {
          for (JsonNode x : arr) {
            if (Values.deepEquals(x, v)) {
              return true;
            }
          }
          return false;
        };
    for (JsonNode x : first) {
      if (!has.test(out, x) && (!intersect || has.test(second, x))) {
        out.add(x);
      }
    }
    if (!intersect) {
      for (JsonNode x : second) {
        if (!has.test(out, x)) {
          out.add(x);
        }
      }
    }
    return out;
  }

  /** Parses an ISO-8601 UTC date-time as the service writes it, or null. */
  static Instant parseDateTime(String s) {
    try {
      if (s.endsWith("Z")) {
        return Instant.parse(s);
      }
      return LocalDateTime.parse(s).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /**
   * The service's format: {@code YYYY-MM-DDThh:mm:ss.fffffffZ} (seven fraction digits).
   *
   * @throws java.time.DateTimeException for a year outside 0001–9999, which that format (and the
   *     service's DateTime) cannot hold; the executor makes the function's result undefined
   */
  static String formatDateTime(Instant t) {
    LocalDateTime d = LocalDateTime.ofInstant(t, ZoneOffset.UTC);
    if (d.getYear() < 1 || d.getYear() > 9999) {
      throw new java.time.DateTimeException("year " + d.getYear() + " is outside 0001-9999");
    }
    return String.format(
        Locale.ROOT,
        "%04d-%02d-%02dT%02d:%02d:%02d.%07dZ",
        d.getYear(),
        d.getMonthValue(),
        d.getDayOfMonth(),
        d.getHour(),
        d.getMinute(),
        d.getSecond(),
        d.getNano() / 100);
  }
}
