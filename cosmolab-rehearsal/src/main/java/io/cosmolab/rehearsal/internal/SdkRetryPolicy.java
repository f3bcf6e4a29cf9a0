package io.cosmolab.rehearsal.internal;

import io.cosmolab.rehearsal.ClientModel;

/**
 * The Java SDK's retry policy for 429 (throttled) responses, as a pure function of what the client
 * has seen so far.
 */
/*
 * How and why. The SDK's ResourceThrottleRetryPolicy (azure-cosmos, com.azure.cosmos.implementation)
 * retries a 429 when (1) fewer than maxRetryAttemptsOnThrottledRequests retries were taken (9 by
 * default, ThrottlingRetryOptions), (2) the retry-after the service sent is below
 * maxRetryWaitTime (30 s by default) and (3) the cumulative delay, this one included, is at most
 * maxRetryWaitTime. The delay is the retry-after as sent (the backoff factor is 1 by default); a
 * retry-after of 0 would be replaced by 5 s, which cosmolab's engine never sends (its retry-after is
 * at least 1 ms). A request that is not retried fails with its 429.
 */
public final class SdkRetryPolicy {
  /** The SDK's substitute for a retry-after of 0 (never sent by the engine). */
  static final long ZERO_RETRY_AFTER_SUBSTITUTE_MILLIS = 5_000;

  private SdkRetryPolicy() {}

  /**
   * How long to wait before the next attempt, or -1 to give up.
   *
   * @param client the retry options
   * @param retriesTaken retries already taken for this request
   * @param waitedMillis the cumulative delay of those retries
   * @param retryAfterMillis what the 429 said
   */
  public static long delayMillis(
      ClientModel client, int retriesTaken, long waitedMillis, long retryAfterMillis) {
    long max = client.maxRetryWait().toMillis();
    if (retriesTaken >= client.maxRetries()) {
      return -1;
    }
    if (retryAfterMillis >= max || waitedMillis + retryAfterMillis > max) {
      return -1;
    }
    return retryAfterMillis == 0 ? ZERO_RETRY_AFTER_SUBSTITUTE_MILLIS : retryAfterMillis;
  }
}
