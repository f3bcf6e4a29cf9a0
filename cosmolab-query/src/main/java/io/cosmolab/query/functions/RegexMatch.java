package io.cosmolab.query.functions;

import io.cosmolab.query.QueryException;
import java.util.Locale;

/**
 * {@code REGEXMATCH(text, pattern[, modifiers])}: whether the pattern occurs in the text.
 *
 * <p>The service's patterns are PCRE. Most are regular, and those run on RE2/J, which matches in
 * time linear in the text and never recurses per character — so {@code (a|aa)*c} over a 20 KB
 * string answers in microseconds instead of overflowing the stack, as {@code java.util.regex} does.
 * Only what RE2 cannot express (backreferences, lookaround, the {@code x} modifier) falls back to
 * {@code java.util.regex}, over text whose reads count against the query's work limit, and with a
 * stack overflow turned into a 400 that names the cause.
 */
final class RegexMatch {
  private RegexMatch() {}

  /**
   * @param modifiers the service's modifiers, any of {@code m s i x}
   * @return true or false, or null (undefined) when the pattern is not valid
   */
  static Boolean find(String text, String pattern, String modifiers, SystemFunctions.Context ctx) {
    int re2 = 0;
    int jdk = 0;
    boolean comments = false;
    for (int i = 0; i < modifiers.length(); i++) {
      char m = modifiers.charAt(i);
      switch (m) {
        case 'm' -> {
          re2 |= com.google.re2j.Pattern.MULTILINE;
          jdk |= java.util.regex.Pattern.MULTILINE;
        }
        case 's' -> {
          re2 |= com.google.re2j.Pattern.DOTALL;
          jdk |= java.util.regex.Pattern.DOTALL;
        }
        case 'i' -> {
          re2 |= com.google.re2j.Pattern.CASE_INSENSITIVE;
          jdk |= java.util.regex.Pattern.CASE_INSENSITIVE | java.util.regex.Pattern.UNICODE_CASE;
        }
        case 'x' -> {
          comments = true;
          jdk |= java.util.regex.Pattern.COMMENTS;
        }
        default ->
            throw new QueryException(
                "SC2200", "RegexMatch modifier '" + m + "' is not one of m, s, i, x");
      }
    }
    if (!comments) {
      com.google.re2j.Pattern linear = null;
      try {
        linear = com.google.re2j.Pattern.compile(pattern, re2);
      } catch (com.google.re2j.PatternSyntaxException e) {
        // not RE2 syntax: perhaps PCRE that only a backtracking engine has; try that below
      } catch (StackOverflowError e) {
        throw tooComplex(pattern, text);
      }
      if (linear != null) {
        ctx.spend(text.length()); // the scan reads each character a bounded number of times
        return linear.matcher(text).find();
      }
    }
    java.util.regex.Pattern backtracking;
    try {
      backtracking = java.util.regex.Pattern.compile(pattern, jdk);
    } catch (java.util.regex.PatternSyntaxException e) {
      return null;
    } catch (StackOverflowError e) {
      throw tooComplex(pattern, text);
    }
    try {
      return backtracking.matcher(ctx.budgeted(text)).find();
    } catch (StackOverflowError e) {
      throw tooComplex(pattern, text);
    }
  }

  /**
   * A matcher over {@code text} whose character reads count against the query's work budget (so a
   * backtracking pattern stops at the work limit), for the functions that need matches and groups
   * (REGEXEXTRACT, REGEXREPLACE and their ALL forms); null when the pattern is not valid.
   */
  static java.util.regex.Matcher matcher(
      String text, String pattern, String modifiers, SystemFunctions.Context ctx) {
    int jdk = 0;
    for (int i = 0; i < modifiers.length(); i++) {
      char m = modifiers.charAt(i);
      jdk |=
          switch (m) {
            case 'm' -> java.util.regex.Pattern.MULTILINE;
            case 's' -> java.util.regex.Pattern.DOTALL;
            case 'i' ->
                java.util.regex.Pattern.CASE_INSENSITIVE | java.util.regex.Pattern.UNICODE_CASE;
            case 'x' -> java.util.regex.Pattern.COMMENTS;
            default ->
                throw new QueryException(
                    "SC2200", "regular expression option '" + m + "' is not one of i, m, s, x");
          };
    }
    try {
      return java.util.regex.Pattern.compile(pattern, jdk).matcher(ctx.budgeted(text));
    } catch (java.util.regex.PatternSyntaxException e) {
      return null;
    } catch (StackOverflowError e) {
      throw tooComplex(pattern, text);
    }
  }

  static QueryException tooComplex(String pattern, String text) {
    return new QueryException(
        "SC2200",
        String.format(
            Locale.ROOT,
            "RegexMatch: the pattern '%s' is too complex to match against a string of %d"
                + " characters; simplify it (nested repetition such as (a|aa)* backtracks)",
            pattern.length() > 80 ? pattern.substring(0, 80) + "..." : pattern,
            text.length()));
  }
}
