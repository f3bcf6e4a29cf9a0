package io.cosmolab.query.exec;

import io.cosmolab.query.QueryException;
import java.util.Locale;

/**
 * What one execution may spend: work units per input document, and rows held at once by a stage
 * that must see all of its input (a sort, a grouping, DISTINCT).
 *
 * <p>Work is counted as it happens: one unit per row a FROM source or JOIN produces, per function
 * call, and per character a regular expression reads; a call also counts what its arguments make it
 * read ({@link #reading}), so that CONTAINS over a megabyte string in a JOIN's every row stops at
 * the limit instead of running for minutes. A query's multiplying work (JOIN cross products, regex
 * backtracking, subqueries) all happens within one document, so the limit applies per input
 * document: a hostile product stops after {@code limit} units, while a scan of any size stays
 * linear in the data. Memory is counted by the stages that hold rows, each against {@link
 * Executor#MAX_ROWS_HELD} beyond one row per input document read (rows over the container's
 * documents are bounded by its data; rows from arrays multiply).
 */
final class Budget {
  private final long limit;
  private long work;
  private long documentWork;
  private long documents;

  Budget(long limit) {
    this.limit = limit;
  }

  /** Counts {@code units} against the current document's limit. */
  void spend(long units) {
    work += units;
    documentWork += units;
    if (documentWork > limit) {
      throw new QueryException(
          "SC3031",
          String.format(
              Locale.ROOT,
              "the query exceeded its work limit of %d steps for one document (a very large JOIN"
                  + " cross product, a pathological regular expression, or functions over long"
                  + " strings in many rows); narrow the query",
              limit));
    }
  }

  /** Characters of a string argument per unit of work: about what one unit of a row costs. */
  static final int CHARACTERS_PER_UNIT = 64;

  /** Elements of an array argument per unit of work. */
  static final int ELEMENTS_PER_UNIT = 64;

  /**
   * The work a function call's arguments add to its one unit: the strings it may read in full
   * ({@value #CHARACTERS_PER_UNIT} characters a unit) and the arrays it may walk ({@value
   * #ELEMENTS_PER_UNIT} elements a unit); short arguments add nothing.
   */
  static long reading(java.util.List<com.fasterxml.jackson.databind.JsonNode> arguments) {
    long units = 0;
    for (com.fasterxml.jackson.databind.JsonNode a : arguments) {
      if (a == null) {
        continue;
      }
      if (a.isTextual()) {
        units += a.textValue().length() / CHARACTERS_PER_UNIT;
      } else if (a.isArray()) {
        units += a.size() / ELEMENTS_PER_UNIT;
      }
    }
    return units;
  }

  /** An input document starts: its work is counted from zero. */
  void nextDocument() {
    documents++;
    documentWork = 0;
  }

  /** Checks that a stage holding {@code rows} rows stays within the held-rows bound. */
  void hold(long rows) {
    if (rows > Executor.MAX_ROWS_HELD + documents) {
      throw new QueryException(
          "SC3031",
          String.format(
              Locale.ROOT,
              "the query holds more than %d rows at once beyond its documents (a JOIN cross"
                  + " product multiplies the array sizes); filter the JOINed arrays or narrow the"
                  + " query",
              Executor.MAX_ROWS_HELD));
    }
  }

  long work() {
    return work;
  }
}
