package io.cosmolab.query.functions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.cosmolab.query.QueryException;
import io.cosmolab.query.exec.Values;
import java.util.List;
import java.util.regex.Matcher;

/**
 * The string functions that cut a string at a delimiter or a regular expression: SUBSTRINGAFTER,
 * SUBSTRINGBEFORE, LASTSUBSTRINGAFTER, LASTSUBSTRINGBEFORE, REGEXEXTRACT, REGEXEXTRACTALL,
 * REGEXREPLACE and REGEXREPLACEALL (the reference's newer pages, whose examples are golden cases).
 *
 * <p>Assumptions [A], where the pages say nothing: a delimiter that is not found, or an empty one,
 * gives undefined; REGEXEXTRACT with no match, or a group the pattern does not have, gives
 * undefined, and REGEXEXTRACTALL an empty array; REGEXREPLACE with no match gives the string
 * unchanged, and the replacement may name groups as {@code $1}; an invalid pattern gives undefined,
 * as REGEXMATCH's does; arguments that are not strings (or a group that is not a whole number) give
 * undefined.
 */
final class StringParts {
  private StringParts() {}

  static void register(SystemFunctions.Registrar r) {
    r.def("SUBSTRINGAFTER", 2, 2, (a, c) -> cut(a, false, true));
    r.def("SUBSTRINGBEFORE", 2, 2, (a, c) -> cut(a, false, false));
    r.def("LASTSUBSTRINGAFTER", 2, 2, (a, c) -> cut(a, true, true));
    r.def("LASTSUBSTRINGBEFORE", 2, 2, (a, c) -> cut(a, true, false));
    r.def(
        "REGEXEXTRACT",
        2,
        4,
        (a, c) -> {
          Matcher m = matcher(a, c);
          Integer group = group(a);
          if (m == null || group == null || group > m.groupCount() || !find(m, a)) {
            return null;
          }
          String found = m.group(group);
          return found == null ? null : Values.text(found);
        });
    r.def(
        "REGEXEXTRACTALL",
        2,
        4,
        (a, c) -> {
          Matcher m = matcher(a, c);
          Integer group = group(a);
          if (m == null || group == null || group > m.groupCount()) {
            return null;
          }
          ArrayNode out = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
          while (find(m, a)) {
            String found = m.group(group);
            if (found != null) {
              out.add(found);
            }
          }
          return out;
        });
    r.def("REGEXREPLACE", 3, 4, (a, c) -> replace(a, c, false));
    r.def("REGEXREPLACEALL", 3, 4, (a, c) -> replace(a, c, true));
  }

  private static JsonNode cut(List<JsonNode> a, boolean last, boolean after) {
    if (!isString(a.get(0)) || !isString(a.get(1)) || a.get(1).textValue().isEmpty()) {
      return null;
    }
    String s = a.get(0).textValue();
    String d = a.get(1).textValue();
    int at = last ? s.lastIndexOf(d) : s.indexOf(d);
    if (at < 0) {
      return null;
    }
    return Values.text(after ? s.substring(at + d.length()) : s.substring(0, at));
  }

  /** The matcher of (subject, pattern [, options]) over the subject; null when undefined. */
  private static Matcher matcher(List<JsonNode> a, SystemFunctions.Context c) {
    return matcher(a.get(0), a.get(1), a.size() > 2 ? a.get(2) : null, c);
  }

  private static Matcher matcher(
      JsonNode subject, JsonNode pattern, JsonNode options, SystemFunctions.Context c) {
    if (!isString(subject) || !isString(pattern) || (options != null && !isString(options))) {
      return null;
    }
    return RegexMatch.matcher(
        subject.textValue(), pattern.textValue(), options == null ? "" : options.textValue(), c);
  }

  /** REGEXEXTRACT's group: its fourth argument, 0 (the whole match) without one; null if bad. */
  private static Integer group(List<JsonNode> a) {
    if (a.size() < 4) {
      return 0;
    }
    JsonNode g = a.get(3);
    if (g == null || !g.isNumber() || g.doubleValue() != Math.rint(g.doubleValue())) {
      return null;
    }
    return g.intValue() < 0 ? null : g.intValue();
  }

  private static JsonNode replace(List<JsonNode> a, SystemFunctions.Context c, boolean all) {
    if (!isString(a.get(2))) {
      return null;
    }
    Matcher m = matcher(a.get(0), a.get(1), a.size() > 3 ? a.get(3) : null, c);
    if (m == null) {
      return null;
    }
    try {
      String replacement = a.get(2).textValue();
      // built a match at a time, each piece charged as it is written, so a replacement that
      // multiplies the text stops at the work limit instead of filling the heap
      StringBuilder out = new StringBuilder();
      int written = 0;
      while (find(m, a)) {
        m.appendReplacement(out, replacement);
        c.spend(out.length() - written);
        written = out.length();
        if (!all) {
          break;
        }
      }
      m.appendTail(out);
      c.spend(out.length() - written);
      return Values.text(out.toString());
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      throw new QueryException(
          "SC2200",
          "the replacement '" + a.get(2).textValue() + "' names a group the pattern does not have");
    }
  }

  /** The next match; a pattern that backtracks past the stack is the same 400 as REGEXMATCH's. */
  private static boolean find(Matcher m, List<JsonNode> a) {
    try {
      return m.find();
    } catch (StackOverflowError e) {
      throw RegexMatch.tooComplex(a.get(1).textValue(), a.get(0).textValue());
    }
  }

  private static boolean isString(JsonNode v) {
    return v != null && v.isTextual();
  }
}
