package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.query.QueryException;
import io.cosmolab.query.SearchPolicy;
import io.cosmolab.query.ast.Expr;
import io.cosmolab.query.functions.FullText;
import io.cosmolab.query.functions.SystemFunctions;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compiles expressions into trees of closures, once per node per execution: the one evaluator of
 * the query language. Every operator evaluates through it (filters, projections, sort and group
 * keys, FROM paths, aggregates, subqueries).
 *
 * <p>Three-valued logic: AND is false if either side is false, true if both are true, otherwise
 * undefined; OR symmetrically; NOT of a non-boolean is undefined. Function calls and the characters
 * LIKE and regular expressions read count against the {@link Budget}.
 */
final class ExpressionCompiler {
  private final Executor executor;
  private final Map<String, JsonNode> parameters;
  private final Budget budget;
  private final SystemFunctions.Context functions;
  private final UserFunctions udfs;
  private final SearchPolicy search;
  private final IdentityHashMap<Expr, Eval> compiled = new IdentityHashMap<>();

  ExpressionCompiler(
      Executor executor,
      Map<String, JsonNode> parameters,
      Budget budget,
      SystemFunctions.Context functions,
      UserFunctions udfs,
      SearchPolicy search) {
    this.executor = executor;
    this.search = search;
    this.udfs = udfs;
    this.parameters = parameters;
    this.budget = budget;
    this.functions = functions;
  }

  /** The compiled form of {@code e}, built on first use. */
  Eval of(Expr e) {
    Eval c = compiled.get(e);
    if (c == null) {
      c = compile(e);
      compiled.put(e, c);
    }
    return c;
  }

  private Eval compile(Expr e) {
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
      Eval target = of(m.target());
      String property = m.property();
      return (env, g) -> {
        JsonNode t = target.eval(env, g);
        return t != null && t.isObject() ? t.get(property) : null;
      };
    }
    if (e instanceof Expr.Index i) {
      return index(of(i.target()), of(i.index()));
    }
    if (e instanceof Expr.Unary u) {
      Eval operand = of(u.operand());
      Expr.UnaryOp op = u.op();
      return (env, g) -> unary(op, operand.eval(env, g));
    }
    if (e instanceof Expr.Binary b) {
      return binary(b);
    }
    if (e instanceof Expr.In in) {
      return in(in);
    }
    if (e instanceof Expr.Between b) {
      Eval value = of(b.value());
      Eval low = of(b.low());
      Eval high = of(b.high());
      boolean negated = b.negated();
      return (env, g) -> {
        JsonNode v = value.eval(env, g);
        Integer lo = Values.compareScalars(v, low.eval(env, g));
        Integer hi = Values.compareScalars(v, high.eval(env, g));
        if (lo == null || hi == null) {
          return null;
        }
        return Values.bool((lo >= 0 && hi <= 0) != negated);
      };
    }
    if (e instanceof Expr.Like l) {
      return like(l);
    }
    if (e instanceof Expr.Conditional c) {
      Eval condition = of(c.condition());
      Eval then = of(c.then());
      Eval otherwise = of(c.otherwise());
      // assumption: a non-boolean condition takes the else branch, as a false one does
      return (env, g) ->
          Values.isTrue(condition.eval(env, g)) ? then.eval(env, g) : otherwise.eval(env, g);
    }
    if (e instanceof Expr.Call c) {
      if (c.name().equals("FULLTEXTSCORE")) {
        return fullTextScore(c);
      }
      if (c.name().equals("RRF")) {
        return fusedScores(c);
      }
      return SystemFunctions.AGGREGATES.contains(c.name()) ? aggregate(c) : call(c);
    }
    if (e instanceof Expr.UdfCall u) {
      String name = u.name();
      List<Eval> args = all(u.arguments());
      return (env, g) -> {
        budget.spend(1);
        List<JsonNode> values = new ArrayList<>(args.size());
        for (Eval a : args) {
          values.add(a.eval(env, g));
        }
        budget.spend(Budget.reading(values)); // each call hands its arguments over as JSON text
        JsonNode result = udfs.call(name, values);
        budget.spend(Budget.producing(result));
        return result;
      };
    }
    if (e instanceof Expr.ArrayLiteral a) {
      List<Eval> items = all(a.items());
      return (env, g) -> {
        ArrayNode out = Values.NODES.arrayNode();
        for (Eval item : items) {
          JsonNode v = item.eval(env, g);
          // assumption: an undefined element is left out of an array literal, as the service
          // drops undefined values when it serializes results
          if (v != null) {
            out.add(v);
          }
        }
        return out;
      };
    }
    if (e instanceof Expr.ObjectLiteral o) {
      List<String> names = new ArrayList<>(o.properties().size());
      List<Eval> values = new ArrayList<>(o.properties().size());
      for (Expr.Property p : o.properties()) {
        names.add(p.name());
        values.add(of(p.value()));
      }
      return (env, g) -> {
        ObjectNode out = Values.NODES.objectNode();
        for (int i = 0; i < names.size(); i++) {
          JsonNode v = values.get(i).eval(env, g);
          if (v != null) {
            out.set(names.get(i), v);
          }
        }
        return out;
      };
    }
    if (e instanceof Expr.ScalarSubquery s) {
      return (env, g) -> executor.subquery(s.query(), env).next();
    }
    if (e instanceof Expr.Exists x) {
      return (env, g) -> Values.bool(executor.subquery(x.query(), env).next() != null);
    }
    if (e instanceof Expr.ArraySubquery a) {
      return (env, g) -> {
        ArrayNode out = Values.NODES.arrayNode();
        Operator<JsonNode> rows = executor.subquery(a.query(), env);
        for (JsonNode v = rows.next(); v != null; v = rows.next()) {
          out.add(v);
        }
        return out;
      };
    }
    return (env, g) -> {
      throw new QueryException(
          "SC2005", "user-defined functions are not supported by cosmolab yet");
    };
  }

  private List<Eval> all(List<Expr> es) {
    List<Eval> out = new ArrayList<>(es.size());
    for (Expr x : es) {
      out.add(of(x));
    }
    return out;
  }

  private static Eval index(Eval target, Eval index) {
    return (env, g) -> {
      JsonNode t = target.eval(env, g);
      JsonNode k = index.eval(env, g);
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
    };
  }

  /** A property (String) or element (Integer) of {@code v}, or null (undefined). */
  static JsonNode access(JsonNode v, Object key) {
    if (key instanceof String s) {
      return v.isObject() ? v.get(s) : null;
    }
    if (key instanceof Integer i) {
      return v.isArray() && i >= 0 && i < v.size() ? v.get(i) : null;
    }
    return null;
  }

  private Eval in(Expr.In in) {
    Eval value = of(in.value());
    List<Eval> items = all(in.items());
    boolean negated = in.negated();
    return (env, g) -> {
      JsonNode v = value.eval(env, g);
      if (v == null) {
        return null;
      }
      for (Eval item : items) {
        if (Values.isTrue(Values.equal(v, item.eval(env, g)))) {
          return Values.bool(!negated);
        }
      }
      return Values.bool(negated);
    };
  }

  private Eval like(Expr.Like l) {
    Eval value = of(l.value());
    Eval pattern = of(l.pattern());
    Eval escape = l.escape() == null ? null : of(l.escape());
    boolean negated = l.negated();
    LikePattern[] last = new LikePattern[1];
    String[] lastSource = new String[1];
    return (env, g) -> {
      JsonNode v = value.eval(env, g);
      JsonNode p = pattern.eval(env, g);
      JsonNode esc = escape == null ? null : escape.eval(env, g);
      if (v == null || !v.isTextual() || p == null || !p.isTextual()) {
        return null;
      }
      if (escape != null && (esc == null || !esc.isTextual() || esc.textValue().length() != 1)) {
        throw new QueryException("SC2201", "the ESCAPE of LIKE must be a single character");
      }
      // a pattern usually repeats from row to row: compile it once until it changes
      String source = (esc == null ? "" : esc.textValue()) + '\u0000' + p.textValue();
      if (!source.equals(lastSource[0])) {
        last[0] =
            LikePattern.compile(p.textValue(), esc == null ? null : esc.textValue().charAt(0));
        lastSource[0] = source;
      }
      return Values.bool(last[0].matches(v.textValue(), budget::spend) != negated);
    };
  }

  /**
   * FullTextScore in ORDER BY RANK: the BM25 score of the row's text, under the statistics of the
   * documents the query reads ({@link Corpus}).
   */
  private Eval fullTextScore(Expr.Call c) {
    Eval text = of(c.arguments().get(0));
    return (env, g) -> {
      Corpus corpus = executor.corpus();
      if (corpus == null) {
        throw new QueryException(
            "", "The FullTextScore function is only allowed in an ORDER BY RANK clause.");
      }
      budget.spend(1);
      JsonNode v = text.eval(env, g);
      if (v == null || !v.isTextual()) {
        return Values.number(0L);
      }
      return Values.number(
          FullText.bm25(corpus.termsOf(c, v.textValue()), corpus.terms(c), corpus.statistics(c)));
    };
  }

  /** RRF in ORDER BY RANK: the row's score by each of its scoring functions ({@link RankSort}). */
  private Eval fusedScores(Expr.Call c) {
    List<Eval> scores = new ArrayList<>();
    for (Expr a : c.arguments()) {
      if (a instanceof Expr.Call) {
        scores.add(of(a));
      }
    }
    return (env, g) -> {
      ArrayNode out = Values.NODES.arrayNode();
      for (Eval s : scores) {
        JsonNode v = s.eval(env, g);
        out.add(v == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : v);
      }
      return out;
    };
  }

  private Eval call(Expr.Call c) {
    SystemFunctions.Impl impl =
        FullText.FUNCTIONS.contains(c.name())
            ? FullText.impl(c.name(), search.languageOf(SearchPolicy.pathOf(c.arguments().get(0))))
            : SystemFunctions.lookup(c.name()).impl();
    List<Eval> args = all(c.arguments());
    boolean scans = Budget.SCANNING.contains(c.name()) || FullText.FUNCTIONS.contains(c.name());
    return (env, g) -> {
      budget.spend(1);
      List<JsonNode> values = new ArrayList<>(args.size());
      for (Eval a : args) {
        values.add(a.eval(env, g));
      }
      if (scans) {
        budget.spend(Budget.reading(values)); // searches all of a long string or array
      }
      JsonNode result = invoke(impl, values);
      budget.spend(Budget.producing(result));
      return result;
    };
  }

  /**
   * Calls a system function. A date or number its arguments lead past what Java can represent (year
   * 10^18, a tick count past a long) is undefined, as the service answers arguments it cannot work
   * with, never a failure of the whole query. [A] The service's exact answers at these edges are
   * not documented.
   */
  private JsonNode invoke(SystemFunctions.Impl impl, List<JsonNode> args) {
    try {
      return impl.apply(args, functions);
    } catch (ArithmeticException | java.time.DateTimeException e) {
      return null;
    }
  }

  /**
   * An aggregate: its result over the current group, which the {@link Aggregate} operator folded
   * the group's rows into as they arrived.
   */
  private static Eval aggregate(Expr.Call c) {
    return (env, group) -> {
      if (group == null) {
        throw new QueryException(
            "SC2101", "Aggregate " + c.name() + " used outside an aggregating SELECT");
      }
      return group.result(c);
    };
  }

  private static JsonNode unary(Expr.UnaryOp op, JsonNode v) {
    switch (op) {
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

  private Eval binary(Expr.Binary b) {
    Eval left = of(b.left());
    Eval right = of(b.right());
    Expr.BinaryOp op = b.op();
    switch (op) {
      case AND, OR -> {
        boolean and = op == Expr.BinaryOp.AND;
        return (env, g) -> {
          JsonNode l = left.eval(env, g);
          if (l != null && l.isBoolean() && l.booleanValue() != and) {
            return l; // false AND x = false, true OR x = true
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
          if (l == null || !l.isTextual() || r == null || !r.isTextual()) {
            return null;
          }
          JsonNode joined = Values.text(l.textValue() + r.textValue());
          budget.spend(Budget.producing(joined)); // a copy of both sides
          return joined;
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
}
