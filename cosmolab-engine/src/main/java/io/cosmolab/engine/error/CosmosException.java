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

  public CosmosException(CosmosError error, String message) {
    this(error, message, 0, 0);
  }

  /**
   * An error whose body carries {@code additionalErrorInfo} beside its message, as the service's
   * refusal of a cross-partition query carries the query plan ({@link
   * CosmosError#CROSS_PARTITION_QUERY_NOT_SERVABLE}).
   */
  public CosmosException(CosmosError error, String message, String additionalErrorInfo) {
    super(message, null, false, false);
    this.error = error;
    this.retryAfterMillis = 0;
    this.requestCharge = 0;
    this.subStatus = error.subStatus();
    this.additionalErrorInfo = additionalErrorInfo;
  }

  /**
   * An error with its own sub-status, for {@link CosmosError#SCRIPT_ERROR}: the service sends the
   * number a script gave its error as the sub-status.
   */
  public CosmosException(CosmosError error, String message, int subStatus) {
    super(message, null, false, false);
    this.error = error;
    this.retryAfterMillis = 0;
    this.requestCharge = 0;
    this.subStatus = subStatus;
    this.additionalErrorInfo = null;
  }

  public CosmosException(
      CosmosError error, String message, long retryAfterMillis, double requestCharge) {
    super(message, null, false, false);
    this.error = error;
    this.retryAfterMillis = retryAfterMillis;
    this.requestCharge = requestCharge;
    this.subStatus = error.subStatus();
    this.additionalErrorInfo = null;
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
