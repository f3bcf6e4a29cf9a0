package io.cosmolab.gateway.observe;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.gateway.auth.HostCheck;
import io.cosmolab.gateway.wire.FeedPost;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.ResourcePath;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Function;

/**
 * In front of the Cosmos protocol: answers {@code /metrics}, {@code /health} and {@code
 * /_explorer/*} itself, without a signature (the Host check still applies, and the server binds to
 * loopback unless told otherwise; the explorer, which reads documents and splits partitions, is
 * served to loopback clients only, whatever the bind address), and counts every other request by
 * operation and status on its way through, unless metrics are off.
 *
 * <p>Thread-safe: it holds no per-request state.
 */
public final class ObservedProtocol implements Function<WireRequest, WireResponse> {
  private final Function<WireRequest, WireResponse> protocol;
  private final HostCheck hosts;
  private final Observability observability;
  private final Explorer explorer;
  // alt path -> {database, container}, so that a request's labels are the same String instances
  // every time (their hashes cached, equal by identity) and it allocates none; bounded, since alt
  // paths come from the account's resources (beyond the bound, labels are parsed per request)
  private final java.util.concurrent.ConcurrentHashMap<String, String[]> scopes =
      new java.util.concurrent.ConcurrentHashMap<>();
  private static final int MAX_SCOPES = 4096;

  public ObservedProtocol(
      Function<WireRequest, WireResponse> protocol, HostCheck hosts, Observability observability) {
    this.protocol = protocol;
    this.hosts = hosts;
    this.observability = observability;
    this.explorer = new Explorer(observability);
  }

  @Override
  public WireResponse apply(WireRequest request) {
    ResourcePath path = request.path();
    if (path.size() >= 1) {
      String first = path.segment(0);
      if (first.equals("metrics") && path.size() == 1) {
        hosts.check(request.header("host"));
        return metrics(request);
      }
      if (first.equals("health") && path.size() == 1) {
        hosts.check(request.header("host"));
        requireGet(request);
        return text(200, "application/json", "{\"status\":\"ok\"}");
      }
      if (first.equals("_explorer")) {
        hosts.check(request.header("host"));
        if (!request.fromLoopback()) {
          // it takes no signature: beyond this machine it would read and change data without
          // the key (serve --host with a --key of your own)
          throw CosmosError.FORBIDDEN_REMOTE.exception(
              "the explorer is served to clients on this machine only (it takes no key); open"
                  + " it on the server's machine, or reach it through an SSH tunnel to its"
                  + " loopback port");
        }
        return explorer.handle(request);
      }
    }
    RequestMeters meters = observability.requests();
    if (meters == null) {
      return protocol.apply(request);
    }
    // from when the transport had the request whole, so the wait for its connection's lane and a
    // worker counts, as a client sees it (the write of the response does not)
    long started = request.receivedNanos();
    try {
      WireResponse r = protocol.apply(request);
      record(meters, request, r, r.status(), subStatusOf(r), chargeOf(r), started);
      return r;
    } catch (CosmosException e) {
      record(meters, request, null, e.status(), e.subStatus(), e.requestCharge(), started);
      throw e;
    }
  }

  private WireResponse metrics(WireRequest request) {
    requireGet(request);
    if (!observability.metricsEnabled()) {
      throw CosmosError.NOT_FOUND.exception(
          "metrics are off in this server (serve --no-metrics); /_explorer still works");
    }
    return text(200, "text/plain; version=0.0.4; charset=utf-8", observability.scrape());
  }

  static void requireGet(WireRequest request) {
    if (!request.method().equals("GET")) {
      throw CosmosError.METHOD_NOT_ALLOWED.exception(
          "%s is not supported on %s; use GET", request.method(), request.path());
    }
  }

  static WireResponse text(int status, String type, String body) {
    return new WireResponse(
        status,
        Map.of(Headers.CONTENT_TYPE, type, "cache-control", "no-store"),
        body.getBytes(StandardCharsets.UTF_8));
  }

  private void record(
      RequestMeters meters,
      WireRequest request,
      WireResponse response,
      int status,
      int subStatus,
      double charge,
      long started) {
    long nanos = System.nanoTime() - started;
    ResourcePath path = request.path();
    String database = "";
    String container = "";
    String alt = response == null ? null : response.headers().get(Headers.ALT_CONTENT_PATH);
    if (alt != null && alt.startsWith("dbs/")) {
      String[] scope = scopes.get(alt);
      if (scope == null) {
        scope = scopeOf(alt);
        if (scopes.size() < MAX_SCOPES) {
          scopes.putIfAbsent(alt, scope);
        }
      }
      database = scope[0];
      container = scope[1];
    } else if (path.size() >= 2 && path.segment(0).equals("dbs")) {
      database = path.segment(1);
      container = path.size() >= 4 && path.segment(2).equals("colls") ? path.segment(3) : "";
    }
    String range = response == null ? null : response.headers().get(Headers.PARTITION_KEY_RANGE_ID);
    if (range == null) {
      range = request.header(Headers.PARTITION_KEY_RANGE_ID);
    }
    if (range == null && response == null && status == 429) {
      range = rangeOfKey(request);
    }
    meters.record(
        database,
        container,
        range == null ? "" : range,
        operation(request),
        status,
        subStatus,
        charge,
        nanos);
  }

  /**
   * {database, container} of an alt path, {@code "dbs/{db}/colls/{coll}"} or {@code "dbs/{db}"},
   * percent-encoded only when an id is not plain.
   */
  private static String[] scopeOf(String alt) {
    String database;
    String container = "";
    int end = alt.indexOf('/', 4);
    database = end < 0 ? alt.substring(4) : alt.substring(4, end);
    if (end >= 0 && alt.startsWith("colls/", end + 1)) {
      int collEnd = alt.indexOf('/', end + 7);
      container = collEnd < 0 ? alt.substring(end + 7) : alt.substring(end + 7, collEnd);
    }
    if (alt.indexOf('%') >= 0) {
      database = java.net.URLDecoder.decode(database, StandardCharsets.UTF_8);
      container = java.net.URLDecoder.decode(container, StandardCharsets.UTF_8);
    }
    return new String[] {database, container};
  }

  /**
   * The physical partition of the request's partition key, for a refused request (its error answer
   * names none); null when the path or the key does not resolve.
   */
  private String rangeOfKey(WireRequest request) {
    ResourcePath p = request.path();
    String key = request.header(Headers.PARTITION_KEY);
    if (key == null
        || p.size() < 4
        || !p.segment(0).equals("dbs")
        || !p.segment(2).equals("colls")) {
      return null;
    }
    try {
      io.cosmolab.engine.Container c =
          observability
              .engine()
              .findDatabase(p.segment(1))
              .flatMap(d -> d.findContainer(p.segment(3)))
              .orElse(null);
      if (c == null) {
        return null;
      }
      io.cosmolab.engine.partitioning.PartitionKeyValue v =
          io.cosmolab.engine.partitioning.PartitionKeyValue.fromJson(
              new com.fasterxml.jackson.databind.ObjectMapper().readTree(key));
      return c.routing()
          .rangeFor(io.cosmolab.engine.partitioning.EffectivePartitionKey.of(c.partitionKey(), v))
          .id();
    } catch (java.io.IOException | RuntimeException e) {
      return null; // a key the engine refused already answered 400; the label stays empty
    }
  }

  /** The operation type as Azure Monitor names it (Read, Create, Upsert, Query, ...). */
  static String operation(WireRequest r) {
    ResourcePath p = r.path();
    String m = r.method();
    if (p.kind() != ResourcePath.Kind.DOCUMENTS) {
      return "Metadata";
    }
    if (p.isFeed()) {
      if (m.equals("POST")) {
        return switch (FeedPost.of(r)) {
          case BATCH -> "Batch";
          case QUERY_PLAN -> "QueryPlan";
          case QUERY -> "Query";
          case WRITE -> r.flag(Headers.IS_UPSERT) ? "Upsert" : "Create";
        };
      }
      return r.header(Headers.A_IM) != null ? "ChangeFeed" : "ReadFeed";
    }
    return switch (m) {
      case "GET" -> "Read";
      case "PUT" -> "Replace";
      case "DELETE" -> "Delete";
      case "PATCH" -> "Patch";
      default -> m;
    };
  }

  private static int subStatusOf(WireResponse r) {
    String s = r.headers().get(Headers.SUB_STATUS);
    if (s == null) {
      return 0;
    }
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static double chargeOf(WireResponse r) {
    String s = r.headers().get(Headers.REQUEST_CHARGE);
    if (s == null) {
      return 0;
    }
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
