package io.cosmolab.query.plan;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.CompiledQuery;
import io.cosmolab.query.ast.Expr;
import io.cosmolab.query.ast.Query;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A filter an index can serve: a top-level conjunct of the WHERE clause comparing a document path
 * with constants ({@code c.a = 1}, {@code c.a IN (1, 2)}, {@code c.n > 5}, {@code c.s <= "m"},
 * {@code STARTSWITH(c.s, "ab")}: a range of strings, as the service's range index serves it), or a
 * disjunction of such conjunctions ({@link Op#ANY_OF}: {@code (c.id = "a" AND c.pk = "x") OR (c.id
 * = "b" AND c.pk = "y")}, the query the SDKs' readMany sends). The documents it selects are a
 * superset of the query's result, which still runs in full on them.
 *
 * @param path the property path from the document root (empty for {@link Op#ANY_OF})
 * @param op the comparison
 * @param values the constants (several for IN; none for {@link Op#ANY_OF})
 * @param branches for {@link Op#ANY_OF}, each disjunct's index-servable conjuncts (else empty)
 */
public record IndexPredicate(
    List<String> path, Op op, List<JsonNode> values, List<List<IndexPredicate>> branches) {

  /** The comparisons an index serves. */
  public enum Op {
    EQUAL,
    LESS,
    LESS_OR_EQUAL,
    GREATER,
    GREATER_OR_EQUAL,
    /**
     * {@code STARTSWITH(path, prefix)} (case-sensitive): the strings from the prefix up to, not
     * including, the first string after every string it begins ({@link #prefixEnd}).
     */
    STARTS_WITH,
    /** Any of {@link #branches()}: an index serves it when it serves every branch. */
    ANY_OF
  }

  public IndexPredicate {
    path = List.copyOf(path);
    values = List.copyOf(values);
    branches = branches.stream().map(List::copyOf).toList();
  }

  /** A comparison of a path with constants. */
  public IndexPredicate(List<String> path, Op op, List<JsonNode> values) {
    this(path, op, values, List.of());
  }

  /** The index-servable conjuncts of a query's WHERE, in the order written. */
  public static List<IndexPredicate> of(CompiledQuery compiled) {
    Query q = compiled.ast();
    List<IndexPredicate> out = new ArrayList<>();
    if (q.where() == null
        || q.from().isEmpty()
        || !(q.from().get(0) instanceof Query.FromSource.Aliased)
        || !(q.from().get(0).collection() instanceof Query.Collection.Path p)
        || !p.segments().isEmpty()) {
      return out;
    }
    collect(q.where(), q.from().get(0).alias(), compiled.parameterValues(), out);
    return out;
  }

  private static void collect(
      Expr e, String root, Map<String, JsonNode> params, List<IndexPredicate> out) {
    if (e instanceof Expr.Binary b && b.op() == Expr.BinaryOp.AND) {
      collect(b.left(), root, params, out);
      collect(b.right(), root, params, out);
      return;
    }
    if (e instanceof Expr.Binary b && b.op() == Expr.BinaryOp.OR) {
      List<Expr> disjuncts = new ArrayList<>();
      disjuncts(b, disjuncts);
      List<List<IndexPredicate>> branches = new ArrayList<>();
      for (Expr d : disjuncts) {
        List<IndexPredicate> branch = new ArrayList<>();
        collect(d, root, params, branch);
        if (branch.isEmpty()) {
          return; // a disjunct no index bounds: the disjunction selects from every document
        }
        branches.add(branch);
      }
      out.add(new IndexPredicate(List.of(), Op.ANY_OF, List.of(), branches));
      return;
    }
    if (e instanceof Expr.In in && !in.negated()) {
      List<String> path = path(in.value(), root);
      List<JsonNode> values = new ArrayList<>();
      for (Expr item : in.items()) {
        JsonNode v = constant(item, params);
        if (v == null) {
          return;
        }
        values.add(v);
      }
      if (path != null) {
        out.add(new IndexPredicate(path, Op.EQUAL, values));
      }
      return;
    }
    if (e instanceof Expr.Call c && c.name().equals("STARTSWITH")) {
      startsWith(c, root, params, out);
      return;
    }
    if (!(e instanceof Expr.Binary b)) {
      return;
    }
    Op op = op(b.op());
    if (op == null) {
      return;
    }
    List<String> left = path(b.left(), root);
    JsonNode right = constant(b.right(), params);
    if (left != null && right != null) {
      out.add(new IndexPredicate(left, op, List.of(right)));
      return;
    }
    List<String> rightPath = path(b.right(), root);
    JsonNode leftValue = constant(b.left(), params);
    if (rightPath != null && leftValue != null) {
      out.add(new IndexPredicate(rightPath, flip(op), List.of(leftValue)));
    }
  }

  /**
   * {@code STARTSWITH(path, "p")} or {@code STARTSWITH(path, "p", false)}: a prefix range. Not the
   * case-insensitive form, which a range of one case does not bound.
   */
  private static void startsWith(
      Expr.Call c, String root, Map<String, JsonNode> params, List<IndexPredicate> out) {
    List<Expr> args = c.arguments();
    if (args.size() == 3) {
      JsonNode ignoreCase = constant(args.get(2), params);
      if (ignoreCase == null || !ignoreCase.isBoolean() || ignoreCase.booleanValue()) {
        return;
      }
    }
    List<String> path = args.size() >= 2 ? path(args.get(0), root) : null;
    JsonNode prefix = args.size() >= 2 ? constant(args.get(1), params) : null;
    if (path != null && prefix != null && prefix.isTextual()) {
      out.add(new IndexPredicate(path, Op.STARTS_WITH, List.of(prefix)));
    }
  }

  /**
   * The first string, in UTF-16 order (the query's and the index's), after every string that begins
   * with {@code prefix}; null when there is none (the prefix is empty or all U+FFFF).
   */
  public static String prefixEnd(String prefix) {
    int end = prefix.length();
    while (end > 0 && prefix.charAt(end - 1) == '\uffff') {
      end--;
    }
    if (end == 0) {
      return null;
    }
    return prefix.substring(0, end - 1) + (char) (prefix.charAt(end - 1) + 1);
  }

  /** The operands of a chain of ORs, in the order written. */
  private static void disjuncts(Expr e, List<Expr> out) {
    if (e instanceof Expr.Binary b && b.op() == Expr.BinaryOp.OR) {
      disjuncts(b.left(), out);
      disjuncts(b.right(), out);
    } else {
      out.add(e);
    }
  }

  private static Op op(Expr.BinaryOp op) {
    return switch (op) {
      case EQUAL -> Op.EQUAL;
      case LESS -> Op.LESS;
      case LESS_OR_EQUAL -> Op.LESS_OR_EQUAL;
      case GREATER -> Op.GREATER;
      case GREATER_OR_EQUAL -> Op.GREATER_OR_EQUAL;
      default -> null;
    };
  }

  private static Op flip(Op op) {
    return switch (op) {
      case LESS -> Op.GREATER;
      case LESS_OR_EQUAL -> Op.GREATER_OR_EQUAL;
      case GREATER -> Op.LESS;
      case GREATER_OR_EQUAL -> Op.LESS_OR_EQUAL;
      default -> op;
    };
  }

  /**
   * The property path an expression reads from the alias {@code root} ({@code c.a["b"]} → [a, b]),
   * or null if it is not a plain path.
   */
  public static List<String> path(Expr e, String root) {
    return path(e, root, false);
  }

  /**
   * The document path an ORDER BY item reads: a property path as {@link #path}, where an array
   * element by position is a segment too ({@code c.Children[0].Grade} → [Children, 0, Grade]), as
   * the service indexes it ({@code /Children/0/Grade}). Null if it is not such a path; a null
   * {@code root} takes the path from any alias.
   */
  public static List<String> documentPath(Expr e, String root) {
    return path(e, root, true);
  }

  private static List<String> path(Expr e, String root, boolean positions) {
    List<String> segments = new ArrayList<>();
    Expr cur = e;
    while (true) {
      if (cur instanceof Expr.Member m) {
        segments.add(0, m.property());
        cur = m.target();
      } else if (cur instanceof Expr.Index i
          && i.index() instanceof Expr.Literal l
          && l.value() != null
          && l.value().isTextual()) {
        segments.add(0, l.value().textValue());
        cur = i.target();
      } else if (positions
          && cur instanceof Expr.Index i
          && i.index() instanceof Expr.Literal l
          && l.value() != null
          && l.value().isNumber()
          && l.value().canConvertToExactIntegral()
          && l.value().longValue() >= 0) {
        segments.add(0, Long.toString(l.value().longValue()));
        cur = i.target();
      } else {
        break;
      }
    }
    return cur instanceof Expr.Identifier id
            && (root == null || id.name().equals(root))
            && !segments.isEmpty()
        ? segments
        : null;
  }

  private static JsonNode constant(Expr e, Map<String, JsonNode> params) {
    JsonNode v = null;
    if (e instanceof Expr.Literal l) {
      v = l.value();
    } else if (e instanceof Expr.Parameter p) {
      v = params.get(p.name());
    }
    return v != null && (v.isTextual() || v.isNumber() || v.isBoolean() || v.isNull()) ? v : null;
  }
}
