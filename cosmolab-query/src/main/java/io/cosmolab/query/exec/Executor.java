package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.QueryException;
import io.cosmolab.query.SearchPolicy;
import io.cosmolab.query.ast.Expr;
import io.cosmolab.query.ast.Query;
import io.cosmolab.query.functions.Ranking;
import io.cosmolab.query.functions.SystemFunctions;
import io.cosmolab.query.functions.VectorSearch;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a validated query over input documents. One instance per execution; not thread-safe.
 *
 * <p>The clauses run in the service's logical order: FROM (and JOINs) → WHERE → GROUP BY → SELECT →
 * DISTINCT → ORDER BY → OFFSET/LIMIT → TOP. ORDER BY keys are evaluated on the input rows (before
 * projection); rows with equal keys keep the input order, ascending when the first key is ascending
 * and descending otherwise (the document RID order the SDKs expect, {@code gateway-protocol.md}
 * §7.6).
 *
 * <p>Work bound: see {@link Budget}. A query that passes its limit fails with a clear error instead
 * of running on (a huge cross product, a pathological regex).
 */
/*
 * How a query runs. The query becomes a pipeline of pull-based operators, one per clause, in the
 * order the data flows (each a small class of this package):
 *
 *                            ┌─▶ Aggregate ───────────────────▶ Sort|TopK? ───┐
 *   Scan ─▶ Join* ─▶ Filter? ┼─▶ SortKeys ─▶ Sort|TopK? ─▶ Project ───────────┼▶ Distinct? ▶ Slice?
 *                            └─▶ SortKeys ─▶ Project ───────▶ Sort|TopK? ─────┘
 *
 * The first branch serves GROUP BY and aggregates, the second ORDER BY under SELECT * or a list,
 * the third everything else (SELECT VALUE, and no ORDER BY at all, where the sort is absent).
 *
 * Nothing runs until the consumer pulls: a page that needs 1,001 rows of a streaming query reads
 * the documents those rows come from and stops, and a TOP over a scan stops the scan. The stages
 * that must see all of their input (Aggregate, Sort, TopK, Distinct) do so on their first pull,
 * holding rows under the Budget's bound; TopK holds only the k rows it can return. ORDER BY sorts
 * keyed rows before projecting them when a projection cannot drop a row (SELECT * or a list), so
 * TOP 10 of a million projects 10; a SELECT VALUE may be undefined and drop its row, so it is
 * projected first and its undefined results never take a place in the heap.
 *
 * Expressions are compiled once per node per execution into closures (ExpressionCompiler), the
 * single evaluator every operator uses. Subqueries run as pipelines of their own over the
 * enclosing row's bindings.
 */
public final class Executor {
  /** A document with its position in the input order (the tie-breaker of ORDER BY). */
  public record Input(JsonNode document, long order) {}

  /**
   * One result row, the {@link Input#order()} of the input it came from, its ORDER BY keys (an
   * element is null when undefined; empty without ORDER BY) and its index among that input's rows.
   */
  public record Output(JsonNode value, long order, List<JsonNode> keys, int index) {}

  /**
   * Where an ORDER BY query's next page starts: after the row with these sort keys, input order and
   * index among its input's rows, which came after {@code rowsReturned} result rows (what TOP and
   * LIMIT still allow). A page resumed here holds only its own rows in the heap, and writes that
   * sort before the position shift nothing.
   */
  public record After(List<JsonNode> keys, long order, int index, long rowsReturned) {
    /** The position of {@code row}, after which {@code returned} rows in all were returned. */
    public static After of(Output row, long returned) {
      return new After(row.keys(), row.order(), row.index(), returned);
    }
  }

  /** The results of a query, pulled one at a time; reading stops the work where it stops. */
  @FunctionalInterface
  public interface Cursor {
    /** The next result, or null when there are no more. */
    Output next();

    /**
     * What the query's stages hold now (its groups, DISTINCT values, sorted rows, with their keys:
     * the count {@link #MAX_BYTES_HELD} bounds), for a caller that keeps the cursor open.
     */
    default long bytesHeld() {
      return 0;
    }
  }

  /** The default work limit per input document (see {@link Budget}). */
  public static final long DEFAULT_WORK_LIMIT = 10_000_000L;

  /**
   * The rows one stage that must see all of its input (a sort, a grouping, DISTINCT) may hold
   * beyond one per input document: rows over the container's documents are bounded by its data,
   * while rows from arrays (an IN source, a JOIN) multiply. [A] The service would page such a query
   * under its 5 s per-page budget; cosmolab refuses it once the bound is passed, before the heap
   * fills.
   */
  public static final int MAX_ROWS_HELD = 2_000_000;

  /**
   * The bytes the stages of one execution may hold at once ({@link Budget#holdBytes}): an eighth of
   * the heap, at least 64 MB. [A] Rows alone did not bound memory: a GROUP BY whose keys were 2 KB
   * strings filled a 1 GB heap, and the request got a 500, before it held 2,000,000 groups; and
   * several such queries at once share the heap. An eighth lets a few run together.
   */
  public static final long MAX_BYTES_HELD =
      Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 8);

  private final Budget budget;
  private final ExpressionCompiler expressions;
  private final FromPath paths;
  private final IdentityHashMap<Query, Projection> projections = new IdentityHashMap<>();

  public Executor(Map<String, JsonNode> parameters, Instant now, long workLimit) {
    this(parameters, now, workLimit, UserFunctions.NONE, SearchPolicy.NONE);
  }

  /** An executor over a container with vector and full-text policies. */
  public Executor(
      Map<String, JsonNode> parameters, Instant now, long workLimit, SearchPolicy search) {
    this(parameters, now, workLimit, UserFunctions.NONE, search);
  }

  /** An executor whose {@code udf.name(...)} calls go to {@code udfs}. */
  public Executor(
      Map<String, JsonNode> parameters,
      Instant now,
      long workLimit,
      UserFunctions udfs,
      SearchPolicy search) {
    this.budget = new Budget(workLimit);
    this.parameters = parameters;
    this.search = search;
    SystemFunctions.Context functions =
        new SystemFunctions.Context() {
          @Override
          public Instant now() {
            return now;
          }

          @Override
          public CharSequence budgeted(String text) {
            return new BudgetedText(text, budget);
          }

          @Override
          public void spend(long units) {
            budget.spend(units);
          }

          @Override
          public double random() {
            return random.nextDouble();
          }

          @Override
          public boolean geometry() {
            return search.geometry();
          }
        };
    // RAND's numbers: a sequence per query, seeded from the injected clock, so a test on a
    // manual clock sees the same numbers on every run
    this.random = new java.util.SplittableRandom(now.toEpochMilli());
    this.expressions = new ExpressionCompiler(this, parameters, budget, functions, udfs, search);
    this.paths = new FromPath(expressions);
  }

  private final java.util.SplittableRandom random;
  private final Map<String, JsonNode> parameters;
  private final SearchPolicy search;

  /** The documents of a ranked full-text query, with their statistics; null for other queries. */
  private Corpus corpus;

  Corpus corpus() {
    return corpus;
  }

  /** The work units spent so far. */
  public long work() {
    return budget.work();
  }

  /**
   * Bounds what the stages of this executor's runs may hold at once to {@code bytes} instead of
   * {@link #MAX_BYTES_HELD}; returns this executor.
   */
  public Executor maxBytesHeld(long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("the bytes held must be positive: " + bytes);
    }
    budget.maxBytesHeld(bytes);
    return this;
  }

  /** Runs a top-level query over the inputs. */
  public List<JsonNode> run(Query q, Iterable<Input> inputs) {
    List<JsonNode> values = new ArrayList<>();
    Operator<JsonNode> rows = open(q, Map.of(), inputs, -1);
    for (JsonNode v = rows.next(); v != null; v = rows.next()) {
      values.add(v);
    }
    return values;
  }

  /**
   * Opens the query over the inputs; nothing is read until the first {@link Cursor#next}.
   *
   * @param rowsWanted how many results the caller will read at most, or -1 for all: an ORDER BY
   *     then keeps only that many rows (past its OFFSET) in a heap. Reading past it gives fewer
   *     results than the query has.
   */
  public Cursor open(Query q, Iterable<Input> inputs, long rowsWanted) {
    return open(q, inputs, rowsWanted, null);
  }

  /**
   * Opens an ORDER BY query ({@link #resumesBySortKey}) at a position an earlier page ended at, or
   * from its start when {@code after} is null; {@code rowsWanted} counts from the position.
   */
  public Cursor open(Query q, Iterable<Input> inputs, long rowsWanted, After after) {
    return open(q, inputs, rowsWanted, after, false);
  }

  /**
   * As {@link #open(Query, Iterable, long, After)}; with {@code inOrder}, the inputs arrive in the
   * query's ORDER BY order already (keys, then {@link Input#order()} as the tie-breaker), so the
   * rows are not sorted but streamed, and a page reads only as far as its rows. Only for a plain
   * ORDER BY ({@link #resumesBySortKey}) whose keys are its documents' (not a JOIN's): an input's
   * rows then share its keys and come in the order of their index among its rows, as the order
   * breaks their ties. An input out of order fails the query.
   */
  public Cursor open(
      Query q, Iterable<Input> inputs, long rowsWanted, After after, boolean inOrder) {
    if (after != null && !resumesBySortKey(q)) {
      throw new IllegalArgumentException("only a plain ORDER BY query resumes by its sort keys");
    }
    if (inOrder && !resumesBySortKey(q)) {
      throw new IllegalArgumentException("only a plain ORDER BY reads its inputs in order");
    }
    Operator<Keyed<JsonNode>> results = pipeline(q, Map.of(), inputs, rowsWanted, after, inOrder);
    return new Cursor() {
      @Override
      public Output next() {
        Keyed<JsonNode> r = results.next();
        return r == null ? null : new Output(r.item(), r.order(), r.keys(), r.index());
      }

      @Override
      public long bytesHeld() {
        return budget.bytesHeld();
      }
    };
  }

  /**
   * True when a page of {@code q} can resume after the sort keys of the last row it returned: an
   * ORDER BY by values (not RANK) over the documents (not a FROM subquery), whose rows are not
   * grouped, aggregated or made distinct, so every row keeps its own keys and RID through to the
   * result.
   */
  public static boolean resumesBySortKey(Query q) {
    // a FROM subquery numbers its rows as they come, not by RID: no position survives a write
    return !q.orderBy().isEmpty()
        && !q.from().isEmpty()
        && !(q.from().get(0).collection() instanceof Query.Collection.Subquery)
        && !(q.orderBy().size() == 1 && q.orderBy().get(0).rank())
        && q.groupBy().isEmpty()
        && !q.distinct()
        && !hasAggregate(q);
  }

  /** The result values of {@code q} under the enclosing bindings {@code outer}. */
  Operator<JsonNode> open(
      Query q, Map<String, JsonNode> outer, Iterable<Input> inputs, long rowsWanted) {
    Operator<Keyed<JsonNode>> results = pipeline(q, outer, inputs, rowsWanted, null, false);
    return () -> {
      Keyed<JsonNode> r = results.next();
      return r == null ? null : r.item();
    };
  }

  /** A subquery in an expression, over the enclosing row's bindings (it reads no documents). */
  Operator<JsonNode> subquery(Query q, Map<String, JsonNode> env) {
    return open(q, env, List.of(), -1);
  }

  Budget budget() {
    return budget;
  }

  ExpressionCompiler expressions() {
    return expressions;
  }

  FromPath paths() {
    return paths;
  }

  private Operator<Keyed<JsonNode>> pipeline(
      Query q,
      Map<String, JsonNode> outer,
      Iterable<Input> inputs,
      long rowsWanted,
      After after,
      boolean inOrder) {
    // the bounds are read first: a bad TOP or OFFSET fails the query even over no rows
    RowBounds bounds = rowBounds(q, parameters);
    long skip = bounds.skip();
    long take = bounds.take();
    if (after != null) {
      // the position is past OFFSET's rows (it is a returned row); TOP and LIMIT count on
      skip = 0;
      take = take == Long.MAX_VALUE ? take : Math.max(0, take - after.rowsReturned());
    }
    Projection projection = projections.computeIfAbsent(q, x -> new Projection(x, expressions));
    Ranking ranking = ranking(q);
    List<Expr.Call> scored = new ArrayList<>();
    if (ranking != null && outer.isEmpty() && !q.from().isEmpty()) {
      ranking.components().stream()
          .filter(Ranking.Component::fullText)
          .forEach(c -> scored.add(c.call()));
    }
    Operator<Row> rows;
    if (scored.isEmpty()) {
      rows = from(q, outer, inputs);
    } else {
      // BM25's statistics are over the rows FROM yields, before WHERE: gathered first, then the
      // rows flow on to the filter (so the filter cannot run inline in the scan)
      corpus = new Corpus(sources(q, outer, inputs, null), scored, expressions, search, budget);
      rows = q.where() == null ? corpus : new Filter(corpus, expressions.of(q.where()));
    }
    Operator<Keyed<JsonNode>> results;
    long sortBound = inOrder ? IN_ORDER : sortBound(q, skip, take, rowsWanted);
    // the projection is made once per query, so a subquery opened for each row walks no AST
    if (!q.groupBy().isEmpty() || projection.aggregating()) {
      results =
          sorted(new Aggregate(this, rows, q.groupBy(), projection, outer), q, ranking, sortBound);
    } else if (!q.orderBy().isEmpty() && !(q.select() instanceof Query.Select.Value)) {
      results =
          new Project(
              sorted(past(new SortKeys(rows, projection), q, after), q, ranking, sortBound),
              projection);
    } else {
      results =
          sorted(
              past(new Project(new SortKeys(rows, projection), projection), q, after),
              q,
              ranking,
              sortBound);
    }
    if (q.distinct()) {
      results = new Distinct(results, budget);
    }
    if (skip > 0 || take != Long.MAX_VALUE) {
      results = new Slice<>(results, skip, take);
    }
    return results;
  }

  /** The rows of FROM and its JOINs, tested against {@code filter} as they bind (or null). */
  private Operator<Row> sources(
      Query q, Map<String, JsonNode> outer, Iterable<Input> inputs, Eval filter) {
    Operator<Row> rows = new Scan(this, q.from().get(0), outer, inputs, filter);
    for (int s = 1; s < q.from().size(); s++) {
      rows = new Join(this, rows, q.from().get(s));
    }
    return rows;
  }

  private Operator<Row> from(Query q, Map<String, JsonNode> outer, Iterable<Input> inputs) {
    Operator<Row> rows;
    boolean filtered = false;
    if (q.from().isEmpty()) {
      Row only = new Row(outer, 0);
      boolean[] taken = new boolean[1];
      rows =
          () -> {
            if (taken[0]) {
              return null;
            }
            taken[0] = true;
            return only;
          };
    } else {
      // one source with no enclosing bindings tests the filter as it binds (see Scan)
      filtered = q.where() != null && q.from().size() == 1 && outer.isEmpty();
      rows = sources(q, outer, inputs, filtered ? expressions.of(q.where()) : null);
    }
    if (q.where() != null && !filtered) {
      rows = new Filter(rows, expressions.of(q.where()));
    }
    return rows;
  }

  /** The items after the position {@code after} in ORDER BY's order (all when it is null). */
  private <T> Operator<Keyed<T>> past(Operator<Keyed<T>> items, Query q, After after) {
    return after == null ? items : new Past<>(items, order(q.orderBy(), parameters), after);
  }

  /** The items in ORDER BY's order: by rank when {@code ranking} (ORDER BY RANK) is not null. */
  private <T> Operator<Keyed<T>> sorted(
      Operator<Keyed<T>> items, Query q, Ranking ranking, long bound) {
    if (q.orderBy().isEmpty()) {
      return items;
    }
    if (ranking != null) {
      return new RankSort<>(items, ranking, budget);
    }
    Comparator<Keyed<?>> order = order(q.orderBy(), parameters);
    if (bound == IN_ORDER) {
      return new InOrder<>(items, order);
    }
    return bound < 0
        ? new Sort<>(items, order, budget)
        : new TopK<>(items, order, (int) Math.min(Integer.MAX_VALUE, bound), budget);
  }

  /** The sort bound that says the inputs arrive sorted: nothing to hold, nothing to sort. */
  private static final long IN_ORDER = -2;

  /**
   * How many sorted items the query can use, or -1 when all: OFFSET plus the fewest of LIMIT, TOP
   * and the rows the caller wants. DISTINCT drops items after the sort, so it is never bounded.
   */
  private static long sortBound(Query q, long skip, long take, long rowsWanted) {
    if (q.distinct() || (take == Long.MAX_VALUE && rowsWanted < 0)) {
      return -1;
    }
    long wanted = rowsWanted < 0 ? take : Math.min(take, rowsWanted);
    return wanted > Long.MAX_VALUE - skip ? -1 : skip + wanted;
  }

  /**
   * The ORDER BY comparison: the keys in order, each in its direction, then the input order,
   * ascending when the first key is ascending and descending otherwise, then the index among the
   * input's rows, ascending (the order a JOIN makes them in).
   */
  static Comparator<Keyed<?>> order(List<Query.OrderItem> items, Map<String, JsonNode> parameters) {
    boolean[] ascending = new boolean[items.size()];
    boolean[] similarity = new boolean[items.size()];
    for (int i = 0; i < ascending.length; i++) {
      ascending[i] = ascending(items.get(i), parameters);
      similarity[i] = items.get(i).kind() == Query.Kind.SIMILARITY;
    }
    boolean firstAscending = ascending[0];
    return (a, b) -> {
      for (int i = 0; i < ascending.length; i++) {
        JsonNode x = a.keys().get(i);
        JsonNode y = b.keys().get(i);
        if (similarity[i] && (x == null) != (y == null)) {
          return x == null ? 1 : -1; // no score: the least similar, whichever the direction
        }
        int c = Values.ORDER.compare(x, y);
        if (c != 0) {
          return ascending[i] ? c : -c;
        }
      }
      int c = Long.compare(a.order(), b.order());
      if (c != 0) {
        return firstAscending ? c : -c;
      }
      return Integer.compare(a.index(), b.index());
    };
  }

  /**
   * The direction an ORDER BY item sorts in: as written, or for {@code ORDER BY
   * VectorDistance(...)} without a direction, most similar first (ascending for euclidean distance
   * only).
   */
  public static boolean ascending(Query.OrderItem item, Map<String, JsonNode> parameters) {
    if (item.kind() == Query.Kind.SIMILARITY && item.expression() instanceof Expr.Call c) {
      return VectorSearch.smallerIsCloser(c, parameters);
    }
    return item.ascending();
  }

  /** The ranking of an ORDER BY RANK query, or null for any other. */
  private Ranking ranking(Query q) {
    if (q.orderBy().size() != 1 || !q.orderBy().get(0).rank()) {
      return null;
    }
    return Ranking.of(q.orderBy().get(0).expression(), parameters);
  }

  /**
   * The rows a query's OFFSET skips and the most its TOP and LIMIT return (the smaller; {@code
   * Long.MAX_VALUE} when neither is given), read from its literals and {@code parameters}.
   *
   * @throws QueryException SC2064 when one is not a non-negative whole number
   */
  public static RowBounds rowBounds(Query q, Map<String, JsonNode> parameters) {
    if (q.offset() == null && q.top() == null) {
      return RowBounds.NONE;
    }
    long skip = q.offset() == null ? 0 : count(q.offset(), parameters, "OFFSET");
    long take = q.offset() == null ? Long.MAX_VALUE : count(q.limit(), parameters, "LIMIT");
    if (q.top() != null) {
      take = Math.min(take, count(q.top(), parameters, "TOP"));
    }
    return new RowBounds(skip, take);
  }

  /**
   * What a query's OFFSET skips and its TOP or LIMIT keeps of its rows.
   *
   * @param skip the rows skipped first
   * @param take the most rows returned after them; {@code Long.MAX_VALUE} for no bound
   */
  public record RowBounds(long skip, long take) {
    /** Neither OFFSET nor TOP nor LIMIT: every row. */
    public static final RowBounds NONE = new RowBounds(0, Long.MAX_VALUE);

    /** True when the query has neither OFFSET nor TOP nor LIMIT. */
    public boolean none() {
      return skip == 0 && take == Long.MAX_VALUE;
    }

    /**
     * True when {@code counted} rows (skipped and returned) leave none for TOP or LIMIT to take; a
     * LIMIT 0 or TOP 0 has none from the start, so the rows OFFSET would skip need not be read.
     */
    public boolean reached(long counted) {
      return take == 0 || counted - skip >= take;
    }
  }

  private static long count(Expr e, Map<String, JsonNode> parameters, String clause) {
    // past 2^31 - 1 rows no container holds, so the bound works in ints
    return Math.min(
        Integer.MAX_VALUE, io.cosmolab.query.internal.RowCounts.of(e, parameters, clause));
  }

  /** True if the query's projection calls an aggregate (outside subqueries). */
  public static boolean hasAggregate(Query q) {
    if (q.select() instanceof Query.Select.Value v) {
      return containsAggregate(v.expression());
    }
    if (q.select() instanceof Query.Select.Items items) {
      for (Query.Select.Item i : items.items()) {
        if (containsAggregate(i.expression())) {
          return true;
        }
      }
    }
    return false;
  }

  /** True if the expression calls an aggregate outside any subquery. */
  public static boolean containsAggregate(Expr e) {
    List<Expr.Call> calls = new ArrayList<>();
    aggregateCalls(e, calls);
    return !calls.isEmpty();
  }

  /**
   * Adds to {@code out} the aggregate calls of {@code e} outside any subquery, in the order
   * written; not those inside an aggregate's argument, which is evaluated on each row.
   */
  static void aggregateCalls(Expr e, List<Expr.Call> out) {
    if (e instanceof Expr.Call c) {
      if (SystemFunctions.AGGREGATES.contains(c.name())) {
        out.add(c);
        return;
      }
      c.arguments().forEach(a -> aggregateCalls(a, out));
    } else if (e instanceof Expr.UdfCall u) {
      u.arguments().forEach(a -> aggregateCalls(a, out));
    } else if (e instanceof Expr.Member m) {
      aggregateCalls(m.target(), out);
    } else if (e instanceof Expr.Index i) {
      aggregateCalls(i.target(), out);
      aggregateCalls(i.index(), out);
    } else if (e instanceof Expr.Unary u) {
      aggregateCalls(u.operand(), out);
    } else if (e instanceof Expr.Binary b) {
      aggregateCalls(b.left(), out);
      aggregateCalls(b.right(), out);
    } else if (e instanceof Expr.Conditional c) {
      aggregateCalls(c.condition(), out);
      aggregateCalls(c.then(), out);
      aggregateCalls(c.otherwise(), out);
    } else if (e instanceof Expr.ArrayLiteral a) {
      a.items().forEach(x -> aggregateCalls(x, out));
    } else if (e instanceof Expr.ObjectLiteral o) {
      o.properties().forEach(p -> aggregateCalls(p.value(), out));
    } else if (e instanceof Expr.In in) {
      aggregateCalls(in.value(), out);
      in.items().forEach(x -> aggregateCalls(x, out));
    } else if (e instanceof Expr.Between b) {
      aggregateCalls(b.value(), out);
      aggregateCalls(b.low(), out);
      aggregateCalls(b.high(), out);
    } else if (e instanceof Expr.Like l) {
      aggregateCalls(l.value(), out);
      aggregateCalls(l.pattern(), out);
      if (l.escape() != null) {
        aggregateCalls(l.escape(), out);
      }
    }
  }

  /**
   * The property name of each projected item: its alias, else the name derived from it ({@link
   * #derivedName}), else {@code $1}, {@code $2}, ... in order among the unnamed. Plans use the same
   * names, so client-side merges and server-side results agree.
   */
  public static List<String> projectionNames(List<Query.Select.Item> items) {
    List<String> out = new ArrayList<>(items.size());
    int unnamed = 0;
    for (Query.Select.Item item : items) {
      String name = item.alias() != null ? item.alias() : derivedName(item.expression());
      if (name == null) {
        unnamed++;
        name = "$" + unnamed;
      }
      out.add(name);
    }
    return out;
  }

  /** The property name of an unaliased projection: c.name → name, c["x"] → x, c → c. */
  public static String derivedName(Expr e) {
    if (e instanceof Expr.Member m) {
      return m.property();
    }
    if (e instanceof Expr.Index i
        && i.index() instanceof Expr.Literal l
        && l.value() != null
        && l.value().isTextual()) {
      return l.value().textValue();
    }
    if (e instanceof Expr.Identifier id) {
      return id.name();
    }
    return null;
  }

  /** Text whose character reads count against the work limit (bounds regex backtracking). */
  private static final class BudgetedText implements CharSequence {
    private final String text;
    private final Budget budget;

    BudgetedText(String text, Budget budget) {
      this.text = text;
      this.budget = budget;
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public char charAt(int index) {
      budget.spend(1);
      return text.charAt(index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return new BudgetedText(text.substring(start, end), budget);
    }

    @Override
    public String toString() {
      return text;
    }
  }
}
