package io.cosmolab.query.exec;

import io.cosmolab.query.QueryException;
import java.util.Locale;

/**
 * What one execution may spend: work units per input document, and rows held at once by a stage
 * that must see all of its input (a sort, a grouping, DISTINCT).
 *
 * <p>Work is counted as it happens: one unit per row a FROM source or JOIN produces, per function
 * call, and per character a regular expression reads. A query's multiplying work (JOIN cross
 * products, regex backtracking, subqueries) all happens within one document, so the limit applies
 * per input document: a hostile product stops after {@code limit} units, while a scan of any size
 * stays linear in the data. Memory is counted by the stages that hold rows, each against {@link
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
                  + " cross product or a pathological regular expression); narrow the query",
              limit));
    }
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
