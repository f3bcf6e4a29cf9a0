package io.cosmolab.query;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.ast.Expr;
import io.cosmolab.query.ast.Query;
import io.cosmolab.query.parse.QueryParser;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A container's computed properties ({@code [{"name": "cp_lower", "query": "SELECT VALUE
 * LOWER(c.name) FROM c"}]}): top-level properties derived from each document, never stored, that
 * queries read as if they were.
 *
 * <p>How: a query over the container is rewritten before it runs. Every reference to a computed
 * property through the query's root alias ({@code c.cp_lower}, {@code c["cp_lower"]}) becomes the
 * property's own expression with its alias renamed to the query's, in every clause and in
 * subqueries that do not rebind the alias. So a computed property wins over a stored one of the
 * same name, and {@code SELECT *} (and {@code SELECT c}) return the stored document without the
 * computed ones, as the service documents. A computed property in a JOIN's path ({@code JOIN t IN
 * c.cp_tags}) is not rewritten [A].
 *
 * <p>Definitions are checked as the service checks them: at most 20, unique names, not a system
 * property, a query {@code SELECT VALUE expr FROM <root> alias} with no JOIN, WHERE, GROUP BY,
 * ORDER BY, TOP, DISTINCT, OFFSET LIMIT, subqueries, aggregates, spatial, non-deterministic or
 * user-defined functions, and no reference to another computed property.
 */
public final class ComputedProperties {
  /** The service's limit per container. */
  public static final int MAX = 20;

  public static final ComputedProperties NONE = new ComputedProperties(Map.of());

  private static final Set<String> SYSTEM =
      Set.of("id", "_rid", "_ts", "_etag", "_self", "_attachments", "_lsn");

  private static final Set<String> REFUSED_FUNCTIONS = refused();

  private static Set<String> refused() {
    Set<String> names = new java.util.HashSet<>(References.CLOCK_AND_RANDOM);
    names.addAll(
        Set.of(
            "COUNT",
            "SUM",
            "AVG",
            "MIN",
            "MAX",
            "MAKELIST",
            "MAKESET",
            "ST_DISTANCE",
            "ST_WITHIN",
            "ST_INTERSECTS",
            "ST_ISVALID",
            "ST_ISVALIDDETAILED",
            "ST_AREA"));
    return Set.copyOf(names);
  }

  /** A definition: the alias its query binds, and its expression over that alias. */
  private record Definition(String alias, Expr expression) {}

  private final Map<String, Definition> byName;

  private ComputedProperties(Map<String, Definition> byName) {
    this.byName = byName;
  }

  /**
   * Parses and checks the {@code computedProperties} array of a container.
   *
   * @throws QueryException naming the definition and what is wrong with it
   */
  public static ComputedProperties fromJson(JsonNode array) {
    if (array == null || array.isNull() || (array.isArray() && array.isEmpty())) {
      return NONE;
    }
    if (!array.isArray()) {
      throw invalid("computedProperties must be an array of {\"name\", \"query\"}, was " + array);
    }
    if (array.size() > MAX) {
      throw invalid(
          "a container has at most " + MAX + " computed properties, was given " + array.size());
    }
    Map<String, Definition> out = new LinkedHashMap<>();
    for (JsonNode d : array) {
      JsonNode name = d.get("name");
      JsonNode query = d.get("query");
      if (name == null || !name.isTextual() || name.textValue().isEmpty()) {
        throw invalid("a computed property needs a string \"name\", was " + d);
      }
      String n = name.textValue();
      if (query == null || !query.isTextual()) {
        throw invalid("computed property '" + n + "' needs a string \"query\"");
      }
      if (SYSTEM.contains(n.toLowerCase(Locale.ROOT))) {
        throw invalid("computed property '" + n + "': a system property name cannot be used");
      }
      if (n.contains("/") || n.contains(".")) {
        throw invalid("computed property '" + n + "': the name is a top-level property name");
      }
      if (out.containsKey(n)) {
        throw invalid("computed property '" + n + "' is defined twice");
      }
      out.put(n, definition(n, query.textValue()));
    }
    for (Map.Entry<String, Definition> e : out.entrySet()) {
      Definition d = e.getValue();
      for (String other : out.keySet()) {
        if (References.reads(d.expression(), d.alias(), other)) {
          throw invalid(
              "computed property '"
                  + e.getKey()
                  + "' refers to the computed property '"
                  + other
                  + "': computed properties cannot depend on each other");
        }
      }
    }
    return new ComputedProperties(Collections.unmodifiableMap(out));
  }

  private static Definition definition(String name, String text) {
    Query q;
    try {
      q = QueryParser.parse(text);
    } catch (QueryException e) {
      throw invalid("computed property '" + name + "': " + e.getMessage());
    }
    String prefix = "computed property '" + name + "': ";
    if (!(q.select() instanceof Query.Select.Value v)) {
      throw invalid(prefix + "the query must project with SELECT VALUE");
    }
    if (q.from().size() != 1
        || !(q.from().get(0) instanceof Query.FromSource.Aliased a)
        || !(a.collection() instanceof Query.Collection.Path p)
        || !p.segments().isEmpty()) {
      throw invalid(
          prefix + "the query needs one FROM of the root (FROM c, FROM root r), and no JOIN");
    }
    if (q.where() != null
        || !q.groupBy().isEmpty()
        || !q.orderBy().isEmpty()
        || q.top() != null
        || q.distinct()
        || q.offset() != null
        || q.limit() != null) {
      throw invalid(
          prefix + "the query cannot use WHERE, GROUP BY, ORDER BY, TOP, DISTINCT or OFFSET LIMIT");
    }
    String alias = a.alias() == null ? p.name() : a.alias();
    String refused = References.refusedIn(v.expression(), REFUSED_FUNCTIONS);
    if (refused != null) {
      throw invalid(prefix + refused + " cannot be used in a computed property");
    }
    return new Definition(alias, v.expression());
  }

  private static QueryException invalid(String message) {
    return new QueryException("SC2210", message);
  }

  public boolean isEmpty() {
    return byName.isEmpty();
  }

  /** The names of the computed properties. */
  public java.util.Set<String> names() {
    return byName.keySet();
  }

  /**
   * The value of a computed property for a document (what an index on its path holds), or null when
   * it is undefined or there is no such property. The definitions are deterministic (the functions
   * that read the clock or chance are refused), so no clock is needed.
   */
  public com.fasterxml.jackson.databind.JsonNode valueOf(
      String name, com.fasterxml.jackson.databind.JsonNode document) {
    Definition d = byName.get(name);
    if (d == null) {
      return null;
    }
    Query q =
        new Query(
            false,
            null,
            new Query.Select.Value(d.expression()),
            List.of(
                new Query.FromSource.Aliased(
                    d.alias(), new Query.Collection.Path(d.alias(), List.of()))),
            null,
            List.of(),
            List.of(),
            null,
            null);
    List<com.fasterxml.jackson.databind.JsonNode> out =
        new io.cosmolab.query.exec.Executor(
                Map.of(),
                java.time.Instant.EPOCH,
                io.cosmolab.query.exec.Executor.DEFAULT_WORK_LIMIT)
            .run(q, List.of(new io.cosmolab.query.exec.Executor.Input(document, 0)));
    return out.isEmpty() ? null : out.get(0);
  }

  /** {@code q} with every computed property its root alias reads replaced by its expression. */
  public Query applyTo(Query q) {
    if (byName.isEmpty() || q.from().isEmpty()) {
      return q;
    }
    Query.FromSource first = q.from().get(0);
    if (!(first instanceof Query.FromSource.Aliased a)
        || !(a.collection() instanceof Query.Collection.Path p)
        || !p.segments().isEmpty()) {
      return q; // FROM x IN c.items, FROM c.address: the root document is not in scope
    }
    String alias = a.alias() == null ? p.name() : a.alias();
    Map<String, Expr> replacements = new LinkedHashMap<>();
    byName.forEach(
        (name, d) -> replacements.put(name, References.renamed(d.expression(), d.alias(), alias)));
    return References.substitute(q, alias, replacements);
  }
}
