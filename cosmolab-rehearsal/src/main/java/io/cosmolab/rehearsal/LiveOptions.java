package io.cosmolab.rehearsal;

import java.net.URI;
import java.util.Objects;

/**
 * Where and how to rehearse against a live endpoint (a {@code cosmolab serve}, or a real account)
 * through the official Java SDK, in real time.
 *
 * @param endpoint the account's URL
 * @param key its master key (never written anywhere)
 * @param database the database the candidates' containers are created in (created if missing)
 * @param maxRequestsPerSecond the most requests a second the rehearsal sends, preload included: the
 *     scenario's rates are divided by the scale factor until its peak fits
 * @param scale the scale factor to run at, or 0 to choose the smallest that keeps the peak under
 *     {@code maxRequestsPerSecond}; an endpoint whose limits are scaled the same way ({@code
 *     cosmolab serve --scale F}) reaches the layout of the full-size service
 * @param direct whether the SDK connects in direct mode (else gateway mode)
 * @param keepContainers whether the candidates' containers stay after the run (else deleted)
 * @param replaceContainers whether containers of the same names from an earlier run are deleted
 *     first (else the run refuses to start)
 */
public record LiveOptions(
    URI endpoint,
    String key,
    String database,
    double maxRequestsPerSecond,
    double scale,
    boolean direct,
    boolean keepContainers,
    boolean replaceContainers) {

  /** The database the containers go to unless told otherwise. */
  public static final String DEFAULT_DATABASE = "cosmolab-rehearsal";

  /** The request rate a live rehearsal keeps under unless told otherwise. */
  public static final double DEFAULT_MAX_REQUESTS_PER_SECOND = 200;

  public LiveOptions {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(database, "database");
    if (!(maxRequestsPerSecond > 0) || Double.isInfinite(maxRequestsPerSecond)) {
      throw new IllegalArgumentException(
          "the request rate cap must be a positive number of requests a second, not "
              + maxRequestsPerSecond);
    }
    if (scale != 0 && !(scale >= 1)) {
      throw new IllegalArgumentException(
          "the scale factor must be 1 or more (or 0: chosen), not " + scale);
    }
  }

  /**
   * {@code endpoint} with its key, and the defaults: gateway mode, 200 requests/s, containers
   * deleted.
   */
  public static LiveOptions of(URI endpoint, String key) {
    return new LiveOptions(
        endpoint, key, DEFAULT_DATABASE, DEFAULT_MAX_REQUESTS_PER_SECOND, 0, false, false, false);
  }

  public LiveOptions withMaxRequestsPerSecond(double rate) {
    return new LiveOptions(
        endpoint, key, database, rate, scale, direct, keepContainers, replaceContainers);
  }

  public LiveOptions withScale(double factor) {
    return new LiveOptions(
        endpoint,
        key,
        database,
        maxRequestsPerSecond,
        factor,
        direct,
        keepContainers,
        replaceContainers);
  }

  public LiveOptions withDatabase(String name) {
    return new LiveOptions(
        endpoint,
        key,
        name,
        maxRequestsPerSecond,
        scale,
        direct,
        keepContainers,
        replaceContainers);
  }

  public LiveOptions withDirect(boolean on) {
    return new LiveOptions(
        endpoint,
        key,
        database,
        maxRequestsPerSecond,
        scale,
        on,
        keepContainers,
        replaceContainers);
  }

  public LiveOptions withKeepContainers(boolean keep) {
    return new LiveOptions(
        endpoint, key, database, maxRequestsPerSecond, scale, direct, keep, replaceContainers);
  }

  public LiveOptions withReplaceContainers(boolean replace) {
    return new LiveOptions(
        endpoint, key, database, maxRequestsPerSecond, scale, direct, keepContainers, replace);
  }

  @Override
  public String toString() {
    return "LiveOptions[" + endpoint + ", database " + database + "]"; // never the key
  }
}
