package io.cosmolab.engine;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.index.IndexingPolicy;
import io.cosmolab.query.ast.Expr;
import io.cosmolab.query.ast.Query;
import io.cosmolab.query.plan.IndexPredicate;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * How an ORDER BY is served, as the service serves it from its indexes: what it refuses (with the
 * service's messages), the composite index an ORDER BY of several paths uses, and the document
 * paths a page can walk in sort order ({@link OrderedWalk}). An item is a path of the documents
 * through the FROM clause's own path ({@code FROM c.address a ORDER BY a.city} is {@code
 * /address/city}). Stateless: it reads the query, the indexing policy and which paths the
 * container's index serves.
 */
final class OrderByPaths {
  private OrderByPaths() {}

  /**
   * The service serves ORDER BY from its indexes, so it refuses what they cannot serve [D]
   * ("Indexing policies"; the messages are the service's): an item that is not a property path, one
   * path the policy does not index, and two or more paths without a composite index listing them in
   * order with the same directions, or all reversed.
   *
   * @return the composite index an ORDER BY of several paths uses, as {@code /path ASC} entries
   *     (the index metrics list it); empty for any other ORDER BY
   */
  static List<String> check(Query q, IndexingPolicy policy, Predicate<List<String>> indexed) {
    if (q.orderBy().isEmpty() || q.from().isEmpty()) {
      return List.of();
    }
    Query.FromSource first = q.from().get(0);
    String root = first.alias();
    // the FROM's path from the document (FROM c.address a: a.city is /address/city); a FROM
    // subquery's rows are its own values, whose paths start at its alias; a FROM path through a
    // parameter names no path before the query runs, so nothing is checked against the policy
    List<String> prefix =
        first.collection() instanceof Query.Collection.Subquery ? List.of() : fromPath(q, true);
    List<String> paths = new ArrayList<>();
    List<Boolean> ascending = new ArrayList<>();
    List<String> specs = new ArrayList<>();
    for (Query.OrderItem item : q.orderBy()) {
      if (item.rank() || io.cosmolab.query.plan.HybridSearchPlanner.isScore(item.expression())) {
        // a search score: computed by brute force over the documents read (VectorSearch)
        continue;
      }
      if (correlated(q, item.expression())) {
        throw CosmosError.BAD_REQUEST.exception(
            "Order-by over correlated collections is not supported.");
      }
      List<String> segments = IndexPredicate.documentPath(item.expression(), root);
      if (segments == null) {
        throw CosmosError.BAD_REQUEST.exception(
            "Unsupported ORDER BY clause. ORDER BY item expression %s could not be mapped to a"
                + " document path.",
            io.cosmolab.query.plan.SqlWriter.write(item.expression()));
      }
      if (prefix == null) {
        continue;
      }
      segments = concat(prefix, segments);
      if (q.orderBy().size() == 1 && !indexed.test(segments)) {
        throw CosmosError.BAD_REQUEST.exception(
            "Order-by item requires a range index to be defined on the corresponding index path:"
                + " /%s is excluded by the container's indexing policy.",
            String.join("/", segments));
      }
      paths.add("/" + String.join("/", segments));
      ascending.add(item.ascending());
      specs.add(paths.get(paths.size() - 1) + (item.ascending() ? " ASC" : " DESC"));
    }
    if (paths.size() > 1 && !policy.servesOrderBy(paths, ascending)) {
      throw CosmosError.BAD_REQUEST.exception(
          "The order by query does not have a corresponding composite index that it can be served"
              + " from. Add a composite index (%s) to the container's indexing policy.",
          String.join(", ", specs));
    }
    return paths.size() > 1 ? specs : List.of();
  }

  /**
   * The document path the first FROM source's alias stands for: empty for {@code FROM c}, [address]
   * for {@code FROM c.address a}, with array positions as segments when {@code positions} (as
   * {@link IndexPredicate#documentPath}). Null when its values are not one document path's: an
   * iteration ({@code FROM t IN c.tags}), a subquery, a path through a parameter, or (without
   * {@code positions}) through an array position.
   */
  private static List<String> fromPath(Query q, boolean positions) {
    if (q.from().isEmpty()
        || !(q.from().get(0) instanceof Query.FromSource.Aliased from)
        || !(from.collection() instanceof Query.Collection.Path p)) {
      return null;
    }
    List<String> segments = new ArrayList<>(p.segments().size());
    for (Object segment : p.segments()) {
      if (segment instanceof String name) {
        segments.add(name);
      } else if (positions && segment instanceof Integer i && i >= 0) {
        segments.add(Integer.toString(i));
      } else {
        return null;
      }
    }
    return segments;
  }

  private static List<String> concat(List<String> prefix, List<String> path) {
    if (prefix.isEmpty()) {
      return path;
    }
    List<String> all = new ArrayList<>(prefix.size() + path.size());
    all.addAll(prefix);
    all.addAll(path);
    return all;
  }

  /**
   * Whether an ORDER BY item reads a value the FROM clause iterates: a JOIN's alias, or the alias
   * of {@code FROM t IN c.tags}. The service refuses to sort by those [D]: its indexes order
   * documents, not the elements of their arrays.
   */
  private static boolean correlated(Query q, Expr e) {
    Expr base = e;
    while (true) {
      if (base instanceof Expr.Member m) {
        base = m.target();
      } else if (base instanceof Expr.Index i) {
        base = i.target();
      } else {
        break;
      }
    }
    if (!(base instanceof Expr.Identifier id)) {
      return false;
    }
    // the innermost binding of the name: a JOIN may rebind the root's alias
    for (int i = q.from().size() - 1; i >= 0; i--) {
      Query.FromSource source = q.from().get(i);
      if (source.alias().equals(id.name())) {
        return i > 0 || source instanceof Query.FromSource.Iteration;
      }
    }
    return false;
  }

  /**
   * The property paths of an ORDER BY whose page can walk the first one's index in sort order
   * ({@link OrderedWalk}), or null: every item a property path of the documents (no array position,
   * no score, nothing of a JOIN's), over the documents or one path of theirs ({@code FROM c.address
   * a}: a document makes one row or none; JOINs may follow, their rows keep their document's keys),
   * the first on a path the indexing policy indexes. (Several items need a composite index, which
   * {@link #check} has asked for.)
   */
  static List<List<String>> walkable(Query q, Predicate<List<String>> indexed) {
    List<String> prefix = fromPath(q, false);
    if (prefix == null) {
      return null;
    }
    String alias = q.from().get(0).alias();
    List<List<String>> paths = new ArrayList<>(q.orderBy().size());
    for (Query.OrderItem item : q.orderBy()) {
      List<String> path =
          item.kind() == Query.Kind.KEY ? IndexPredicate.path(item.expression(), alias) : null;
      if (path == null || path.isEmpty()) {
        return null;
      }
      paths.add(concat(prefix, path));
    }
    // (a JOIN that rebinds the root's alias makes the items its values: refused before, as
    // correlated, by check)
    return !paths.isEmpty() && indexed.test(paths.get(0)) ? paths : null;
  }
}
