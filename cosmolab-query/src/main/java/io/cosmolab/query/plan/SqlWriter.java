package io.cosmolab.query.plan;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.ast.Expr;
import io.cosmolab.query.ast.Query;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Writes the AST back as query text: for rewritten per-partition queries and the plan's expression
 * lists, which the SDKs send back to the server (ORDER BY resume filters are built from {@code
 * orderByExpressions}). Binary operators are parenthesized, so the text re-parses to the same tree.
 */
public final class SqlWriter {
  private SqlWriter() {}

  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");

  public static String write(Expr e) {
    StringBuilder b = new StringBuilder();
    expr(e, b);
    return b.toString();
  }

  /** The FROM clause's sources, as text after FROM (with JOINs). */
  public static String from(List<Query.FromSource> sources) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < sources.size(); i++) {
      if (i > 0) {
        b.append(" JOIN ");
      }
      Query.FromSource s = sources.get(i);
      if (s instanceof Query.FromSource.Iteration it) {
        b.append(it.alias()).append(" IN ");
        collection(it.collection(), b);
      } else {
        collection(s.collection(), b);
        if (!(s instanceof Query.FromSource.Aliased a && a.anonymous())) {
          b.append(" AS ").append(s.alias());
        }
      }
    }
    return b.toString();
  }

  /** A whole query. */
  public static String write(Query q) {
    StringBuilder b = new StringBuilder("SELECT ");
    if (q.distinct()) {
      b.append("DISTINCT ");
    }
    if (q.top() != null) {
      b.append("TOP ").append(write(q.top())).append(' ');
    }
    if (q.select() instanceof Query.Select.Star) {
      b.append('*');
    } else if (q.select() instanceof Query.Select.Value v) {
      b.append("VALUE ").append(write(v.expression()));
    } else {
      List<Query.Select.Item> items = ((Query.Select.Items) q.select()).items();
      for (int i = 0; i < items.size(); i++) {
        if (i > 0) {
          b.append(", ");
        }
        b.append(write(items.get(i).expression()));
        if (items.get(i).alias() != null) {
          b.append(" AS ").append(items.get(i).alias());
        }
      }
    }
    if (!q.from().isEmpty()) {
      b.append(" FROM ").append(from(q.from()));
    }
    if (q.where() != null) {
      b.append(" WHERE ").append(write(q.where()));
    }
    if (!q.groupBy().isEmpty()) {
      b.append(" GROUP BY ");
      for (int i = 0; i < q.groupBy().size(); i++) {
        b.append(i > 0 ? ", " : "").append(write(q.groupBy().get(i)));
      }
    }
    if (!q.orderBy().isEmpty()) {
      b.append(" ORDER BY ");
      for (int i = 0; i < q.orderBy().size(); i++) {
        Query.OrderItem o = q.orderBy().get(i);
        b.append(i > 0 ? ", " : "").append(o.rank() ? "RANK " : "").append(write(o.expression()));
        if (o.kind() == Query.Kind.KEY) {
          b.append(o.ascending() ? " ASC" : " DESC");
        }
      }
    }
    if (q.offset() != null) {
      b.append(" OFFSET ").append(write(q.offset())).append(" LIMIT ").append(write(q.limit()));
    }
    return b.toString();
  }

  private static void collection(Query.Collection c, StringBuilder b) {
    if (c instanceof Query.Collection.Subquery s) {
      b.append('(').append(write(s.query())).append(')');
      return;
    }
    Query.Collection.Path p = (Query.Collection.Path) c;
    b.append(p.name());
    for (Object seg : p.segments()) {
      if (seg instanceof String s) {
        property(s, b);
      } else if (seg instanceof Integer i) {
        b.append('[').append(i).append(']');
      } else {
        b.append('[').append(write((Expr) seg)).append(']');
      }
    }
  }

  private static void property(String name, StringBuilder b) {
    if (IDENTIFIER.matcher(name).matches()) {
      b.append('.').append(name);
    } else {
      b.append('[').append(quote(name)).append(']');
    }
  }

  private static String quote(String s) {
    return com.fasterxml.jackson.databind.node.TextNode.valueOf(s).toString();
  }

  private static void expr(Expr e, StringBuilder b) {
    if (e instanceof Expr.Literal l) {
      literal(l.value(), b);
    } else if (e instanceof Expr.Parameter p) {
      b.append(p.name());
    } else if (e instanceof Expr.Identifier i) {
      b.append(i.name());
    } else if (e instanceof Expr.Member m) {
      expr(m.target(), b);
      property(m.property(), b);
    } else if (e instanceof Expr.Index i) {
      expr(i.target(), b);
      b.append('[');
      expr(i.index(), b);
      b.append(']');
    } else if (e instanceof Expr.Unary u) {
      b.append(
          switch (u.op()) {
            case NEGATE -> "-";
            case PLUS -> "+";
            case BITWISE_NOT -> "~";
            case NOT -> "NOT ";
          });
      b.append('(');
      expr(u.operand(), b);
      b.append(')');
    } else if (e instanceof Expr.Binary bin) {
      b.append('(');
      expr(bin.left(), b);
      b.append(' ').append(operator(bin.op())).append(' ');
      expr(bin.right(), b);
      b.append(')');
    } else if (e instanceof Expr.In in) {
      b.append('(');
      expr(in.value(), b);
      b.append(in.negated() ? " NOT IN (" : " IN (");
      list(in.items(), b);
      b.append("))");
    } else if (e instanceof Expr.Between bt) {
      b.append('(');
      expr(bt.value(), b);
      b.append(bt.negated() ? " NOT BETWEEN " : " BETWEEN ");
      expr(bt.low(), b);
      b.append(" AND ");
      expr(bt.high(), b);
      b.append(')');
    } else if (e instanceof Expr.Like l) {
      b.append('(');
      expr(l.value(), b);
      b.append(l.negated() ? " NOT LIKE " : " LIKE ");
      expr(l.pattern(), b);
      if (l.escape() != null) {
        b.append(" ESCAPE ");
        expr(l.escape(), b);
      }
      b.append(')');
    } else if (e instanceof Expr.Conditional c) {
      b.append('(');
      expr(c.condition(), b);
      b.append(" ? ");
      expr(c.then(), b);
      b.append(" : ");
      expr(c.otherwise(), b);
      b.append(')');
    } else if (e instanceof Expr.Call c) {
      b.append(c.name()).append('(');
      list(c.arguments(), b);
      b.append(')');
    } else if (e instanceof Expr.UdfCall u) {
      b.append("udf.").append(u.name()).append('(');
      list(u.arguments(), b);
      b.append(')');
    } else if (e instanceof Expr.ArrayLiteral a) {
      b.append('[');
      list(a.items(), b);
      b.append(']');
    } else if (e instanceof Expr.ObjectLiteral o) {
      b.append('{');
      for (int i = 0; i < o.properties().size(); i++) {
        Expr.Property p = o.properties().get(i);
        b.append(i > 0 ? ", " : "").append(quote(p.name())).append(": ");
        expr(p.value(), b);
      }
      b.append('}');
    } else if (e instanceof Expr.ScalarSubquery s) {
      b.append('(').append(write(s.query())).append(')');
    } else if (e instanceof Expr.Exists x) {
      b.append("EXISTS(").append(write(x.query())).append(')');
    } else if (e instanceof Expr.ArraySubquery a) {
      b.append("ARRAY(").append(write(a.query())).append(')');
    }
  }

  private static void list(List<Expr> items, StringBuilder b) {
    for (int i = 0; i < items.size(); i++) {
      if (i > 0) {
        b.append(", ");
      }
      expr(items.get(i), b);
    }
  }

  private static void literal(JsonNode v, StringBuilder b) {
    if (v == null) {
      b.append("undefined");
    } else if (v.isTextual()) {
      b.append(quote(v.textValue()));
    } else if (v.isContainerNode()) {
      b.append(v.toString());
    } else {
      b.append(v.asText().toLowerCase(Locale.ROOT).equals("null") ? "null" : v.toString());
    }
  }

  private static String operator(Expr.BinaryOp op) {
    return switch (op) {
      case MULTIPLY -> "*";
      case DIVIDE -> "/";
      case MODULO -> "%";
      case ADD -> "+";
      case SUBTRACT -> "-";
      case CONCAT -> "||";
      case SHIFT_LEFT -> "<<";
      case SHIFT_RIGHT -> ">>";
      case SHIFT_RIGHT_ZERO_FILL -> ">>>";
      case BIT_AND -> "&";
      case BIT_XOR -> "^";
      case BIT_OR -> "|";
      case EQUAL -> "=";
      case NOT_EQUAL -> "!=";
      case LESS -> "<";
      case LESS_OR_EQUAL -> "<=";
      case GREATER -> ">";
      case GREATER_OR_EQUAL -> ">=";
      case AND -> "AND";
      case OR -> "OR";
      case COALESCE -> "??";
    };
  }
}
