package io.cosmolab.engine.index;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.error.CosmosError;
import java.util.ArrayList;
import java.util.List;

/**
 * Which document paths are indexed, and the composite indexes, in the service's form: included and
 * excluded path patterns ({@code /*} everything below, {@code /a/?} exactly the value at /a, {@code
 * /a/*} /a and below). The most specific (longest) matching pattern decides; the default includes
 * everything ({@code /*}) and excludes {@code /"_etag"/?}, as new containers on the service do.
 * Mode {@code none} indexes nothing.
 *
 * <p>Composite indexes ({@code [[{"path": "/a", "order": "ascending"}, ...], ...]}) are what an
 * ORDER BY on two or more properties needs: the service refuses such a query unless a composite
 * index lists its paths in order with its directions, or all of them reversed ([D] "Indexing
 * policies": "Queries that have an ORDER BY clause with two or more properties require a composite
 * index").
 */
public record IndexingPolicy(
    String mode,
    List<String> includedPaths,
    List<String> excludedPaths,
    List<List<IndexingPolicy.CompositePath>> compositeIndexes) {

  /** One path of a composite index with its direction. */
  public record CompositePath(String path, boolean ascending) {}

  public static final IndexingPolicy DEFAULT =
      new IndexingPolicy("consistent", List.of("/*"), List.of("/\"_etag\"/?"), List.of());

  /** A policy with these included and excluded paths and no composite indexes. */
  public IndexingPolicy(String mode, List<String> includedPaths, List<String> excludedPaths) {
    this(mode, includedPaths, excludedPaths, List.of());
  }

  /** This policy with one more composite index, e.g. {@code ("/a", true), ("/b", false)}. */
  public IndexingPolicy withCompositeIndex(CompositePath... paths) {
    List<List<CompositePath>> all = new ArrayList<>(compositeIndexes);
    all.add(List.of(paths));
    return new IndexingPolicy(mode, includedPaths, excludedPaths, all);
  }

  /**
   * Whether a composite index serves an ORDER BY on these paths (as {@code /a/b}) with these
   * directions: the index lists the same paths in the same order, with the same directions or all
   * of them reversed.
   */
  public boolean servesOrderBy(List<String> paths, List<Boolean> ascending) {
    for (List<CompositePath> index : compositeIndexes) {
      if (index.size() != paths.size()) {
        continue;
      }
      boolean same = true;
      boolean reversed = true;
      for (int i = 0; i < index.size(); i++) {
        if (!index.get(i).path().equals(paths.get(i))) {
          same = false;
          reversed = false;
          break;
        }
        same &= index.get(i).ascending() == ascending.get(i);
        reversed &= index.get(i).ascending() != ascending.get(i);
      }
      if (same || reversed) {
        return true;
      }
    }
    return false;
  }

  public IndexingPolicy {
    mode = mode == null ? "consistent" : mode.toLowerCase(java.util.Locale.ROOT);
    if (!mode.equals("consistent") && !mode.equals("none") && !mode.equals("lazy")) {
      throw CosmosError.BAD_REQUEST.exception(
          "indexingMode must be consistent, lazy or none, was '%s'", mode);
    }
    includedPaths = List.copyOf(includedPaths);
    excludedPaths = List.copyOf(excludedPaths);
    List<List<CompositePath>> composites = new ArrayList<>();
    for (List<CompositePath> c :
        compositeIndexes == null ? List.<List<CompositePath>>of() : compositeIndexes) {
      if (c.size() < 2) {
        throw CosmosError.BAD_REQUEST.exception(
            "a composite index needs at least two paths, got %s", c);
      }
      composites.add(List.copyOf(c));
    }
    compositeIndexes = List.copyOf(composites);
    for (String p : includedPaths) {
      check(p);
    }
    for (String p : excludedPaths) {
      check(p);
    }
  }

  private static void check(String pattern) {
    if (pattern == null
        || !pattern.startsWith("/")
        || !(pattern.endsWith("/*") || pattern.endsWith("/?") || pattern.equals("/*"))) {
      throw CosmosError.BAD_REQUEST.exception(
          "index path '%s' must start with '/' and end with '/*' or '/?', e.g. \"/name/?\"",
          pattern);
    }
  }

  /**
   * What a write's charge counts as indexed: null when every path is (the default policy, whose
   * only exclusion is the system {@code _etag}: the cost model's fast path), else this policy's
   * {@link #isIndexed}, which sees array elements as {@code []}.
   */
  public java.util.function.Predicate<List<String>> chargedTerms() {
    boolean everything =
        mode.equals("consistent")
            && includedPaths.equals(DEFAULT.includedPaths())
            && DEFAULT.excludedPaths().containsAll(excludedPaths);
    return everything ? null : this::isIndexed;
  }

  /** Whether the value at {@code path} (segments from the document root) is indexed. */
  public boolean isIndexed(List<String> path) {
    if (mode.equals("none")) {
      return false;
    }
    int bestIncluded = best(includedPaths, path);
    int bestExcluded = best(excludedPaths, path);
    return bestIncluded >= 0 && bestIncluded >= bestExcluded;
  }

  /**
   * Whether a path is indexed by an included path that names it, not only by the root wildcard
   * {@code /*}: what a computed property needs to be indexed [D "Computed properties": they are not
   * indexed by the wildcard, only by an explicit included path].
   */
  public boolean isExplicitlyIncluded(List<String> path) {
    if (mode.equals("none")) {
      return false;
    }
    int bestIncluded = best(includedPaths, path);
    return bestIncluded >= 1 && bestIncluded >= best(excludedPaths, path);
  }

  /** The length (in segments) of the longest pattern matching the path, or -1. */
  private static int best(List<String> patterns, List<String> path) {
    int best = -1;
    for (String p : patterns) {
      Pattern pattern = Pattern.of(p);
      List<String> segs = pattern.segments();
      if (segs.size() > path.size()) {
        continue;
      }
      boolean prefix = true;
      for (int i = 0; i < segs.size(); i++) {
        if (!segs.get(i).equals(path.get(i))) {
          prefix = false;
          break;
        }
      }
      if (prefix && (pattern.below() || segs.size() == path.size())) {
        best = Math.max(best, segs.size() * 2 + (pattern.below() ? 0 : 1));
      }
    }
    return best;
  }

  /**
   * A path pattern, parsed: its segments before the last, unquoted, and whether the last is {@code
   * *} (the path and everything below) rather than {@code ?} (exactly the value there).
   */
  private record Pattern(List<String> segments, boolean below) {
    /**
     * Patterns are parsed once: a write asks about every leaf of its document, a query about each
     * filter. The cache holds the patterns of the policies in use; it is emptied past its bound, so
     * policies made and dropped by the thousand cannot grow it.
     */
    private static final java.util.concurrent.ConcurrentHashMap<String, Pattern> PARSED =
        new java.util.concurrent.ConcurrentHashMap<>();

    private static final int MAX_CACHED = 4096;

    static Pattern of(String pattern) {
      Pattern p = PARSED.get(pattern);
      if (p == null) {
        if (PARSED.size() >= MAX_CACHED) {
          PARSED.clear();
        }
        p = parse(pattern);
        PARSED.put(pattern, p);
      }
      return p;
    }

    private static Pattern parse(String pattern) {
      List<String> out = new ArrayList<>();
      for (String s : pattern.substring(1).split("/", -1)) {
        out.add(
            s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"")
                ? s.substring(1, s.length() - 1)
                : s);
      }
      String last = out.remove(out.size() - 1); // "*" or "?"
      return new Pattern(List.copyOf(out), last.equals("*"));
    }
  }

  /** The REST form. */
  public ObjectNode toJson() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("indexingMode", mode);
    n.put("automatic", true);
    n.putArray("includedPaths");
    n.putArray("excludedPaths");
    includedPaths.forEach(p -> n.withArray("includedPaths").addObject().put("path", p));
    excludedPaths.forEach(p -> n.withArray("excludedPaths").addObject().put("path", p));
    com.fasterxml.jackson.databind.node.ArrayNode composites = n.putArray("compositeIndexes");
    for (List<CompositePath> c : compositeIndexes) {
      com.fasterxml.jackson.databind.node.ArrayNode index = composites.addArray();
      for (CompositePath p : c) {
        index
            .addObject()
            .put("path", p.path())
            .put("order", p.ascending() ? "ascending" : "descending");
      }
    }
    return n;
  }

  /** Parses the REST form; missing parts take the defaults. */
  public static IndexingPolicy fromJson(JsonNode json) {
    if (json == null || json.isNull()) {
      return DEFAULT;
    }
    String mode = json.path("indexingMode").asText("consistent");
    List<String> included = paths(json.get("includedPaths"), DEFAULT.includedPaths());
    List<String> excluded = new ArrayList<>(paths(json.get("excludedPaths"), List.of()));
    // The service excludes the system _etag from an indexing policy that does not name it ({}
    // included), and lists it when the policy is read back; a policy that names it, included or
    // excluded, quoted or not, is kept as sent (Spring Data Cosmos's emulator tests,
    // IndexPolicyUpdateIT and CosmosAnnotationIT, read back exactly the paths they sent).
    String etag = DEFAULT.excludedPaths().get(0);
    if (!mode.equalsIgnoreCase("none") && !namesEtag(included) && !namesEtag(excluded)) {
      excluded.add(etag);
    }
    List<List<CompositePath>> composites = new ArrayList<>();
    JsonNode c = json.get("compositeIndexes");
    if (c != null && c.isArray()) {
      for (JsonNode index : c) {
        List<CompositePath> paths = new ArrayList<>();
        for (JsonNode p : index) {
          String order = p.path("order").asText("ascending");
          if (!order.equalsIgnoreCase("ascending") && !order.equalsIgnoreCase("descending")) {
            throw CosmosError.BAD_REQUEST.exception(
                "composite index order must be ascending or descending, was '%s'", order);
          }
          paths.add(
              new CompositePath(p.path("path").asText(), order.equalsIgnoreCase("ascending")));
        }
        composites.add(paths);
      }
    }
    return new IndexingPolicy(mode, included, excluded, composites);
  }

  /**
   * Whether {@code paths} name the system {@code _etag}: {@code /"_etag"/?} or {@code /_etag/?}.
   */
  private static boolean namesEtag(List<String> paths) {
    for (String p : paths) {
      if (p != null && (p.startsWith("/\"_etag\"/") || p.startsWith("/_etag/"))) {
        return true;
      }
    }
    return false;
  }

  private static List<String> paths(JsonNode array, List<String> fallback) {
    if (array == null || !array.isArray()) {
      return fallback;
    }
    List<String> out = new ArrayList<>();
    for (JsonNode p : array) {
      String path = p.isTextual() ? p.textValue() : p.path("path").asText(null);
      // "/" is the older SDKs' form of the root, which the service still accepts: all of it [A]
      out.add("/".equals(path) ? "/*" : path);
    }
    return out;
  }
}
