package io.cosmolab.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.routing.RoutingMap;
import io.cosmolab.query.CompiledQuery;
import io.cosmolab.query.QueryException;
import java.util.ArrayList;
import java.util.List;

/**
 * What the SDKs ask before a cross-partition query, and the ranges a query's partition key filter
 * reaches: the gateway's query plan, and the physical partitions it names.
 */
final class QueryPlans {
  private QueryPlans() {}

  /**
   * The gateway's query plan ({@code PartitionedQueryExecutionInfo}, version 2): the planner's
   * queryInfo, and the EPK ranges the query needs — narrowed to point ranges (full keys) or prefix
   * ranges (hierarchical prefixes) when the WHERE clause fixes the partition key with {@code =} or
   * {@code IN}, the whole key space otherwise.
   */
  static com.fasterxml.jackson.databind.node.ObjectNode plan(
      Container container, String text, java.util.Map<String, JsonNode> parameters) {
    // planned as written: the SDKs send the plan's rewritten query back to each partition, and a
    // computed property is read there (run), as on the service
    CompiledQuery query =
        QueryRunner.compile(text, parameters).withSearchPolicy(container.searchPolicy());
    com.fasterxml.jackson.databind.node.ObjectNode out =
        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    out.put("partitionedQueryExecutionInfoVersion", 2);
    com.fasterxml.jackson.databind.node.ObjectNode hybrid = null;
    try {
      if (io.cosmolab.query.plan.HybridSearchPlanner.applies(query.ast())) {
        // the service's shape: no queryInfo, the client runs the hybrid-search pipeline
        hybrid = io.cosmolab.query.plan.HybridSearchPlanner.info(query);
        out.putNull("queryInfo");
      } else {
        out.set("queryInfo", io.cosmolab.query.plan.QueryPlanner.queryInfo(query));
      }
    } catch (QueryException e) {
      throw QueryRunner.asCosmos(e);
    }
    com.fasterxml.jackson.databind.node.ArrayNode ranges = out.putArray("queryRanges");
    for (String[] r : queryRanges(container, query)) {
      com.fasterxml.jackson.databind.node.ObjectNode range = ranges.addObject();
      range.put("min", r[0]);
      range.put("max", r[1]);
      range.put("isMinInclusive", true);
      range.put("isMaxInclusive", r[2] != null);
    }
    out.set("hybridSearchQueryInfo", hybrid);
    return out;
  }

  /**
   * The physical partitions (ids) that query ranges ({min, max, ...}, a point when min = max)
   * reach: the owner of each point, every partition each other range overlaps.
   */
  static List<String> partitionsReached(RoutingMap map, Iterable<String[]> ranges) {
    java.util.Set<String> ids = new java.util.LinkedHashSet<>();
    for (String[] r : ranges) {
      if (r[0].equals(r[1])) {
        ids.add(map.rangeFor(r[0]).id());
      } else {
        for (PartitionKeyRange p : map.overlapping(new EpkRange(r[0], r[1]))) {
          ids.add(p.id());
        }
      }
    }
    return List.copyOf(ids);
  }

  /** {min, max, maxInclusive-or-null}; point ranges are inclusive at both ends. */
  static List<String[]> queryRanges(Container container, CompiledQuery query) {
    io.cosmolab.engine.partitioning.PartitionKeyDefinition key = container.partitionKey();
    List<List<String>> paths = new ArrayList<>();
    for (String p : key.paths()) {
      paths.add(io.cosmolab.engine.partitioning.PartitionKeyDefinition.segmentsOf(p));
    }
    List<List<JsonNode>> fixed = io.cosmolab.query.plan.QueryPlanner.keyValues(query, paths);
    int levels = 0;
    while (levels < fixed.size() && fixed.get(levels) != null) {
      levels++;
    }
    List<String[]> out = new ArrayList<>();
    if (levels == 0 || (levels < paths.size() && !key.isHierarchical())) {
      out.add(new String[] {EpkRange.MIN, EpkRange.MAX, null});
      return out;
    }
    List<List<JsonNode>> combos = new ArrayList<>();
    combos.add(new ArrayList<>());
    for (int level = 0; level < levels; level++) {
      List<List<JsonNode>> next = new ArrayList<>();
      for (List<JsonNode> combo : combos) {
        for (JsonNode v : fixed.get(level)) {
          List<JsonNode> c = new ArrayList<>(combo);
          c.add(v);
          next.add(c);
        }
      }
      combos = next;
      if (combos.size() > 1000) {
        out.add(new String[] {EpkRange.MIN, EpkRange.MAX, null});
        return out;
      }
    }
    java.util.TreeMap<String, String[]> sorted = new java.util.TreeMap<>();
    for (List<JsonNode> combo : combos) {
      com.fasterxml.jackson.databind.node.ArrayNode keyJson =
          com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
      combo.forEach(keyJson::add);
      String epk =
          EffectivePartitionKey.of(
              key, io.cosmolab.engine.partitioning.PartitionKeyValue.fromJson(keyJson));
      sorted.put(
          epk,
          levels == paths.size()
              ? new String[] {epk, epk, "inclusive"}
              : new String[] {epk, epk + "FF", null});
    }
    out.addAll(sorted.values());
    return out;
  }
}
