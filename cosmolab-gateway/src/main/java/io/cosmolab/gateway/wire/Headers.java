package io.cosmolab.gateway.wire;

/**
 * The header names of the Cosmos DB REST protocol that the gateway reads or writes, lower case
 * ({@code gateway-protocol.md} §2, §7–§11). HTTP header names are case-insensitive; the decoder
 * lower-cases every name it receives.
 */
public final class Headers {
  private Headers() {}

  // ---- request
  public static final String AUTHORIZATION = "authorization";
  public static final String X_MS_DATE = "x-ms-date";
  public static final String DATE = "date";
  public static final String PARTITION_KEY = "x-ms-documentdb-partitionkey";
  public static final String PARTITION_KEY_RANGE_ID = "x-ms-documentdb-partitionkeyrangeid";

  /** The container a document request means, by resource id, from the SDK's cache. */
  public static final String INTENDED_COLLECTION_RID = "x-ms-cosmos-intended-collection-rid";

  public static final String START_EPK = "x-ms-start-epk";
  public static final String END_EPK = "x-ms-end-epk";
  public static final String IS_UPSERT = "x-ms-documentdb-is-upsert";
  public static final String IS_QUERY = "x-ms-documentdb-isquery";
  public static final String POPULATE_QUERY_METRICS = "x-ms-documentdb-populatequerymetrics";
  public static final String QUERY_METRICS = "x-ms-documentdb-query-metrics";
  public static final String POPULATE_INDEX_METRICS = "x-ms-cosmos-populateindexmetrics";

  /** The second format of index metrics, which the JavaScript SDK 4.x asks for. */
  public static final String POPULATE_INDEX_METRICS_V2 = "x-ms-cosmos-populateindexmetrics-v2";

  public static final String INDEX_UTILIZATION = "x-ms-cosmos-index-utilization";

  /** Asks for the query advisor's rules ({@link #QUERY_ADVICE}); the Java SDK 4.81's option. */
  public static final String POPULATE_QUERY_ADVICE = "x-ms-cosmos-populatequeryadvice";

  public static final String QUERY_ADVICE = "x-ms-cosmos-query-advice";
  public static final String IS_QUERY_PLAN = "x-ms-cosmos-is-query-plan-request";
  public static final String IS_BATCH = "x-ms-cosmos-is-batch-request";
  public static final String BATCH_ATOMIC = "x-ms-cosmos-batch-atomic";
  public static final String BATCH_CONTINUE_ON_ERROR = "x-ms-cosmos-batch-continue-on-error";
  public static final String MAX_ITEM_COUNT = "x-ms-max-item-count";
  public static final String CONTINUATION = "x-ms-continuation";
  public static final String PRE_TRIGGER_INCLUDE = "x-ms-documentdb-pre-trigger-include";
  public static final String POST_TRIGGER_INCLUDE = "x-ms-documentdb-post-trigger-include";
  public static final String SCRIPT_ENABLE_LOGGING = "x-ms-documentdb-script-enable-logging";
  public static final String SCRIPT_LOG_RESULTS = "x-ms-documentdb-script-log-results";
  public static final String IF_MATCH = "if-match";
  public static final String IF_NONE_MATCH = "if-none-match";
  public static final String IF_MODIFIED_SINCE = "if-modified-since";
  public static final String A_IM = "a-im";
  public static final String CONSISTENCY_LEVEL = "x-ms-consistency-level";
  public static final String INDEXING_DIRECTIVE = "x-ms-indexing-directive";

  /** {@code High} or {@code Low}: priority-based execution. */
  public static final String PRIORITY_LEVEL = "x-ms-cosmos-priority-level";

  public static final String THROUGHPUT_BUCKET = "x-ms-cosmos-throughput-bucket";

  public static final String PREFER = "prefer";
  public static final String CONTENT_TYPE = "content-type";
  public static final String OFFER_THROUGHPUT = "x-ms-offer-throughput";
  public static final String OFFER_AUTOPILOT = "x-ms-cosmos-offer-autopilot-settings";
  public static final String RESOURCE_TOKEN_EXPIRY = "x-ms-documentdb-expiry-seconds";
  public static final String CHANGE_FEED_WIRE_FORMAT = "x-ms-cosmos-changefeed-wire-format-version";

  // ---- response
  public static final String ACTIVITY_ID = "x-ms-activity-id";
  public static final String REQUEST_CHARGE = "x-ms-request-charge";
  public static final String SUB_STATUS = "x-ms-substatus";
  public static final String RETRY_AFTER_MS = "x-ms-retry-after-ms";
  public static final String SESSION_TOKEN = "x-ms-session-token";
  public static final String ITEM_COUNT = "x-ms-item-count";
  public static final String ETAG = "etag";
  public static final String CONTENT_PATH = "x-ms-content-path";
  public static final String ALT_CONTENT_PATH = "x-ms-alt-content-path";
  public static final String LSN = "lsn";
  public static final String GLOBAL_COMMITTED_LSN = "x-ms-global-committed-lsn";
  public static final String MIN_THROUGHPUT = "x-ms-cosmos-min-throughput";
  public static final String OFFER_REPLACE_PENDING = "x-ms-offer-replace-pending";
  public static final String MIGRATE_TO_AUTOSCALE = "x-ms-cosmos-migrate-offer-to-autopilot";
  public static final String MIGRATE_TO_MANUAL = "x-ms-cosmos-migrate-offer-to-manual-throughput";
  public static final String POPULATE_QUOTA_INFO = "x-ms-documentdb-populatequotainfo";
  public static final String RESOURCE_QUOTA = "x-ms-resource-quota";
  public static final String RESOURCE_USAGE = "x-ms-resource-usage";
}
