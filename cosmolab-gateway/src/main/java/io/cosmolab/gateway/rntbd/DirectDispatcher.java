package io.cosmolab.gateway.rntbd;

import io.cosmolab.engine.Container;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.Database;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.gateway.http.OffLoopLog;
import io.cosmolab.gateway.resources.Addresses;
import io.cosmolab.gateway.resources.LoopPolicy;
import io.cosmolab.gateway.wire.ErrorResponses;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.ResourcePath;
import io.cosmolab.gateway.wire.TraceLine;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.util.Optional;
import java.util.function.Function;

/**
 * Serves one direct-mode request: translates it, checks that the replica it was sent to still
 * exists, hands it to the same protocol function the HTTP transports call, and translates the
 * answer. Every failure becomes a response frame here, as {@code ErrorResponses} makes it for HTTP;
 * nothing escapes to the connection.
 *
 * <p>The replica check is what keeps direct mode right across splits. The SDK caches a range's
 * addresses and sends a request straight to the replicas of the range it believes owns the key or
 * the feed range. Once that range has split, its id is no longer in the routing map, and the answer
 * depends on how the request was addressed, because the Java SDK (4.81.0) retries differently:
 *
 * <ul>
 *   <li>a request that names its range ({@code PartitionKeyRangeId}: queries, read feed, change
 *       feed) gets 410/1002 (partition key range gone), on which the feed's {@code
 *       PartitionKeyRangeGoneRetryPolicy} reads {@code /pkranges} again and continues on the child
 *       ranges;
 *   <li>a request by partition key (point operations, batch) gets 410/1007 (completing split or
 *       merge), on which {@code GoneAndRetryWithRetryPolicy} refreshes the routing map and retries
 *       at the child range. A 1002 there is not retried for a point operation: it reached the
 *       application (azure-sdk-for-java#49381 describes the same escape from address resolution).
 *       [A] The service's replicas answer 1007 while a split completes; after it, the parent's
 *       replicas are gone, and what a client that still addresses them gets is not documented.
 * </ul>
 *
 * <p>The same check keeps it right when a container is deleted and created again under its name: a
 * replica path names its container's resource id ({@code services/{rid}}), and a request that
 * reaches a replica of the old one gets 410/1000 (name cache stale), on which the SDK refreshes its
 * container cache and retries ({@code StaleResourceRetryPolicy}).
 *
 * <p>Thread-safe: no state of its own beyond the engine's, which is thread-safe.
 */
final class DirectDispatcher {
  private final Function<WireRequest, WireResponse> protocol;
  private final CosmosEngine engine;
  private final LoopPolicy onLoop;

  DirectDispatcher(Function<WireRequest, WireResponse> protocol, CosmosEngine engine) {
    this.protocol = protocol;
    this.engine = engine;
    this.onLoop = LoopPolicy.of(engine);
  }

  /** Whether {@code r} may be served on its connection's event loop ({@link LoopPolicy}). */
  boolean servesOnLoop(Inbound.Request r) {
    return onLoop.servesOnLoop(
        r.operationType() == Tokens.Operation.READ
            && r.resourceType() == Tokens.ResourceType.DOCUMENT,
        r.string(Tokens.Request.AUTHORIZATION));
  }

  /**
   * Serves one request; {@code abandoned} says when its connection has closed (a query then stops:
   * {@link WireRequest#abandoned}).
   */
  Outbound serve(Inbound.Request r, java.util.function.BooleanSupplier abandoned) {
    String activityId = r.activityId().toString();
    String range = Addresses.rangeOf(r.string(Tokens.Request.REPLICA_PATH));
    Container container = null;
    WireResponse response;
    WireRequest wire = null;
    try {
      wire = RequestTranslator.translate(r, abandoned);
      container = find(wire.path()).orElse(null);
      String service = Addresses.serviceOf(r.string(Tokens.Request.REPLICA_PATH));
      if (container != null
          && service != null
          && !service.equals(Addresses.MASTER_SERVICE)
          && !service.equals(container.rid())) {
        throw CosmosError.NAME_CACHE_IS_STALE.exception(
            "the replica addressed belongs to container %s, which is gone: '%s' is %s now (deleted"
                + " and created again); the client's cached container is stale",
            service, container.id(), container.rid());
      }
      // not Container.rangeNamed: this answer comes before the request is authenticated (in
      // protocol.apply), and counting it would let anyone who reaches the port raise the
      // gone-range-requests alert; the Java SDK, direct mode's one client, recovers anyway
      if (container != null && range != null && container.routing().byId(range).isEmpty()) {
        throw (r.string(Tokens.Request.PARTITION_KEY_RANGE_ID) != null
                ? CosmosError.PARTITION_KEY_RANGE_GONE
                : CosmosError.COMPLETING_SPLIT_OR_MERGE)
            .exception(
                "partition key range %s of container '%s' is gone (split or merged): the client's"
                    + " addresses are stale, read /pkranges again",
                range, container.id());
      }
      response = isBarrier(r) ? barrier() : protocol.apply(wire);
    } catch (CosmosException e) {
      response = ErrorResponses.of(e, activityId);
    } catch (RuntimeException e) {
      OffLoopLog.GATEWAY.error("activity " + activityId + ": a direct-mode request failed", e);
      response = ErrorResponses.internal(activityId);
    }
    response = withReplicaHeaders(response, container, range);
    if (TraceLine.ENABLED) {
      System.err.println(
          TraceLine.of(
              "rntbd",
              wire == null ? "?" : wire.method(),
              (wire == null ? "?" : wire.path().toString()) + " range=" + range,
              wire == null ? java.util.Map.of() : wire.headers(),
              response));
    }
    return ResponseTranslator.translate(
        response, r.activityId(), r.number(Tokens.Request.TRANSPORT_REQUEST_ID));
  }

  /**
   * A barrier: the {@code Head} request the SDK's quorum reader and writer send (on the master
   * partition, which it reads with Strong consistency, and for Strong accounts) to learn a
   * replica's LSN. Answered 200 with the LSN tokens and no body. Assumption: as every replica is
   * the one engine, its LSN is the one the write that preceded it left, so the barrier is met at
   * once. Not authenticated: it reveals a number that every response to the same client carries.
   */
  private static boolean isBarrier(Inbound.Request r) {
    return r.operationType() == Tokens.Operation.HEAD
        || r.operationType() == Tokens.Operation.HEAD_FEED;
  }

  private static WireResponse barrier() {
    return WireResponse.empty(200, java.util.Map.of(Headers.REQUEST_CHARGE, "0.00"));
  }

  /**
   * Adds what a replica's every answer carries and the gateway's answers may not: the LSN of the
   * partition that served it (the highest of the container's when the request named none) and a
   * session token at it (errors have neither), and the range that served it.
   */
  private static WireResponse withReplicaHeaders(WireResponse response, Container c, String range) {
    WireResponse out = response;
    long lsn = c == null ? 0 : c.lsn(range);
    if (!out.headers().containsKey(Headers.LSN)) {
      out = out.withHeader(Headers.LSN, Long.toString(lsn));
      out = out.withHeader(Headers.GLOBAL_COMMITTED_LSN, Long.toString(lsn));
    }
    // a session token names one partition and is true of it only; a request that named no range
    // gets one only where the container has a single partition
    String tokenRange =
        range != null || c == null || c.routing().size() != 1
            ? range
            : c.routing().ranges().get(0).id();
    if (!out.headers().containsKey(Headers.SESSION_TOKEN) && c != null && tokenRange != null) {
      out =
          out.withHeader(
              Headers.SESSION_TOKEN,
              io.cosmolab.gateway.wire.SessionTokens.of(tokenRange, c.lsn(tokenRange)));
    }
    if (!out.headers().containsKey(Headers.PARTITION_KEY_RANGE_ID) && range != null) {
      out = out.withHeader(Headers.PARTITION_KEY_RANGE_ID, range);
    }
    return out;
  }

  /** The container a path names, by name or RID, if it exists. */
  private Optional<Container> find(ResourcePath path) {
    if (path.size() < 4 || !"dbs".equals(path.segment(0)) || !"colls".equals(path.segment(2))) {
      return Optional.empty();
    }
    Optional<Database> db = engine.findDatabase(path.segment(1));
    if (db.isEmpty()) {
      db = engine.databases().stream().filter(d -> d.rid().equals(path.segment(1))).findFirst();
    }
    return db.flatMap(
        d -> {
          Optional<Container> c = d.findContainer(path.segment(3));
          return c.isPresent()
              ? c
              : d.containers().stream().filter(x -> x.rid().equals(path.segment(3))).findFirst();
        });
  }
}
