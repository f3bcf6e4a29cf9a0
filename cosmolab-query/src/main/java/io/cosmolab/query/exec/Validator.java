package io.cosmolab.query.exec;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.QueryException;
import io.cosmolab.query.ast.Expr;
import io.cosmolab.query.ast.Query;
import io.cosmolab.query.functions.Ranking;
import io.cosmolab.query.functions.SystemFunctions;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Checks a parsed query before it runs, as the service's compiler does: every identifier names a
 * FROM alias in scope, every function exists with a valid number of arguments, every parameter has
 * a value, aggregates appear only where they can, and {@code SELECT *} has exactly one input set.
 */
final class Validator {
  private final Map<String, JsonNode> parameters;

  Validator(Map<String, JsonNode> parameters) {
    this.parameters = parameters;
  }

  void check(Query q) {
    Set<String> none = Set.of();
    query(q, none, false);
  }

  /** A subquery: ORDER BY, TOP and OFFSET LIMIT are the outermost query's alone. */
  private void query(Query q, Set<String> outer) {
    query(q, outer, true);
  }

  private void query(Query q, Set<String> outer, boolean subquery) {
    if (subquery) {
      // the service's compiler refuses them at any depth below the top (the .NET SDK's LINQ
      // baselines: Take, Skip or OrderBy before GroupBy or inside a Select; EF Core's tests)
      if (!q.orderBy().isEmpty()) {
        throw new QueryException("SC2202", "'ORDER BY' is not supported in subqueries.");
      }
      if (q.top() != null) {
        throw new QueryException("SC2203", "'TOP' is not supported in subqueries.");
      }
      if (q.offset() != null || q.limit() != null) {
        throw new QueryException("SC2204", "'OFFSET LIMIT' clause is not supported in subqueries.");
      }
    }
    Set<String> scope = new HashSet<>(outer);
    for (int i = 0; i < q.from().size(); i++) {
      Query.FromSource s = q.from().get(i);
      if (s.collection() instanceof Query.Collection.Path p) {
        boolean known = scope.contains(p.name());
        if (i > 0 && !known) {
          throw unresolved(p.name());
        }
        for (Object seg : p.segments()) {
          if (seg instanceof Expr e) {
            expr(e, scope, false);
          }
        }
      } else {
        query(((Query.Collection.Subquery) s.collection()).query(), scope);
      }
      scope.add(s.alias());
    }
    if (q.select() instanceof Query.Select.Star) {
      if (q.from().isEmpty()) {
        throw new QueryException(
            "SC2001", "'SELECT *' is not valid if the FROM clause is omitted.");
      }
      if (q.from().size() > 1) {
        throw new QueryException("SC2001", "'SELECT *' is only valid with a single input set.");
      }
    } else if (q.select() instanceof Query.Select.Value v) {
      expr(v.expression(), scope, true);
    } else {
      for (Query.Select.Item item : ((Query.Select.Items) q.select()).items()) {
        expr(item.expression(), scope, true);
      }
    }
    if (q.where() != null) {
      expr(q.where(), scope, false);
    }
    for (Expr g : q.groupBy()) {
      expr(g, scope, false);
    }
    for (Query.OrderItem o : q.orderBy()) {
      if (o.rank()) {
        rank(q, o.expression(), scope);
      } else {
        expr(o.expression(), scope, true);
      }
    }
  }

  private void expr(Expr e, Set<String> scope, boolean agg) {
    if (e instanceof Expr.Parameter) {
      // a parameter the request does not bind is undefined, not an error, as on the service:
      // Spring Data Cosmos leaves an empty Optional's parameter out, and its emulator test
      // (AnnotatedQueryIT.testAnnotatedQueryWithOptionalParamEmpty) expects NOT IS_DEFINED(@city)
      // to be true; a TOP, OFFSET or LIMIT bound to nothing fails as a count (RowCounts)
      return;
    } else if (e instanceof Expr.Identifier i) {
      if (!scope.contains(i.name())) {
        throw unresolved(i.name());
      }
    } else if (e instanceof Expr.Member m) {
      expr(m.target(), scope, agg);
    } else if (e instanceof Expr.Index i) {
      expr(i.target(), scope, agg);
      expr(i.index(), scope, agg);
    } else if (e instanceof Expr.Unary u) {
      expr(u.operand(), scope, agg);
    } else if (e instanceof Expr.Binary b) {
      expr(b.left(), scope, agg);
      expr(b.right(), scope, agg);
    } else if (e instanceof Expr.In in) {
      expr(in.value(), scope, agg);
      in.items().forEach(x -> expr(x, scope, agg));
    } else if (e instanceof Expr.Between b) {
      expr(b.value(), scope, agg);
      expr(b.low(), scope, agg);
      expr(b.high(), scope, agg);
    } else if (e instanceof Expr.Like l) {
      expr(l.value(), scope, agg);
      expr(l.pattern(), scope, agg);
      if (l.escape() != null) {
        expr(l.escape(), scope, agg);
      }
    } else if (e instanceof Expr.Conditional c) {
      expr(c.condition(), scope, agg);
      expr(c.then(), scope, agg);
      expr(c.otherwise(), scope, agg);
    } else if (e instanceof Expr.Call c) {
      call(c, scope, agg);
    } else if (e instanceof Expr.UdfCall u) {
      // which functions exist is known only where the query runs (the container's scripts)
      u.arguments().forEach(x -> expr(x, scope, agg));
    } else if (e instanceof Expr.ArrayLiteral a) {
      a.items().forEach(x -> expr(x, scope, agg));
    } else if (e instanceof Expr.ObjectLiteral o) {
      o.properties().forEach(p -> expr(p.value(), scope, agg));
    } else if (e instanceof Expr.ScalarSubquery s) {
      query(s.query(), scope);
    } else if (e instanceof Expr.Exists x) {
      query(x.query(), scope);
    } else if (e instanceof Expr.ArraySubquery a) {
      query(a.query(), scope);
    }
  }

  /**
   * ORDER BY RANK: one scoring function, or RRF of them ({@link Ranking}), and no grouping. The
   * scoring functions' own arguments are checked as any expression.
   */
  private void rank(Query q, Expr e, Set<String> scope) {
    if (!q.groupBy().isEmpty() || Executor.hasAggregate(q)) {
      throw new QueryException(
          "", "ORDER BY RANK cannot be used with GROUP BY or aggregate functions.");
    }
    Ranking ranking = Ranking.of(e, parameters);
    for (Ranking.Component c : ranking.components()) {
      arity(c.call());
      c.call().arguments().forEach(x -> expr(x, scope, false));
    }
  }

  private void call(Expr.Call c, Set<String> scope, boolean aggregatesAllowed) {
    if (c.name().equals("FULLTEXTSCORE") || c.name().equals("RRF")) {
      throw new QueryException(
          "",
          "The "
              + (c.name().equals("RRF") ? "RRF" : "FullTextScore")
              + " function is only allowed in an ORDER BY RANK clause.");
    }
    if (SystemFunctions.AGGREGATES.contains(c.name())) {
      if (!aggregatesAllowed) {
        throw new QueryException(
            "SC2101",
            "Aggregate function " + c.name() + " is not allowed here (not in WHERE or GROUP BY).");
      }
      if (c.arguments().size() != 1) {
        throw arity(c.name(), "1", c.arguments().size());
      }
      expr(c.arguments().get(0), scope, false); // no aggregate inside an aggregate
      return;
    }
    arity(c);
    c.arguments().forEach(x -> expr(x, scope, aggregatesAllowed));
  }

  private static void arity(Expr.Call c) {
    SystemFunctions.Function f = SystemFunctions.lookup(c.name());
    if (f == null) {
      throw new QueryException(
          "SC2005", "'" + c.name() + "' is not a recognized built-in function name.");
    }
    int n = c.arguments().size();
    if (n < f.minArgs() || n > f.maxArgs()) {
      String expected =
          f.minArgs() == f.maxArgs()
              ? Integer.toString(f.minArgs())
              : f.maxArgs() == Integer.MAX_VALUE
                  ? "at least " + f.minArgs()
                  : f.minArgs() + " to " + f.maxArgs();
      throw arity(c.name(), expected, n);
    }
  }

  private static QueryException arity(String name, String expected, int got) {
    return new QueryException(
        "SC2050",
        String.format(
            Locale.ROOT,
            "The %s function requires %s argument(s), but %d were given.",
            name,
            expected,
            got));
  }

  private static QueryException unresolved(String name) {
    return new QueryException("SC2001", "Identifier '" + name + "' could not be resolved.");
  }
}
