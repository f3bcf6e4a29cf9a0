package io.cosmolab.query.functions;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.QueryException;
import io.cosmolab.query.ast.Expr;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code ORDER BY RANK f} ranks by: the scoring functions ({@code FullTextScore}, {@code
 * VectorDistance}) of {@code f}, each with its direction and weight. {@code f} is one scoring
 * function, or {@code RRF(s1, s2, ... [, weights])}, Reciprocal Rank Fusion: each document scores
 * {@code Σ weight_i / (60 + rank_i)} where {@code rank_i} is its 1-based rank by {@code s_i} (equal
 * scores share a rank) — the fusion the SDKs compute for hybrid search across partitions, with the
 * same constant 60 (Java SDK {@code HybridSearchDocumentQueryExecutionContext}).
 *
 * @param components the scoring calls, in order
 * @param weights one weight per component (1 when RRF names none)
 */
public record Ranking(List<Component> components, List<Double> weights) {
  /** RRF's constant k. */
  public static final int RRF_K = 60;

  /**
   * One scoring function.
   *
   * @param call the call
   * @param higherIsBetter true for FullTextScore, cosine and dot product; false for euclidean
   */
  public record Component(Expr.Call call, boolean higherIsBetter) {
    /** True for FullTextScore. */
    public boolean fullText() {
      return call.name().equals("FULLTEXTSCORE");
    }
  }

  /**
   * The ranking an ORDER BY RANK expression asks for.
   *
   * @param parameters the query's parameters (a weights array may be one)
   * @throws QueryException when the expression is not a scoring function or RRF of them
   */
  public static Ranking of(Expr rank, Map<String, JsonNode> parameters) {
    if (!(rank instanceof Expr.Call call)) {
      throw notScoring();
    }
    if (!call.name().equals("RRF")) {
      return new Ranking(List.of(component(call, parameters)), List.of(1.0));
    }
    List<Expr> args = call.arguments();
    List<Component> components = new ArrayList<>();
    List<Double> weights = null;
    for (int i = 0; i < args.size(); i++) {
      Expr a = args.get(i);
      boolean last = i == args.size() - 1;
      if (last && i > 0 && !(a instanceof Expr.Call)) {
        weights = weights(a, parameters, components.size());
      } else if (a instanceof Expr.Call c && isScoring(c)) {
        components.add(component(c, parameters));
      } else {
        throw new QueryException(
            "",
            "RRF fuses scoring functions (FullTextScore, VectorDistance), optionally followed by"
                + " an array of weights; argument "
                + (i + 1)
                + " is neither");
      }
    }
    if (weights == null) {
      weights = new ArrayList<>();
      for (int i = 0; i < components.size(); i++) {
        weights.add(1.0);
      }
    }
    return new Ranking(List.copyOf(components), List.copyOf(weights));
  }

  private static boolean isScoring(Expr.Call c) {
    return c.name().equals("FULLTEXTSCORE") || c.name().equals("VECTORDISTANCE");
  }

  private static Component component(Expr.Call c, Map<String, JsonNode> parameters) {
    if (!isScoring(c)) {
      throw notScoring();
    }
    return new Component(
        c, c.name().equals("FULLTEXTSCORE") || !VectorSearch.smallerIsCloser(c, parameters));
  }

  private static List<Double> weights(Expr a, Map<String, JsonNode> parameters, int count) {
    JsonNode v = constant(a, parameters);
    if (v == null || !v.isArray() || v.size() != count) {
      throw new QueryException(
          "",
          "RRF's weights must be an array of "
              + count
              + " numbers, one per scoring function, was "
              + (v == null ? "not a constant array" : v));
    }
    List<Double> out = new ArrayList<>();
    for (JsonNode w : v) {
      if (!w.isNumber()) {
        throw new QueryException("", "RRF's weights must be numbers, was " + v);
      }
      out.add(w.doubleValue());
    }
    return out;
  }

  /**
   * The value of an expression that does not read a document: a literal, a parameter, a negated
   * number, or an array of those; null for anything else.
   */
  public static JsonNode constant(Expr e, Map<String, JsonNode> parameters) {
    if (e instanceof Expr.ArrayLiteral array) {
      com.fasterxml.jackson.databind.node.ArrayNode out =
          com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
      for (Expr item : array.items()) {
        JsonNode v = constant(item, parameters);
        if (v == null) {
          return null;
        }
        out.add(v);
      }
      return out;
    }
    if (e instanceof Expr.Literal l) {
      return l.value();
    }
    if (e instanceof Expr.Parameter p) {
      return parameters.get(p.name());
    }
    if (e instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NEGATE) {
      JsonNode v = constant(u.operand(), parameters);
      return v != null && v.isNumber()
          ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.numberNode(
              -v.doubleValue())
          : null;
    }
    return null;
  }

  private static QueryException notScoring() {
    return new QueryException(
        "",
        "ORDER BY RANK needs a scoring function: FullTextScore, VectorDistance, or RRF of them");
  }
}
