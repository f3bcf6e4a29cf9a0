package io.cosmolab.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.cosmolab.query.ast.Expr;
import io.cosmolab.query.ast.Query;
import io.cosmolab.query.functions.FullText;
import io.cosmolab.query.functions.VectorSearch;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A container's search settings, as queries read them: its vector embedding policy (each vector
 * path's data type, distance function and dimensions) and its full-text policy (each text path's
 * language). {@code VectorDistance} over a listed path uses the path's distance function and data
 * type; the full-text functions process a path's text in its language.
 *
 * <p>Paths are resolved from the expression the function reads, {@code c.a.b} as {@code /a/b},
 * whatever the alias [A: inside a JOIN, an alias's property is read as if it were the document's].
 */
public final class SearchPolicy {
  /** No policies: cosine over float32 for every vector, English for every text. */
  public static final SearchPolicy NONE =
      new SearchPolicy(Map.of(), FullText.DEFAULT_LANGUAGE, Map.of(), false);

  /**
   * The largest number of dimensions a vector embedding may declare [A: the service's limit for its
   * indexes].
   */
  public static final int MAX_DIMENSIONS = 4096;

  /** One entry of the vector embedding policy. */
  public record Embedding(String path, String dataType, String distanceFunction, int dimensions) {}

  private final Map<String, Embedding> embeddings;
  private final String defaultLanguage;
  private final Map<String, String> languages;
  private final boolean geometry;

  private SearchPolicy(
      Map<String, Embedding> embeddings,
      String defaultLanguage,
      Map<String, String> languages,
      boolean geometry) {
    this.embeddings = embeddings;
    this.defaultLanguage = defaultLanguage;
    this.languages = languages;
    this.geometry = geometry;
  }

  /**
   * Reads and checks a container's search policies and its {@code geospatialConfig} ({@code
   * {"type": "Geography"}}, the default, or {@code "Geometry"}: the spatial functions then work in
   * the plane).
   *
   * @throws QueryException naming the entry and what is wrong with it
   */
  public static SearchPolicy fromJson(
      JsonNode vectorEmbeddingPolicy, JsonNode fullTextPolicy, JsonNode geospatialConfig) {
    SearchPolicy p = fromJson(vectorEmbeddingPolicy, fullTextPolicy);
    if (geospatialConfig == null || geospatialConfig.isNull()) {
      return p;
    }
    JsonNode type = geospatialConfig.get("type");
    if (!geospatialConfig.isObject()
        || type == null
        || !(type.asText().equals("Geography") || type.asText().equals("Geometry"))) {
      throw invalid(
          "geospatialConfig must be {\"type\": \"Geography\"} or {\"type\": \"Geometry\"}, was "
              + geospatialConfig);
    }
    return type.asText().equals("Geometry")
        ? new SearchPolicy(p.embeddings, p.defaultLanguage, p.languages, true)
        : p;
  }

  /** True when the spatial functions work in the plane ({@code geospatialConfig} Geometry). */
  public boolean geometry() {
    return geometry;
  }

  /**
   * Reads and checks a container's {@code vectorEmbeddingPolicy} and {@code fullTextPolicy} (each
   * may be null).
   *
   * @throws QueryException naming the entry and what is wrong with it
   */
  public static SearchPolicy fromJson(JsonNode vectorEmbeddingPolicy, JsonNode fullTextPolicy) {
    Map<String, Embedding> embeddings = new LinkedHashMap<>();
    if (vectorEmbeddingPolicy != null && !vectorEmbeddingPolicy.isNull()) {
      JsonNode list = vectorEmbeddingPolicy.get("vectorEmbeddings");
      if (!vectorEmbeddingPolicy.isObject() || (list != null && !list.isArray())) {
        throw invalid(
            "vectorEmbeddingPolicy must be {\"vectorEmbeddings\": [{\"path\", \"dataType\","
                + " \"distanceFunction\", \"dimensions\"}, ...]}, was "
                + vectorEmbeddingPolicy);
      }
      for (JsonNode e : list == null ? JsonNodeFactory.instance.arrayNode() : list) {
        Embedding embedding = embedding(e);
        if (embeddings.put(embedding.path(), embedding) != null) {
          throw invalid("vectorEmbeddingPolicy lists the path " + embedding.path() + " twice");
        }
      }
    }
    String defaultLanguage = FullText.DEFAULT_LANGUAGE;
    Map<String, String> languages = new LinkedHashMap<>();
    if (fullTextPolicy != null && !fullTextPolicy.isNull()) {
      if (!fullTextPolicy.isObject()) {
        throw invalid(
            "fullTextPolicy must be {\"defaultLanguage\", \"fullTextPaths\": [{\"path\","
                + " \"language\"}, ...]}, was "
                + fullTextPolicy);
      }
      if (fullTextPolicy.hasNonNull("defaultLanguage")) {
        defaultLanguage = language(fullTextPolicy.get("defaultLanguage"), "defaultLanguage");
      }
      JsonNode paths = fullTextPolicy.get("fullTextPaths");
      if (paths != null && !paths.isNull()) {
        if (!paths.isArray()) {
          throw invalid("fullTextPolicy.fullTextPaths must be an array, was " + paths);
        }
        for (JsonNode p : paths) {
          String path = path(p.get("path"), "fullTextPolicy.fullTextPaths");
          String language =
              p.hasNonNull("language")
                  ? language(p.get("language"), "the language of " + path)
                  : defaultLanguage;
          if (languages.put(path, language) != null) {
            throw invalid("fullTextPolicy lists the path " + path + " twice");
          }
        }
      }
    }
    if (embeddings.isEmpty()
        && languages.isEmpty()
        && defaultLanguage.equals(FullText.DEFAULT_LANGUAGE)) {
      return NONE;
    }
    return new SearchPolicy(
        Collections.unmodifiableMap(embeddings),
        defaultLanguage,
        Collections.unmodifiableMap(languages),
        false);
  }

  private static Embedding embedding(JsonNode e) {
    String path = path(e.get("path"), "vectorEmbeddingPolicy.vectorEmbeddings");
    JsonNode type = e.get("dataType");
    String dataType = type == null ? "float32" : type.asText().toLowerCase(Locale.ROOT);
    if (!VectorSearch.DATA_TYPES.contains(dataType)) {
      throw invalid(
          "the vector embedding "
              + path
              + " has dataType "
              + type
              + "; the data types are float32, float16, int8 and uint8");
    }
    JsonNode function = e.get("distanceFunction");
    String distance = function == null ? "cosine" : function.asText().toLowerCase(Locale.ROOT);
    if (!VectorSearch.DISTANCE_FUNCTIONS.contains(distance)) {
      throw invalid(
          "the vector embedding "
              + path
              + " has distanceFunction "
              + function
              + "; the distance functions are cosine, dotproduct and euclidean");
    }
    JsonNode dims = e.get("dimensions");
    if (dims == null
        || !dims.canConvertToInt()
        || !dims.isIntegralNumber()
        || dims.intValue() < 1
        || dims.intValue() > MAX_DIMENSIONS) {
      throw invalid(
          "the vector embedding "
              + path
              + " needs \"dimensions\", a whole number from 1 to "
              + MAX_DIMENSIONS
              + ", was "
              + dims);
    }
    return new Embedding(path, dataType, distance, dims.intValue());
  }

  private static String path(JsonNode p, String where) {
    if (p == null
        || !p.isTextual()
        || !p.textValue().startsWith("/")
        || p.textValue().length() < 2) {
      throw invalid("each entry of " + where + " needs a \"path\" such as \"/text\", was " + p);
    }
    return p.textValue();
  }

  private static String language(JsonNode l, String what) {
    if (l == null || !l.isTextual() || !FullText.isLanguage(l.textValue())) {
      throw invalid(
          what
              + " is "
              + l
              + "; the languages cosmolab processes are "
              + String.join(", ", new java.util.TreeSet<>(FullText.LANGUAGES)));
    }
    return l.textValue();
  }

  private static QueryException invalid(String message) {
    return new QueryException("", message);
  }

  /** The vector embedding the policy lists for a path ({@code /a/b}), or null. */
  public Embedding embedding(String path) {
    return embeddings.get(path);
  }

  /** The language of the text at a path: the path's own, else the policy's default. */
  public String languageOf(String path) {
    return path == null ? defaultLanguage : languages.getOrDefault(path, defaultLanguage);
  }

  /**
   * The path ({@code /a/b}) an expression such as {@code c.a.b} or {@code c["a"].b} reads, or null.
   */
  public static String pathOf(Expr e) {
    List<String> segments = io.cosmolab.query.plan.IndexPredicate.documentPath(e, null);
    return segments == null ? null : "/" + String.join("/", segments);
  }

  /**
   * {@code q} with every {@code VectorDistance} over a listed path given the path's distance
   * function and data type, where the call does not name its own.
   */
  public Query applyTo(Query q) {
    if (embeddings.isEmpty()) {
      return q;
    }
    return References.rewriteAll(
        q,
        e -> {
          if (!(e instanceof Expr.Call c)
              || !c.name().equals("VECTORDISTANCE")
              || c.arguments().size() < 2) {
            return null;
          }
          Embedding embedding = embedding(pathOf(c.arguments().get(0)));
          if (embedding == null) {
            embedding = embedding(pathOf(c.arguments().get(1)));
          }
          if (embedding == null) {
            return null;
          }
          List<Expr> args = new ArrayList<>(c.arguments());
          if (args.size() == 2) {
            args.add(new Expr.Literal(JsonNodeFactory.instance.booleanNode(false)));
          }
          List<Expr.Property> options = new ArrayList<>();
          if (args.size() == 4) {
            if (!(args.get(3) instanceof Expr.ObjectLiteral o)) {
              return null; // a parameter: its own options, checked when it runs
            }
            options.addAll(o.properties());
          }
          if (options.stream().noneMatch(p -> p.name().equals("distanceFunction"))) {
            options.add(
                new Expr.Property(
                    "distanceFunction",
                    new Expr.Literal(
                        JsonNodeFactory.instance.textNode(embedding.distanceFunction()))));
          }
          if (options.stream().noneMatch(p -> p.name().equals("dataType"))) {
            options.add(
                new Expr.Property(
                    "dataType",
                    new Expr.Literal(JsonNodeFactory.instance.textNode(embedding.dataType()))));
          }
          if (args.size() == 4) {
            args.set(3, new Expr.ObjectLiteral(options));
          } else {
            args.add(new Expr.ObjectLiteral(options));
          }
          return new Expr.Call(c.name(), args);
        });
  }
}
