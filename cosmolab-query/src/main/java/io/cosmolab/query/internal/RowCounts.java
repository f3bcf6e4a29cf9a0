package io.cosmolab.query.exec;

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

  /**
   * What is wrong with {@code v} as the count of {@code clause} ("TOP", "OFFSET" or "LIMIT"): the
   * service's code and message, or null when it is a valid count.
   */
  public static String[] problem(JsonNode v, String clause) {
    boolean whole =
        v != null
            && v.isNumber()
            && v.doubleValue() >= 0
            && v.doubleValue() == Math.rint(v.doubleValue());
    if (whole && v.doubleValue() <= MAX) {
      return null;
    }
    if (clause.equals("TOP")) {
      return new String[] {
        "SC2060", "The count value provided for a TOP clause must be an integer."
      };
    }
    if (whole) {
      return new String[] {
        clause.equals("OFFSET") ? "SC2062" : "SC2061",
        "The " + clause + " count value exceeds the maximum allowed value."
      };
    }
    return new String[] {
      "SC2064", clause + " needs a non-negative whole number, got " + (v == null ? "undefined" : v)
    };
  }

  /**
   * The count {@code v} gives {@code clause}.
   *
   * @throws QueryException with the service's code when it is not a valid count
   */
  public static long of(JsonNode v, String clause) {
    String[] problem = problem(v, clause);
    if (problem != null) {
      throw new QueryException(problem[0], problem[1]);
    }
    return v.longValue();
  }
}
