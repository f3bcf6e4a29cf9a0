package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.query.QueryException;
import io.cosmolab.query.ast.Expr;
import io.cosmolab.query.ast.Query;
import io.cosmolab.query.functions.SystemFunctions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Runs a validated query over input documents. One instance per execution; not thread-safe.
 *
 * <p>The clauses run in the service's logical order: FROM (and JOINs) → WHERE → GROUP BY → SELECT →
 * DISTINCT → ORDER BY → OFFSET/LIMIT → TOP. ORDER BY keys are evaluated on the input rows (before
 * projection); rows with equal keys keep the input order, ascending when the first key is ascending
 * and descending otherwise (the document RID order the SDKs expect, {@code gateway-protocol.md}
 * §7.6).
 *
 * <p>Three-valued logic: AND is false if either side is false, true if both are true, otherwise
 * undefined; OR symmetrically; NOT of a non-boolean is undefined. WHERE keeps a row only if its
 * filter is exactly true.
 *
 * <p>Work bound: every row produced by FROM/JOIN, every function call and every character a regular
 * expression reads costs one unit against {@link #workLimit}; a query that passes it fails with a
 * clear error instead of running on (a huge cross product, a pathological regex).
 */
public final class Executor {
  /** A document with its position in the input order (the tie-breaker of ORDER BY). */
  public record Input(JsonNode document, long order) {}

  /** The default work limit per query. */
  public static final long DEFAULT_WORK_LIMIT = 100_000_000L;

  private final Map<String, JsonNode> parameters;
  private final Instant now;
  private final long workLimit;
  private long work;
  private final SystemFunctions.Context functionContext;

  public Executor(Map<String, JsonNode> parameters, Instant now, long workLimit) {
    this.parameters = parameters;
    this.now = now;
    this.workLimit = workLimit;
    this.functionContext =
        new SystemFunctions.Context() {
          @Override
          public Instant now() {
            return Executor.this.now;
          }

          @Override
          public CharSequence budgeted(String text) {
            return new BudgetedText(text);
          }

          @Override
          public void spend(long units) {
            Executor.this.spend(units);
          }

          @Override
          public double random() {
            return random.nextDouble();
          }
        };
    // RAND's numbers: a sequence per query, seeded from the injected clock, so a test on a
    // manual clock sees the same numbers on every run
    this.random = new java.util.SplittableRandom(now.toEpochMilli());
  }

  private final java.util.SplittableRandom random;

  /** The work units spent so far. */
  public long work() {
    return work;
  }

  private void spend(long units) {
    work += units;
    if (work > workLimit) {
      throw new QueryException(
          "SC3031",
          String.format(
              Locale.ROOT,
              "the query exceeded its work limit of %d steps (a very large JOIN cross product or"
                  + " a pathological regular expression); narrow the query",
              workLimit));
    }
  }

  /** A row: the values of the FROM aliases, and the input order it came from. */
  private record Row(Map<String, JsonNode> bindings, long order) {}

  /** A projected result (or, before projection, the row's bindings) with its sort keys. */
  private record Result(Object value, List<JsonNode> keys, long order) {}

  /** Runs a top-level query over the inputs. */
  public List<JsonNode> run(Query q, Iterable<Input> inputs) {
    return run(q, Map.of(), inputs);
  }

  /** One result row and the {@link Input#order()} of the input it came from. */
  public record Output(JsonNode value, long order) {}

  /**
   * Runs the query and says which input each row came from: what a resumable scan needs to continue
   * after the last row it returned.
   */
  public List<Output> runTraced(Query q, Iterable<Input> inputs) {
    return results(q, Map.of(), inputs);
  }

  private List<JsonNode> run(Query q, Map<String, JsonNode> outer, Iterable<Input> inputs) {
    List<Output> out = results(q, outer, inputs);
    List<JsonNode> values = new ArrayList<>(out.size());
    for (Output o : out) {
      values.add(o.value());
    }
    return values;
  }

  private List<Output> results(Query q, Map<String, JsonNode> outer, Iterable<Input> inputs) {
    List<Row> rows = from(q, outer, inputs); // applies WHERE as rows are produced
    if (q.where() != null && q.from().isEmpty()) {
      List<Row> kept = new ArrayList<>(rows.size());
      for (Row r : rows) {
        if (Values.isTrue(eval(q.where(), r.bindings(), null))) {
          kept.add(r);
        }
      }
      rows = kept;
    }
    List<Result> results = new ArrayList<>();
    if (!q.groupBy().isEmpty() || hasAggregate(q)) {
      for (List<Row> group : groups(q, rows)) {
        Row first = group.isEmpty() ? new Row(outer, 0) : group.get(0);
        results.add(
            new Result(
                project(q, first.bindings(), group),
                keys(q, first.bindings(), group),
                first.order()));
      }
    } else if (!q.orderBy().isEmpty() && !q.distinct() && topBound(q) >= 0) {
      // ORDER BY with TOP or OFFSET/LIMIT: keep the best k rows by key, project only those
      int k = topBound(q);
      Comparator<Result> order = order(q);
      java.util.PriorityQueue<Result> best = new java.util.PriorityQueue<>(order.reversed());
      for (Row r : rows) {
        Result candidate = new Result(r.bindings(), keys(q, r.bindings(), null), r.order());
        if (best.size() < k) {
          best.add(candidate);
        } else if (k > 0 && order.compare(candidate, best.peek()) < 0) {
          best.poll();
          best.add(candidate);
        }
      }
      List<Result> kept = new ArrayList<>(best);
      kept.sort(order);
      for (Result r : kept) {
        @SuppressWarnings("unchecked")
        Map<String, JsonNode> bindings = (Map<String, JsonNode>) r.value();
        results.add(new Result(project(q, bindings, null), r.keys(), r.order()));
      }
    } else {
      for (Row r : rows) {
        results.add(
            new Result(project(q, r.bindings(), null), keys(q, r.bindings(), null), r.order()));
      }
    }
    if (!q.orderBy().isEmpty()) {
      results.sort(order(q));
    }
    List<Output> values = new ArrayList<>(results.size());
    Set<Values.Key> seen = q.distinct() ? new HashSet<>() : null;
    for (Result r : results) {
      JsonNode v = (JsonNode) r.value();
      if (v == null) {
        continue; // SELECT VALUE of undefined: no row
      }
      if (seen != null && !seen.add(new Values.Key(v))) {
        continue;
      }
      values.add(new Output(v, r.order()));
    }
    int from = 0;
    int to = values.size();
    if (q.offset() != null) {
      from = Math.min(to, count(q.offset(), "OFFSET"));
      to = (int) Math.min(to, (long) from + count(q.limit(), "LIMIT"));
    }
    if (q.top() != null) {
      to = Math.min(to, from + count(q.top(), "TOP"));
    }
    return new ArrayList<>(values.subList(from, to));
  }

  /**
   * How many sorted rows the query can return at most (TOP, or OFFSET + LIMIT), or -1 when
   * unbounded. A SELECT VALUE may be undefined and dropped after sorting, so it is never bounded.
   */
  private int topBound(Query q) {
    if (q.select() instanceof Query.Select.Value) {
      return -1;
    }
    long bound = -1;
    if (q.top() != null) {
      bound = count(q.top(), "TOP");
    }
    if (q.offset() != null) {
      long ol = (long) count(q.offset(), "OFFSET") + count(q.limit(), "LIMIT");
      bound = bound < 0 ? ol : Math.min(bound, ol);
    }
    return (int) Math.min(Integer.MAX_VALUE, bound);
  }

  private int count(Expr e, String clause) {
    JsonNode v = eval(e, Map.of(), null);
    if (v == null
        || !v.isNumber()
        || v.doubleValue() < 0
        || v.doubleValue() != Math.rint(v.doubleValue())) {
      throw new QueryException(
          "SC2064",
          clause + " needs a non-negative whole number, got " + (v == null ? "undefined" : v));
    }
    return (int) Math.min(Integer.MAX_VALUE, v.longValue());
  }

  private static boolean hasAggregate(Query q) {
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
    if (e instanceof Expr.Call c) {
      if (SystemFunctions.AGGREGATES.contains(c.name())) {
        return true;
      }
      return c.arguments().stream().anyMatch(Executor::containsAggregate);
    }
    if (e instanceof Expr.Member m) {
      return containsAggregate(m.target());
    }
    if (e instanceof Expr.Index i) {
      return containsAggregate(i.target()) || containsAggregate(i.index());
    }
    if (e instanceof Expr.Unary u) {
      return containsAggregate(u.operand());
    }
    if (e instanceof Expr.Binary b) {
      return containsAggregate(b.left()) || containsAggregate(b.right());
    }
    if (e instanceof Expr.Conditional c) {
      return containsAggregate(c.condition())
          || containsAggregate(c.then())
          || containsAggregate(c.otherwise());
    }
    if (e instanceof Expr.ArrayLiteral a) {
      return a.items().stream().anyMatch(Executor::containsAggregate);
    }
    if (e instanceof Expr.ObjectLiteral o) {
      return o.properties().stream().anyMatch(p -> containsAggregate(p.value()));
    }
    if (e instanceof Expr.In in) {
      return containsAggregate(in.value())
          || in.items().stream().anyMatch(Executor::containsAggregate);
    }
    return false;
  }

  private List<List<Row>> groups(Query q, List<Row> rows) {
    if (q.groupBy().isEmpty()) {
      return List.of(rows); // one group, even when empty (COUNT is then 0)
    }
    Map<List<Values.Key>, List<Row>> groups = new LinkedHashMap<>();
    for (Row r : rows) {
      List<Values.Key> key = new ArrayList<>(q.groupBy().size());
      for (Expr g : q.groupBy()) {
        key.add(new Values.Key(eval(g, r.bindings(), null)));
      }
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
    }
    return new ArrayList<>(groups.values());
  }

  private JsonNode project(Query q, Map<String, JsonNode> env, List<Row> group) {
    Query.Select select = q.select();
    if (select instanceof Query.Select.Star) {
      return env.get(q.from().get(0).alias());
    }
    if (select instanceof Query.Select.Value v) {
      return compiled(v.expression()).eval(env, group);
    }
    ObjectNode out = Values.NODES.objectNode();
    Query.Select.Items items = (Query.Select.Items) select;
    List<String> names = names(items);
    for (int i = 0; i < names.size(); i++) {
      JsonNode v = compiled(items.items().get(i).expression()).eval(env, group);
      if (v != null) {
        out.set(names.get(i), v);
      }
    }
    return out;
  }

  private final java.util.IdentityHashMap<Query.Select.Items, List<String>> names =
      new java.util.IdentityHashMap<>();

  /** The property names of a projection, worked out once per query. */
  private List<String> names(Query.Select.Items items) {
    return names.computeIfAbsent(items, i -> projectionNames(i.items()));
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

  private List<JsonNode> keys(Query q, Map<String, JsonNode> env, List<Row> group) {
    List<JsonNode> keys = new ArrayList<>(q.orderBy().size());
    for (Query.OrderItem o : q.orderBy()) {
      keys.add(compiled(o.expression()).eval(env, group)); // may hold null (undefined)
    }
    return keys;
  }

  private static Comparator<Result> order(Query q) {
    List<Query.OrderItem> items = q.orderBy();
    boolean firstAscending = items.get(0).ascending();
    return (a, b) -> {
      for (int i = 0; i < items.size(); i++) {
        int c = Values.ORDER.compare(a.keys().get(i), b.keys().get(i));
        if (c != 0) {
          return items.get(i).ascending() ? c : -c;
        }
      }
      int c = Long.compare(a.order(), b.order());
      return firstAscending ? c : -c;
    };
  }

  // ------------------------------------------------------------------ FROM and JOIN

  private List<Row> from(Query q, Map<String, JsonNode> outer, Iterable<Input> inputs) {
    List<Row> rows = new ArrayList<>();
    if (q.from().isEmpty()) {
      rows.add(new Row(outer, 0));
      return rows;
    }
    // WHERE is applied by the last source as it binds, so rows it drops are never kept
    int last = q.from().size() - 1;
    Expr filter = last == 0 ? q.where() : null;
    Query.FromSource first = q.from().get(0);
    // Rows over the container's own documents are bounded by its data; rows from arrays (an IN
    // source, a JOIN) multiply, and those count against MAX_ROWS_HELD.
    boolean wasExpanding = expanding;
    expanding = first instanceof Query.FromSource.Iteration;
    try {
      return joined(q, outer, inputs, first, rows, filter, last);
    } finally {
      expanding = wasExpanding;
    }
  }

  /** True while FROM builds rows that multiply (see {@link #MAX_ROWS_HELD}). */
  private boolean expanding;

  private List<Row> joined(
      Query q,
      Map<String, JsonNode> outer,
      Iterable<Input> inputs,
      Query.FromSource first,
      List<Row> rows,
      Expr filter,
      int last) {
    if (first.collection() instanceof Query.Collection.Path p && outer.containsKey(p.name())) {
      bind(first, outer, outer.get(p.name()), 0, rows, filter);
    } else if (first.collection() instanceof Query.Collection.Subquery sq) {
      long i = 0;
      for (JsonNode v : run(sq.query(), outer, inputs)) {
        bindRow(first, outer, v, i++, rows, filter);
      }
    } else {
      for (Input in : inputs) {
        bind(first, outer, in.document(), in.order(), rows, filter);
      }
    }
    for (int s = 1; s < q.from().size(); s++) {
      Query.FromSource source = q.from().get(s);
      Expr joinFilter = s == last ? q.where() : null;
      expanding = true;
      if (joinFilter == null) {
        refuseAnOversizedProduct(source, rows);
      }
      List<Row> joined = new ArrayList<>();
      for (Row r : rows) {
        if (source.collection() instanceof Query.Collection.Path p) {
          bind(source, r.bindings(), r.bindings().get(p.name()), r.order(), joined, joinFilter);
        } else {
          for (JsonNode v :
              run(
                  ((Query.Collection.Subquery) source.collection()).query(),
                  r.bindings(),
                  List.of())) {
            bindRow(source, r.bindings(), v, r.order(), joined, joinFilter);
          }
        }
      }
      rows = joined;
    }
    return rows;
  }

  /** Binds a source whose path starts at {@code start} (a document or an alias's value). */
  private void bind(
      Query.FromSource source,
      Map<String, JsonNode> env,
      JsonNode start,
      long order,
      List<Row> out,
      Expr filter) {
    JsonNode v = start;
    for (Object seg : ((Query.Collection.Path) source.collection()).segments()) {
      if (v == null) {
        return;
      }
      Object key = seg instanceof Expr e ? eval(e, env, null) : seg;
      v = access(v, key instanceof JsonNode n ? toKey(n) : key);
    }
    bindValue(source, env, v, order, out, filter);
  }

  private static Object toKey(JsonNode n) {
    if (n == null) {
      return null;
    }
    return n.isTextual() ? n.textValue() : n.isNumber() ? (Object) n.intValue() : null;
  }

  private void bindValue(
      Query.FromSource source,
      Map<String, JsonNode> env,
      JsonNode v,
      long order,
      List<Row> out,
      Expr filter) {
    if (v == null) {
      return;
    }
    if (source instanceof Query.FromSource.Iteration) {
      if (!v.isArray()) {
        return;
      }
      for (JsonNode element : v) {
        spend(1);
        keep(new Row(with(env, source.alias(), element), order), out, filter);
      }
    } else if (env.isEmpty() && filter != null) {
      // the common scan: test the filter on a reused one-entry binding, keep only what passes
      spend(1);
      probe.set(source.alias(), v);
      if (Values.isTrue(compiled(filter).eval(probe, null))) {
        hold(out, new Row(Map.of(source.alias(), v), order));
      }
    } else {
      spend(1);
      keep(new Row(with(env, source.alias(), v), order), out, filter);
    }
  }

  /** The reusable binding a filter is tested on before a row is kept. */
  private final SingleBinding probe = new SingleBinding();

  /**
   * A mutable one-entry map: the bindings of a single-source row while its filter is tested.
   * Evaluation only reads it (subqueries copy what they need), so one instance serves every row.
   */
  private static final class SingleBinding extends java.util.AbstractMap<String, JsonNode> {
    private String key;
    private JsonNode value;

    void set(String k, JsonNode v) {
      key = k;
      value = v;
    }

    @Override
    public JsonNode get(Object k) {
      return key.equals(k) ? value : null;
    }

    @Override
    public boolean containsKey(Object k) {
      return key.equals(k);
    }

    @Override
    public boolean isEmpty() {
      return false;
    }

    @Override
    public int size() {
      return 1;
    }

    @Override
    public java.util.Set<Map.Entry<String, JsonNode>> entrySet() {
      return java.util.Set.of(Map.entry(key, value));
    }
  }

  /**
   * Binds one row of a subquery: for {@code x IN (SELECT ...)} and {@code (SELECT ...) x} alike,
   * each result row is one value of the alias (iterating a subquery iterates its rows).
   */
  private void bindRow(
      Query.FromSource source,
      Map<String, JsonNode> env,
      JsonNode v,
      long order,
      List<Row> out,
      Expr filter) {
    if (v != null) {
      spend(1);
      keep(new Row(with(env, source.alias(), v), order), out, filter);
    }
  }

  /**
   * Fails before building a JOIN stage that would hold more than {@link #MAX_ROWS_HELD} rows: with
   * no filter to drop any, an IN over a path yields one row per element, which can be counted
   * without building them.
   */
  private void refuseAnOversizedProduct(Query.FromSource source, List<Row> rows) {
    if (!(source instanceof Query.FromSource.Iteration)
        || !(source.collection() instanceof Query.Collection.Path p)
        || !p.segments().stream().allMatch(String.class::isInstance)) {
      return;
    }
    long product = 0;
    for (Row r : rows) {
      JsonNode v = r.bindings().get(p.name());
      for (Object seg : p.segments()) {
        v = v == null ? null : access(v, seg);
      }
      product += v != null && v.isArray() ? v.size() : 0;
      if (product > MAX_ROWS_HELD) {
        throw tooManyRows();
      }
    }
  }

  private void keep(Row row, List<Row> out, Expr filter) {
    if (filter == null || Values.isTrue(compiled(filter).eval(row.bindings(), null))) {
      hold(out, row);
    }
  }

  /** Adds a row the FROM stage keeps, within {@link #MAX_ROWS_HELD} while rows multiply. */
  private void hold(List<Row> out, Row row) {
    if (expanding && out.size() >= MAX_ROWS_HELD) {
      throw tooManyRows();
    }
    out.add(row);
  }

  /**
   * The rows one FROM stage may hold at once when they come from arrays (an IN source, a JOIN);
   * rows over the container's documents are bounded by its data and are not counted. Rows are built
   * before anything downstream counts them, so a cross product such as four JOINs over a
   * 100-element array (10^8 rows) would fill the heap long before the work limit fires; this stops
   * it after a bounded allocation (a row is a few dozen bytes plus its bindings). [A] The service
   * would page such a query with continuations under its 5 s per-page budget; cosmolab's executor
   * is not streaming yet, so it refuses instead.
   */
  public static final int MAX_ROWS_HELD = 2_000_000;

  private static QueryException tooManyRows() {
    return new QueryException(
        "SC3031",
        String.format(
            Locale.ROOT,
            "the query's FROM and JOINs produce more than %d rows at once (a JOIN cross product"
                + " multiplies the array sizes); filter the JOINed arrays or narrow the query",
            MAX_ROWS_HELD));
  }

  // ------------------------------------------------------------------ compiled expressions

  /** An expression compiled once per execution: a closure per node instead of a dispatch. */
  @FunctionalInterface
  private interface Compiled {
    JsonNode eval(Map<String, JsonNode> env, List<Row> group);
  }

  private final java.util.IdentityHashMap<Expr, Compiled> compiled =
      new java.util.IdentityHashMap<>();

  private Compiled compiled(Expr e) {
    Compiled c = compiled.get(e);
    if (c == null) {
      c = compile(e);
      compiled.put(e, c);
    }
    return c;
  }

  /**
   * Compiles the node kinds a filter or projection spends its time in; everything else (LIKE,
   * subqueries, aggregates, literals of arrays and objects) falls back to {@link #eval}, which has
   * the same semantics.
   */
  private Compiled compile(Expr e) {
    if (e instanceof Expr.Literal l) {
      JsonNode v = l.value();
      return (env, g) -> v;
    }
    if (e instanceof Expr.Parameter p) {
      JsonNode v = parameters.get(p.name());
      return (env, g) -> v;
    }
    if (e instanceof Expr.Identifier id) {
      String name = id.name();
      return (env, g) -> env.get(name);
    }
    if (e instanceof Expr.Member m) {
      Compiled target = compile(m.target());
      String property = m.property();
      return (env, g) -> {
        JsonNode t = target.eval(env, g);
        return t != null && t.isObject() ? t.get(property) : null;
      };
    }
    if (e instanceof Expr.Unary u) {
      Compiled operand = compile(u.operand());
      return (env, g) -> unary(u, operand.eval(env, g));
    }
    if (e instanceof Expr.Binary b) {
      return compileBinary(b);
    }
    if (e instanceof Expr.Call c
        && !SystemFunctions.AGGREGATES.contains(c.name())
        && !containsAggregate(c)) {
      SystemFunctions.Impl impl = SystemFunctions.lookup(c.name()).impl();
      List<Compiled> args = new ArrayList<>(c.arguments().size());
      for (Expr a : c.arguments()) {
        args.add(compile(a));
      }
      return (env, g) -> {
        spend(1);
        List<JsonNode> values = new ArrayList<>(args.size());
        for (Compiled a : args) {
          values.add(a.eval(env, g));
        }
        return invoke(impl, values);
      };
    }
    return (env, g) -> eval(e, env, g);
  }

  /**
   * Calls a system function. A date or number its arguments lead past what Java can represent (year
   * 10^18, a tick count past a long) is undefined, as the service answers arguments it cannot work
   * with, never a failure of the whole query. [A] The service's exact answers at these edges are
   * not documented.
   */
  private JsonNode invoke(SystemFunctions.Impl impl, List<JsonNode> args) {
    try {
      return impl.apply(args, functionContext);
    } catch (ArithmeticException | java.time.DateTimeException e) {
      return null;
    }
  }

  private Compiled compileBinary(Expr.Binary b) {
    if (containsAggregate(b)) {
      return (env, g) -> eval(b, env, g);
    }
    Compiled left = compile(b.left());
    Compiled right = compile(b.right());
    Expr.BinaryOp op = b.op();
    switch (op) {
      case AND, OR -> {
        boolean and = op == Expr.BinaryOp.AND;
        return (env, g) -> {
          JsonNode l = left.eval(env, g);
          if (l != null && l.isBoolean() && l.booleanValue() != and) {
            return l;
          }
          JsonNode r = right.eval(env, g);
          if (r != null && r.isBoolean() && r.booleanValue() != and) {
            return r;
          }
          return l != null && l.isBoolean() && r != null && r.isBoolean() ? Values.bool(and) : null;
        };
      }
      case COALESCE -> {
        return (env, g) -> {
          JsonNode l = left.eval(env, g);
          return l != null ? l : right.eval(env, g);
        };
      }
      case EQUAL -> {
        return (env, g) -> Values.equal(left.eval(env, g), right.eval(env, g));
      }
      case NOT_EQUAL -> {
        return (env, g) -> {
          JsonNode eq = Values.equal(left.eval(env, g), right.eval(env, g));
          return eq == null ? null : Values.bool(!eq.booleanValue());
        };
      }
      case LESS, LESS_OR_EQUAL, GREATER, GREATER_OR_EQUAL -> {
        return (env, g) -> {
          Integer c = Values.compareScalars(left.eval(env, g), right.eval(env, g));
          if (c == null) {
            return null;
          }
          return Values.bool(
              switch (op) {
                case LESS -> c < 0;
                case LESS_OR_EQUAL -> c <= 0;
                case GREATER -> c > 0;
                default -> c >= 0;
              });
        };
      }
      case CONCAT -> {
        return (env, g) -> {
          JsonNode l = left.eval(env, g);
          JsonNode r = right.eval(env, g);
          return l != null && l.isTextual() && r != null && r.isTextual()
              ? Values.text(l.textValue() + r.textValue())
              : null;
        };
      }
      default -> {
        return (env, g) -> {
          JsonNode l = left.eval(env, g);
          JsonNode r = right.eval(env, g);
          if (l == null || r == null || !l.isNumber() || !r.isNumber()) {
            return null;
          }
          return arithmetic(op, l.doubleValue(), r.doubleValue());
        };
      }
    }
  }

  private static Map<String, JsonNode> with(Map<String, JsonNode> env, String alias, JsonNode v) {
    if (env.isEmpty()) {
      return Map.of(alias, v); // the common single-source row: no hash map per row
    }
    Map<String, JsonNode> m = new HashMap<>(env.size() * 2 + 2);
    m.putAll(env);
    m.put(alias, v);
    return m;
  }

  private static JsonNode access(JsonNode v, Object key) {
    if (key instanceof String s) {
      return v.isObject() ? v.get(s) : null;
    }
    if (key instanceof Integer i) {
      return v.isArray() && i >= 0 && i < v.size() ? v.get(i) : null;
    }
    return null;
  }

  // ------------------------------------------------------------------ expressions

  /**
   * Evaluates an expression in an environment; {@code group} is the current group's rows when
   * aggregates are being computed, else null.
   */
  JsonNode eval(Expr e, Map<String, JsonNode> env, List<Row> group) {
    if (e instanceof Expr.Literal l) {
      return l.value();
    }
    if (e instanceof Expr.Identifier id) {
      return env.get(id.name());
    }
    if (e instanceof Expr.Member m) {
      JsonNode t = eval(m.target(), env, group);
      return t != null && t.isObject() ? t.get(m.property()) : null;
    }
    if (e instanceof Expr.Index i) {
      JsonNode t = eval(i.target(), env, group);
      JsonNode k = eval(i.index(), env, group);
      if (t == null || k == null) {
        return null;
      }
      if (k.isTextual()) {
        return t.isObject() ? t.get(k.textValue()) : null;
      }
      if (k.isNumber() && k.doubleValue() == Math.rint(k.doubleValue())) {
        return access(t, k.intValue());
      }
      return null;
    }
    if (e instanceof Expr.Parameter p) {
      return parameters.get(p.name());
    }
    if (e instanceof Expr.Unary u) {
      return unary(u, eval(u.operand(), env, group));
    }
    if (e instanceof Expr.Binary b) {
      return binary(b, env, group);
    }
    if (e instanceof Expr.In in) {
      JsonNode v = eval(in.value(), env, group);
      if (v == null) {
        return null;
      }
      for (Expr item : in.items()) {
        if (Values.isTrue(Values.equal(v, eval(item, env, group)))) {
          return Values.bool(!in.negated());
        }
      }
      return Values.bool(in.negated());
    }
    if (e instanceof Expr.Between b) {
      JsonNode v = eval(b.value(), env, group);
      Integer lo = Values.compareScalars(v, eval(b.low(), env, group));
      Integer hi = Values.compareScalars(v, eval(b.high(), env, group));
      if (lo == null || hi == null) {
        return null;
      }
      return Values.bool((lo >= 0 && hi <= 0) != b.negated());
    }
    if (e instanceof Expr.Like l) {
      return like(l, env, group);
    }
    if (e instanceof Expr.Conditional c) {
      JsonNode cond = eval(c.condition(), env, group);
      // assumption: a non-boolean condition takes the else branch, as a false one does
      return Values.isTrue(cond) ? eval(c.then(), env, group) : eval(c.otherwise(), env, group);
    }
    if (e instanceof Expr.Call c) {
      return call(c, env, group);
    }
    if (e instanceof Expr.ArrayLiteral a) {
      ArrayNode out = Values.NODES.arrayNode();
      for (Expr item : a.items()) {
        JsonNode v = eval(item, env, group);
        // assumption: an undefined element is left out of an array literal, as the service
        // drops undefined values when it serializes results
        if (v != null) {
          out.add(v);
        }
      }
      return out;
    }
    if (e instanceof Expr.ObjectLiteral o) {
      ObjectNode out = Values.NODES.objectNode();
      for (Expr.Property p : o.properties()) {
        JsonNode v = eval(p.value(), env, group);
        if (v != null) {
          out.set(p.name(), v);
        }
      }
      return out;
    }
    if (e instanceof Expr.ScalarSubquery s) {
      List<JsonNode> r = run(s.query(), env, List.of());
      return r.isEmpty() ? null : r.get(0);
    }
    if (e instanceof Expr.Exists x) {
      return Values.bool(!run(x.query(), env, List.of()).isEmpty());
    }
    if (e instanceof Expr.ArraySubquery a) {
      ArrayNode out = Values.NODES.arrayNode();
      run(a.query(), env, List.of()).forEach(out::add);
      return out;
    }
    throw new QueryException("SC2005", "user-defined functions are not supported by cosmolab yet");
  }

  private static JsonNode unary(Expr.Unary u, JsonNode v) {
    switch (u.op()) {
      case NOT -> {
        return v != null && v.isBoolean() ? Values.bool(!v.booleanValue()) : null;
      }
      case NEGATE -> {
        return v != null && v.isNumber() ? Values.number(-v.doubleValue()) : null;
      }
      case PLUS -> {
        return v != null && v.isNumber() ? v : null;
      }
      default -> {
        return v != null && v.isNumber() ? Values.number(~toInt32(v.doubleValue())) : null;
      }
    }
  }

  private JsonNode binary(Expr.Binary b, Map<String, JsonNode> env, List<Row> group) {
    if (b.op() == Expr.BinaryOp.AND || b.op() == Expr.BinaryOp.OR) {
      boolean and = b.op() == Expr.BinaryOp.AND;
      JsonNode l = eval(b.left(), env, group);
      if (l != null && l.isBoolean() && l.booleanValue() != and) {
        return l; // false AND x = false, true OR x = true
      }
      JsonNode r = eval(b.right(), env, group);
      if (r != null && r.isBoolean() && r.booleanValue() != and) {
        return r;
      }
      boolean bothBool = l != null && l.isBoolean() && r != null && r.isBoolean();
      return bothBool ? Values.bool(and) : null;
    }
    if (b.op() == Expr.BinaryOp.COALESCE) {
      JsonNode l = eval(b.left(), env, group);
      return l != null ? l : eval(b.right(), env, group);
    }
    JsonNode l = eval(b.left(), env, group);
    JsonNode r = eval(b.right(), env, group);
    switch (b.op()) {
      case EQUAL -> {
        return Values.equal(l, r);
      }
      case NOT_EQUAL -> {
        JsonNode eq = Values.equal(l, r);
        return eq == null ? null : Values.bool(!eq.booleanValue());
      }
      case LESS, LESS_OR_EQUAL, GREATER, GREATER_OR_EQUAL -> {
        Integer c = Values.compareScalars(l, r);
        if (c == null) {
          return null;
        }
        return Values.bool(
            switch (b.op()) {
              case LESS -> c < 0;
              case LESS_OR_EQUAL -> c <= 0;
              case GREATER -> c > 0;
              default -> c >= 0;
            });
      }
      case CONCAT -> {
        return l != null && l.isTextual() && r != null && r.isTextual()
            ? Values.text(l.textValue() + r.textValue())
            : null;
      }
      default -> {
        if (l == null || r == null || !l.isNumber() || !r.isNumber()) {
          return null;
        }
        return arithmetic(b.op(), l.doubleValue(), r.doubleValue());
      }
    }
  }

  private static JsonNode arithmetic(Expr.BinaryOp op, double x, double y) {
    return switch (op) {
      case ADD -> Values.number(x + y);
      case SUBTRACT -> Values.number(x - y);
      case MULTIPLY -> Values.number(x * y);
      case DIVIDE -> Values.number(x / y);
      case MODULO -> Values.number(x % y);
      case BIT_AND -> Values.number(toInt32(x) & toInt32(y));
      case BIT_OR -> Values.number(toInt32(x) | toInt32(y));
      case BIT_XOR -> Values.number(toInt32(x) ^ toInt32(y));
      case SHIFT_LEFT -> Values.number(toInt32(x) << (toInt32(y) & 31));
      case SHIFT_RIGHT -> Values.number(toInt32(x) >> (toInt32(y) & 31));
      case SHIFT_RIGHT_ZERO_FILL ->
          Values.number((double) ((toInt32(x) & 0xFFFFFFFFL) >>> (toInt32(y) & 31)));
      default -> null;
    };
  }

  /** ECMAScript ToInt32, which the service's bitwise operators follow. */
  private static int toInt32(double d) {
    if (!Double.isFinite(d)) {
      return 0;
    }
    return (int) (long) d;
  }

  private JsonNode like(Expr.Like l, Map<String, JsonNode> env, List<Row> group) {
    JsonNode v = eval(l.value(), env, group);
    JsonNode p = eval(l.pattern(), env, group);
    JsonNode esc = l.escape() == null ? null : eval(l.escape(), env, group);
    if (v == null || !v.isTextual() || p == null || !p.isTextual()) {
      return null;
    }
    if (l.escape() != null && (esc == null || !esc.isTextual() || esc.textValue().length() != 1)) {
      throw new QueryException("SC2201", "the ESCAPE of LIKE must be a single character");
    }
    Character escape = esc == null ? null : esc.textValue().charAt(0);
    LikePattern pattern = LikePattern.compile(p.textValue(), escape);
    return Values.bool(pattern.matches(v.textValue(), this::spend) != l.negated());
  }

  private JsonNode call(Expr.Call c, Map<String, JsonNode> env, List<Row> group) {
    if (SystemFunctions.AGGREGATES.contains(c.name())) {
      if (group == null) {
        throw new QueryException(
            "SC2101", "Aggregate " + c.name() + " used outside an aggregating SELECT");
      }
      return aggregate(c.name(), c.arguments().get(0), group);
    }
    spend(1);
    List<JsonNode> args = new ArrayList<>(c.arguments().size());
    for (Expr a : c.arguments()) {
      args.add(eval(a, env, group));
    }
    return invoke(SystemFunctions.lookup(c.name()).impl(), args);
  }

  private JsonNode aggregate(String name, Expr argument, List<Row> group) {
    long count = 0;
    double sum = 0;
    boolean nonNumber = false;
    JsonNode best = null;
    for (Row r : group) {
      JsonNode v = eval(argument, r.bindings(), null);
      if (v == null) {
        continue;
      }
      count++;
      if (v.isNumber()) {
        sum += v.doubleValue();
      } else {
        nonNumber = true;
      }
      if (best == null) {
        best = v;
      } else {
        int cmp = Values.ORDER.compare(v, best);
        if ((name.equals("MIN") && cmp < 0) || (name.equals("MAX") && cmp > 0)) {
          best = v;
        }
      }
    }
    return switch (name) {
      case "COUNT" -> Values.number(count);
      case "SUM" -> count == 0 || nonNumber ? null : Values.number(sum);
      case "AVG" -> count == 0 || nonNumber ? null : Values.number(sum / count);
      default -> best; // MIN, MAX: undefined over no values
    };
  }

  /** Text whose character reads count against the work limit (bounds regex backtracking). */
  private final class BudgetedText implements CharSequence {
    private final String text;

    BudgetedText(String text) {
      this.text = text;
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public char charAt(int index) {
      spend(1);
      return text.charAt(index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return new BudgetedText(text.substring(start, end));
    }

    @Override
    public String toString() {
      return text;
    }
  }
}
