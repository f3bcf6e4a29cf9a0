package io.cosmolab.query;

/**
 * A query that cannot be run: a syntax error (with its position), an unknown function, a wrong
 * argument count, a missing or duplicate parameter, a query over a limit. The engine maps it to the
 * service's 400 response; {@link #code()} is the service's error code (SC1001 for syntax, SC2001
 * and up for semantic errors, as the service reports them).
 */
public final class QueryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String code;
  private final int start;
  private final int end;

  public QueryException(String code, String message, int start, int end) {
    super(message, null, false, false);
    this.code = code;
    this.start = start;
    this.end = end;
  }

  public QueryException(String code, String message) {
    this(code, message, -1, -1);
  }

  /** The service's error code, e.g. {@code SC1001}. */
  public String code() {
    return code;
  }

  /** The offset in the query text where the problem starts, or -1. */
  public int start() {
    return start;
  }

  /** The offset just past the problem, or -1. */
  public int end() {
    return end;
  }
}
