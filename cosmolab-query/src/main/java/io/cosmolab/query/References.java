package io.cosmolab.query;

import io.cosmolab.query.ast.Expr;
import io.cosmolab.query.ast.Query;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Walks and rewrites expressions for {@link ComputedProperties}: which properties of an alias an
 * expression reads, which functions it calls, and the same tree with some nodes replaced.
 */
final class References {

  /**
   * The functions whose value is not their arguments': they read the clock (each query has its own
   * instant) or draw a number.
   */
  static final Set<String> CLOCK_AND_RANDOM =
      Set.of(
          "GETCURRENTDATETIME",
          "GETCURRENTTIMESTAMP",
          "GETCURRENTTICKS",
          "GETCURRENTDATETIMESTATIC",
          "GETCURRENTTIMESTAMPSTATIC",
          "GETCURRENTTICKSSTATIC",
          "NOW", // [A] they read the clock too
          "AGO",
          "RAND");

  private References() {}

  /** The property {@code alias.name} (or {@code alias["name"]}) that {@code e} is, or null. */
  private static String propertyOf(Expr e, String alias) {
    if (e instanceof Expr.Member m
        && m.target() instanceof Expr.Identifier id
        && id.name().equals(alias)) {
      return m.property();
    }
    if (e instanceof Expr.Index ix
        && ix.target() instanceof Expr.Identifier id
        && id.name().equals(alias)
        && ix.index() instanceof Expr.Literal l
        && l.value() != null
        && l.value().isTextual()) {
      return l.value().textValue();
    }
    return null;
  }

  /** Whether {@code e} reads {@code alias.name}. */
  static boolean reads(Expr e, String alias, String name) {
    boolean[] found = {false};
    map(
        e,
        x -> {
          if (name.equals(propertyOf(x, alias))) {
            found[0] = true;
          }
          return null;
        });
    return found[0];
  }

  /** The first refused construct in {@code e}, described; null when there is none. */
  static String refusedIn(Expr e, Set<String> functions) {
    String[] found = {null};
    map(
        e,
        x -> {
          if (found[0] == null) {
            if (x instanceof Expr.Call c && functions.contains(c.name())) {
              found[0] = c.name();
            } else if (x instanceof Expr.UdfCall u) {
              found[0] = "the user-defined function udf." + u.name();
            } else if (x instanceof Expr.ScalarSubquery
                || x instanceof Expr.Exists
                || x instanceof Expr.ArraySubquery) {
              found[0] = "a subquery";
            }
          }
          return null;
        });
    return found[0];
  }

  /** {@code e} with the identifier {@code from} renamed {@code to}. */
  static Expr renamed(Expr e, String from, String to) {
    if (from.equals(to)) {
      return e;
    }
    return map(
        e,
        x ->
            x instanceof Expr.Identifier id && id.name().equals(from)
                ? new Expr.Identifier(to)
                : null);
  }

  /** {@code q} with each {@code alias.name} of {@code replacements} replaced. */
  static Query substitute(Query q, String alias, Map<String, Expr> replacements) {
    UnaryOperator<Expr> swap =
        x -> {
          String p = propertyOf(x, alias);
          return p == null ? null : replacements.get(p);
        };
    return query(q, alias, swap);
  }

  /**
   * {@code q} with every expression node {@code swap} answers replaced, in every clause and every
   * subquery (no alias is special).
   */
  static Query rewriteAll(Query q, UnaryOperator<Expr> swap) {
    return query(q, "\u0000", swap); // a name no query binds, so every subquery is walked
  }

  private static Query query(Query q, String alias, UnaryOperator<Expr> swap) {
    Query.Select select = q.select();
    if (select instanceof Query.Select.Value v) {
      select = new Query.Select.Value(expr(v.expression(), alias, swap));
    } else if (select instanceof Query.Select.Items items) {
      List<Query.Select.Item> out = new ArrayList<>();
      for (Query.Select.Item i : items.items()) {
        // A rewrite changes what an item computes, never what it is called: c.cp_lower stays
        // "cp_lower" after the computed property's expression takes its place.
        Expr rewritten = expr(i.expression(), alias, swap);
        String name =
            i.alias() != null || rewritten.equals(i.expression())
                ? i.alias()
                : io.cosmolab.query.exec.Executor.derivedName(i.expression());
        out.add(new Query.Select.Item(rewritten, name));
      }
      select = new Query.Select.Items(out);
    }
    List<Query.FromSource> from = new ArrayList<>();
    for (Query.FromSource f : q.from()) {
      if (f.collection() instanceof Query.Collection.Subquery sq && !binds(sq.query(), alias)) {
        Query.Collection c = new Query.Collection.Subquery(query(sq.query(), alias, swap));
        from.add(
            f instanceof Query.FromSource.Iteration
                ? new Query.FromSource.Iteration(f.alias(), c)
                : new Query.FromSource.Aliased(f.alias(), c));
      } else {
        from.add(f);
      }
    }
    List<Expr> groupBy = new ArrayList<>();
    for (Expr g : q.groupBy()) {
      groupBy.add(expr(g, alias, swap));
    }
    List<Query.OrderItem> orderBy = new ArrayList<>();
    for (Query.OrderItem o : q.orderBy()) {
      orderBy.add(new Query.OrderItem(expr(o.expression(), alias, swap), o.ascending(), o.kind()));
    }
    return new Query(
        q.distinct(),
        q.top(),
        select,
        from,
        q.where() == null ? null : expr(q.where(), alias, swap),
        groupBy,
        orderBy,
        q.offset(),
        q.limit());
  }

  /** Whether a subquery's FROM rebinds {@code alias} (then its references are its own). */
  private static boolean binds(Query q, String alias) {
    for (Query.FromSource f : q.from()) {
      String bound =
          f.alias() != null
              ? f.alias()
              : f.collection() instanceof Query.Collection.Path p ? p.name() : null;
      if (alias.equals(bound)) {
        return true;
      }
    }
    return false;
  }

  /** An expression rewritten; subqueries inside it are rewritten unless they rebind alias. */
  private static Expr expr(Expr e, String alias, UnaryOperator<Expr> swap) {
    return map(
        e,
        x -> {
          Expr s = swap.apply(x);
          if (s != null) {
            return s;
          }
          if (x instanceof Expr.ScalarSubquery sq && !binds(sq.query(), alias)) {
            return new Expr.ScalarSubquery(query(sq.query(), alias, swap));
          }
          if (x instanceof Expr.Exists sq && !binds(sq.query(), alias)) {
            return new Expr.Exists(query(sq.query(), alias, swap));
          }
          if (x instanceof Expr.ArraySubquery sq && !binds(sq.query(), alias)) {
            return new Expr.ArraySubquery(query(sq.query(), alias, swap));
          }
          return null;
        });
  }

  /**
   * Rewrites top-down: where {@code f} answers a node, that node replaces {@code e} (and is not
   * walked further); where it answers null, the children are walked. Subqueries are leaves here.
   */
  static Expr map(Expr e, UnaryOperator<Expr> f) {
    Expr r = f.apply(e);
    if (r != null) {
      return r;
    }
    if (e instanceof Expr.Member x) {
      return new Expr.Member(map(x.target(), f), x.property());
    }
    if (e instanceof Expr.Index x) {
      return new Expr.Index(map(x.target(), f), map(x.index(), f));
    }
    if (e instanceof Expr.Unary x) {
      return new Expr.Unary(x.op(), map(x.operand(), f));
    }
    if (e instanceof Expr.Binary x) {
      return new Expr.Binary(x.op(), map(x.left(), f), map(x.right(), f));
    }
    if (e instanceof Expr.In x) {
      return new Expr.In(map(x.value(), f), all(x.items(), f), x.negated());
    }
    if (e instanceof Expr.Between x) {
      return new Expr.Between(map(x.value(), f), map(x.low(), f), map(x.high(), f), x.negated());
    }
    if (e instanceof Expr.Like x) {
      return new Expr.Like(
          map(x.value(), f),
          map(x.pattern(), f),
          x.escape() == null ? null : map(x.escape(), f),
          x.negated());
    }
    if (e instanceof Expr.Conditional x) {
      return new Expr.Conditional(map(x.condition(), f), map(x.then(), f), map(x.otherwise(), f));
    }
    if (e instanceof Expr.Call x) {
      return new Expr.Call(x.name(), all(x.arguments(), f));
    }
    if (e instanceof Expr.UdfCall x) {
      return new Expr.UdfCall(x.name(), all(x.arguments(), f));
    }
    if (e instanceof Expr.ArrayLiteral x) {
      return new Expr.ArrayLiteral(all(x.items(), f));
    }
    if (e instanceof Expr.ObjectLiteral x) {
      List<Expr.Property> ps = new ArrayList<>();
      for (Expr.Property p : x.properties()) {
        ps.add(new Expr.Property(p.name(), map(p.value(), f)));
      }
      return new Expr.ObjectLiteral(ps);
    }
    return e; // literals, parameters, identifiers, subqueries
  }

  private static List<Expr> all(List<Expr> items, UnaryOperator<Expr> f) {
    List<Expr> out = new ArrayList<>(items.size());
    for (Expr e : items) {
      out.add(map(e, f));
    }
    return out;
  }
}
