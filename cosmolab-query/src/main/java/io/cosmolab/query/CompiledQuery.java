package io.cosmolab.query;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.ast.Query;
import io.cosmolab.query.exec.Executor;
import io.cosmolab.query.parse.QueryParser;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A parsed and validated query with its parameter values, ready to run over documents. Immutable
 * and thread-safe; each {@link #execute} runs independently.
 *
 * <pre>{@code
 * CompiledQuery q = CompiledQuery.compile(
 *     "SELECT c.id FROM c WHERE c.total > @min ORDER BY c.total DESC",
 *     Map.of("@min", IntNode.valueOf(100)));
 * List<JsonNode> rows = q.execute(inputs, clock.instant());
 * }</pre>
 */
public final class CompiledQuery {
  /**
   * Parsed queries by text: applications repeat the same texts with new parameters, and parsing
   * dominated a point query. ASTs are immutable; the cache holds at most {@value #CACHE_SIZE} texts
   * and then forgets the oldest.
   */
  private static final int CACHE_SIZE = 1024;

  private static final Map<String, Query> PARSED =
      Collections.synchronizedMap(
          new LinkedHashMap<>(64, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Query> eldest) {
              return size() > CACHE_SIZE;
            }
          });

  private final String text;
  private final Query query;
  private final Map<String, JsonNode> parameters;
  private final SearchPolicy search;

  private CompiledQuery(
      String text, Query query, Map<String, JsonNode> parameters, SearchPolicy search) {
    this.text = text;
    this.query = query;
    this.parameters = parameters;
    this.search = search;
  }

  /**
   * Parses and validates a query.
   *
   * @param parameters values by name ({@code @name}); a null value means undefined
   * @throws QueryException for a syntax error (with its position) or a semantic error
   */
  public static CompiledQuery compile(String text, Map<String, JsonNode> parameters) {
    Query query = PARSED.computeIfAbsent(text, QueryParser::parse);
    Map<String, JsonNode> params =
        Collections.unmodifiableMap(
            new LinkedHashMap<>(parameters == null ? Map.of() : parameters));
    io.cosmolab.query.exec.ValidatorAccess.check(query, params);
    return new CompiledQuery(text, query, params, SearchPolicy.NONE);
  }

  /**
   * Parameters in the REST API's form, {@code [{"name": "@t", "value": …}, …]}; null or JSON null
   * for none.
   *
   * @throws QueryException SC2001 for anything else: not an array, an entry without a string name,
   *     a name without '@', a name given twice
   */
  public static Map<String, JsonNode> parameters(JsonNode restForm) {
    if (restForm == null || restForm.isNull()) {
      return Map.of();
    }
    if (!restForm.isArray()) {
      throw new QueryException(
          "SC2001",
          "'parameters' must be an array of {\"name\": \"@p\", \"value\": ...}, was " + restForm);
    }
    List<Map.Entry<String, JsonNode>> pairs = new java.util.ArrayList<>();
    for (JsonNode p : restForm) {
      if (!p.isObject() || !p.path("name").isTextual()) {
        throw new QueryException(
            "SC2001", "each parameter is {\"name\": \"@p\", \"value\": ...}, was " + p);
      }
      // without a value (what JSON.stringify leaves of an undefined one) it is undefined
      pairs.add(new java.util.AbstractMap.SimpleEntry<>(p.get("name").textValue(), p.get("value")));
    }
    return parameters(pairs);
  }

  /**
   * Parameters as (name, value) pairs, refusing duplicates and names without {@code @} as the
   * service does.
   *
   * @throws QueryException SC2001 for a name without '@' or a name given twice
   */
  public static Map<String, JsonNode> parameters(List<Map.Entry<String, JsonNode>> pairs) {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> p : pairs) {
      String name = p.getKey();
      if (name == null || !name.startsWith("@") || name.length() < 2) {
        throw new QueryException(
            "SC2001", "parameter name '" + name + "' must start with '@', e.g. \"@min\"");
      }
      if (out.containsKey(name)) {
        throw new QueryException("SC2001", "parameter '" + name + "' is given more than once");
      }
      out.put(name, p.getValue());
    }
    return out;
  }

  /**
   * A patch condition, {@code FROM c WHERE ...}, as a query that keeps the document when the
   * condition holds.
   */
  public static CompiledQuery condition(String fromWhere) {
    String trimmed = fromWhere == null ? "" : fromWhere.strip();
    if (!trimmed.regionMatches(true, 0, "FROM", 0, 4)) {
      throw new QueryException(
          "SC1001",
          "a patch condition must be of the form \"FROM c WHERE ...\", was: " + fromWhere);
    }
    return compile("SELECT VALUE 1 " + trimmed, Map.of());
  }

  /**
   * This query over a container with computed properties: each one its root alias reads is replaced
   * by the property's expression ({@link ComputedProperties}).
   */
  public CompiledQuery withComputedProperties(ComputedProperties computed) {
    if (computed.isEmpty()) {
      return this;
    }
    Query rewritten = computed.applyTo(query);
    return rewritten.equals(query) ? this : new CompiledQuery(text, rewritten, parameters, search);
  }

  /**
   * This query over a container with vector and full-text policies: {@code VectorDistance} over a
   * listed path takes the path's distance function and data type, and the text functions process a
   * path in its language ({@link SearchPolicy}). Apply it before {@link #withComputedProperties}.
   */
  public CompiledQuery withSearchPolicy(SearchPolicy policy) {
    if (policy == SearchPolicy.NONE && search == SearchPolicy.NONE) {
      return this;
    }
    return new CompiledQuery(text, policy.applyTo(query), parameters, policy);
  }

  /**
   * What this query's OFFSET skips and its TOP or LIMIT keeps, read from its parameters.
   *
   * @throws QueryException SC2064 when one is not a non-negative whole number
   */
  public Executor.RowBounds rowBounds() {
    return Executor.rowBounds(query, parameters);
  }

  /**
   * This query without its TOP, OFFSET and LIMIT: the rows its {@link #rowBounds} select from, for
   * a caller that skips and counts them itself (a page that resumes where the last one ended).
   */
  public CompiledQuery withoutRowBounds() {
    if (query.top() == null && query.offset() == null) {
      return this;
    }
    Query unbounded =
        new Query(
            query.distinct(),
            null,
            query.select(),
            query.from(),
            query.where(),
            query.groupBy(),
            query.orderBy(),
            null,
            null);
    return new CompiledQuery(text, unbounded, parameters, search);
  }

  /** The search policy the query runs under. */
  public SearchPolicy searchPolicy() {
    return search;
  }

  /** Runs the query over the inputs (in their order) with the clock read once, as {@code now}. */
  public List<JsonNode> execute(Iterable<Executor.Input> inputs, Instant now) {
    return new Executor(parameters, now, Executor.DEFAULT_WORK_LIMIT, search).run(query, inputs);
  }

  /** Runs the query with an explicit work limit (see {@link Executor}). */
  public List<JsonNode> execute(Iterable<Executor.Input> inputs, Instant now, long workLimit) {
    return new Executor(parameters, now, workLimit, search).run(query, inputs);
  }

  /**
   * Opens the query over the inputs, to be read one result at a time: the inputs are read only as
   * far as the results pulled need (see {@link Executor#open}).
   */
  public Executor.Cursor open(Iterable<Executor.Input> inputs, Instant now, long rowsWanted) {
    return new Executor(parameters, now, Executor.DEFAULT_WORK_LIMIT, search)
        .open(query, inputs, rowsWanted);
  }

  /** Opens the query with its {@code udf.} calls going to {@code udfs}. */
  public Executor.Cursor open(
      Iterable<Executor.Input> inputs,
      Instant now,
      long rowsWanted,
      io.cosmolab.query.exec.UserFunctions udfs) {
    return open(inputs, now, rowsWanted, udfs, null);
  }

  /**
   * Opens the query with its {@code udf.} calls going to {@code udfs}, resuming an ORDER BY query
   * after the position {@code after} (or from its start when null; see {@link
   * Executor#resumesBySortKey}).
   */
  public Executor.Cursor open(
      Iterable<Executor.Input> inputs,
      Instant now,
      long rowsWanted,
      io.cosmolab.query.exec.UserFunctions udfs,
      Executor.After after) {
    return open(inputs, now, rowsWanted, udfs, after, false);
  }

  /**
   * As {@link #open(Iterable, Instant, long, io.cosmolab.query.exec.UserFunctions,
   * Executor.After)}; with {@code inOrder}, the inputs arrive in the ORDER BY's order already and
   * are streamed, not sorted (see {@link Executor#open(Query, Iterable, long, Executor.After,
   * boolean)}).
   */
  public Executor.Cursor open(
      Iterable<Executor.Input> inputs,
      Instant now,
      long rowsWanted,
      io.cosmolab.query.exec.UserFunctions udfs,
      Executor.After after,
      boolean inOrder) {
    return new Executor(parameters, now, Executor.DEFAULT_WORK_LIMIT, udfs, search)
        .open(query, inputs, rowsWanted, after, inOrder);
  }

  /**
   * Whether the query's rows may differ between two runs over the same documents: it calls a
   * user-defined function ({@code udf.name(...)}), reads the clock ({@code GetCurrentDateTime()}
   * and the like: each run has its own instant) or draws a number ({@code RAND()}), anywhere.
   */
  public boolean dependsOnItsRun() {
    boolean[] found = {false};
    References.rewriteAll(
        query,
        e -> {
          found[0] |=
              e instanceof io.cosmolab.query.ast.Expr.UdfCall
                  || (e instanceof io.cosmolab.query.ast.Expr.Call c
                      && References.CLOCK_AND_RANDOM.contains(c.name()));
          return null;
        });
    return found[0];
  }

  /** True if the query keeps {@code document} (for conditions: the WHERE holds). */
  public boolean test(JsonNode document, Instant now) {
    return !execute(List.of(new Executor.Input(document, 0)), now).isEmpty();
  }

  public String text() {
    return text;
  }

  /** The syntax tree (for planners). */
  public Query ast() {
    return query;
  }

  public Map<String, JsonNode> parameterValues() {
    return parameters;
  }
}
