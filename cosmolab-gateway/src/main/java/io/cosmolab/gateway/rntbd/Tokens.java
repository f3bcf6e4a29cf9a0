package io.cosmolab.gateway.rntbd;

/**
 * The token ids cosmolab reads and writes, from {@code RntbdConstants} in azure-cosmos 4.81.0
 * ({@code RntbdContextRequestHeader}, {@code RntbdContextHeader}, {@code RntbdRequestHeader},
 * {@code RntbdResponseHeader}). A token on the wire is its id (2 bytes, little-endian), its {@link
 * TokenType} id (1 byte) and its value; the type travels with the token, so a token whose id is not
 * listed here is still read past, and ignored.
 */
final class Tokens {
  private Tokens() {}

  /** The tokens of the context negotiation, the first frame each way on a connection. */
  static final class Context {
    private Context() {}

    static final int PROTOCOL_VERSION = 0x0000; // ULong
    static final int CLIENT_VERSION = 0x0001; // SmallString
    static final int SERVER_AGENT = 0x0002; // SmallString, response; UserAgent in the request
    static final int SERVER_VERSION = 0x0003; // SmallString
    static final int IDLE_TIMEOUT_SECONDS = 0x0004; // ULong
    static final int UNAUTHENTICATED_TIMEOUT_SECONDS = 0x0005; // ULong
  }

  /** Request tokens. */
  static final class Request {
    private Request() {}

    static final int RESOURCE_ID = 0x0000; // Bytes: the binary RID
    static final int AUTHORIZATION = 0x0001; // String
    static final int PAYLOAD_PRESENT = 0x0002; // Byte
    static final int DATE = 0x0003; // SmallString
    static final int PAGE_SIZE = 0x0004; // ULong; 0xFFFFFFFF for -1
    static final int SESSION_TOKEN = 0x0005; // String
    static final int CONTINUATION = 0x0006; // String
    static final int INDEXING_DIRECTIVE = 0x0007; // Byte: 0 Default, 1 Include, 2 Exclude
    static final int MATCH = 0x0008; // String: If-None-Match on reads, If-Match on writes
    static final int PRE_TRIGGER_INCLUDE = 0x0009; // String
    static final int POST_TRIGGER_INCLUDE = 0x000A; // String
    static final int CONSISTENCY_LEVEL = 0x0010; // Byte: 0 Strong .. 4 ConsistentPrefix
    static final int REPLICA_PATH = 0x0013; // String: the path of the replica's URI
    static final int RESOURCE_TOKEN_EXPIRY = 0x0014; // ULong: x-ms-documentdb-expiry-seconds
    static final int DATABASE_NAME = 0x0015; // String
    static final int COLLECTION_NAME = 0x0016; // String
    static final int DOCUMENT_NAME = 0x0017; // String
    static final int ATTACHMENT_NAME = 0x0018; // String
    static final int USER_NAME = 0x0019; // String
    static final int PERMISSION_NAME = 0x001A; // String
    static final int STORED_PROCEDURE_NAME = 0x001B; // String
    static final int UDF_NAME = 0x001C; // String
    static final int TRIGGER_NAME = 0x001D; // String
    static final int ENABLE_SCAN_IN_QUERY = 0x001E; // Byte
    static final int CONFLICT_NAME = 0x0020; // String
    static final int CLIENT_VERSION = 0x0028; // SmallString
    static final int PARTITION_KEY = 0x002B; // String: the JSON array
    static final int PARTITION_KEY_RANGE_ID = 0x002C; // String
    static final int PARTITION_KEY_RANGE_NAME = 0x0036; // String
    static final int ENABLE_LOGGING = 0x003E; // Byte: a script's console.log is returned
    static final int A_IM = 0x003F; // String
    static final int POPULATE_QUERY_METRICS = 0x0042; // Byte
    static final int IF_MODIFIED_SINCE = 0x0047; // String
    static final int TRANSPORT_REQUEST_ID = 0x004D; // ULong, echoed in the response
    static final int START_EPK = 0x0062; // Bytes: UTF-8 of the hex EPK
    static final int END_EPK = 0x0063; // Bytes
    static final int IS_BATCH_ATOMIC = 0x0073; // Byte
    static final int SHOULD_BATCH_CONTINUE_ON_ERROR = 0x0074; // Byte
    static final int IS_BATCH_ORDERED = 0x0075; // Byte
    static final int RETURN_PREFERENCE = 0x0082; // Byte: 1 for Prefer: return=minimal
    static final int INTENDED_COLLECTION_RID = 0x009D; // String: the container the SDK means
    static final int POPULATE_INDEX_METRICS = 0x00A9; // Byte
    static final int CHANGE_FEED_WIRE_FORMAT_VERSION = 0x00B2; // String
    static final int PRIORITY_LEVEL = 0x00BF; // Byte: 1 High, 2 Low
    static final int POPULATE_QUERY_ADVICE = 0x00DA; // Byte
    static final int THROUGHPUT_BUCKET = 0x00DB; // Byte: the bucket id
  }

  /** Response tokens, with the type each is written as. */
  static final class Response {
    private Response() {}

    static final int PAYLOAD_PRESENT = 0x0000; // Byte, required
    static final int CONTINUATION = 0x0003; // String
    static final int ETAG = 0x0004; // String
    static final int RETRY_AFTER_MS = 0x000C; // ULong
    static final int STORAGE_MAX_RESOURCE_QUOTA = 0x000E; // String
    static final int STORAGE_RESOURCE_QUOTA_USAGE = 0x000F; // String
    static final int LSN = 0x0013; // LongLong
    static final int ITEM_COUNT = 0x0014; // ULong
    static final int REQUEST_CHARGE = 0x0015; // Double
    static final int QUORUM_ACKED_LSN = 0x001A; // LongLong
    static final int SUB_STATUS = 0x001C; // ULong
    static final int CURRENT_WRITE_QUORUM = 0x001E; // ULong
    static final int CURRENT_REPLICA_SET_SIZE = 0x001F; // ULong
    static final int PARTITION_KEY_RANGE_ID = 0x0021; // String
    static final int LOG_RESULTS = 0x0025; // String: a script's log, URL-encoded
    static final int QUERY_METRICS = 0x0028; // String
    static final int GLOBAL_COMMITTED_LSN = 0x0029; // LongLong
    static final int NUMBER_OF_READ_REGIONS = 0x0030; // ULong
    static final int OFFER_REPLACE_PENDING = 0x0031; // Byte
    static final int ITEM_LSN = 0x0032; // LongLong
    static final int TRANSPORT_REQUEST_ID = 0x0035; // ULong
    static final int SERVER_DATE_TIME_UTC = 0x0039; // SmallString
    static final int LOCAL_LSN = 0x003A; // LongLong
    static final int QUORUM_ACKED_LOCAL_LSN = 0x003B; // LongLong
    static final int SESSION_TOKEN = 0x003E; // String
    static final int INDEX_UTILIZATION = 0x0044; // String
    static final int QUERY_EXECUTION_INFO = 0x0045; // String
    static final int QUERY_ADVICE = 0x0075; // String: percent-encoded JSON
  }

  /** The resource types of a request frame ({@code RntbdResourceType}). */
  static final class ResourceType {
    private ResourceType() {}

    static final int CONNECTION = 0x0000;
    static final int DATABASE = 0x0001;
    static final int COLLECTION = 0x0002;
    static final int DOCUMENT = 0x0003;
    static final int ATTACHMENT = 0x0004;
    static final int USER = 0x0005;
    static final int PERMISSION = 0x0006;
    static final int STORED_PROCEDURE = 0x0007;
    static final int CONFLICT = 0x0008;
    static final int TRIGGER = 0x0009;
    static final int USER_DEFINED_FUNCTION = 0x000A;
    static final int PARTITION_KEY_RANGE = 0x0016;
  }

  /** The operation types of a request frame ({@code RntbdOperationType}). */
  static final class Operation {
    private Operation() {}

    static final int CONNECTION = 0x0000;
    static final int CREATE = 0x0001;
    static final int PATCH = 0x0002;
    static final int READ = 0x0003;
    static final int READ_FEED = 0x0004;
    static final int DELETE = 0x0005;
    static final int REPLACE = 0x0006;
    static final int EXECUTE_JAVASCRIPT = 0x0008;
    static final int SQL_QUERY = 0x0009;
    static final int QUERY = 0x000F;
    static final int HEAD = 0x0011;
    static final int HEAD_FEED = 0x0012;
    static final int UPSERT = 0x0013;
    static final int BATCH = 0x0025;
  }
}
