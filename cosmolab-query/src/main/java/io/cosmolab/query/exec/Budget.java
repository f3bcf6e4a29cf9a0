package io.cosmolab.query.exec;

import io.cosmolab.query.QueryException;
import java.util.Locale;

/**
 * What one execution may spend: work units per input document, and rows held at once by a stage
 * that must see all of its input (a sort, a grouping, DISTINCT).
 *
 * <p>Work is counted as it happens: one unit per row a FROM source or JOIN produces, per function
 * call, and per character a regular expression reads; a call also counts the strings and arrays it
 * scans whole ({@link #SCANNING}, {@link #reading}) and those it makes ({@link #producing}, as the
 * {@code ||} operator and UDF calls do), so that CONTAINS over a megabyte string, or ToString of a
 * large document, in each row of a JOIN stops at the limit instead of running for minutes. A
 * query's multiplying work (JOIN cross products, regex backtracking, subqueries) all happens within
 * one document, so the limit applies per input document: a hostile product stops after {@code
 * limit} units, while a scan of any size stays linear in the data. Memory is counted by the stages
 * that hold rows, each against {@link Executor#MAX_ROWS_HELD} beyond one row per input document
 * read (rows over the container's documents are bounded by its data; rows from arrays multiply).
 */
final class Budget {
  private final long limit;
  private long work;
  private long documentWork;
  private long documents;
  private long maxBytesHeld = Executor.MAX_BYTES_HELD;
  private long bytesHeld;

  Budget(long limit) {
    this.limit = limit;
  }

  /** Sets the bytes the stages may hold at once (else {@link Executor#MAX_BYTES_HELD}). */
  void maxBytesHeld(long bytes) {
    this.maxBytesHeld = bytes;
  }

  /**
   * Counts {@code bytes} more held by a stage that keeps state until its input ends (a group with
   * its key and lists, a DISTINCT value, a sorted row's keys), against {@link
   * Executor#MAX_BYTES_HELD}: rows alone do not bound memory, since one group's key can be a
   * megabyte ({@link Values#heldBytes}).
   */
  void holdBytes(long bytes) {
    bytesHeld += bytes;
    if (bytesHeld > maxBytesHeld) {
      throw new QueryException(
          "SC3031",
          String.format(
              Locale.ROOT,
              "the query holds more than %d MB at once (its groups, DISTINCT values or sorted"
                  + " rows, with their keys); filter the rows or group by fewer or smaller values",
              maxBytesHeld >> 20));
    }
  }

  /** The bytes counted by {@link #holdBytes} so far. */
  long bytesHeld() {
    return bytesHeld;
  }

  /** A value a stage holds whole (a DISTINCT value, a MAKELIST or MAKESET entry). */
  void holdValue(com.fasterxml.jackson.databind.JsonNode v) {
    holdBytes(Values.ROW_BYTES + Values.heldBytes(v));
  }

  /** A row a sort holds: its fixed cost and its ORDER BY keys (its item is the input's). */
  void holdRow(Keyed<?> row) {
    holdBytes(Values.rowBytes(row));
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
   * The system functions whose work grows with a whole argument while their result stays small:
   * they search, compare or parse all of a string or array. The others read a constant part or a
   * prefix (IS_DEFINED, STARTSWITH, LEFT), or make a result as large as what they read, which
   * {@link #producing} counts.
   */
  static final java.util.Set<String> SCANNING =
      java.util.Set.of(
          "CONTAINS",
          "CONTAINS_ANY",
          "CONTAINS_ANY_CI",
          "CONTAINS_ANY_CS",
          "CONTAINS_ALL",
          "CONTAINS_ALL_CI",
          "CONTAINS_ALL_CS",
          "INDEX_OF",
          "LASTINDEXOF",
          "STRINGEQUALS",
          "STRINGTOARRAY",
          "STRINGTOOBJECT",
          "STRINGTOBOOLEAN",
          "STRINGTONULL",
          "STRINGTONUMBER",
          "ARRAY_CONTAINS",
          "ARRAY_CONTAINS_ANY",
          "ARRAY_CONTAINS_ALL",
          "ARRAY_SUM",
          "ARRAY_AVG",
          "ARRAY_MEDIAN",
          "ARRAY_MAX",
          "ARRAY_MIN",
          "SETINTERSECT",
          "SETDIFFERENCE",
          "SETEQUAL");

  /**
   * The work of reading a call's arguments whole: {@value #CHARACTERS_PER_UNIT} characters of a
   * string or {@value #ELEMENTS_PER_UNIT} elements of an array a unit; short arguments add nothing.
   */
  static long reading(java.util.List<com.fasterxml.jackson.databind.JsonNode> arguments) {
    long units = 0;
    for (com.fasterxml.jackson.databind.JsonNode a : arguments) {
      units += size(a);
    }
    return units;
  }

  /** The work of making {@code result} (a string or array as large as what was read for it). */
  static long producing(com.fasterxml.jackson.databind.JsonNode result) {
    return size(result);
  }

  private static long size(com.fasterxml.jackson.databind.JsonNode v) {
    if (v == null) {
      return 0;
    }
    if (v.isTextual()) {
      return v.textValue().length() / CHARACTERS_PER_UNIT;
    }
    return v.isArray() ? v.size() / ELEMENTS_PER_UNIT : 0;
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
