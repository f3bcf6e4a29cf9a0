package io.cosmolab.engine.error;

/**
 * The one exception cosmolab throws for a request that fails the way the service would fail it. It
 * carries its {@link CosmosError} (status, sub-status, code), a message that names what was wrong,
 * and for throttling the time after which a retry can succeed. Anything else that escapes the
 * engine is a bug.
 */
public final class CosmosException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final CosmosError error;
  private final long retryAfterMillis;
  private final double requestCharge;
  private final int subStatus;
  private final String additionalErrorInfo;
  // the physical partition that refused the request, and its LSN then, or null: a client keeps
  // the session token of a failure too (a 404 or 412 of a point operation)
  private final String sessionRange;
  private final long sessionLsn;

  public CosmosException(CosmosError error, String message) {
    this(error, message, 0, 0);
  }

  /**
   * An error whose body carries {@code additionalErrorInfo} beside its message, as the service's
   * refusal of a cross-partition query carries the query plan ({@link
   * CosmosError#CROSS_PARTITION_QUERY_NOT_SERVABLE}).
   */
  public CosmosException(CosmosError error, String message, String additionalErrorInfo) {
    this(error, message, 0, 0, error.subStatus(), additionalErrorInfo, null, 0);
  }

  /**
   * An error with its own sub-status, for {@link CosmosError#SCRIPT_ERROR}: the service sends the
   * number a script gave its error as the sub-status.
   */
  public CosmosException(CosmosError error, String message, int subStatus) {
    this(error, message, 0, 0, subStatus, null, null, 0);
  }

  public CosmosException(
      CosmosError error, String message, long retryAfterMillis, double requestCharge) {
    this(error, message, retryAfterMillis, requestCharge, error.subStatus(), null, null, 0);
  }

  private CosmosException(
      CosmosError error,
      String message,
      long retryAfterMillis,
      double requestCharge,
      int subStatus,
      String additionalErrorInfo,
      String sessionRange,
      long sessionLsn) {
    super(message, null, false, false);
    this.error = error;
    this.retryAfterMillis = retryAfterMillis;
    this.requestCharge = requestCharge;
    this.subStatus = subStatus;
    this.additionalErrorInfo = additionalErrorInfo;
    this.sessionRange = sessionRange;
    this.sessionLsn = sessionLsn;
  }

  /**
   * This failure as the partition that refused it reports it: what it charged, and the partition
   * and LSN a session token names (the service sends both on a 404, 409 or 412 of a point
   * operation, and the SDKs keep the token).
   */
  public CosmosException refusedBy(double requestCharge, String range, long lsn) {
    return new CosmosException(
        error,
        getMessage(),
        retryAfterMillis,
        requestCharge,
        subStatus,
        additionalErrorInfo,
        range,
        lsn);
  }

  /** The physical partition (range id) that refused the request, or null when none did. */
  public String sessionRange() {
    return sessionRange;
  }

  /** The LSN of {@link #sessionRange} when it refused the request. */
  public long sessionLsn() {
    return sessionLsn;
  }

  public CosmosError error() {
    return error;
  }

  public int status() {
    return error.status();
  }

  public int subStatus() {
    return subStatus;
  }

  /** For {@link CosmosError#REQUEST_RATE_TOO_LARGE}: milliseconds until a retry can succeed. */
  public long retryAfterMillis() {
    return retryAfterMillis;
  }

  /** What the error's body carries beside its message (text), or null. */
  public String additionalErrorInfo() {
    return additionalErrorInfo;
  }

  /** The request units the failed request consumed (usually 0). */
  public double requestCharge() {
    return requestCharge;
  }
}
