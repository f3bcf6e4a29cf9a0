package io.cosmolab.gateway.resources;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.changefeed.ChangeFeedMode;
import io.cosmolab.engine.changefeed.ChangeFeedPage;
import io.cosmolab.engine.changefeed.ChangeFeedRequest;
import io.cosmolab.engine.changefeed.ChangeFeedStart;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The pull-model change feed ({@code gateway-protocol.md} §8): {@code GET .../docs} with {@code
 * A-IM: Incremental Feed} (latest version) or {@code Full-Fidelity Feed} (all versions and
 * deletes). Where it starts: no {@code If-None-Match} is the beginning (or {@code
 * If-Modified-Since}, a point in time); {@code *} is now; an etag continues after that LSN. The
 * page's {@code etag} is the next continuation, a quoted LSN; when nothing is newer the answer is
 * 304 with the same etag, never an empty 200, which would make clients spin.
 *
 * <p>The etag is a position in the container-wide change log, so a continuation taken on a parent
 * range keeps its meaning on the children after a split. The items' {@code _lsn}, the {@code lsn}
 * header and the session token carry the physical partition's own LSN, the session token its
 * current one (not the page's last item's), as the service does.
 */
final class ChangeFeedResource {

  /** Items per page when the client leaves it to the server. */
  static final int DEFAULT_PAGE = 100;

  WireResponse handle(WireRequest request, Container c) {
    ChangeFeedMode mode = mode(request.header(Headers.A_IM));
    EpkRange range = EpkRange.FULL;
    String rangeId = Requests.rangeId(request);
    if (rangeId != null) {
      range = c.requireRangeNamed(c.routing(), rangeId).range();
    }
    EpkRange epk = Requests.epkRange(request);
    if (epk != null) {
      if (!range.overlaps(epk)) {
        throw CosmosError.PARTITION_KEY_RANGE_GONE.exception(
            "the EPK range %s is not inside partition key range %s %s; refresh the routing map",
            epk, rangeId, range);
      }
      range = range.intersect(epk);
    }
    int max = Requests.maxItemCount(request);
    ChangeFeedStart start = start(request);
    if (mode == ChangeFeedMode.ALL_VERSIONS_AND_DELETES
        && (start instanceof ChangeFeedStart.Beginning
            || start instanceof ChangeFeedStart.PointInTime)) {
      // The service keeps intermediate versions and deletes only within its retention window, and
      // starts this mode only from now or a continuation [D "Change feed modes": "You can't read
      // changes from the beginning of the container or from a specific point in time by using
      // this mode"]. Its exact message and sub-status were not found in the SDKs' sources or
      // tests: a plain 400 with our words [A]. The engine's API still reads this mode from its
      // log's start.
      throw CosmosError.BAD_REQUEST.exception(
          "the all versions and deletes change feed cannot start from %s: start it from now"
              + " (If-None-Match: *) or from a continuation",
          start instanceof ChangeFeedStart.Beginning ? "the beginning" : "a point in time");
    }
    io.cosmolab.engine.partitioning.PartitionKeyValue key = Requests.partitionKey(request);
    ChangeFeedRequest cf =
        new ChangeFeedRequest(range, key, mode, start, max <= 0 ? DEFAULT_PAGE : max);
    ChangeFeedPage page = c.readChangeFeed(cf);
    // the partition whose LSN the session token carries: the one named, or the one a full key or
    // a single-partition container leaves; none for a read over several (a token at the highest
    // of their LSNs would claim more than the lower ones have, and a client holding it would find
    // their reads stale)
    String sessionRange = rangeId != null ? rangeId : Responses.ownerRange(c, key);
    if (sessionRange == null && c.routing().size() == 1) {
      sessionRange = c.routing().ranges().get(0).id();
    }
    Map<String, String> h = Responses.containerHeaders(c, page.requestCharge(), sessionRange);
    String etag = "\"" + page.continuation() + "\"";
    h.put(Headers.ETAG, etag);
    // the partition's current LSN, as the service's page carries: the Java SDK's estimator takes
    // it as the latest LSN and subtracts the _lsn of the first item after the lease's continuation
    h.put(Headers.LSN, Long.toString(page.partitionLsn()));
    h.put(Headers.GLOBAL_COMMITTED_LSN, Long.toString(page.partitionLsn()));
    if (sessionRange != null) {
      h.put(Headers.SESSION_TOKEN, Responses.sessionToken(sessionRange, page.partitionLsn()));
    }
    if (rangeId != null) {
      h.put(Headers.PARTITION_KEY_RANGE_ID, rangeId);
    }
    if (page.notModified()) {
      return WireResponse.empty(304, h);
    }
    boolean envelope =
        mode == ChangeFeedMode.LATEST_VERSION
            && request.header(Headers.CHANGE_FEED_WIRE_FORMAT) != null;
    return Responses.feed(
        c.rid(), "Documents", envelope ? envelopes(page.items()) : page.items(), h);
  }

  /**
   * Latest-version items in the 2021-09-15 wire format, which the Java SDK's EPK-lease processor
   * ({@code handleLatestVersionChanges}) asks for: {@code {"current": doc, "metadata": {"lsn",
   * "crts"}}}. The operation type is left out: latest-version mode keeps only the newest version,
   * so whether it came from a create or a replace is not recorded.
   */
  private static List<ObjectNode> envelopes(List<ObjectNode> items) {
    List<ObjectNode> out = new ArrayList<>(items.size());
    for (ObjectNode doc : items) {
      ObjectNode e = JsonNodeFactory.instance.objectNode();
      e.set("current", doc);
      ObjectNode meta = e.putObject("metadata");
      meta.set("lsn", doc.get("_lsn"));
      meta.set("crts", doc.get("_ts"));
      out.add(e);
    }
    return out;
  }

  private static ChangeFeedMode mode(String aim) {
    String v = aim.strip().toLowerCase(Locale.ROOT);
    return switch (v) {
      case "incremental feed" -> ChangeFeedMode.LATEST_VERSION;
      case "full-fidelity feed", "allversionsanddeletes" -> ChangeFeedMode.ALL_VERSIONS_AND_DELETES;
      default ->
          throw CosmosError.BAD_REQUEST.exception(
              "A-IM '%s' is not a change feed mode; use 'Incremental Feed' or 'Full-Fidelity Feed'",
              aim);
    };
  }

  private static ChangeFeedStart start(WireRequest request) {
    String ifNoneMatch = request.header(Headers.IF_NONE_MATCH);
    if (ifNoneMatch == null || ifNoneMatch.isBlank()) {
      String since = request.header(Headers.IF_MODIFIED_SINCE);
      if (since == null || since.isBlank()) {
        return ChangeFeedStart.beginning();
      }
      try {
        return ChangeFeedStart.pointInTime(
            ZonedDateTime.parse(since.strip(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
      } catch (DateTimeParseException e) {
        throw CosmosError.BAD_REQUEST.exception(
            "If-Modified-Since '%s' is not an RFC 1123 date", since);
      }
    }
    String v = ifNoneMatch.strip();
    if (v.equals("*")) {
      return ChangeFeedStart.now();
    }
    String lsn = v.replace("\"", "");
    try {
      return ChangeFeedStart.continuation(Long.parseLong(lsn));
    } catch (NumberFormatException e) {
      throw CosmosError.BAD_REQUEST.exception(
          "If-None-Match '%s' is not a change feed continuation from this server (an LSN such as"
              + " \"42\")",
          ifNoneMatch);
    }
  }
}
