package io.cosmolab.query;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.ast.Expr;
import io.cosmolab.query.ast.Query;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The service's query advisor: which of its published rules a query's text meets, for {@code
 * x-ms-cosmos-query-advice}. The rule ids and what each names come from the rules file the Java SDK
 * ships ({@code query/queryadvisor/query_advice_rules.json} in azure-cosmos 4.81, where the SDK
 * also keeps the messages it shows); the service sends only the ids.
 *
 * <ul>
 *   <li>QA1000: {@code ARRAY_CONTAINS} with its third argument true (a partial match).
 *   <li>QA1001: {@code DISTINCT} in a query with a {@code JOIN}.
 *   <li>QA1002: {@code CONTAINS}.
 *   <li>QA1003: {@code STARTSWITH} or {@code StringEquals} ignoring case.
 *   <li>QA1004: {@code ENDSWITH} ignoring case.
 *   <li>QA1005: a {@code GROUP BY} item that is an expression, not a property, and gives the same
 *       value for the same document (no clock, no {@code RAND}).
 *   <li>QA1006: {@code UPPER} or {@code LOWER} compared: an operand of a comparison, {@code IN} or
 *       {@code BETWEEN}, or the string searched by {@code STARTSWITH}, {@code ENDSWITH}, {@code
 *       CONTAINS} or {@code StringEquals}.
 *   <li>QA1007, QA1008, QA1009: {@code GetCurrentDateTime}, {@code GetCurrentTicks}, {@code
 *       GetCurrentTimestamp} in a {@code WHERE} clause.
 * </ul>
 *
 * Every level of the query counts (subqueries too). Where the rules file is silent on the exact
 * extent (CONTAINS in a projection, UPPER under a string function) this reads the description as
 * written [A]; a case-insensitive flag counts when it is the literal {@code true} or a parameter
 * bound to it.
 */
public final class QueryAdvice {
  private final Map<String, JsonNode> parameters;
  private final Set<String> rules = new TreeSet<>();

  private QueryAdvice(Map<String, JsonNode> parameters) {
    this.parameters = parameters;
  }

  /** The ids of the rules the query meets, in id order, each once; empty when it meets none. */
  public static List<String> of(CompiledQuery query) {
    QueryAdvice advice = new QueryAdvice(query.parameterValues());
    advice.query(query.ast());
    return List.copyOf(advice.rules);
  }

  private void query(Query q) {
    if (q.distinct() && q.from().size() > 1) {
      rules.add("QA1001");
    }
    if (q.select() instanceof Query.Select.Value v) {
      expr(v.expression(), false);
    } else if (q.select() instanceof Query.Select.Items items) {
      items.items().forEach(i -> expr(i.expression(), false));
    }
    for (Query.FromSource source : q.from()) {
      if (source.collection() instanceof Query.Collection.Subquery s) {
        query(s.query());
      }
    }
    if (q.where() != null) {
      expr(q.where(), true);
    }
    for (Expr g : q.groupBy()) {
      if (!isPath(g) && deterministic(g)) {
        rules.add("QA1005");
      }
      expr(g, false);
    }
    q.orderBy().forEach(o -> expr(o.expression(), false));
  }

  private void expr(Expr root, boolean inWhere) {
    References.map(
        root,
        e -> {
          if (e instanceof Expr.Call c) {
            call(c, inWhere);
          } else if (e instanceof Expr.Binary b && comparison(b.op())) {
            upperOrLowerCompared(b.left(), b.right());
          } else if (e instanceof Expr.In in) {
            upperOrLowerCompared(in.value());
          } else if (e instanceof Expr.Between between) {
            upperOrLowerCompared(between.value());
          } else if (e instanceof Expr.ScalarSubquery s) {
            query(s.query());
          } else if (e instanceof Expr.Exists s) {
            query(s.query());
          } else if (e instanceof Expr.ArraySubquery s) {
            query(s.query());
          }
          return null; // walk on into the children
        });
  }

  private void call(Expr.Call c, boolean inWhere) {
    List<Expr> args = c.arguments();
    switch (c.name()) {
      case "ARRAY_CONTAINS" -> {
        if (args.size() == 3 && isTrue(args.get(2))) {
          rules.add("QA1000");
        }
      }
      case "CONTAINS" -> {
        rules.add("QA1002");
        searchesUpperOrLower(args);
      }
      case "STARTSWITH", "STRINGEQUALS" -> {
        if (args.size() == 3 && isTrue(args.get(2))) {
          rules.add("QA1003");
        }
        searchesUpperOrLower(args);
      }
      case "ENDSWITH" -> {
        if (args.size() == 3 && isTrue(args.get(2))) {
          rules.add("QA1004");
        }
        searchesUpperOrLower(args);
      }
      case "GETCURRENTDATETIME" -> {
        if (inWhere) {
          rules.add("QA1007");
        }
      }
      case "GETCURRENTTICKS" -> {
        if (inWhere) {
          rules.add("QA1008");
        }
      }
      case "GETCURRENTTIMESTAMP" -> {
        if (inWhere) {
          rules.add("QA1009");
        }
      }
      default -> {}
    }
  }

  private void searchesUpperOrLower(List<Expr> args) {
    if (!args.isEmpty()) {
      upperOrLowerCompared(args.get(0));
    }
  }

  private void upperOrLowerCompared(Expr... operands) {
    for (Expr e : operands) {
      if (e instanceof Expr.Call c && (c.name().equals("UPPER") || c.name().equals("LOWER"))) {
        rules.add("QA1006");
      }
    }
  }

  private static boolean comparison(Expr.BinaryOp op) {
    return switch (op) {
      case EQUAL, NOT_EQUAL, LESS, LESS_OR_EQUAL, GREATER, GREATER_OR_EQUAL -> true;
      default -> false;
    };
  }

  private boolean isTrue(Expr e) {
    JsonNode v =
        e instanceof Expr.Literal l
            ? l.value()
            : e instanceof Expr.Parameter p ? parameters.get(p.name()) : null;
    return v != null && v.isBoolean() && v.booleanValue();
  }

  /** A property of a FROM alias: {@code c.a}, {@code c["a"]}, {@code c.a[0]}. */
  private static boolean isPath(Expr e) {
    if (e instanceof Expr.Member m) {
      return isPath(m.target());
    }
    if (e instanceof Expr.Index x) {
      return x.index() instanceof Expr.Literal && isPath(x.target());
    }
    return e instanceof Expr.Identifier;
  }

  private static boolean deterministic(Expr e) {
    boolean[] reads = {false};
    References.map(
        e,
        x -> {
          if (x instanceof Expr.Call c && References.CLOCK_AND_RANDOM.contains(c.name())) {
            reads[0] = true;
          }
          return null;
        });
    return !reads[0];
  }
}
