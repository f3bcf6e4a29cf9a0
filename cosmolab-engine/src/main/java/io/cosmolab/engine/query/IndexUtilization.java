package io.cosmolab.engine.query;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.query.plan.IndexPredicate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which indexes a query used and which would have served it, as the service reports them when a
 * query asks with {@code x-ms-cosmos-populateindexmetrics: true} (the SDKs' index metrics): the
 * filters an index served (utilized single indexes), the filters on paths the indexing policy
 * excludes (potential single indexes: adding the path would let an index serve them instead of a
 * scan), and the composite index an ORDER BY of several paths used.
 *
 * <p>[A] The service's own analysis also proposes composite indexes for filters combined with an
 * ORDER BY and scores each entry's impact; cosmolab lists what its own planner decides, every
 * potential index with the impact "High" (a scan it would avoid), and proposes no composites.
 *
 * @param utilized the filters served by a range index, with its path
 * @param potential the filters a range index on their excluded path would serve
 * @param utilizedComposite the composite index an ORDER BY used, as {@code /path ASC} entries
 */
public record IndexUtilization(
    List<SingleIndex> utilized, List<SingleIndex> potential, List<String> utilizedComposite) {
  /** Nothing used, nothing missed (no filter an index could serve). */
  public static final IndexUtilization NONE = new IndexUtilization(List.of(), List.of(), List.of());

  public IndexUtilization {
    utilized = List.copyOf(utilized);
    potential = List.copyOf(potential);
    utilizedComposite = List.copyOf(utilizedComposite);
  }

  /** A filter and the range index ({@code /path/?}) that serves it or would. */
  public record SingleIndex(String filter, String indexSpec) {}

  /**
   * The utilization of a query's index-servable filters.
   *
   * @param predicates the query's index-servable conjuncts
   * @param served those the engine served from an index
   * @param indexed whether the indexing policy indexes a path
   * @param usable which of a conjunction's comparisons an index lookup serves (the engine's rule,
   *     for the branches of a served disjunction)
   * @param orderBy the ORDER BY paths with their directions when a composite index serves them
   *     (empty otherwise)
   */
  public static IndexUtilization of(
      List<IndexPredicate> predicates,
      List<IndexPredicate> served,
      java.util.function.Predicate<List<String>> indexed,
      java.util.function.Function<List<IndexPredicate>, List<IndexPredicate>> usable,
      List<String> orderBy) {
    List<SingleIndex> utilized = new ArrayList<>();
    List<SingleIndex> potential = new ArrayList<>();
    for (IndexPredicate p : predicates) {
      if (p.op() == IndexPredicate.Op.ANY_OF) {
        // each branch's comparisons: those the index served it (by the engine's own rule), or
        // named where no index holds their path
        for (List<IndexPredicate> branch : p.branches()) {
          List<IndexPredicate> used = served.contains(p) ? usable.apply(branch) : List.of();
          IndexUtilization inner = of(branch, used, indexed, usable, List.of());
          utilized.addAll(inner.utilized());
          potential.addAll(inner.potential());
        }
        continue;
      }
      SingleIndex entry = new SingleIndex(filter(p), indexSpec(p.path()));
      if (served.contains(p)) {
        utilized.add(entry);
      } else if (!indexed.test(p.path())) {
        potential.add(entry);
      }
    }
    return new IndexUtilization(utilized, potential, orderBy);
  }

  /**
   * The index path of a property path as the service names it: {@code /a/b/?}, a segment that is
   * not an identifier in double quotes ({@code /"first name"/?}), as the .NET SDK's
   * IndexUtilizationParse baseline shows.
   */
  static String indexSpec(List<String> path) {
    StringBuilder out = new StringBuilder();
    for (String segment : path) {
      out.append('/');
      if (isIdentifier(segment)) {
        out.append(segment);
      } else {
        out.append('"').append(segment.replace("\"", "\\\"")).append('"');
      }
    }
    return out.append("/?").toString();
  }

  private static boolean isIdentifier(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      boolean letter = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_';
      if (!letter && (i == 0 || ch < '0' || ch > '9')) {
        return false;
      }
    }
    return true;
  }

  /** The filter as the service writes it: {@code (ROOT.a.b = "x")}. */
  private static String filter(IndexPredicate p) {
    String path = "ROOT." + String.join(".", p.path());
    String op =
        switch (p.op()) {
          case EQUAL -> "=";
          case LESS -> "<";
          case LESS_OR_EQUAL -> "<=";
          case GREATER -> ">";
          case GREATER_OR_EQUAL -> ">=";
          case STARTS_WITH -> null; // a function, written below
          case ANY_OF -> throw new IllegalArgumentException("a disjunction is listed by branch");
        };
    if (op == null) {
      return String.format(Locale.ROOT, "(STARTSWITH(%s, %s))", path, p.values().get(0));
    }
    if (p.values().size() > 1) {
      List<String> values = new ArrayList<>();
      for (JsonNode v : p.values()) {
        values.add(v.toString());
      }
      return String.format(Locale.ROOT, "(%s IN (%s))", path, String.join(", ", values));
    }
    return String.format(Locale.ROOT, "(%s %s %s)", path, op, p.values().get(0));
  }
}
