package io.cosmolab.query.parse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.cosmolab.query.QueryException;
import io.cosmolab.query.ast.Expr;
import io.cosmolab.query.ast.Query;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * Parses query text into a {@link Query}. Syntax errors fail with {@link QueryException} code
 * {@code SC1001}, the offset range of the offending token and a message naming it.
 *
 * <p>Limits from the service's query engine configuration ({@code gateway-protocol.md} §1): text up
 * to {@value #MAX_QUERY_LENGTH} characters, at most {@value #MAX_JOINS} JOINs.
 */
public final class QueryParser {
  /** {@code maxSqlQueryInputLength} of the hosted service. */
  public static final int MAX_QUERY_LENGTH = 524_288;

  /** {@code maxJoinsPerSqlQuery} of the hosted service. */
  public static final int MAX_JOINS = 10;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private QueryParser() {}

  /** Parses a whole query. */
  public static Query parse(String text) {
    if (text == null || text.isBlank()) {
      throw new QueryException("SC1001", "the query text is empty");
    }
    if (text.length() > MAX_QUERY_LENGTH) {
      throw new QueryException(
          "SC2043",
          String.format(
              Locale.ROOT,
              "the query is %d characters long; the limit is %d",
              text.length(),
              MAX_QUERY_LENGTH));
    }
    CosmosSqlLexer lexer = new CosmosSqlLexer(CharStreams.fromString(text));
    ThrowingListener listener = new ThrowingListener(text);
    lexer.removeErrorListeners();
    lexer.addErrorListener(listener);
    CommonTokenStream tokens = new CommonTokenStream(lexer);
    tokens.fill();
    NestingCheck.check(tokens.getTokens());
    CosmosSqlParser parser = new CosmosSqlParser(tokens);
    parser.removeErrorListeners();
    parser.addErrorListener(listener);
    Query query;
    try {
      query = new Builder().query(parser.program().selectQuery());
    } catch (StackOverflowError e) {
      // The limits above are meant to make this unreachable; if a shape slips past them, the
      // user still gets the same answer instead of a dead thread.
      throw tooComplex("its parse recursed past the thread's stack");
    }
    checkJoins(query);
    return query;
  }

  /**
   * The depth of expression tree a query may build. Left-deep chains ({@code 1 + 1 + …}, {@code
   * c.a.a…}, {@code x OR y OR …}) are flat for the parser but deep for everything that walks the
   * tree; on a 1 MB stack the executor overflowed at 1,932 chained ORs and 3,983 chained additions.
   * [A] Ours, as {@link NestingCheck#MAX_NESTING} is.
   */
  public static final int MAX_EXPRESSION_DEPTH = 512;

  static QueryException tooComplex(String why) {
    return new QueryException(
        "SC3021",
        String.format(
            Locale.ROOT,
            "The query is too complex: %s. Nest at most %d levels and keep chains of operators"
                + " under %d terms",
            why,
            NestingCheck.MAX_NESTING,
            MAX_EXPRESSION_DEPTH));
  }

  private static void checkJoins(Query query) {
    if (query.from().size() - 1 > MAX_JOINS) {
      throw new QueryException(
          "SC2044",
          String.format(
              Locale.ROOT,
              "the query has %d JOINs; the limit is %d",
              query.from().size() - 1,
              MAX_JOINS));
    }
  }

  /** Turns the first syntax error into a QueryException with its position. */
  private static final class ThrowingListener extends BaseErrorListener {
    private final String text;

    ThrowingListener(String text) {
      this.text = text;
    }

    @Override
    public void syntaxError(
        Recognizer<?, ?> recognizer,
        Object offendingSymbol,
        int line,
        int charPositionInLine,
        String msg,
        RecognitionException e) {
      int start;
      int end;
      String near;
      if (offendingSymbol instanceof Token t && t.getType() != Token.EOF) {
        start = t.getStartIndex();
        end = t.getStopIndex() + 1;
        near = "'" + t.getText() + "'";
      } else if (offendingSymbol instanceof Token) {
        start = text.length();
        end = text.length();
        near = "the end of the query";
      } else {
        start = offsetOf(line, charPositionInLine);
        end = Math.min(text.length(), start + 1);
        near = start < text.length() ? "'" + text.charAt(start) + "'" : "the end of the query";
      }
      throw new QueryException(
          "SC1001",
          String.format(
              Locale.ROOT,
              "Syntax error, incorrect syntax near %s at line %d, column %d.",
              near,
              line,
              charPositionInLine + 1),
          start,
          end);
    }

    private int offsetOf(int line, int column) {
      int offset = 0;
      for (int l = 1; l < line && offset < text.length(); offset++) {
        if (text.charAt(offset) == '\n') {
          l++;
        }
      }
      return Math.min(text.length(), offset + column);
    }
  }

  /** Builds the AST from the parse tree. */
  private static final class Builder {
    /** How deep the expression being built is, against {@link #MAX_EXPRESSION_DEPTH}. */
    private int depth;

    private void enter() {
      if (++depth > MAX_EXPRESSION_DEPTH) {
        throw tooComplex("its expressions are more than " + MAX_EXPRESSION_DEPTH + " levels deep");
      }
    }

    Query query(CosmosSqlParser.SelectQueryContext ctx) {
      Expr top = null;
      if (ctx.topClause() != null) {
        top = countValue(ctx.topClause().NUMBER_LITERAL(), ctx.topClause().PARAMETER(), "TOP");
      }
      Query.Select select = select(ctx.selectSpec());
      List<Query.FromSource> from = new ArrayList<>();
      if (ctx.fromClause() != null) {
        for (CosmosSqlParser.FromSourceContext s : ctx.fromClause().fromSource()) {
          from.add(fromSource(s));
        }
      }
      Expr where = ctx.whereClause() == null ? null : expr(ctx.whereClause().expression());
      List<Expr> groupBy = new ArrayList<>();
      if (ctx.groupByClause() != null) {
        for (CosmosSqlParser.ExpressionContext e : ctx.groupByClause().expression()) {
          groupBy.add(expr(e));
        }
      }
      List<Query.OrderItem> orderBy = new ArrayList<>();
      if (ctx.orderByClause() instanceof CosmosSqlParser.RankOrderByContext r) {
        orderBy.add(new Query.OrderItem(expr(r.expression()), false, Query.Kind.RANK));
      } else if (ctx.orderByClause() instanceof CosmosSqlParser.KeyOrderByContext k) {
        for (CosmosSqlParser.OrderItemContext o : k.orderItem()) {
          Expr key = expr(o.expression());
          boolean similarity =
              o.ASC() == null
                  && o.DESC() == null
                  && key instanceof Expr.Call c
                  && c.name().equals("VECTORDISTANCE");
          orderBy.add(
              new Query.OrderItem(
                  key, o.DESC() == null, similarity ? Query.Kind.SIMILARITY : Query.Kind.KEY));
        }
      }
      Expr offset = null;
      Expr limit = null;
      if (ctx.offsetLimitClause() != null) {
        offset = countValue(ctx.offsetLimitClause().offsetValue, "OFFSET");
        limit = countValue(ctx.offsetLimitClause().limitValue, "LIMIT");
      }
      return new Query(
          ctx.DISTINCT() != null, top, select, from, where, groupBy, orderBy, offset, limit);
    }

    private Expr countValue(CosmosSqlParser.CountValueContext c, String clause) {
      return countValue(c.NUMBER_LITERAL(), c.PARAMETER(), clause);
    }

    private Expr countValue(TerminalNode number, TerminalNode parameter, String clause) {
      if (parameter != null) {
        return new Expr.Parameter(parameter.getText());
      }
      JsonNode n = number(number.getSymbol());
      io.cosmolab.query.internal.RowCounts.Problem problem =
          io.cosmolab.query.internal.RowCounts.problem(n, clause);
      if (problem != null) {
        throw error(number.getSymbol(), problem.code(), problem.message());
      }
      return new Expr.Literal(n);
    }

    private Query.Select select(CosmosSqlParser.SelectSpecContext ctx) {
      if (ctx instanceof CosmosSqlParser.SelectStarContext) {
        return new Query.Select.Star();
      }
      if (ctx instanceof CosmosSqlParser.SelectValueContext v) {
        return new Query.Select.Value(expr(v.expression()));
      }
      List<Query.Select.Item> items = new ArrayList<>();
      for (CosmosSqlParser.SelectItemContext item :
          ((CosmosSqlParser.SelectListContext) ctx).selectItem()) {
        items.add(
            new Query.Select.Item(
                expr(item.expression()),
                item.identifier() == null ? null : item.identifier().getText()));
      }
      return new Query.Select.Items(items);
    }

    private Query.FromSource fromSource(CosmosSqlParser.FromSourceContext ctx) {
      if (ctx instanceof CosmosSqlParser.IterationSourceContext it) {
        return new Query.FromSource.Iteration(
            it.identifier().getText(), collection(it.collection()));
      }
      CosmosSqlParser.AliasedSourceContext a = (CosmosSqlParser.AliasedSourceContext) ctx;
      Query.Collection collection = collection(a.collection());
      String alias;
      if (a.identifier() != null) {
        alias = a.identifier().getText();
      } else if (collection instanceof Query.Collection.Path p) {
        // FROM c.children: the alias is the last property name; FROM c: c
        Object last = p.segments().isEmpty() ? p.name() : p.segments().get(p.segments().size() - 1);
        if (!(last instanceof String s)) {
          throw error(a.getStart(), "SC2001", "a FROM source ending in an index needs an alias");
        }
        alias = s;
      } else {
        // the reference's grammar makes the alias optional for a subquery too; its self-join
        // example (JOIN (SELECT VALUE t FROM t IN p.tags WHERE ...)) uses none
        alias = Query.FromSource.Aliased.ANONYMOUS;
      }
      return new Query.FromSource.Aliased(alias, collection);
    }

    private Query.Collection collection(CosmosSqlParser.CollectionContext ctx) {
      if (ctx instanceof CosmosSqlParser.SubqueryCollectionContext s) {
        return new Query.Collection.Subquery(query(s.selectQuery()));
      }
      CosmosSqlParser.PathCollectionContext p = (CosmosSqlParser.PathCollectionContext) ctx;
      List<Object> segments = new ArrayList<>();
      for (CosmosSqlParser.PathSegmentContext seg : p.pathSegment()) {
        if (seg instanceof CosmosSqlParser.DotSegmentContext d) {
          segments.add(d.propertyName().getText());
        } else {
          CosmosSqlParser.IndexSegmentContext i = (CosmosSqlParser.IndexSegmentContext) seg;
          if (i.STRING_LITERAL() != null) {
            segments.add(unquote(i.STRING_LITERAL().getSymbol()));
          } else if (i.NUMBER_LITERAL() != null) {
            segments.add(number(i.NUMBER_LITERAL().getSymbol()).intValue());
          } else {
            segments.add(new Expr.Parameter(i.PARAMETER().getText()));
          }
        }
      }
      return new Query.Collection.Path(p.identifier().getText(), segments);
    }

    Expr expr(CosmosSqlParser.ExpressionContext ctx) {
      enter();
      try {
        return exprAtDepth(ctx);
      } finally {
        depth--;
      }
    }

    private Expr exprAtDepth(CosmosSqlParser.ExpressionContext ctx) {
      if (ctx instanceof CosmosSqlParser.ValueOnlyExpressionContext v) {
        return value(v.valueExpression());
      }
      if (ctx instanceof CosmosSqlParser.NotExpressionContext n) {
        return new Expr.Unary(Expr.UnaryOp.NOT, expr(n.expression()));
      }
      if (ctx instanceof CosmosSqlParser.AndExpressionContext a) {
        return new Expr.Binary(Expr.BinaryOp.AND, expr(a.expression(0)), expr(a.expression(1)));
      }
      if (ctx instanceof CosmosSqlParser.OrExpressionContext o) {
        return new Expr.Binary(Expr.BinaryOp.OR, expr(o.expression(0)), expr(o.expression(1)));
      }
      if (ctx instanceof CosmosSqlParser.CoalesceExpressionContext c) {
        return new Expr.Binary(
            Expr.BinaryOp.COALESCE, expr(c.expression(0)), expr(c.expression(1)));
      }
      CosmosSqlParser.ConditionalExpressionContext c =
          (CosmosSqlParser.ConditionalExpressionContext) ctx;
      return new Expr.Conditional(
          expr(c.expression(0)), expr(c.expression(1)), expr(c.expression(2)));
    }

    private Expr value(CosmosSqlParser.ValueExpressionContext ctx) {
      enter();
      try {
        return valueAtDepth(ctx);
      } finally {
        depth--;
      }
    }

    private Expr valueAtDepth(CosmosSqlParser.ValueExpressionContext ctx) {
      if (ctx instanceof CosmosSqlParser.PrimaryExpressionContext p) {
        return primary(p.primary());
      }
      if (ctx instanceof CosmosSqlParser.MemberExpressionContext m) {
        return new Expr.Member(value(m.valueExpression()), m.propertyName().getText());
      }
      if (ctx instanceof CosmosSqlParser.IndexExpressionContext i) {
        return new Expr.Index(value(i.valueExpression()), expr(i.expression()));
      }
      if (ctx instanceof CosmosSqlParser.UnaryExpressionContext u) {
        Expr.UnaryOp op =
            switch (u.op.getType()) {
              case CosmosSqlParser.MINUS -> Expr.UnaryOp.NEGATE;
              case CosmosSqlParser.PLUS -> Expr.UnaryOp.PLUS;
              default -> Expr.UnaryOp.BITWISE_NOT;
            };
        return new Expr.Unary(op, value(u.valueExpression()));
      }
      if (ctx instanceof CosmosSqlParser.MultiplicativeExpressionContext m) {
        return binary(
            switch (m.op.getType()) {
              case CosmosSqlParser.STAR -> Expr.BinaryOp.MULTIPLY;
              case CosmosSqlParser.SLASH -> Expr.BinaryOp.DIVIDE;
              default -> Expr.BinaryOp.MODULO;
            },
            m.valueExpression(0),
            m.valueExpression(1));
      }
      if (ctx instanceof CosmosSqlParser.AdditiveExpressionContext a) {
        return binary(
            a.op.getType() == CosmosSqlParser.PLUS ? Expr.BinaryOp.ADD : Expr.BinaryOp.SUBTRACT,
            a.valueExpression(0),
            a.valueExpression(1));
      }
      if (ctx instanceof CosmosSqlParser.ConcatExpressionContext c) {
        return binary(Expr.BinaryOp.CONCAT, c.valueExpression(0), c.valueExpression(1));
      }
      if (ctx instanceof CosmosSqlParser.ShiftExpressionContext s) {
        return binary(
            switch (s.op.getType()) {
              case CosmosSqlParser.SHIFT_LEFT -> Expr.BinaryOp.SHIFT_LEFT;
              case CosmosSqlParser.SHIFT_RIGHT -> Expr.BinaryOp.SHIFT_RIGHT;
              default -> Expr.BinaryOp.SHIFT_RIGHT_ZERO_FILL;
            },
            s.valueExpression(0),
            s.valueExpression(1));
      }
      if (ctx instanceof CosmosSqlParser.BitAndExpressionContext b) {
        return binary(Expr.BinaryOp.BIT_AND, b.valueExpression(0), b.valueExpression(1));
      }
      if (ctx instanceof CosmosSqlParser.BitXorExpressionContext b) {
        return binary(Expr.BinaryOp.BIT_XOR, b.valueExpression(0), b.valueExpression(1));
      }
      if (ctx instanceof CosmosSqlParser.BitOrExpressionContext b) {
        return binary(Expr.BinaryOp.BIT_OR, b.valueExpression(0), b.valueExpression(1));
      }
      if (ctx instanceof CosmosSqlParser.ComparisonExpressionContext c) {
        return binary(
            switch (c.op.getType()) {
              case CosmosSqlParser.EQ -> Expr.BinaryOp.EQUAL;
              case CosmosSqlParser.NEQ, CosmosSqlParser.NEQ2 -> Expr.BinaryOp.NOT_EQUAL;
              case CosmosSqlParser.LT -> Expr.BinaryOp.LESS;
              case CosmosSqlParser.LTE -> Expr.BinaryOp.LESS_OR_EQUAL;
              case CosmosSqlParser.GT -> Expr.BinaryOp.GREATER;
              default -> Expr.BinaryOp.GREATER_OR_EQUAL;
            },
            c.valueExpression(0),
            c.valueExpression(1));
      }
      if (ctx instanceof CosmosSqlParser.InExpressionContext in) {
        List<Expr> items = new ArrayList<>();
        for (int i = 0; i < in.expression().size(); i++) {
          items.add(expr(in.expression(i)));
        }
        return new Expr.In(value(in.valueExpression()), items, in.NOT() != null);
      }
      if (ctx instanceof CosmosSqlParser.BetweenExpressionContext b) {
        return new Expr.Between(
            value(b.valueExpression(0)),
            value(b.valueExpression(1)),
            value(b.valueExpression(2)),
            b.NOT() != null);
      }
      if (ctx instanceof CosmosSqlParser.LikeExpressionContext l) {
        return new Expr.Like(
            value(l.valueExpression(0)),
            value(l.valueExpression(1)),
            l.valueExpression().size() > 2 ? value(l.valueExpression(2)) : null,
            l.NOT() != null);
      }
      throw new IllegalStateException("unknown expression form: " + ctx.getClass().getSimpleName());
    }

    private Expr binary(
        Expr.BinaryOp op,
        CosmosSqlParser.ValueExpressionContext left,
        CosmosSqlParser.ValueExpressionContext right) {
      return new Expr.Binary(op, value(left), value(right));
    }

    private Expr primary(CosmosSqlParser.PrimaryContext ctx) {
      if (ctx instanceof CosmosSqlParser.LiteralPrimaryContext l) {
        return literal(l.literal());
      }
      if (ctx instanceof CosmosSqlParser.ParameterPrimaryContext p) {
        return new Expr.Parameter(p.PARAMETER().getText());
      }
      if (ctx instanceof CosmosSqlParser.FunctionCallPrimaryContext f) {
        return new Expr.Call(
            f.identifier().getText().toUpperCase(Locale.ROOT), arguments(f.arguments()));
      }
      if (ctx instanceof CosmosSqlParser.UdfCallPrimaryContext u) {
        return new Expr.UdfCall(u.identifier().getText(), arguments(u.arguments()));
      }
      if (ctx instanceof CosmosSqlParser.IdentifierPrimaryContext i) {
        String name = i.identifier().getText();
        // NaN and Infinity are the numbers they name (the reference passes them to TOSTRING and
        // the StringTo functions: ToString(NaN) is "NaN")
        if (name.equals("NaN") || name.equals("Infinity")) {
          return new Expr.Literal(
              com.fasterxml.jackson.databind.node.DoubleNode.valueOf(
                  name.equals("NaN") ? Double.NaN : Double.POSITIVE_INFINITY));
        }
        return new Expr.Identifier(name);
      }
      if (ctx instanceof CosmosSqlParser.ArrayPrimaryContext a) {
        return new Expr.ArrayLiteral(arguments(a.arguments()));
      }
      if (ctx instanceof CosmosSqlParser.ObjectPrimaryContext o) {
        List<Expr.Property> props = new ArrayList<>();
        for (CosmosSqlParser.ObjectPropertyContext p : o.objectProperty()) {
          String name =
              p.STRING_LITERAL() != null
                  ? unquote(p.STRING_LITERAL().getSymbol())
                  : p.propertyName().getText();
          props.add(new Expr.Property(name, expr(p.expression())));
        }
        return new Expr.ObjectLiteral(props);
      }
      if (ctx instanceof CosmosSqlParser.ExistsPrimaryContext e) {
        return new Expr.Exists(query(e.selectQuery()));
      }
      if (ctx instanceof CosmosSqlParser.ArraySubqueryPrimaryContext a) {
        return new Expr.ArraySubquery(query(a.selectQuery()));
      }
      if (ctx instanceof CosmosSqlParser.ScalarSubqueryPrimaryContext s) {
        return new Expr.ScalarSubquery(query(s.selectQuery()));
      }
      return expr(((CosmosSqlParser.ParenthesizedPrimaryContext) ctx).expression());
    }

    private List<Expr> arguments(CosmosSqlParser.ArgumentsContext ctx) {
      List<Expr> out = new ArrayList<>();
      if (ctx != null) {
        for (CosmosSqlParser.ExpressionContext e : ctx.expression()) {
          out.add(expr(e));
        }
      }
      return out;
    }

    private Expr literal(CosmosSqlParser.LiteralContext ctx) {
      if (ctx.STRING_LITERAL() != null) {
        return new Expr.Literal(NODES.textNode(unquote(ctx.STRING_LITERAL().getSymbol())));
      }
      if (ctx.NUMBER_LITERAL() != null) {
        return new Expr.Literal(number(ctx.NUMBER_LITERAL().getSymbol()));
      }
      if (ctx.TRUE() != null) {
        return new Expr.Literal(NODES.booleanNode(true));
      }
      if (ctx.FALSE() != null) {
        return new Expr.Literal(NODES.booleanNode(false));
      }
      if (ctx.NULL() != null) {
        return new Expr.Literal(NODES.nullNode());
      }
      return new Expr.Literal(null);
    }

    private static JsonNode number(Token t) {
      String s = t.getText();
      try {
        if (s.startsWith("0x") || s.startsWith("0X")) {
          return NODES.numberNode(Long.parseLong(s.substring(2), 16));
        }
        if (s.indexOf('.') < 0 && s.indexOf('e') < 0 && s.indexOf('E') < 0) {
          long l = Long.parseLong(s);
          if (Math.abs(l) <= (1L << 53)) {
            return NODES.numberNode(l);
          }
          // beyond 2^53 the service holds numbers as doubles: fall through to the double
        }
      } catch (NumberFormatException e) {
        // too large for a long: a double, as the service stores such numbers
      }
      double d = Double.parseDouble(s);
      if (Double.isInfinite(d)) {
        // the service's query engine allows no non-finite numbers (sqlAllowNonFiniteNumbers)
        throw error(
            t,
            "SC1001",
            "the number "
                + s
                + " is out of range: numbers are IEEE 754 doubles, at most about"
                + " 1.8e308");
      }
      // an integral literal is a whole number (1.5e2 is 150), as computed numbers are
      if (d == Math.rint(d) && Math.abs(d) <= 9.007199254740992E15) {
        return NODES.numberNode((long) d);
      }
      return NODES.numberNode(d);
    }

    private static String unquote(Token t) {
      String s = t.getText();
      StringBuilder out = new StringBuilder(s.length());
      for (int i = 1; i < s.length() - 1; i++) {
        char c = s.charAt(i);
        if (c != '\\') {
          out.append(c);
          continue;
        }
        char e = s.charAt(++i);
        switch (e) {
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'u' -> {
            out.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
            i += 4;
          }
          default -> out.append(e);
        }
      }
      return out.toString();
    }

    private static QueryException error(Token at, String code, String message) {
      return new QueryException(
          code,
          String.format(
              Locale.ROOT,
              "%s, at '%s' (line %d, column %d)",
              message,
              at.getText(),
              at.getLine(),
              at.getCharPositionInLine() + 1),
          at.getStartIndex(),
          at.getStopIndex() + 1);
    }
  }
}
