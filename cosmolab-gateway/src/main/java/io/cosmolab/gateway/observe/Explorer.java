package io.cosmolab.gateway.observe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.Database;
import io.cosmolab.engine.alerts.Alert;
import io.cosmolab.engine.alerts.AlertEvent;
import io.cosmolab.engine.alerts.AlertRules;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.metrics.LogicalPartitionStats;
import io.cosmolab.engine.metrics.PartitionEvent;
import io.cosmolab.engine.metrics.PartitionMetrics;
import io.cosmolab.engine.metrics.PartitionStats;
import io.cosmolab.engine.metrics.RetiredPartition;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.ResourcePath;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code /_explorer}: the page (static files from the class path) and the JSON API it reads, which
 * scripts can read too ({@code docs/observability.md} lists every endpoint).
 *
 * <p>The API changes state in two places only (split a range, merge two), and runs queries; those
 * are POSTs that must say {@code Content-Type: application/json}, which a page of another site
 * cannot send without a CORS preflight that this server never grants, and that are refused when
 * their {@code Origin} is not this server.
 */
final class Explorer {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_ROWS = 1000;
  private static final String PAGE_CSP =
      "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";

  private final Observability observability;
  private final CosmosEngine engine;

  Explorer(Observability observability) {
    this.observability = observability;
    this.engine = observability.engine();
  }

  WireResponse handle(WireRequest request) {
    ResourcePath p = request.path();
    if (p.size() == 1) {
      ObservedProtocol.requireGet(request);
      return WireResponse.empty(302, Map.of("location", "/_explorer/index.html"));
    }
    if (p.size() == 2 && !p.segment(1).equals("api")) {
      ObservedProtocol.requireGet(request);
      return asset(p.segment(1));
    }
    if (!p.segment(1).equals("api") || p.size() < 3) {
      throw notFound(p);
    }
    String what = p.segment(2);
    if (p.size() == 3 && what.equals("account")) {
      ObservedProtocol.requireGet(request);
      return json(account());
    }
    if (p.size() == 3 && what.equals("alerts")) {
      ObservedProtocol.requireGet(request);
      return json(alerts());
    }
    // /_explorer/api/dbs/{db}/colls/{coll}/{view}[/...]
    if (what.equals("dbs") && p.size() >= 7 && p.segment(4).equals("colls")) {
      Database db =
          engine
              .findDatabase(p.segment(3))
              .orElseThrow(
                  () ->
                      CosmosError.NOT_FOUND.exception(
                          "database '%s' does not exist", p.segment(3)));
      Container c =
          db.findContainer(p.segment(5))
              .orElseThrow(
                  () ->
                      CosmosError.NOT_FOUND.exception(
                          "container '%s' does not exist in database '%s'", p.segment(5), db.id()));
      return container(request, p, db, c);
    }
    throw notFound(p);
  }

  private WireResponse container(WireRequest request, ResourcePath p, Database db, Container c) {
    String view = p.segment(6);
    switch (view) {
      case "heatmap" -> {
        ObservedProtocol.requireGet(request);
        return json(heatmap(c, intParam(request, "seconds", 3600), intParam(request, "step", 60)));
      }
      case "partitions" -> {
        if (p.size() == 7) {
          ObservedProtocol.requireGet(request);
          return json(partitions(db, c));
        }
        requirePost(request);
        if (p.size() == 8 && p.segment(7).equals("merge")) {
          JsonNode body = body(request);
          c.mergePartitions(text(body, "left"), text(body, "right"));
          return json(partitions(db, c));
        }
        if (p.size() == 9 && p.segment(8).equals("split")) {
          c.splitPartition(p.segment(7));
          return json(partitions(db, c));
        }
        throw notFound(p);
      }
      case "query" -> {
        requirePost(request);
        return json(query(c, body(request)));
      }
      case "documents" -> {
        ObservedProtocol.requireGet(request);
        return json(documents(c, request.queryParameter("partitionKey")));
      }
      default -> throw notFound(p);
    }
  }

  // ------------------------------------------------------------------ views

  private ObjectNode account() {
    ObjectNode out = F.objectNode();
    out.put("throttling", engine.throttling().name().toLowerCase(Locale.ROOT));
    out.put("scale", engine.limits().scaleFactor());
    out.put("now", Instant.ofEpochMilli(engine.clock().millis()).toString());
    out.put("metrics", observability.metricsEnabled());
    out.put("activeAlerts", observability.alerts().active().size());
    ArrayNode dbs = out.putArray("databases");
    for (Database db : engine.databases()) {
      ObjectNode d = dbs.addObject();
      d.put("id", db.id());
      db.sharedThroughput().ifPresent(t -> d.set("sharedThroughput", throughput(t)));
      ArrayNode cs = d.putArray("containers");
      for (Container c : db.containers()) {
        cs.add(containerSummary(db, c));
      }
    }
    return out;
  }

  private ObjectNode containerSummary(Database db, Container c) {
    ObjectNode o = F.objectNode();
    o.put("id", c.id());
    o.put("database", db.id());
    o.set("partitionKey", c.partitionKey().toJson());
    c.throughput().ifPresent(t -> o.set("throughput", throughput(t)));
    o.put("sharedThroughput", c.throughput().isEmpty());
    List<PartitionStats> ps = c.partitionStats();
    o.put("physicalPartitions", ps.size());
    long bytes = 0;
    long docs = 0;
    double budget = 0;
    PartitionStats hottest = null;
    for (PartitionStats s : ps) {
      bytes += s.storageBytes();
      docs += s.documents();
      budget += s.budgetRuPerSecond();
      if (hottest == null || s.normalizedRuConsumption() > hottest.normalizedRuConsumption()) {
        hottest = s;
      }
    }
    o.put("storageBytes", bytes);
    o.put("documents", docs);
    double used = containerUsage(c, ps, budget);
    o.put("containerNormalizedRu", used);
    if (hottest != null) {
      o.put("hottestPartition", hottest.id());
      o.put("hottestNormalizedRu", hottest.normalizedRuConsumption());
      o.put(
          "headline",
          String.format(
              Locale.ROOT,
              "hottest partition (%s) at %.0f %% of its budget while the container uses %.0f %%",
              hottest.id(),
              hottest.normalizedRuConsumption() * 100,
              used * 100));
    }
    return o;
  }

  /** The busiest second of the last minute across the container, ÷ the sum of the budgets. */
  private double containerUsage(Container c, List<PartitionStats> ps, double budget) {
    if (!(budget > 0)) {
      return 0;
    }
    long now = Math.floorDiv(engine.clock().millis(), 1000);
    double[] sum = new double[60];
    for (PartitionStats s : ps) {
      List<PartitionMetrics.Second> minute = c.partitionSeconds(s.id(), now - 59, now + 1);
      for (int i = 0; i < minute.size(); i++) {
        sum[i] += minute.get(i).ru();
      }
    }
    double max = 0;
    for (double v : sum) {
      max = Math.max(max, v);
    }
    return Math.min(1.0, max / budget);
  }

  private static ObjectNode throughput(io.cosmolab.engine.throughput.Throughput t) {
    ObjectNode o = F.objectNode();
    o.put("kind", t.kind());
    o.put("ruPerSecond", t.maxRuPerSecond());
    return o;
  }

  private ObjectNode heatmap(Container c, int seconds, int step) {
    if (seconds < 1 || seconds > PartitionMetrics.WINDOW_SECONDS) {
      throw CosmosError.BAD_REQUEST.exception(
          "seconds must be 1..%d (the metrics keep an hour), was %d",
          PartitionMetrics.WINDOW_SECONDS, seconds);
    }
    if (step < 1 || step > seconds) {
      throw CosmosError.BAD_REQUEST.exception("step must be 1..seconds, was %d", step);
    }
    long now = Math.floorDiv(engine.clock().millis(), 1000);
    int buckets = (seconds + step - 1) / step;
    long from = now + 1 - (long) buckets * step;
    ObjectNode out = F.objectNode();
    out.put("from", from);
    out.put("to", now + 1);
    out.put("step", step);
    // today's partitions, and those a split or merge replaced within the window: a parent's row
    // runs up to its split, above its children's, in EPK order (a parent before its first child)
    List<HeatRow> rows = new ArrayList<>();
    for (PartitionStats s : c.partitionStats()) {
      rows.add(new HeatRow(s.id(), s.range().min(), s.budgetRuPerSecond(), Long.MAX_VALUE));
    }
    for (RetiredPartition r : c.retiredPartitions()) {
      long gone = Math.floorDiv(r.retiredMillis(), 1000);
      if (gone >= from) {
        rows.add(new HeatRow(r.id(), r.range().min(), r.budgetRuPerSecond(), gone));
      }
    }
    rows.sort(
        java.util.Comparator.comparing(HeatRow::minEpk).thenComparingLong(HeatRow::retiredSecond));
    // when each range that a split or merge made came to be
    Map<String, Long> created = new java.util.HashMap<>();
    for (PartitionEvent e : c.partitionEvents()) {
      for (String id : e.after()) {
        created.put(id, Math.floorDiv(e.timeMillis(), 1000));
      }
    }
    ArrayNode parts = out.putArray("partitions");
    for (HeatRow row : rows) {
      ObjectNode p = parts.addObject();
      p.put("id", row.id());
      p.put("budget", row.budget());
      Long born = created.get(row.id());
      if (born != null && born >= from) {
        p.put("createdAt", born);
      }
      if (row.retiredSecond() != Long.MAX_VALUE) {
        p.put("retiredAt", row.retiredSecond());
      }
      ArrayNode nru = p.putArray("nru");
      ArrayNode demand = p.putArray("demand");
      ArrayNode ru = p.putArray("ru");
      ArrayNode thr = p.putArray("throttled");
      ArrayNode would = p.putArray("wouldThrottle");
      List<PartitionMetrics.Second> series = c.partitionSeconds(row.id(), from, now + 1);
      double budget = row.budget();
      for (int b = 0; b < buckets; b++) {
        double max = 0;
        double total = 0;
        long t = 0;
        long w = 0;
        for (int i = b * step; i < (b + 1) * step && i < series.size(); i++) {
          PartitionMetrics.Second sec = series.get(i);
          max = Math.max(max, sec.ru());
          total += sec.ru();
          t += sec.throttled();
          w += sec.wouldThrottle();
        }
        double ratio = budget > 0 ? max / budget : 0;
        nru.add(round(Math.min(1.0, ratio)));
        demand.add(round(ratio));
        ru.add(round(total));
        thr.add(t);
        would.add(w);
      }
    }
    ArrayNode events = out.putArray("events");
    for (PartitionEvent e : c.partitionEvents()) {
      if (e.timeMillis() / 1000 >= from) {
        events.add(event(e));
      }
    }
    return out;
  }

  /** One heat-map row: a partition, with the second it was replaced (MAX_VALUE: it is not). */
  private record HeatRow(String id, String minEpk, double budget, long retiredSecond) {}

  private static double round(double v) {
    return Math.round(v * 10_000) / 10_000.0;
  }

  private static ObjectNode event(PartitionEvent e) {
    ObjectNode o = F.objectNode();
    o.put("t", e.timeMillis() / 1000);
    o.put("at", Instant.ofEpochMilli(e.timeMillis()).toString());
    o.put("kind", e.kind().name().toLowerCase(Locale.ROOT));
    o.set("before", strings(e.before()));
    o.set("after", strings(e.after()));
    o.put("reason", e.reason());
    return o;
  }

  private static ArrayNode strings(List<String> list) {
    ArrayNode a = F.arrayNode();
    list.forEach(a::add);
    return a;
  }

  private ObjectNode partitions(Database db, Container c) {
    ObjectNode out = containerSummary(db, c);
    List<LogicalPartitionStats> hot = c.recentlyHottestLogicalPartitions(100);
    List<LogicalPartitionStats> large = c.largestLogicalPartitions(100);
    ArrayNode parts = out.putArray("partitions");
    for (PartitionStats s : c.partitionStats()) {
      ObjectNode p = parts.addObject();
      p.put("id", s.id());
      p.put("minEpk", s.range().min());
      p.put("maxEpk", s.range().max());
      p.put("documents", s.documents());
      p.put("storageBytes", s.storageBytes());
      p.put("budget", s.budgetRuPerSecond());
      p.put("normalizedRu", s.normalizedRuConsumption());
      p.put("peakDemand", s.peakDemandRatio());
      p.put("ruLastSecond", s.ruLastSecond());
      p.put("totalRu", s.totalRu());
      p.put("operations", s.operations());
      p.put("throttled", s.throttled());
      p.put("wouldThrottle", s.wouldThrottle());
      p.set("topKeysByRu", keys(hot, s.id(), 3));
      p.set("topKeysByStorage", keys(large, s.id(), 3));
    }
    ArrayNode events = out.putArray("events");
    c.partitionEvents().forEach(e -> events.add(event(e)));
    return out;
  }

  private static ArrayNode keys(List<LogicalPartitionStats> all, String rangeId, int n) {
    ArrayNode a = F.arrayNode();
    for (LogicalPartitionStats s : all) {
      if (a.size() == n) {
        break;
      }
      if (s.rangeId().equals(rangeId)) {
        ObjectNode k = a.addObject();
        k.put("key", EngineMeters.keyOf(s));
        k.put("value", round(s.value()));
        if (s.errorBound() > 0) {
          k.put("errorBound", round(s.errorBound()));
        }
        if (s.documents() > 0) {
          k.put("documents", s.documents());
        }
      }
    }
    return a;
  }

  /**
   * A query's parameters as the REST API sends them, {@code [{"name": "@t", "value": "acme"}]}, or
   * as an object, {@code {"@t": "acme"}}.
   */
  static Map<String, JsonNode> parameters(JsonNode p) {
    try {
      if (p != null && p.isObject()) {
        return io.cosmolab.query.CompiledQuery.parameters(
            p.properties().stream().map(e -> Map.entry(e.getKey(), e.getValue())).toList());
      }
      return io.cosmolab.query.CompiledQuery.parameters(p);
    } catch (io.cosmolab.query.QueryException e) {
      throw io.cosmolab.engine.query.QueryErrors.asCosmos(e);
    }
  }

  private ObjectNode query(Container c, JsonNode body) {
    String text = text(body, "query");
    PartitionKeyValue key = null;
    JsonNode pk = body.get("partitionKey");
    if (pk != null && !pk.isNull()) {
      key = PartitionKeyValue.fromJson(pk.isArray() ? pk : F.arrayNode().add(pk));
    }
    int max = Math.max(1, Math.min(MAX_ROWS, body.path("maxItems").asInt(100)));
    Map<String, JsonNode> parameters = parameters(body.get("parameters"));
    ObjectNode out = F.objectNode();
    out.put("query", text);
    // the partitions it visits: the one of its key, or the ranges its plan needs
    Set<String> visited = new LinkedHashSet<>();
    if (key != null && key.size() == c.partitionKey().paths().size()) {
      visited.add(c.routing().rangeFor(EffectivePartitionKey.of(c.partitionKey(), key)).id());
    } else if (key != null) {
      EpkRange r = EffectivePartitionKey.prefixRange(c.partitionKey(), key);
      c.routing().overlapping(r).forEach(x -> visited.add(x.id()));
    }
    ObjectNode plan;
    try {
      plan = c.queryPlan(text, parameters);
    } catch (io.cosmolab.engine.error.CosmosException e) {
      // a query the SDKs' planner form cannot describe may still run: show why, and run it
      plan = F.objectNode().put("error", e.getMessage());
    }
    out.set("plan", plan);
    if (key == null) {
      visited.addAll(c.partitionsReachedBy(plan));
    }
    QueryRequest q =
        QueryRequest.of(text)
            .withParameters(parameters)
            .withPartitionKey(key)
            .withMaxItemCount(max);
    ArrayNode rows = out.putArray("rows");
    double charge = 0;
    long retrieved = 0;
    long output = 0;
    long retrievedBytes = 0;
    int targeted = 0;
    boolean truncated = false;
    int pagesWithRows = 0;
    // a DISTINCT is distinct within a page, as the service's: later pages may repeat a value,
    // which the SDKs drop, and so does this client (Resume.isAggregating in the engine)
    // (not a DISTINCT of aggregates: its cut pages are partial results to add up, shown as such)
    boolean aggregates = io.cosmolab.query.plan.QueryPlanner.aggregates(plan.path("queryInfo"));
    boolean distinct =
        !"None".equals(plan.path("queryInfo").path("distinctType").asText("None")) && !aggregates;
    Set<io.cosmolab.query.exec.Values.Key> seen = new java.util.HashSet<>();
    int repeated = 0;
    for (int page = 0; ; page++) {
      QueryPage r = c.query(q);
      pagesWithRows += r.rows().isEmpty() ? 0 : 1;
      charge += r.requestCharge();
      retrieved += r.metrics().documentsLoaded();
      retrievedBytes += r.metrics().bytesLoaded();
      output += r.metrics().documentsReturned();
      targeted = Math.max(targeted, r.metrics().partitionsTargeted());
      for (JsonNode row : r.rows()) {
        if (distinct && !seen.add(new io.cosmolab.query.exec.Values.Key(row))) {
          repeated++;
          continue;
        }
        if (rows.size() < max) {
          rows.add(row);
        } else {
          truncated = true;
        }
      }
      if (r.continuation() == null || rows.size() >= max || page > 100) {
        QueryPage after = pageAfter(c, q, r);
        if (after != null) {
          charge += after.requestCharge();
          truncated |= rowsFollow(after);
        }
        break;
      }
      q = q.withContinuation(r.continuation());
    }
    out.put("requestCharge", Math.round(charge * 100) / 100.0);
    out.set("partitionsVisited", strings(new ArrayList<>(visited)));
    out.put("partitionsTargeted", targeted);
    out.put("retrievedDocuments", retrieved);
    out.put("retrievedBytes", retrievedBytes);
    out.put("outputDocuments", output);
    out.put("retrievedPerOutput", round((double) retrieved / Math.max(1, output)));
    out.put("truncated", truncated);
    // an aggregate whose pages were cut at the page time (one partition key, or one physical
    // partition): each page's rows are the aggregates of what it read, as the service's backend
    // returns them; shown as such
    out.put("partialAggregatePages", aggregates && pagesWithRows > 1 ? pagesWithRows : 0);
    out.put("repeatedDistinctRows", repeated);
    return out;
  }

  private ObjectNode documents(Container c, String partitionKey) {
    ObjectNode out = F.objectNode();
    ArrayNode keys = out.putArray("largestLogicalPartitions");
    for (LogicalPartitionStats s : c.largestLogicalPartitions(50)) {
      ObjectNode k = keys.addObject();
      k.put("key", EngineMeters.keyOf(s));
      k.put("partitionKeyRangeId", s.rangeId());
      k.put("bytes", (long) s.value());
      k.put("documents", s.documents());
    }
    if (partitionKey != null && !partitionKey.isBlank()) {
      JsonNode pk;
      try {
        pk = JSON.readTree(partitionKey);
      } catch (IOException e) {
        throw CosmosError.BAD_REQUEST.exception(
            "partitionKey must be a JSON array such as [\"tenant-7\"], was %s", partitionKey);
      }
      PartitionKeyValue key = PartitionKeyValue.fromJson(pk.isArray() ? pk : F.arrayNode().add(pk));
      out.set("partitionKey", key.toJson());
      QueryPage page =
          c.query(QueryRequest.of("SELECT * FROM c").withPartitionKey(key).withMaxItemCount(100));
      ArrayNode docs = out.putArray("documents");
      page.rows().forEach(docs::add);
      QueryPage after =
          pageAfter(
              c,
              QueryRequest.of("SELECT * FROM c").withPartitionKey(key).withMaxItemCount(1),
              page);
      out.put("more", after != null && rowsFollow(after));
    }
    return out;
  }

  /**
   * The page of {@code q} after {@code page}, or null when it has no continuation. A full page has
   * one even when nothing follows, as on the service, so "more" needs a look at the next page.
   */
  private static QueryPage pageAfter(Container c, QueryRequest q, QueryPage page) {
    return page.continuation() == null ? null : c.query(q.withContinuation(page.continuation()));
  }

  /** Whether rows come at or after {@code page}. */
  private static boolean rowsFollow(QueryPage page) {
    return !page.rows().isEmpty() || page.continuation() != null;
  }

  private ObjectNode alerts() {
    ObjectNode out = F.objectNode();
    AlertRules r = observability.alerts().rules();
    out.set("rules", JSON.valueToTree(rulesView(r)));
    ArrayNode active = out.putArray("active");
    observability.alerts().active().forEach(a -> active.add(alert(a)));
    ArrayNode events = out.putArray("events");
    List<AlertEvent> list = observability.alerts().events();
    for (int i = list.size() - 1; i >= 0; i--) {
      AlertEvent e = list.get(i);
      ObjectNode o = events.addObject();
      o.put("kind", e.kind().name().toLowerCase(Locale.ROOT));
      o.put("at", Instant.ofEpochMilli(e.atMillis()).toString());
      o.set("alert", alert(e.alert()));
    }
    return out;
  }

  private static Map<String, Object> rulesView(AlertRules r) {
    Map<String, Object> m = new java.util.LinkedHashMap<>();
    m.put(
        "hot-partition",
        Map.of(
            "enabled", r.hotPartition().enabled(),
            "threshold", r.hotPartition().threshold(),
            "forSeconds", r.hotPartition().duration().toSeconds()));
    m.put(
        "large-logical-partition",
        Map.of(
            "enabled", r.largeLogicalPartition().enabled(),
            "bytes", r.largeLogicalPartition().bytes()));
    m.put(
        "throttle-rate",
        Map.of(
            "enabled", r.throttleRate().enabled(),
            "threshold", r.throttleRate().threshold(),
            "windowSeconds", r.throttleRate().window().toSeconds(),
            "minRequests", r.throttleRate().minRequests()));
    m.put(
        "cross-partition-queries",
        Map.of(
            "enabled", r.crossPartitionQueries().enabled(),
            "threshold", r.crossPartitionQueries().threshold(),
            "windowSeconds", r.crossPartitionQueries().window().toSeconds(),
            "minQueries", r.crossPartitionQueries().minQueries()));
    m.put(
        "query-fan-out",
        Map.of(
            "enabled", r.queryFanOut().enabled(),
            "ratio", r.queryFanOut().ratio(),
            "windowSeconds", r.queryFanOut().window().toSeconds(),
            "minRetrieved", r.queryFanOut().minRetrieved()));
    m.put(
        "gone-range-requests",
        Map.of(
            "enabled", r.goneRange().enabled(),
            "minRequests", r.goneRange().minRequests(),
            "minSeconds", r.goneRange().minSeconds(),
            "windowSeconds", r.goneRange().window().toSeconds(),
            "afterMillis", r.goneRange().after().toMillis()));
    return m;
  }

  static ObjectNode alert(Alert a) {
    ObjectNode o = F.objectNode();
    o.put("rule", a.rule().id());
    o.put("database", a.database());
    o.put("container", a.container());
    if (a.partitionKeyRangeId() != null) {
      o.put("partitionKeyRangeId", a.partitionKeyRangeId());
    } else {
      o.putNull("partitionKeyRangeId");
    }
    o.put("since", Instant.ofEpochMilli(a.sinceMillis()).toString());
    o.set("hottestKeys", strings(a.hottestKeys()));
    o.put("value", a.value());
    o.put("threshold", a.threshold());
    o.put("message", a.message());
    return o;
  }

  // ------------------------------------------------------------------ plumbing

  private static void requirePost(WireRequest request) {
    if (!request.method().equals("POST")) {
      throw CosmosError.METHOD_NOT_ALLOWED.exception(
          "%s is not supported on %s; use POST", request.method(), request.path());
    }
    String type = request.header(Headers.CONTENT_TYPE);
    if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
      throw CosmosError.BAD_REQUEST.exception(
          "the explorer API takes POSTs with Content-Type: application/json only, was %s", type);
    }
    String origin = request.header("origin");
    String host = request.header("host");
    if (origin != null
        && !(host != null
            && (origin.equals("http://" + host) || origin.equals("https://" + host)))) {
      throw CosmosError.FORBIDDEN_HOST.exception(
          "a POST from the page of another site (Origin %s) is refused", origin);
    }
  }

  private static JsonNode body(WireRequest request) {
    try {
      JsonNode n = JSON.readTree(request.body());
      if (n == null || !n.isObject()) {
        throw CosmosError.BAD_REQUEST.exception("the body must be a JSON object");
      }
      return n;
    } catch (IOException e) {
      throw CosmosError.BAD_REQUEST.exception("the body is not valid JSON: %s", e.getMessage());
    }
  }

  private static String text(JsonNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || !v.isTextual() || v.asText().isBlank()) {
      throw CosmosError.BAD_REQUEST.exception("the body needs \"%s\" as a string", field);
    }
    return v.asText();
  }

  private static int intParam(WireRequest request, String name, int dflt) {
    String v = request.queryParameter(name);
    if (v == null || v.isEmpty()) {
      return dflt;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw CosmosError.BAD_REQUEST.exception("%s must be a whole number, was '%s'", name, v);
    }
  }

  private static WireResponse json(JsonNode body) {
    return WireResponse.json(200, body, Map.of("cache-control", "no-store"));
  }

  private static RuntimeException notFound(ResourcePath p) {
    return CosmosError.NOT_FOUND.exception(
        "no explorer resource at /%s: see /_explorer/index.html, or the API under /_explorer/api/"
            + " (docs/observability.md)",
        String.join("/", p.segments()));
  }

  private static final Map<String, String> TYPES =
      Map.of(
          "html", "text/html; charset=utf-8",
          "js", "text/javascript; charset=utf-8",
          "css", "text/css; charset=utf-8",
          "svg", "image/svg+xml");

  private static WireResponse asset(String name) {
    int dot = name.lastIndexOf('.');
    String type = dot < 0 ? null : TYPES.get(name.substring(dot + 1));
    if (type == null || name.contains("/") || name.contains("\\") || name.startsWith(".")) {
      throw CosmosError.NOT_FOUND.exception("no explorer file '%s'", name);
    }
    try (InputStream in = Explorer.class.getResourceAsStream("explorer/" + name)) {
      if (in == null) {
        throw CosmosError.NOT_FOUND.exception("no explorer file '%s'", name);
      }
      return new WireResponse(
          200,
          Map.of(
              Headers.CONTENT_TYPE,
              type,
              "cache-control",
              "no-store",
              "content-security-policy",
              PAGE_CSP,
              "x-content-type-options",
              "nosniff"),
          in.readAllBytes());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
