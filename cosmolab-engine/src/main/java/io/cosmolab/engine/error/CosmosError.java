package io.cosmolab.engine.error;

import com.google.errorprone.annotations.FormatMethod;
import com.google.errorprone.annotations.FormatString;

/**
 * The catalog of every error cosmolab reports: the HTTP status and sub-status the service uses, and
 * the wire code name. The message of each failure is written where it happens, naming the value,
 * the limit and what to do; this enum only fixes how the failure is classified.
 *
 * <p>Status and sub-status pairs follow {@code gateway-protocol.md} §9.4 and the service's
 * documented errors ({@code partitioning-model.md} §1.2).
 */
public enum CosmosError {
  /** A request the service rejects as malformed or invalid. */
  BAD_REQUEST(400, 0, "BadRequest"),
  /** Partition key missing, with the wrong number of components, or not matching the document. */
  PARTITION_KEY_MISMATCH(400, 1001, "BadRequest"),
  /** A signature that does not verify. */
  UNAUTHORIZED(401, 0, "Unauthorized"),
  /**
   * A request signed at a time too far from the server's clock, or with a resource token past its
   * expiry.
   */
  FORBIDDEN_DATE(403, 0, "Forbidden"),
  /** A resource token that does not grant the request (another resource, a write with Read). */
  FORBIDDEN_BY_PERMISSION(403, 0, "Forbidden"),
  /** A request whose Host header names another site (the DNS-rebinding guard). */
  FORBIDDEN_HOST(403, 0, "Forbidden"),
  /** A request from another machine for what only this machine's clients get (the explorer). */
  FORBIDDEN_REMOTE(403, 0, "Forbidden"),
  /** A capability the account does not allow through this request (e.g. a stored procedure run). */
  METHOD_NOT_ALLOWED(405, 0, "MethodNotAllowed"),
  /** A logical partition would pass its storage limit (20 GB on the service). */
  PARTITION_KEY_QUOTA_EXCEEDED(403, 1014, "Forbidden"),
  /**
   * A server-side script threw or failed: 400, with the script's message, and as sub-status the
   * number the script gave its error ({@code throw new Error(404, "...")}) if any.
   */
  SCRIPT_ERROR(400, 0, "BadRequest"),
  /** A stored procedure or trigger ran past its time limit (5 s on the service): stopped. */
  SCRIPT_TIMEOUT(408, 0, "RequestTimeout"),
  /**
   * The client closed its connection while its query ran: the query stopped, charged for what it
   * read. Nobody receives the response; it is for the server's log and metrics [A: the service's
   * behaviour is not observable to a client that has gone].
   */
  REQUEST_ABANDONED(408, 0, "RequestTimeout"),
  /** The addressed resource does not exist. */
  NOT_FOUND(404, 0, "NotFound"),
  /** The owner (database or container) of the addressed resource does not exist. */
  OWNER_NOT_FOUND(404, 1003, "NotFound"),
  /** A resource with the same id (and partition key) already exists. */
  CONFLICT(409, 0, "Conflict"),
  /** The physical partition addressed by id no longer exists (it was split or merged). */
  PARTITION_KEY_RANGE_GONE(410, 1002, "Gone"),
  /**
   * A direct-mode request by partition key reached a replica of a physical partition that has been
   * split or merged away. The SDKs refresh their routing map and retry (CompletingSplitOrMerge):
   * for a point operation that is the answer they retry on, where 1002 would reach the application.
   */
  COMPLETING_SPLIT_OR_MERGE(410, 1007, "Gone"),
  /**
   * A direct-mode request addressed a replica of a container that is gone: its name now names
   * another container (deleted and re-created), so the client's cached resource id is stale. The
   * SDKs refresh their container cache and retry (NameCacheIsStale).
   */
  NAME_CACHE_IS_STALE(410, 1000, "Gone"),
  /**
   * A request named the container it meant by resource id ({@code
   * x-ms-cosmos-intended-collection-rid}) and the name now names another one (re-created): the SDKs
   * refresh their container cache and retry.
   */
  INCORRECT_CONTAINER_RID(400, 1024, "BadRequest"),
  /**
   * A query over several partitions that needs the client's pipeline (ORDER BY, TOP, OFFSET,
   * DISTINCT, aggregates) sent without a partition key or range: the hosted gateway does not serve
   * it, and the body's {@code additionalErrorInfo} holds the query plan, with which the SDKs run it
   * (gateway-protocol §7.5).
   */
  CROSS_PARTITION_QUERY_NOT_SERVABLE(400, 1004, "BadRequest"),
  /** An If-Match condition (or a patch condition) did not hold. */
  PRECONDITION_FAILED(412, 0, "PreconditionFailed"),
  /** A document or request over the size limit. */
  REQUEST_ENTITY_TOO_LARGE(413, 0, "RequestEntityTooLarge"),
  /** An HTTP {@code Expect} header other than {@code 100-continue}. */
  EXPECTATION_FAILED(417, 0, "ExpectationFailed"),
  /** A batch operation that was not run because another operation in the batch failed. */
  FAILED_DEPENDENCY(424, 0, "FailedDependency"),
  /** The physical partition's RU/s budget is exhausted. */
  REQUEST_RATE_TOO_LARGE(429, 3200, "TooManyRequests"),
  /**
   * A throughput bucket used its share of the partition's RU/s ({@code [D]} throughput buckets).
   */
  THROUGHPUT_BUCKET_EXHAUSTED(429, 3212, "TooManyRequests"),
  /** Throughput buckets changed again within the service's 10 minutes between changes. */
  THROUGHPUT_BUCKETS_RECONFIGURING(429, 3213, "TooManyRequests"),
  /**
   * cosmolab cannot serve the request correctly, for example because its data directory is damaged;
   * the message names the directory and what the storage reported.
   */
  INTERNAL_SERVER_ERROR(500, 0, "InternalServerError"),
  /**
   * The server cannot take the request now (it serves its maximum of connections); the client
   * retries after the {@code Retry-After} the response carries.
   */
  SERVICE_UNAVAILABLE(503, 0, "ServiceUnavailable"),
  /** A capability cosmolab does not implement; the message says which. */
  NOT_SUPPORTED(501, 0, "NotImplemented"),
  /**
   * The disk of the data directory is full: the write was not applied. The message says how much is
   * free; writes resume by themselves once space is freed.
   */
  INSUFFICIENT_STORAGE(507, 0, "InsufficientStorage");

  private final int status;
  private final int subStatus;
  private final String code;

  CosmosError(int status, int subStatus, String code) {
    this.status = status;
    this.subStatus = subStatus;
    this.code = code;
  }

  /** The HTTP status code. */
  public int status() {
    return status;
  }

  /** The service's sub-status ({@code x-ms-substatus}); 0 when there is none. */
  public int subStatus() {
    return subStatus;
  }

  /** The {@code code} member of the service's JSON error body. */
  public String code() {
    return code;
  }

  /** A new exception of this kind with a formatted message. */
  @FormatMethod
  public CosmosException exception(@FormatString String format, Object... args) {
    return new CosmosException(this, args.length == 0 ? format : String.format(format, args));
  }
}
