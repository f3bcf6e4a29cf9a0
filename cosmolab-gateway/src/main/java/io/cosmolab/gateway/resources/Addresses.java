package io.cosmolab.gateway.resources;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.routing.RoutingMap;
import io.cosmolab.gateway.wire.ResourcePath;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code GET /addresses/?$resolveFor=dbs/{db}/colls/{coll}/docs&$filter=protocol eq rntbd
 * &$partitionKeyRangeIds=0,1}: where the replicas of a container's physical partitions listen, in
 * the shape {@code GatewayAddressCache} in azure-cosmos parses (a feed whose key is the service's
 * own misspelling, {@code Addresss}).
 *
 * <p>Every replica is the one direct-mode listener ({@code rntbd}); what tells them apart is the
 * path of each replica's URI, which the SDK sends back with every request (the {@code ReplicaPath}
 * token) and which names the partition:
 *
 * <pre>
 *   rntbd://127.0.0.1:10251/apps/cosmolab/services/{container RID}/partitions/{range id}/replicas/{n}{p|s}/
 * </pre>
 *
 * So a request sent to the replicas of a range that has since split (or merged) is recognized, and
 * answered 410 with sub-status 1002, the answer on which the SDK refreshes its routing map and
 * addresses and retries on the children. Asking for the addresses of a range that is gone gets the
 * same answer.
 *
 * <p>Assumption: {@value #REPLICAS} replicas per partition, one primary and three secondaries, as a
 * single-region account with Session consistency lists them (the service's replica sets hold four).
 * All are one engine, so any replica serves any read with the latest state.
 */
public final class Addresses {
  /** Replicas per partition: the service's usual set of four. */
  public static final int REPLICAS = 4;

  private final java.util.function.IntSupplier directPort;
  private final Resolver resolver;

  Addresses(java.util.function.IntSupplier directPort, Resolver resolver) {
    this.directPort = directPort;
    this.resolver = resolver;
  }

  /** True when a direct-mode listener is running, so there are addresses to give. */
  boolean serving() {
    return directPort.getAsInt() > 0;
  }

  WireResponse read(WireRequest request, ResourcePath docs) {
    Container c = resolver.container(docs);
    RoutingMap map = c.routing();
    List<PartitionKeyRange> ranges = new ArrayList<>();
    String ids = request.queryParameter("$partitionKeyRangeIds");
    if (ids == null || ids.isBlank()) {
      ranges.addAll(map.ranges());
    } else {
      for (String id : ids.split(",", -1)) {
        String rangeId = id.strip();
        ranges.add(
            c.rangeNamed(map, rangeId)
                .orElseThrow(
                    () ->
                        CosmosError.PARTITION_KEY_RANGE_GONE.exception(
                            "partition key range %s of container '%s' is gone (split or merged):"
                                + " read /pkranges again",
                            rangeId, c.id())));
      }
    }
    List<ObjectNode> out = new ArrayList<>();
    for (PartitionKeyRange r : ranges) {
      replicas(request, c.rid(), r.id(), out);
    }
    return Responses.feed(c.rid(), "Addresss", out, Map.of());
  }

  /**
   * The master partition's replicas, which the SDK reads databases and lists containers from in
   * direct mode: the same listener, under the range id {@value #MASTER}.
   */
  WireResponse master(WireRequest request) {
    List<ObjectNode> out = new ArrayList<>();
    replicas(request, MASTER_SERVICE, MASTER, out);
    return Responses.feed("", "Addresss", out, Map.of());
  }

  /** The range id of the master partition's replica paths. */
  public static final String MASTER = "M";

  /** The service (container resource id) segment of the master partition's replica paths. */
  public static final String MASTER_SERVICE = "master";

  private void replicas(WireRequest request, String service, String rangeId, List<ObjectNode> out) {
    String authority = host(request.header("host")) + ":" + directPort.getAsInt();
    for (int replica = 0; replica < REPLICAS; replica++) {
      String uri = replicaUri(authority, service, rangeId, replica);
      ObjectNode a = JsonNodeFactory.instance.objectNode();
      a.put("isPrimary", replica == 0);
      a.put("protocol", "rntbd");
      a.put("logicalUri", uri);
      a.put("physcialUri", uri); // sic: the service's spelling, which the SDK reads
      a.put("partitionIndex", rangeId);
      a.put("partitionKeyRangeId", rangeId);
      out.add(a);
    }
  }

  static String replicaUri(String authority, String containerRid, String rangeId, int replica) {
    return "rntbd://"
        + authority
        + "/apps/cosmolab/services/"
        + containerRid
        + "/partitions/"
        + rangeId
        + "/replicas/"
        + (replica + 1)
        + (replica == 0 ? "p" : "s")
        + "/";
  }

  /**
   * The container resource id a replica path names ({@code .../services/{rid}/partitions/...}), or
   * null when the path is not one of these.
   */
  public static String serviceOf(String replicaPath) {
    if (replicaPath == null) {
      return null;
    }
    String marker = "/services/";
    int at = replicaPath.indexOf(marker);
    if (at < 0) {
      return null;
    }
    int start = at + marker.length();
    int end = replicaPath.indexOf('/', start);
    return end < 0 ? null : replicaPath.substring(start, end);
  }

  /**
   * The range id a replica path names ({@code .../partitions/{id}/replicas/...}), or null when the
   * path is not one of these.
   */
  public static String rangeOf(String replicaPath) {
    if (replicaPath == null) {
      return null;
    }
    String marker = "/partitions/";
    int at = replicaPath.indexOf(marker);
    if (at < 0) {
      return null;
    }
    int start = at + marker.length();
    int end = replicaPath.indexOf('/', start);
    return end < 0 ? null : replicaPath.substring(start, end);
  }

  /** The name part of the Host the client reached the gateway by; {@code localhost} if none. */
  private static String host(String header) {
    if (header == null || header.isBlank()) {
      return "localhost";
    }
    String h = header.strip();
    if (h.startsWith("[")) {
      int end = h.indexOf(']');
      return end < 0 ? "localhost" : h.substring(0, end + 1);
    }
    int colon = h.indexOf(':');
    return (colon < 0 ? h : h.substring(0, colon)).toLowerCase(Locale.ROOT);
  }
}
