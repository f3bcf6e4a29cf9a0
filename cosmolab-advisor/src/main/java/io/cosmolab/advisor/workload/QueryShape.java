package io.cosmolab.advisor.workload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.cosmolab.query.CompiledQuery;
import io.cosmolab.query.QueryException;
import io.cosmolab.query.plan.IndexPredicate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a query's WHERE clause fixes, as the engine's planner sees it: for each field compared with
 * {@code =} or {@code IN} at the top level of the filter, the constants it is compared with, or the
 * parameter that supplies them. The same analysis decides the EPK ranges of the gateway's query
 * plan, so a query the advisor calls single-partition is one the SDK sends to one partition.
 *
 * @param fixed field path ({@code /a/b}) → how it is fixed
 * @param inDocumentOrder rows come in the order the documents are read (no ORDER BY, GROUP BY,
 *     DISTINCT or aggregate): across partitions the SDKs read such a query one partition after
 *     another, in EPK order, where an ORDER BY reads a page from every partition to merge them
 */
public record QueryShape(Map<String, Fixed> fixed, boolean inDocumentOrder) {

  /**
   * How a field is fixed: by {@code literals} (one, or several for IN), or by a parameter.
   *
   * @param literals the constants, or empty when a parameter supplies the value
   * @param parameter the parameter's name, or null
   * @param count how many values the filter allows (IN lists allow several)
   */
  public record Fixed(List<JsonNode> literals, String parameter, int count) {}

  private static final Pattern PARAMETER = Pattern.compile("@[A-Za-z_][A-Za-z0-9_]*");
  private static final String MARKER = "\u0001cosmolab-parameter:";

  public QueryShape {
    fixed = Map.copyOf(fixed);
  }

  /** The parameters the text uses, in order of appearance. */
  public static Set<String> parametersOf(String sql) {
    Set<String> out = new LinkedHashSet<>();
    Matcher m = PARAMETER.matcher(sql);
    while (m.find()) {
      out.add(m.group());
    }
    return out;
  }

  /**
   * Parses {@code sql} with the engine's query compiler.
   *
   * @throws IllegalArgumentException with the compiler's message, when the SQL is not valid
   */
  public static QueryShape of(String sql) {
    Map<String, JsonNode> markers = new LinkedHashMap<>();
    for (String p : parametersOf(sql)) {
      markers.put(p, TextNode.valueOf(MARKER + p));
    }
    CompiledQuery compiled;
    try {
      compiled = CompiledQuery.compile(sql, markers);
    } catch (QueryException e) {
      throw new IllegalArgumentException("the sql is not a valid query: " + e.getMessage(), e);
    }
    Map<String, Fixed> out = new LinkedHashMap<>();
    for (IndexPredicate p : IndexPredicate.of(compiled)) {
      if (p.op() != IndexPredicate.Op.EQUAL) {
        continue;
      }
      String path = "/" + String.join("/", p.path());
      String parameter = null;
      List<JsonNode> literals = new ArrayList<>();
      for (JsonNode v : p.values()) {
        if (v.isTextual() && v.textValue().startsWith(MARKER)) {
          parameter = v.textValue().substring(MARKER.length());
        } else {
          literals.add(v);
        }
      }
      out.putIfAbsent(
          path, new Fixed(parameter == null ? literals : List.of(), parameter, p.values().size()));
    }
    return new QueryShape(out, inDocumentOrder(compiled.ast()));
  }

  private static boolean inDocumentOrder(io.cosmolab.query.ast.Query q) {
    if (!q.orderBy().isEmpty() || !q.groupBy().isEmpty() || q.distinct()) {
      return false;
    }
    return !io.cosmolab.query.exec.Executor.hasAggregate(q);
  }
}
