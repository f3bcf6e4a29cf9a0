package io.cosmolab.gateway.resources;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.resource.ResourceIds;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.routing.RoutingMap;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code GET .../pkranges}: the physical partitions, which tile {@code ""}–{@code "FF"} ({@code
 * gateway-protocol.md} §6). The etag is the routing map's version: a client that sends it back in
 * {@code If-None-Match} gets 304 until the layout changes, which is how the .NET-style readers stop
 * polling. Children of a split list their ancestors in {@code parents}.
 */
final class PartitionKeyRangeResource {

  WireResponse feed(WireRequest request, Container c) {
    RoutingMap map = c.routing();
    String etag = "\"" + map.version() + "\"";
    Map<String, String> h = Responses.containerHeaders(c, 1);
    h.put(Headers.ETAG, etag);
    String ifNoneMatch = request.header(Headers.IF_NONE_MATCH);
    if (ifNoneMatch != null && ifNoneMatch.strip().equals(etag)) {
      return WireResponse.empty(304, h);
    }
    byte[] containerRid = ResourceIds.decode(c.rid());
    double fraction = 1.0 / map.size();
    List<ObjectNode> ranges = new ArrayList<>();
    for (PartitionKeyRange r : map.ranges()) {
      String rid =
          ResourceIds.encode(ResourceIds.partitionKeyRange(containerRid, Long.parseLong(r.id())));
      ObjectNode n = JsonNodeFactory.instance.objectNode();
      n.put("_rid", rid);
      n.put("id", r.id());
      n.put("_etag", "\"" + map.version() + "-" + r.id() + "\"");
      n.put("minInclusive", r.range().min());
      n.put("maxExclusive", r.range().max());
      n.put("ridPrefix", Integer.parseInt(r.id()));
      n.put("_self", c.selfLink() + "pkranges/" + rid + "/");
      n.put("throughputFraction", fraction);
      n.put("status", "online");
      r.parents().forEach(n.putArray("parents")::add);
      n.put("_ts", c.createdMillis() / 1000);
      n.put("_lsn", c.lsn(r.id()));
      ranges.add(n);
    }
    return Responses.feed(c.rid(), "PartitionKeyRanges", ranges, h);
  }
}
