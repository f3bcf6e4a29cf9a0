package io.cosmolab.query.exec;

import io.cosmolab.query.QueryException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * A compiled LIKE pattern, matched without regular expressions.
 *
 * <p>The service's LIKE follows SQL: {@code %} matches any run of characters, {@code _} exactly
 * one, {@code [abc]}, {@code [a-f]} and {@code [^a-f]} one character of (or not of) a set, and the
 * ESCAPE character makes the next character literal. Matching is the two-pointer wildcard
 * algorithm: on a mismatch it resumes after the last {@code %}, so it takes at most (text ×
 * pattern) steps, needs no stack, and any pattern text is safe — there is no regex syntax to
 * escape.
 *
 * <p>Assumptions [A], where the reference is silent: a {@code [} without a closing {@code ]} is a
 * literal {@code [}; a set's content is literal apart from a leading {@code ^} and {@code a-b}
 * ranges (so {@code [[]} matches {@code [} and {@code [a&&[^a]]} is the set {@code a & [ ^}
 * followed by a literal {@code ]}); {@code []} and a reversed range such as {@code [z-a]} match no
 * character, as in T-SQL. Characters are code points.
 */
final class LikePattern {
  private sealed interface Element permits Literal, One, Run, CharSet {}

  private record Literal(int codePoint) implements Element {}

  private record One() implements Element {}

  private record Run() implements Element {}

  /** {@code ranges} holds pairs: low, high (inclusive); never written after construction. */
  @SuppressWarnings("ArrayRecordComponent")
  private record CharSet(int[] ranges, boolean negated) implements Element {
    boolean contains(int c) {
      boolean in = false;
      for (int i = 0; i < ranges.length && !in; i += 2) {
        in = c >= ranges[i] && c <= ranges[i + 1];
      }
      return in != negated;
    }
  }

  private final Element[] elements;

  private LikePattern(Element[] elements) {
    this.elements = elements;
  }

  /**
   * Compiles {@code pattern}; {@code escape} is the ESCAPE character, or null.
   *
   * @throws QueryException if the pattern ends with the escape character alone
   */
  static LikePattern compile(String pattern, Character escape) {
    int[] cps = pattern.codePoints().toArray();
    List<Element> out = new ArrayList<>();
    for (int i = 0; i < cps.length; i++) {
      int c = cps[i];
      if (escape != null && c == escape) {
        if (i + 1 >= cps.length) {
          throw new QueryException(
              "SC2201",
              "the LIKE pattern ends with its ESCAPE character '"
                  + escape
                  + "', which must be followed by the character it escapes");
        }
        out.add(new Literal(cps[++i]));
      } else if (c == '%') {
        if (out.isEmpty() || !(out.get(out.size() - 1) instanceof Run)) {
          out.add(new Run()); // %% is %
        }
      } else if (c == '_') {
        out.add(new One());
      } else if (c == '[') {
        int end = indexOf(cps, ']', i + 1);
        if (end < 0) {
          out.add(new Literal('['));
        } else {
          out.add(set(cps, i + 1, end));
          i = end;
        }
      } else {
        out.add(new Literal(c));
      }
    }
    return new LikePattern(out.toArray(Element[]::new));
  }

  private static int indexOf(int[] cps, int c, int from) {
    for (int i = from; i < cps.length; i++) {
      if (cps[i] == c) {
        return i;
      }
    }
    return -1;
  }

  private static CharSet set(int[] cps, int from, int end) {
    boolean negated = from < end && cps[from] == '^';
    int i = negated ? from + 1 : from;
    List<Integer> ranges = new ArrayList<>();
    while (i < end) {
      int low = cps[i];
      if (i + 2 < end && cps[i + 1] == '-') {
        ranges.add(low);
        ranges.add(cps[i + 2]); // reversed: low > high, which contains nothing
        i += 3;
      } else {
        ranges.add(low);
        ranges.add(low);
        i++;
      }
    }
    return new CharSet(ranges.stream().mapToInt(Integer::intValue).toArray(), negated);
  }

  /**
   * True when the whole of {@code text} matches. Each step is reported to {@code spend}, so the
   * executor's work limit bounds it.
   */
  boolean matches(String text, LongConsumer spend) {
    int[] t = text.codePoints().toArray();
    int ti = 0;
    int pi = 0;
    int runAt = -1; // the pattern index just after the last %, or -1
    int runText = 0; // where in the text that % is resumed from
    while (ti < t.length) {
      spend.accept(1);
      if (pi < elements.length
          && !(elements[pi] instanceof Run)
          && matchesOne(elements[pi], t[ti])) {
        pi++;
        ti++;
      } else if (pi < elements.length && elements[pi] instanceof Run) {
        runAt = ++pi;
        runText = ti;
      } else if (runAt >= 0) {
        pi = runAt;
        ti = ++runText;
      } else {
        return false;
      }
    }
    while (pi < elements.length && elements[pi] instanceof Run) {
      pi++;
    }
    return pi == elements.length;
  }

  private static boolean matchesOne(Element e, int c) {
    if (e instanceof Literal l) {
      return l.codePoint() == c;
    }
    if (e instanceof CharSet s) {
      return s.contains(c);
    }
    return e instanceof One;
  }
}
