package io.cosmolab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.index.IndexingPolicy;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.resource.ResourceIds;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.time.ManualClock;
import io.cosmolab.query.exec.Values;
import io.cosmolab.query.plan.QueryPlanner;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Reporter;

/**
 * The same data on one physical partition and on seven. On one, the query runs directly. On seven,
 * it goes the way the SDKs take it: the plan, the rewritten query on every range the plan needs,
 * and a client-side merge driven by the plan's queryInfo. Both must give the same result (as a
 * multiset where there is no ORDER BY). Seeds are printed and replayable.
 */
class QueryPlanDifferentialTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  @Property(tries = 40)
  void planDrivenMergeOnSevenPartitions_equalsDirectAnswerOnOne(
      @ForAll long seed, Reporter reporter) {
    Random r = new Random(seed);
    ManualClock clock = ManualClock.startingAtEpoch2026();
    Container one = container(clock, 1, "one");
    Container seven = container(clock, 7, "seven");
    int docs = 20 + r.nextInt(60);
    for (int i = 0; i < docs; i++) {
      ObjectNode d = randomDocument(r, i);
      one.create(d.deepCopy());
      seven.create(d.deepCopy());
    }
    for (int q = 0; q < 12; q++) {
      String text = randomQuery(r);
      reporter.publishValue("query", "seed " + seed + ": " + text);
      List<JsonNode> direct = drain(one, QueryRequest.of(text));
      if (text.startsWith("SELECT DISTINCT") && !text.contains("ORDER BY")) {
        // one partition pages a DISTINCT as the service's backend does, distinct within a page:
        // a client drops the values a later page repeats, as the SDKs do
        direct = new ArrayList<>(new java.util.LinkedHashSet<>(direct));
      }
      List<JsonNode> merged = viaPlan(seven, text);
      if (text.contains("MAKESET")) { // a set's order is the merge's: compare the sets sorted
        direct = sortedSets(direct);
        merged = sortedSets(merged);
      }
      if (text.startsWith("SELECT DISTINCT TOP") && !text.contains("ORDER BY")) {
        // any TOP n distinct values answer it: as many, distinct, each one of the query's values
        List<JsonNode> all = drain(one, QueryRequest.of(text.replaceFirst("TOP \\d+ ", "")));
        assertThat(merged).as("seed %d: %s", seed, text).hasSameSizeAs(direct);
        assertThat(merged).as("seed %d: %s", seed, text).doesNotHaveDuplicates();
        assertThat(all).as("seed %d: %s", seed, text).containsAll(merged);
      } else if (text.contains("ORDER BY")) {
        assertThat(merged).as("seed %d: %s", seed, text).isEqualTo(direct);
      } else {
        assertThat(merged)
            .as("seed %d: %s", seed, text)
            .containsExactlyInAnyOrderElementsOf(direct);
      }
    }
  }

  private static List<JsonNode> sortedSets(List<JsonNode> rows) {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode row : rows) {
      ObjectNode copy = (ObjectNode) row.deepCopy();
      if (copy.get("bs") instanceof ArrayNode set) {
        List<JsonNode> values = new ArrayList<>();
        set.forEach(values::add);
        values.sort(Values.ORDER);
        copy.putArray("bs").addAll(values);
      }
      out.add(copy);
    }
    return out;
  }

  private static Container container(ManualClock clock, int partitions, String db) {
    return Engines.onClock(clock, ThrottlingMode.OFF)
        .createDatabase(db)
        .createContainer(
            ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                .withPhysicalPartitions(partitions)
                // ORDER BY c.a, c.id in any directions needs these (as on the service)
                .withIndexingPolicy(
                    IndexingPolicy.DEFAULT
                        .withCompositeIndex(
                            new IndexingPolicy.CompositePath("/a", true),
                            new IndexingPolicy.CompositePath("/id", true))
                        .withCompositeIndex(
                            new IndexingPolicy.CompositePath("/a", true),
                            new IndexingPolicy.CompositePath("/id", false))));
  }

  private static ObjectNode randomDocument(Random r, int i) {
    ObjectNode d = NODES.objectNode();
    d.put("id", "d" + i);
    d.put("pk", "k" + r.nextInt(12));
    if (r.nextInt(5) > 0) {
      d.put("a", r.nextInt(10));
    }
    if (r.nextInt(4) > 0) {
      d.put("b", "s" + r.nextInt(5));
    }
    d.put("g", "g" + r.nextInt(3));
    ArrayNode arr = d.putArray("arr");
    for (int k = r.nextInt(4); k > 0; k--) {
      arr.add(r.nextInt(6));
    }
    return d;
  }

  private static String randomQuery(Random r) {
    String pred =
        switch (r.nextInt(6)) {
          case 0 -> "c.a > " + r.nextInt(10);
          case 1 -> "c.b = 's" + r.nextInt(5) + "'";
          case 2 -> "IS_DEFINED(c.a)";
          case 3 -> "c.a IN (1, 2, 3)";
          case 4 -> "c.pk = 'k" + r.nextInt(12) + "'";
          default -> "true";
        };
    String dir = r.nextBoolean() ? "ASC" : "DESC";
    String dir2 = r.nextBoolean() ? "ASC" : "DESC";
    return switch (r.nextInt(27)) {
      case 0 -> "SELECT VALUE c.id FROM c WHERE " + pred;
      case 1 -> "SELECT c.id, c.a FROM c WHERE " + pred + " ORDER BY c.a " + dir + ", c.id " + dir2;
      case 2 -> "SELECT TOP " + r.nextInt(8) + " c.id, c.b FROM c ORDER BY c.b " + dir;
      case 3 ->
          "SELECT VALUE c.id FROM c WHERE "
              + pred
              + " ORDER BY c.a "
              + dir
              + " OFFSET "
              + r.nextInt(6)
              + " LIMIT "
              + r.nextInt(8);
      case 4 -> "SELECT DISTINCT VALUE c.b FROM c WHERE " + pred;
      case 5 -> "SELECT VALUE COUNT(1) FROM c WHERE " + pred;
      case 6 -> "SELECT VALUE SUM(c.a) FROM c WHERE " + pred;
      case 7 -> "SELECT VALUE MIN(c.b) FROM c WHERE " + pred;
      case 8 -> "SELECT VALUE AVG(c.a) FROM c WHERE " + pred;
      case 9 ->
          "SELECT c.g, COUNT(1) AS n, SUM(c.a) AS s, MAX(c.b) AS m FROM c WHERE "
              + pred
              + " GROUP BY c.g";
      case 10 -> "SELECT COUNT(1) AS n, AVG(c.a) AS avg, MIN(c.a) FROM c WHERE " + pred;
      case 11 ->
          "SELECT VALUE [c.id, x] FROM c JOIN x IN c.arr WHERE x > "
              + r.nextInt(5)
              + " ORDER BY c.id "
              + dir;
      case 12 -> "SELECT TOP " + r.nextInt(10) + " VALUE c.id FROM c WHERE " + pred;
      case 13 -> "SELECT DISTINCT VALUE c.a FROM c WHERE " + pred + " ORDER BY c.a " + dir;
      // DISTINCT with ORDER BY and TOP or OFFSET/LIMIT: duplicates must not use up the bound
      case 14 ->
          "SELECT DISTINCT TOP "
              + r.nextInt(8)
              + " VALUE c.a FROM c WHERE "
              + pred
              + " ORDER BY c.a "
              + dir;
      case 15 ->
          "SELECT DISTINCT VALUE c.b FROM c WHERE "
              + pred
              + " ORDER BY c.b "
              + dir
              + " OFFSET "
              + r.nextInt(3)
              + " LIMIT "
              + (1 + r.nextInt(4));
      case 16 -> "SELECT DISTINCT TOP " + (1 + r.nextInt(3)) + " VALUE c.g FROM c WHERE " + pred;
      // an aggregate beside ORDER BY orders one row
      case 17 -> "SELECT VALUE COUNT(1) FROM c WHERE " + pred + " ORDER BY c.a " + dir;
      case 18 -> "SELECT VALUE MAX(c.a) FROM c WHERE " + pred + " ORDER BY c.b " + dir;
      // SUM over no values is 0
      case 19 -> "SELECT VALUE SUM(c.missing) FROM c WHERE " + pred;
      // GROUP BY with SELECT VALUE
      case 20 -> "SELECT VALUE c.g FROM c WHERE " + pred + " GROUP BY c.g";
      case 21 -> "SELECT VALUE COUNT(1) FROM c WHERE " + pred + " GROUP BY c.g";
      case 22 -> "SELECT VALUE AVG(c.a) FROM c WHERE " + pred + " GROUP BY c.g";
      case 23 ->
          "SELECT VALUE {\"g\": c.g, \"b\": c.b} FROM c WHERE " + pred + " GROUP BY c.g, c.b";
      case 24 -> "SELECT VALUE MIN(c.b) FROM c WHERE " + pred + " GROUP BY c.g";
      // MAKESET: order-free as a set, so compared sorted below
      case 25 -> "SELECT c.g, MAKESET(c.b) AS bs FROM c WHERE " + pred + " GROUP BY c.g";
      default ->
          "SELECT c.g, SUM(c.missing) AS s, MIN(c.a) AS lo, MAX(c.missing) AS hi FROM c WHERE "
              + pred
              + " GROUP BY c.g";
    };
  }

  private static List<JsonNode> drain(Container c, QueryRequest request) {
    return Engines.drainQuery(c, request, 5);
  }

  // ------------------------------------------------------------------ the client's side

  /** What an SDK does with a plan: per-range rewritten queries, then a merge. */
  static List<JsonNode> viaPlan(Container c, String text) {
    ObjectNode plan = c.queryPlan(text, Map.of());
    JsonNode info = plan.get("queryInfo");
    String rewritten = info.get("rewrittenQuery").textValue();
    String perRange =
        rewritten.isEmpty() ? text : rewritten.replace(QueryPlanner.ORDER_BY_FILTER, "true");
    List<List<JsonNode>> results = new ArrayList<>();
    for (PartitionKeyRange range : c.routing().ranges()) {
      if (needed(range, plan.get("queryRanges"))) {
        results.add(drain(c, QueryRequest.of(perRange).withRangeId(range.id())));
      }
    }
    List<JsonNode> rows;
    if (!info.get("orderBy").isEmpty()) {
      rows = mergeOrderBy(results, info);
    } else if (!info.get("groupByExpressions").isEmpty() || !info.get("groupByAliases").isEmpty()) {
      rows = mergeGroups(results, info);
    } else if (!info.get("aggregates").isEmpty()) {
      rows = mergeValueAggregate(results, info.get("aggregates").get(0).textValue());
    } else {
      rows = new ArrayList<>();
      results.forEach(rows::addAll);
    }
    if (!info.get("distinctType").textValue().equals("None")) {
      List<JsonNode> distinct = new ArrayList<>();
      for (JsonNode row : rows) {
        if (distinct.stream().noneMatch(x -> Values.deepEquals(x, row))) {
          distinct.add(row);
        }
      }
      rows = distinct;
    }
    int from =
        info.get("offset").isNull() ? 0 : Math.min(rows.size(), info.get("offset").intValue());
    int to = rows.size();
    if (!info.get("limit").isNull()) {
      to = Math.min(to, from + info.get("limit").intValue());
    }
    if (!info.get("top").isNull()) {
      to = Math.min(to, from + info.get("top").intValue());
    }
    return new ArrayList<>(rows.subList(from, to));
  }

  private static boolean needed(PartitionKeyRange range, JsonNode queryRanges) {
    for (JsonNode q : queryRanges) {
      String min = q.get("min").textValue();
      String max = q.get("max").textValue();
      EpkRange wanted =
          q.get("isMaxInclusive").booleanValue()
              ? new EpkRange(min, max + "0")
              : new EpkRange(min, max);
      if (range.range().overlaps(wanted)) {
        return true;
      }
    }
    return false;
  }

  private static List<JsonNode> mergeOrderBy(List<List<JsonNode>> results, JsonNode info) {
    List<JsonNode> all = new ArrayList<>();
    results.forEach(all::addAll);
    JsonNode directions = info.get("orderBy");
    boolean firstAscending = directions.get(0).textValue().equals("Ascending");
    Comparator<JsonNode> order =
        (a, b) -> {
          for (int i = 0; i < directions.size(); i++) {
            int c =
                Values.ORDER.compare(
                    a.get("orderByItems").get(i).get("item"),
                    b.get("orderByItems").get(i).get("item"));
            if (c != 0) {
              return directions.get(i).textValue().equals("Ascending") ? c : -c;
            }
          }
          long ra = ResourceIds.documentPart(ResourceIds.decode(a.get("_rid").textValue()));
          long rb = ResourceIds.documentPart(ResourceIds.decode(b.get("_rid").textValue()));
          return firstAscending ? Long.compare(ra, rb) : Long.compare(rb, ra);
        };
    all.sort(order); // stable: rows of one document keep their partition's order
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode row : all) {
      if (row.has("payload")) {
        out.add(row.get("payload"));
      }
    }
    return out;
  }

  private static List<JsonNode> mergeValueAggregate(List<List<JsonNode>> results, String type) {
    List<JsonNode> partials = new ArrayList<>();
    for (List<JsonNode> rows : results) {
      for (JsonNode row : rows) {
        partials.add(itemOf(row.get(0))); // [{"item": v}], v absent when undefined
      }
    }
    JsonNode v = combine(type, partials);
    return v == null ? List.of() : List.of(v);
  }

  private static List<JsonNode> mergeGroups(List<List<JsonNode>> results, JsonNode info) {
    Map<String, List<JsonNode>> groups = new LinkedHashMap<>();
    for (List<JsonNode> rows : results) {
      for (JsonNode row : rows) {
        String key = row.has("groupByItems") ? row.get("groupByItems").toString() : "";
        groups.computeIfAbsent(key, k -> new ArrayList<>()).add(row.get("payload"));
      }
    }
    List<JsonNode> out = new ArrayList<>();
    boolean value = info.get("hasSelectValue").booleanValue();
    for (List<JsonNode> payloads : groups.values()) {
      if (value) { // SELECT VALUE: the payload, or [partial] of its one aggregate
        JsonNode v;
        if (info.get("aggregates").isEmpty()) {
          v = payloads.get(0);
        } else {
          List<JsonNode> partials = new ArrayList<>();
          for (JsonNode p : payloads) {
            partials.add(p == null ? null : itemOf(p.get(0)));
          }
          v = combine(info.get("aggregates").get(0).textValue(), partials);
        }
        if (v != null) {
          out.add(v);
        }
        continue;
      }
      ObjectNode merged = NODES.objectNode();
      for (JsonNode aliasNode : info.get("groupByAliases")) {
        String alias = aliasNode.textValue();
        JsonNode type = info.get("groupByAliasToAggregateType").get(alias);
        JsonNode value1;
        if (type == null || type.isNull()) {
          value1 = payloads.get(0).get(alias);
        } else {
          List<JsonNode> partials = new ArrayList<>();
          for (JsonNode p : payloads) {
            partials.add(p.has(alias) ? itemOf(p.get(alias)) : null);
          }
          value1 = combine(type.textValue(), partials);
        }
        if (value1 != null) {
          merged.set(alias, value1);
        }
      }
      out.add(merged);
    }
    return out;
  }

  /** A partial's value as the SDKs read it: "item2" when present, else "item" (null if absent). */
  private static JsonNode itemOf(JsonNode partial) {
    if (partial == null) {
      return null;
    }
    return partial.hasNonNull("item2") ? partial.get("item2") : partial.get("item");
  }

  /** Combines per-partition partials of one aggregate (undefined partials are null). */
  private static JsonNode combine(String type, List<JsonNode> partials) {
    switch (type) {
      case "Count" -> {
        long n = 0;
        for (JsonNode p : partials) {
          n += p == null ? 0 : p.longValue();
        }
        return Values.number(n);
      }
      case "Sum" -> {
        double s = 0;
        boolean any = false;
        for (JsonNode p : partials) {
          if (p != null) {
            s += p.doubleValue();
            any = true;
          }
        }
        return any ? Values.number(s) : null;
      }
      case "MakeList", "MakeSet" -> {
        com.fasterxml.jackson.databind.node.ArrayNode all = NODES.arrayNode();
        for (JsonNode p : partials) {
          for (JsonNode v : p == null ? NODES.arrayNode() : p) {
            boolean seen = false;
            for (JsonNode x : all) {
              seen |= Values.deepEquals(x, v);
            }
            if (type.equals("MakeList") || !seen) {
              all.add(v);
            }
          }
        }
        return all;
      }
      case "Average" -> {
        double s = 0;
        long n = 0;
        for (JsonNode p : partials) {
          if (p != null && p.has("sum")) {
            s += p.get("sum").doubleValue();
            n += p.get("count").longValue();
          }
        }
        return n == 0 ? null : Values.number(s / n);
      }
      default -> {
        JsonNode best = null;
        String field = type.equals("Min") ? "min" : "max";
        for (JsonNode partial : partials) {
          // {"min": v, "count": n}, skipped when the partition had no value (as the Java SDK).
          if (partial == null || partial.path("count").asLong(0) == 0 || !partial.has(field)) {
            continue;
          }
          JsonNode p = partial.get(field);
          int c = best == null ? 0 : Values.ORDER.compare(p, best);
          if (best == null || (type.equals("Min") ? c < 0 : c > 0)) {
            best = p;
          }
        }
        return best;
      }
    }
  }
}
