package io.cosmolab.query.functions;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.QueryException;
import io.cosmolab.query.ast.Expr;
import io.cosmolab.query.exec.Values;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code VectorDistance(v1, v2 [, bruteForce [, options]])}: the similarity score of two vectors.
 *
 * <p>The metrics, as documented: {@code cosine} from -1 (least similar) to +1 (most similar),
 * {@code dotproduct} from -∞ (least) to +∞ (most), {@code euclidean} from 0 (most similar) to +∞
 * (least). The options object may name {@code distanceFunction} and {@code dataType}; a path the
 * container's vector embedding policy lists takes both from the policy unless the call names them
 * ({@code SearchPolicy} writes them into the call), anything else is {@code cosine} over {@code
 * float32}.
 *
 * <p>Every search is exact (brute force over the documents the query reads), whatever the vector
 * index type: {@code flat}, {@code quantizedFlat} and {@code diskANN} are approximate on the
 * service, so its nearest neighbours can differ from these on close calls [A]. Arithmetic is in
 * double precision over the stored numbers, whatever the data type [A]. A vector that is not an
 * array of numbers, or of another length than the other, scores undefined [A], so its document
 * sorts after every scored one.
 */
public final class VectorSearch {
  private VectorSearch() {}

  /** The distance functions a policy or a call may name. */
  public static final Set<String> DISTANCE_FUNCTIONS = Set.of("cosine", "dotproduct", "euclidean");

  /** The data types a policy or a call may name. */
  public static final Set<String> DATA_TYPES = Set.of("float32", "float16", "int8", "uint8");

  /** The options VectorDistance accepts in its fourth argument. */
  private static final Set<String> OPTIONS =
      Set.of(
          "distanceFunction",
          "dataType",
          "searchListSizeMultiplier",
          "quantizedVectorListMultiplier",
          "filterPriority");

  static void register(SystemFunctions.Registrar r) {
    r.def("VectorDistance", 2, 4, (a, c) -> distance(a));
  }

  private static JsonNode distance(List<JsonNode> a) {
    String function = "cosine";
    if (a.size() > 3 && a.get(3) != null) {
      JsonNode options = a.get(3);
      if (!options.isObject()) {
        throw invalid("the fourth argument of VectorDistance must be an object of options");
      }
      options
          .fieldNames()
          .forEachRemaining(
              name -> {
                if (!OPTIONS.contains(name)) {
                  throw invalid(
                      "VectorDistance has no option '"
                          + name
                          + "'; the options are "
                          + String.join(", ", new java.util.TreeSet<>(OPTIONS)));
                }
              });
      JsonNode f = options.get("distanceFunction");
      if (f != null) {
        function = f.asText().toLowerCase(Locale.ROOT);
        if (!DISTANCE_FUNCTIONS.contains(function)) {
          throw invalid(
              "VectorDistance's distanceFunction must be cosine, dotproduct or euclidean, was "
                  + f);
        }
      }
      JsonNode t = options.get("dataType");
      if (t != null && !DATA_TYPES.contains(t.asText().toLowerCase(Locale.ROOT))) {
        throw invalid(
            "VectorDistance's dataType must be float32, float16, int8 or uint8, was " + t);
      }
    }
    if (a.size() > 2 && a.get(2) != null && !a.get(2).isBoolean()) {
      throw invalid("the third argument of VectorDistance (brute force) must be true or false");
    }
    double[] x = vector(a.get(0));
    double[] y = vector(a.get(1));
    if (x == null || y == null || x.length != y.length || x.length == 0) {
      return null;
    }
    double dot = 0;
    double xx = 0;
    double yy = 0;
    double squares = 0;
    for (int i = 0; i < x.length; i++) {
      dot += x[i] * y[i];
      xx += x[i] * x[i];
      yy += y[i] * y[i];
      double d = x[i] - y[i];
      squares += d * d;
    }
    return switch (function) {
      case "dotproduct" -> Values.number(dot);
      case "euclidean" -> Values.number(Math.sqrt(squares));
      default -> xx == 0 || yy == 0 ? null : Values.number(dot / Math.sqrt(xx * yy));
    };
  }

  private static double[] vector(JsonNode v) {
    if (v == null || !v.isArray()) {
      return null;
    }
    double[] out = new double[v.size()];
    for (int i = 0; i < out.length; i++) {
      JsonNode e = v.get(i);
      if (!e.isNumber()) {
        return null;
      }
      out[i] = e.doubleValue();
    }
    return out;
  }

  /**
   * The distance function a VectorDistance call uses, read from its options (a literal, or a
   * parameter's value): {@code cosine} unless they name another.
   */
  public static String distanceFunction(
      Expr.Call call, java.util.Map<String, JsonNode> parameters) {
    if (call.arguments().size() > 3 && call.arguments().get(3) instanceof Expr.Parameter p) {
      JsonNode options = parameters.get(p.name());
      JsonNode f = options == null ? null : options.get("distanceFunction");
      return f == null ? "cosine" : f.asText().toLowerCase(Locale.ROOT);
    }
    if (call.arguments().size() > 3 && call.arguments().get(3) instanceof Expr.ObjectLiteral o) {
      for (Expr.Property p : o.properties()) {
        if (p.name().equals("distanceFunction")
            && p.value() instanceof Expr.Literal l
            && l.value() != null) {
          return l.value().asText().toLowerCase(Locale.ROOT);
        }
      }
    }
    return "cosine";
  }

  /**
   * Whether a smaller score of this VectorDistance call is the more similar (euclidean distance);
   * cosine and dot product are similarities, larger is closer.
   */
  public static boolean smallerIsCloser(
      Expr.Call call, java.util.Map<String, JsonNode> parameters) {
    return distanceFunction(call, parameters).equals("euclidean");
  }

  private static QueryException invalid(String message) {
    return new QueryException("", message); // [A] the service's code for these is not documented
  }
}
