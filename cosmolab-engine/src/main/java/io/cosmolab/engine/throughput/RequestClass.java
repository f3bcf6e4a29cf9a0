package io.cosmolab.engine.throughput;

import io.cosmolab.engine.error.CosmosError;
import java.util.function.Supplier;

/**
 * What throttling needs to know of a request beyond its partition: its priority ({@code
 * x-ms-cosmos-priority-level}) and the throughput bucket it asks to run in ({@code
 * x-ms-cosmos-throughput-bucket}, 0 for none).
 *
 * <p>It travels with the request through a scope ({@link #during}) rather than through every
 * operation's options: the gateway opens one per request, on the thread that runs it, and admission
 * ({@code Throttle}) reads it. Work outside a scope is {@link #DEFAULT}: high priority, no bucket.
 *
 * @param bucket 1–5, or 0 when the request names none
 */
public record RequestClass(Priority priority, int bucket) {
  /** The highest bucket id the service accepts; the lowest is 1. */
  public static final int MAX_BUCKET = 5;

  /** High priority, no bucket: what a request that says nothing is. */
  public static final RequestClass DEFAULT = new RequestClass(Priority.HIGH, 0);

  private static final ThreadLocal<RequestClass> CURRENT = ThreadLocal.withInitial(() -> DEFAULT);

  public RequestClass {
    if (priority == null) {
      throw new IllegalArgumentException("priority must not be null");
    }
    if (bucket < 0 || bucket > MAX_BUCKET) {
      throw new IllegalArgumentException("bucket must be 0 (none) or 1-5, was " + bucket);
    }
  }

  /** A high-priority request in no bucket. */
  public static RequestClass of(Priority priority) {
    return priority == Priority.HIGH ? DEFAULT : new RequestClass(priority, 0);
  }

  /**
   * The class the two headers name; either may be absent.
   *
   * @throws io.cosmolab.engine.error.CosmosException 400 naming the header and the value for a
   *     priority other than High or Low, or a bucket other than a whole number from 1 to 5 (the
   *     service refuses ids outside 1–5 rather than ignoring them)
   */
  public static RequestClass parse(String priorityHeader, String bucketHeader) {
    Priority priority = Priority.parse(priorityHeader);
    if (bucketHeader == null || bucketHeader.isBlank()) {
      return of(priority);
    }
    int bucket;
    try {
      bucket = Integer.parseInt(bucketHeader.strip());
    } catch (NumberFormatException e) {
      bucket = -1;
    }
    if (bucket < 1 || bucket > MAX_BUCKET) {
      throw CosmosError.BAD_REQUEST.exception(
          "x-ms-cosmos-throughput-bucket must be a throughput bucket id from 1 to %d, was '%s'",
          MAX_BUCKET, bucketHeader);
    }
    return new RequestClass(priority, bucket);
  }

  /** Runs {@code work} as a request of this class. */
  public <T> T during(Supplier<T> work) {
    RequestClass before = CURRENT.get();
    CURRENT.set(this);
    try {
      return work.get();
    } finally {
      CURRENT.set(before);
    }
  }

  /** The class of the request this thread is running. */
  public static RequestClass current() {
    return CURRENT.get();
  }
}
