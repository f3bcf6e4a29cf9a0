package io.cosmolab.query.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.QueryException;

/**
 * The one rule for the counts of {@code TOP}, {@code OFFSET} and {@code LIMIT}, whether written as
 * a literal or bound to a parameter: a whole number from 0 to 2³² − 1.
 */
/*
 * [R] The .NET SDK's QueryPlanBaselineTests (OffsetLimit, Top), the service's own query plans:
 * OFFSET 2147483648 and TOP 2147483648 are planned (the .NET client then refuses them itself, the
 * Java SDK does not), 4294967296 is refused with SC2062 "The OFFSET count value exceeds the
 * maximum allowed value.", SC2061 for LIMIT and SC2060 "The count value provided for a TOP clause
 * must be an integer." for TOP. The plan of OFFSET m LIMIT n sends each partition LIMIT m + n,
 * which is past 2³¹ − 1 for LINQ's Skip (OFFSET m LIMIT 2147483647): every partition must accept
 * it. A fraction or a non-number in OFFSET or LIMIT keeps cosmolab's SC2064 [A].
 */
public final class RowCounts {
  /** The largest count the service accepts. */
  public static final long MAX = 4294967295L;

  private RowCounts() {}

  /** A count the service refuses: its code and message. */
  public record Problem(String code, String message) {}

  /**
   * What is wrong with {@code v} as the count of {@code clause} ("TOP", "OFFSET" or "LIMIT"), or
   * null when it is a valid count.
   */
  public static Problem problem(JsonNode v, String clause) {
    boolean whole =
        v != null
            && v.isNumber()
            && v.doubleValue() >= 0
            && v.doubleValue() == Math.rint(v.doubleValue());
    if (whole && v.doubleValue() <= MAX) {
      return null;
    }
    if (clause.equals("TOP")) {
      return new Problem("SC2060", "The count value provided for a TOP clause must be an integer.");
    }
    if (whole) {
      return new Problem(
          clause.equals("OFFSET") ? "SC2062" : "SC2061",
          "The " + clause + " count value exceeds the maximum allowed value.");
    }
    if (v == null) {
      return new Problem("SC2064", clause + " is a parameter the request does not bind");
    }
    return new Problem("SC2064", clause + " needs a non-negative whole number, got " + v);
  }

  /**
   * The count a plan sends each partition for {@code OFFSET m LIMIT n} (or a hybrid search's {@code
   * TOP m + n}): their sum, at most {@link #MAX}, so a query the service accepts is not refused for
   * a count it never wrote (no partition holds that many rows either way).
   */
  public static long sum(long m, long n) {
    return Math.min(MAX, m + n);
  }

  /**
   * The count the clause's expression gives: a literal, or a parameter bound in {@code parameters}
   * (the parser admits nothing else, QueryParser.countValue).
   *
   * @throws QueryException with the service's code when it is not a valid count
   */
  public static long of(
      io.cosmolab.query.ast.Expr e, java.util.Map<String, JsonNode> parameters, String clause) {
    if (e instanceof io.cosmolab.query.ast.Expr.Parameter p) {
      return of(parameters.get(p.name()), clause);
    }
    if (e instanceof io.cosmolab.query.ast.Expr.Literal l) {
      return of(l.value(), clause);
    }
    throw new QueryException(
        "SC2064", clause + " needs a number or a parameter, got " + e.getClass().getSimpleName());
  }

  /**
   * The count {@code v} gives {@code clause}.
   *
   * @throws QueryException with the service's code when it is not a valid count
   */
  public static long of(JsonNode v, String clause) {
    Problem problem = problem(v, clause);
    if (problem != null) {
      throw new QueryException(problem.code(), problem.message());
    }
    return v.longValue();
  }
}
