package io.cosmolab.rehearsal;

import java.time.Duration;

/**
 * The client as the Java SDK behaves by default, and the service latency it sees.
 *
 * <p>Retries: the SDK's {@code ThrottlingRetryOptions} defaults, 9 retries and 30 s of cumulative
 * wait; a 429's retry-after is honoured as sent; a request that would wait past either limit fails
 * with its 429 ({@code ResourceThrottleRetryPolicy}: a retry is taken while the attempts are below
 * the maximum, the delay is below the maximum wait, and the cumulative delay including it is at
 * most the maximum wait).
 *
 * <p>Service latency per attempt is log-normal with the given median and 99th percentile. The
 * defaults are an assumption [I] shaped by the published SLA (reads p99 &lt; 10 ms, writes p99 &lt;
 * 15 ms, for 1 KB items in the same region): medians of 4 and 6 ms. Queries are taken as reads. The
 * end-to-end latency of a request is the sum of its attempts' service latencies and the retry
 * waits.
 *
 * @param maxRetries retries after the first attempt (SDK default 9)
 * @param maxRetryWait cumulative wait over all retries (SDK default 30 s)
 * @param readMedianMillis median service latency of a read or query
 * @param readP99Millis its 99th percentile
 * @param writeMedianMillis median service latency of a write
 * @param writeP99Millis its 99th percentile
 */
public record ClientModel(
    int maxRetries,
    Duration maxRetryWait,
    double readMedianMillis,
    double readP99Millis,
    double writeMedianMillis,
    double writeP99Millis) {

  /** The Java SDK's defaults, and latencies from the SLA [I]. */
  public static final ClientModel SDK_DEFAULT =
      new ClientModel(9, Duration.ofSeconds(30), 4, 10, 6, 15);

  public ClientModel {
    if (maxRetries < 0) {
      throw new IllegalArgumentException("maxRetries is 0 or more, was " + maxRetries);
    }
    if (maxRetryWait == null || maxRetryWait.isNegative()) {
      throw new IllegalArgumentException("maxRetryWait is 0s or more, was " + maxRetryWait);
    }
    check("read", readMedianMillis, readP99Millis);
    check("write", writeMedianMillis, writeP99Millis);
  }

  private static void check(String what, double median, double p99) {
    if (!(median > 0) || !(p99 >= median) || Double.isInfinite(p99)) {
      throw new IllegalArgumentException(
          "the "
              + what
              + " latency needs 0 < p50 <= p99, was p50 "
              + median
              + " ms, p99 "
              + p99
              + " ms");
    }
  }
}
