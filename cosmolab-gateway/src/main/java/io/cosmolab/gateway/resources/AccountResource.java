package io.cosmolab.gateway.resources;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.util.Map;

/**
 * {@code GET /}: the database account document both SDKs read first ({@code gateway-protocol.md}
 * §1). Its locations echo the endpoint the client used (from the {@code Host} header), so later
 * requests come back to the same host and port; its id is {@code localhost}, which makes the
 * JavaScript SDK keep the endpoint it was given.
 */
final class AccountResource {
  private final java.util.function.Supplier<String> fallbackEndpoint;

  AccountResource(java.util.function.Supplier<String> fallbackEndpoint) {
    this.fallbackEndpoint = fallbackEndpoint;
  }

  WireResponse read(WireRequest request) {
    String endpoint = request.baseUri() != null ? request.baseUri() : fallbackEndpoint.get();
    ObjectNode a = JsonNodeFactory.instance.objectNode();
    a.put("_self", "");
    a.put("id", "localhost");
    a.put("_rid", "localhost");
    a.put("media", "//media/");
    a.put("addresses", "//addresses/");
    a.put("_dbs", "//dbs/");
    for (String key : new String[] {"writableLocations", "readableLocations"}) {
      ArrayNode locations = a.putArray(key);
      ObjectNode loc = locations.addObject();
      loc.put("name", "South Central US");
      loc.put("databaseAccountEndpoint", endpoint);
    }
    a.put("enableMultipleWriteLocations", false);
    a.put("continuousBackupEnabled", false);
    a.put("enableNRegionSynchronousCommit", false);
    a.put("enablePerPartitionFailoverBehavior", false);
    ObjectNode replication = a.putObject("userReplicationPolicy");
    replication.put("asyncReplication", false);
    replication.put("minReplicaSetSize", 1);
    replication.put("maxReplicasetSize", 4);
    a.putObject("userConsistencyPolicy")
        .put("defaultConsistencyLevel", Requests.ACCOUNT_CONSISTENCY);
    ObjectNode system = a.putObject("systemReplicationPolicy");
    system.put("minReplicaSetSize", 1);
    system.put("maxReplicasetSize", 4);
    ObjectNode read = a.putObject("readPolicy");
    read.put("primaryReadCoefficient", 1);
    read.put("secondaryReadCoefficient", 1);
    // A JSON *string*: the Java SDK reads this field as text and parses it itself.
    a.put(
        "queryEngineConfiguration",
        "{\"maxSqlQueryInputLength\":524288,\"maxJoinsPerSqlQuery\":10,"
            + "\"maxLogicalAndPerSqlQuery\":500,\"maxLogicalOrPerSqlQuery\":500,"
            + "\"maxUdfRefPerSqlQuery\":10,\"maxInExpressionItemsCount\":16000,"
            + "\"queryMaxInMemorySortDocumentCount\":500,\"maxQueryRequestTimeoutFraction\":0.9,"
            + "\"sqlAllowNonFiniteNumbers\":false,\"sqlAllowAggregateFunctions\":true,"
            + "\"sqlAllowSubQuery\":true,\"sqlAllowScalarSubQuery\":true,\"allowNewKeywords\":true,"
            + "\"sqlAllowLike\":true,\"sqlAllowGroupByClause\":true,\"maxSpatialQueryCells\":12,"
            + "\"spatialMaxGeometryPointCount\":256,\"sqlDisableOptimizationFlags\":0,"
            + "\"sqlAllowTop\":true,\"enableSpatialIndexing\":true}");
    return WireResponse.json(
        200,
        a,
        Map.of("x-ms-max-media-storage-usage-mb", "10240", "x-ms-media-storage-usage-mb", "0"));
  }
}
