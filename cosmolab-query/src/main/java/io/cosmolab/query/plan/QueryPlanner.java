package io.cosmolab.query.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.query.CompiledQuery;
import io.cosmolab.query.QueryException;
import io.cosmolab.query.ast.Expr;
import io.cosmolab.query.ast.Query;
import io.cosmolab.query.exec.Executor;
import io.cosmolab.query.functions.SystemFunctions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Plans a query for clients that merge per-partition results themselves (the SDKs): the gateway's
 * {@code queryInfo} ({@code gateway-protocol.md} §7.2) with the rewritten query each partition runs
 * (§7.4). The shapes follow the service's own plans, as its query-plan baselines record them (the
 * .NET SDK's {@code QueryPlanBaselineTests}: Aggregates, GroupBy, Distinct, Top, OffsetLimit,
 * Negative):
 *
 * <ul>
 *   <li>ORDER BY: {@code SELECT r._rid, [{"item": k1}, ...] AS orderByItems, <payload> AS payload
 *       FROM ... WHERE (<where>) AND ({documentdb-formattableorderbyquery-filter}) ORDER BY ...};
 *       TOP is kept; OFFSET m LIMIT n becomes OFFSET 0 LIMIT m+n. With DISTINCT the partition query
 *       keeps neither (the client de-duplicates first, so a partition cut at m+n rows of duplicates
 *       would lose the rows after them).
 *   <li>VALUE aggregate: {@code SELECT VALUE [{"item": AGG(x)}] ...}; AVG as {@code {"item":
 *       {"sum": SUM(x), "count": COUNT(x)}}}, MIN and MAX as {@code {"item": MIN(x), "item2":
 *       {"min": MIN(x), "count": COUNT(x)}}}, as the SDKs' aggregators expect. An ORDER BY beside
 *       an aggregate without GROUP BY orders one row: the plan has no {@code orderBy} (the client
 *       would otherwise wait for {@code orderByItems}) and the partition query keeps the clause.
 *   <li>Aggregates without VALUE, and GROUP BY: {@code SELECT [{"item": g}, ...] AS groupByItems,
 *       {"alias": value or {"item": AGG(x)}} AS payload ... GROUP BY g, ...} (without GROUP BY: the
 *       payload only). With SELECT VALUE the payload is the value itself, or {@code [partial]} for
 *       one aggregate, with the aggregate in {@code aggregates}.
 *   <li>DISTINCT: the partition query keeps DISTINCT and drops TOP and OFFSET/LIMIT.
 *   <li>TOP alone: no rewrite. OFFSET/LIMIT alone: OFFSET 0 LIMIT m+n per partition.
 * </ul>
 *
 * <p>Refused as the service refuses: an aggregate inside another expression ("Compositions of
 * aggregates and other expressions are not allowed.", the service's text), and ORDER BY with GROUP
 * BY (documented as not allowed; the message is ours).
 */
public final class QueryPlanner {
  private QueryPlanner() {}

  /** The placeholder the SDKs replace with {@code true} or a resume predicate. */
  public static final String ORDER_BY_FILTER = "{documentdb-formattableorderbyquery-filter}";

  /** The service's refusal of an expression over aggregates, word for word. */
  public static final String COMPOSITION_REFUSED =
      "Compositions of aggregates and other expressions are not allowed.";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * Whether a queryInfo of this planner's aggregates: aggregates listed (VALUE), GROUP BY, or an
   * aggregate under its alias (without VALUE, planned as one group).
   */
  public static boolean aggregates(com.fasterxml.jackson.databind.JsonNode queryInfo) {
    if (!queryInfo.path("aggregates").isEmpty()
        || !queryInfo.path("groupByExpressions").isEmpty()) {
      return true;
    }
    for (com.fasterxml.jackson.databind.JsonNode type :
        queryInfo.path("groupByAliasToAggregateType")) {
      if (!type.isNull()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a queryInfo of this planner's needs the client's pipeline over several partitions:
   * ORDER BY, TOP, OFFSET/LIMIT, DISTINCT or aggregates.
   */
  public static boolean needsPipeline(com.fasterxml.jackson.databind.JsonNode queryInfo) {
    return aggregates(queryInfo)
        || !queryInfo.path("orderBy").isEmpty()
        || queryInfo.path("top").isNumber()
        || queryInfo.path("offset").isNumber()
        || queryInfo.path("limit").isNumber()
        || !"None".equals(queryInfo.path("distinctType").asText("None"));
  }

  /**
   * The DISTINCT subquery whose rows {@code q} counts ({@code SELECT VALUE COUNT(1) FROM (SELECT
   * DISTINCT ...)}, or {@code SELECT COUNT(1) AS n FROM (...)}), or null when {@code q} is not of
   * that shape. The service plans it as a distinct count ({@code dCountInfo}): each partition
   * returns the subquery's distinct rows, and the client removes the duplicates across partitions
   * and counts what is left. Summing the partitions' counts would count twice a row that two
   * partitions hold (the Java SDK's DCountDocumentQueryExecutionContext counts the rows of its
   * DISTINCT stage). [A] Only a count of a constant, with nothing else in the outer query.
   */
  static Query distinctCounted(Query q) {
    if (q.where() != null
        || !q.groupBy().isEmpty()
        || !q.orderBy().isEmpty()
        || q.top() != null
        || q.offset() != null
        || q.distinct()
        || q.from().size() != 1
        || !(q.from().get(0).collection() instanceof Query.Collection.Subquery s)) {
      return null;
    }
    Query inner = s.query();
    // (a subquery has no TOP, OFFSET or ORDER BY: the validator refuses them)
    if (!inner.distinct() || !inner.groupBy().isEmpty() || Executor.hasAggregate(inner)) {
      return null;
    }
    Expr counted =
        q.select() instanceof Query.Select.Value v
            ? v.expression()
            : q.select() instanceof Query.Select.Items it && it.items().size() == 1
                ? it.items().get(0).expression()
                : null;
    return counted instanceof Expr.Call c
            && c.name().equals("COUNT")
            && c.arguments().size() == 1
            && c.arguments().get(0) instanceof Expr.Literal
        ? inner
        : null;
  }

  /** The gateway's queryInfo for a compiled query. */
  public static ObjectNode queryInfo(CompiledQuery compiled) {
    Query counted = distinctCounted(compiled.ast());
    return counted != null
        ? distinctCountInfo(compiled.ast(), counted, compiled.parameterValues())
        : queryInfo(compiled.ast(), compiled.parameterValues());
  }

  /**
   * Whether an ORDER BY puts equal rows of a DISTINCT next to each other, so that the client can
   * drop a row equal to the one before it (an "Ordered" DISTINCT, whose continuation carries that
   * row's hash). That holds when the projected expressions and the ORDER BY keys are the same set:
   * equal rows then have equal keys, and equal keys give equal rows. Otherwise equal rows can be
   * far apart ({@code SELECT DISTINCT c.city FROM c ORDER BY c.age}) and the client must keep every
   * row's hash, an "Unordered" DISTINCT, whose continuation the SDKs refuse to resume from (as the
   * service plans it: the Java SDK's {@code DistinctQueryTests} resume {@code DISTINCT VALUE c.id
   * ... ORDER BY c.id} and expect 400 for {@code ... ORDER BY c._ts}).
   */
  private static boolean sortedByRow(Query q) {
    Set<Expr> keys = new HashSet<>();
    for (Query.OrderItem o : q.orderBy()) {
      keys.add(o.expression());
    }
    Set<Expr> projected = new HashSet<>();
    if (q.select() instanceof Query.Select.Value v) {
      projected.add(v.expression());
    } else if (q.select() instanceof Query.Select.Items items) {
      for (Query.Select.Item item : items.items()) {
        projected.add(item.expression());
      }
    } else {
      return false;
    }
    return keys.equals(projected);
  }

  /** The queryInfo of {@code q} with its parameters' values. */
  private static ObjectNode queryInfo(Query q, Map<String, JsonNode> params) {
    ObjectNode info = NODES.objectNode();
    boolean grouped = !q.groupBy().isEmpty();
    boolean aggregated = Executor.hasAggregate(q);
    if (grouped && !q.orderBy().isEmpty()) {
      throw new QueryException(
          "SC2208",
          "ORDER BY cannot be used together with GROUP BY (Azure Cosmos DB for NoSQL does not"
              + " allow it); sort the groups in the application");
    }
    refuseCompositions(q);
    // An aggregate without GROUP BY yields one row; its ORDER BY orders nothing across partitions.
    boolean ordered = !q.orderBy().isEmpty() && !aggregated;
    info.put(
        "distinctType",
        !q.distinct() ? "None" : ordered && sortedByRow(q) ? "Ordered" : "Unordered");
    putCount(info, "top", q.top(), params);
    putCount(info, "offset", q.offset(), params);
    putCount(info, "limit", q.limit(), params);
    ArrayNode orderBy = info.putArray("orderBy");
    ArrayNode orderByExpressions = info.putArray("orderByExpressions");
    if (ordered) {
      for (Query.OrderItem o : q.orderBy()) {
        orderBy.add(Executor.ascending(o, params) ? "Ascending" : "Descending");
        orderByExpressions.add(key(o, params));
      }
    }
    ArrayNode groupByExpressions = info.putArray("groupByExpressions");
    ArrayNode groupByAliases = info.putArray("groupByAliases");
    ArrayNode aggregates = info.putArray("aggregates");
    ObjectNode aliasTypes = info.putObject("groupByAliasToAggregateType");
    String rewritten = "";
    String where = q.where() == null ? null : SqlWriter.write(q.where());
    String from = q.from().isEmpty() ? "" : " FROM " + SqlWriter.from(q.from());

    if (grouped || (aggregated && !(q.select() instanceof Query.Select.Value))) {
      for (Expr g : q.groupBy()) {
        groupByExpressions.add(SqlWriter.write(g));
      }
      StringBuilder payload = new StringBuilder();
      if (q.select() instanceof Query.Select.Value v) {
        String type = aggregateType(v.expression());
        if (type == null) {
          payload.append(SqlWriter.write(v.expression()));
        } else {
          aggregates.add(type);
          payload.append('[').append(partial(v.expression())).append(']');
        }
      } else {
        payload.append('{');
        List<Query.Select.Item> items =
            q.select() instanceof Query.Select.Items it ? it.items() : List.of();
        List<String> aliases = Executor.projectionNames(items);
        for (int i = 0; i < items.size(); i++) {
          Query.Select.Item item = items.get(i);
          String alias = aliases.get(i);
          groupByAliases.add(alias);
          String type = aggregateType(item.expression());
          if (type == null) {
            aliasTypes.putNull(alias);
          } else {
            aliasTypes.put(alias, type);
          }
          payload
              .append(i > 0 ? ", " : "")
              .append(NODES.textNode(alias))
              .append(": ")
              .append(
                  type == null ? SqlWriter.write(item.expression()) : partial(item.expression()));
        }
        payload.append('}');
      }
      StringBuilder r = new StringBuilder("SELECT ");
      if (grouped) {
        r.append('[');
        for (int i = 0; i < q.groupBy().size(); i++) {
          r.append(i > 0 ? ", " : "")
              .append("{\"item\": ")
              .append(SqlWriter.write(q.groupBy().get(i)))
              .append('}');
        }
        r.append("] AS groupByItems, ");
      }
      r.append(payload).append(" AS payload").append(from);
      if (where != null) {
        r.append(" WHERE ").append(where);
      }
      if (grouped) {
        r.append(" GROUP BY ");
        for (int i = 0; i < q.groupBy().size(); i++) {
          r.append(i > 0 ? ", " : "").append(SqlWriter.write(q.groupBy().get(i)));
        }
      }
      r.append(orderByClause(q, params));
      rewritten = r.toString();
    } else if (aggregated) {
      Expr value = ((Query.Select.Value) q.select()).expression();
      aggregates.add(aggregateType(value));
      rewritten =
          "SELECT VALUE ["
              + partial(value)
              + "]"
              + from
              + (where == null ? "" : " WHERE " + where)
              + orderByClause(q, params);
    } else if (ordered) {
      rewritten = orderByRewrite(q, where, from, params);
    } else if (q.distinct() && (q.top() != null || q.offset() != null)) {
      rewritten = SqlWriter.write(withBounds(q, null, null, null));
    } else if (q.offset() != null) {
      rewritten =
          SqlWriter.write(
              withBounds(
                  q,
                  q.top(),
                  new Expr.Literal(NODES.numberNode(0)),
                  new Expr.Literal(NODES.numberNode(partitionLimit(q, params)))));
    }
    info.put("rewrittenQuery", rewritten);
    info.put("hasSelectValue", q.select() instanceof Query.Select.Value);
    info.putNull("dCountInfo");
    // ORDER BY VectorDistance: each partition returns its best TOP k and the client merges them
    // all (the SDKs' non-streaming ORDER BY, which requires TOP or LIMIT)
    boolean nonStreaming =
        ordered
            && q.orderBy().stream()
                .anyMatch(
                    o ->
                        o.expression() instanceof Expr.Call c && c.name().equals("VECTORDISTANCE"));
    if (nonStreaming && q.top() == null && q.limit() == null) {
      // [A] the SDKs refuse it themselves (the Java SDK 4.81 fails on the absent TOP instead);
      // refusing it in the plan gives every client the same clear answer
      throw new QueryException(
          "",
          "A query with ORDER BY VectorDistance needs TOP or OFFSET ... LIMIT: each partition"
              + " returns its nearest TOP documents for the client to merge, and without a bound"
              + " that is every document");
    }
    info.put("hasNonStreamingOrderBy", nonStreaming);
    return info;
  }

  /**
   * The plan of a count of a DISTINCT subquery ({@link #distinctCounted}): the subquery is what
   * each partition runs, its rows deduplicated by the client (an unordered DISTINCT), then counted
   * under {@code dCountInfo}'s alias ("" for VALUE).
   */
  private static ObjectNode distinctCountInfo(Query q, Query inner, Map<String, JsonNode> params) {
    // the subquery's own plan (an unordered DISTINCT), sent as written, counted under the alias
    ObjectNode info = queryInfo(inner, params);
    info.put("rewrittenQuery", SqlWriter.write(inner));
    boolean value = q.select() instanceof Query.Select.Value;
    info.put("hasSelectValue", value);
    String alias =
        value ? "" : Executor.projectionNames(((Query.Select.Items) q.select()).items()).get(0);
    info.putObject("dCountInfo").put("dCountAlias", alias);
    return info;
  }

  /** The query with other TOP, OFFSET and LIMIT (null for none). */
  private static Query withBounds(Query q, Expr top, Expr offset, Expr limit) {
    return new Query(
        q.distinct(),
        top,
        q.select(),
        q.from(),
        q.where(),
        q.groupBy(),
        q.orderBy(),
        offset,
        limit);
  }

  /** {@code " ORDER BY k1 ASC, ..."}, or empty without ORDER BY. */
  private static String orderByClause(Query q, Map<String, JsonNode> params) {
    if (q.orderBy().isEmpty()) {
      return "";
    }
    StringBuilder r = new StringBuilder(" ORDER BY ");
    for (int i = 0; i < q.orderBy().size(); i++) {
      Query.OrderItem o = q.orderBy().get(i);
      r.append(i > 0 ? ", " : "")
          .append(key(o, params))
          .append(Executor.ascending(o, params) ? " ASC" : " DESC");
    }
    return r.toString();
  }

  /** Refuses an aggregate anywhere in a projection but as the whole projected expression. */
  private static void refuseCompositions(Query q) {
    List<Expr> projected = new ArrayList<>();
    if (q.select() instanceof Query.Select.Value v) {
      projected.add(v.expression());
    } else if (q.select() instanceof Query.Select.Items items) {
      for (Query.Select.Item i : items.items()) {
        projected.add(i.expression());
      }
    }
    for (Expr e : projected) {
      boolean whole = e instanceof Expr.Call c && SystemFunctions.AGGREGATES.contains(c.name());
      if (!whole && Executor.containsAggregate(e)) {
        throw new QueryException("", COMPOSITION_REFUSED);
      }
    }
  }

  private static String orderByRewrite(
      Query q, String where, String from, Map<String, JsonNode> params) {
    String root = q.from().isEmpty() ? null : q.from().get(0).alias();
    if (root == null) {
      throw unsupported("ORDER BY without FROM");
    }
    StringBuilder r = new StringBuilder("SELECT ");
    if (q.top() != null && !q.distinct()) {
      r.append("TOP ").append(count(q.top(), params, "TOP")).append(' ');
    }
    r.append(root).append("._rid, [");
    for (int i = 0; i < q.orderBy().size(); i++) {
      r.append(i > 0 ? ", " : "")
          .append("{\"item\": ")
          .append(key(q.orderBy().get(i), params))
          .append('}');
    }
    r.append("] AS orderByItems, ")
        .append(payload(q, root))
        .append(" AS payload")
        .append(from)
        .append(" WHERE ");
    if (where != null) {
      r.append('(').append(where).append(") AND ");
    }
    r.append('(').append(ORDER_BY_FILTER).append(')').append(orderByClause(q, params));
    if (q.offset() != null && !q.distinct()) {
      r.append(" OFFSET 0 LIMIT ").append(partitionLimit(q, params));
    }
    return r.toString();
  }

  /**
   * An ORDER BY key as the partitions sort by it and the client merges it: the expression, or for
   * {@code ORDER BY VectorDistance(...)} without a direction, the score with a missing one written
   * as the least similar (the client orders undefined first, which would put documents without a
   * vector ahead of the nearest ones under euclidean distance).
   */
  private static String key(Query.OrderItem o, Map<String, JsonNode> params) {
    String k = SqlWriter.write(o.expression());
    if (o.kind() != Query.Kind.SIMILARITY) {
      return k;
    }
    return scoreOrWorst(k, !Executor.ascending(o, params));
  }

  /** A search score, or where it is undefined the worst score there can be. */
  static String scoreOrWorst(String score, boolean higherIsBetter) {
    return "(" + score + " ?? " + (higherIsBetter ? "-1.0E300" : "1.0E300") + ")";
  }

  /** The projection as one expression: the document, the value, or an object of the items. */
  static String payload(Query q, String root) {
    if (q.select() instanceof Query.Select.Star) {
      return root;
    }
    if (q.select() instanceof Query.Select.Value v) {
      return SqlWriter.write(v.expression());
    }
    StringBuilder r = new StringBuilder("{");
    List<Query.Select.Item> items = ((Query.Select.Items) q.select()).items();
    List<String> aliases = Executor.projectionNames(items);
    for (int i = 0; i < items.size(); i++) {
      r.append(i > 0 ? ", " : "")
          .append(NODES.textNode(aliases.get(i)))
          .append(": ")
          .append(SqlWriter.write(items.get(i).expression()));
    }
    return r.append('}').toString();
  }

  /** The partial form of an aggregate: {"item": AGG(x)}, or for AVG its sum and count. */
  private static String partial(Expr aggregate) {
    Expr.Call c = (Expr.Call) aggregate;
    String arg = SqlWriter.write(c.arguments().get(0));
    if (c.name().equals("AVG")) {
      return "{\"item\": {\"sum\": SUM(" + arg + "), \"count\": COUNT(" + arg + ")}}";
    }
    if (c.name().equals("MIN") || c.name().equals("MAX")) {
      // The service's form: "item" for older clients, "item2" with the count, which the SDKs
      // read first and skip when the partition had no value (Java AggregateItem, JS emptyGroup).
      String call = c.name() + "(" + arg + ")";
      String field = c.name().toLowerCase(Locale.ROOT);
      return "{\"item\": "
          + call
          + ", \"item2\": {\""
          + field
          + "\": "
          + call
          + ", \"count\": COUNT("
          + arg
          + ")}}";
    }
    return "{\"item\": " + c.name() + "(" + arg + ")}";
  }

  /** Count, Sum, Min, Max or Average when the expression is exactly one aggregate call. */
  private static String aggregateType(Expr e) {
    if (!(e instanceof Expr.Call c) || !SystemFunctions.AGGREGATES.contains(c.name())) {
      return null; // compositions were refused before
    }
    return switch (c.name()) {
      case "COUNT" -> "Count";
      case "SUM" -> "Sum";
      case "MIN" -> "Min";
      case "MAX" -> "Max";
      case "MAKELIST" -> "MakeList";
      case "MAKESET" -> "MakeSet";
      default -> "Average";
    };
  }

  private static void putCount(
      ObjectNode info, String field, Expr e, Map<String, JsonNode> params) {
    if (e == null) {
      info.putNull(field);
    } else {
      // the bound number, even for a parameter (as hosted)
      info.put(field, count(e, params, field.toUpperCase(java.util.Locale.ROOT)));
    }
  }

  static long count(Expr e, Map<String, JsonNode> params, String clause) {
    return io.cosmolab.query.internal.RowCounts.of(e, params, clause);
  }

  /** The LIMIT a plan sends each partition for the query's {@code OFFSET m LIMIT n}: m + n. */
  private static long partitionLimit(Query q, Map<String, JsonNode> params) {
    return io.cosmolab.query.internal.RowCounts.sum(
        count(q.offset(), params, "OFFSET"), count(q.limit(), params, "LIMIT"));
  }

  static QueryException unsupported(String what) {
    return new QueryException(
        "SC2208",
        String.format(
            Locale.ROOT,
            "cosmolab cannot plan %s for client-side merging; send the query without a plan"
                + " request and the server answers it completely",
            what));
  }

  /**
   * Values the WHERE clause fixes for key paths: for each path (segments from the root alias), the
   * values of a top-level {@code path = v} or {@code path IN (v, ...)} conjunct, or null when the
   * path is not fixed. Used to narrow the plan's query ranges to the keys' EPKs.
   */
  public static List<List<JsonNode>> keyValues(
      CompiledQuery compiled, List<List<String>> keyPaths) {
    Map<List<String>, List<JsonNode>> fixed = new LinkedHashMap<>();
    for (IndexPredicate p : IndexPredicate.of(compiled)) {
      if (p.op() == IndexPredicate.Op.EQUAL) {
        fixed.put(p.path(), p.values());
      }
    }
    List<List<JsonNode>> out = new ArrayList<>();
    for (List<String> path : keyPaths) {
      out.add(fixed.get(path));
    }
    return out;
  }
}
