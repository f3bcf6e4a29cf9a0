package io.cosmolab.query.ast;

import java.util.List;

/**
 * A {@code SELECT} query, at the top level or as a subquery.
 *
 * @param distinct {@code SELECT DISTINCT}
 * @param top {@code TOP n} (a literal or parameter), or null
 * @param select what each result is
 * @param from the FROM sources (the first, then each JOIN); empty without FROM
 * @param where the filter, or null
 * @param groupBy the grouping expressions (empty without GROUP BY)
 * @param orderBy the sort keys (empty without ORDER BY)
 * @param offset {@code OFFSET} (with limit), or null
 * @param limit {@code LIMIT}, or null
 */
public record Query(
    boolean distinct,
    Expr top,
    Select select,
    List<FromSource> from,
    Expr where,
    List<Expr> groupBy,
    List<OrderItem> orderBy,
    Expr offset,
    Expr limit) {

  public Query {
    from = List.copyOf(from);
    groupBy = List.copyOf(groupBy);
    orderBy = List.copyOf(orderBy);
  }

  /** The projection. */
  public sealed interface Select {
    /** {@code SELECT *}. */
    record Star() implements Select {}

    /** {@code SELECT VALUE expr}. */
    record Value(Expr expression) implements Select {}

    /** {@code SELECT a, b AS x, ...}; an item's alias is null when not given. */
    record Items(List<Item> items) implements Select {
      public Items {
        items = List.copyOf(items);
      }
    }

    /** One projected expression. */
    record Item(Expr expression, String alias) {}
  }

  /** A FROM or JOIN source, binding {@code alias} to each of its values. */
  public sealed interface FromSource {
    String alias();

    Collection collection();

    /** {@code alias IN collection}: each element of the array the collection yields. */
    record Iteration(String alias, Collection collection) implements FromSource {}

    /**
     * {@code collection [AS alias]}: the value the collection yields. A subquery may have no alias
     * ({@code JOIN (SELECT VALUE t FROM t IN c.tags WHERE ...)}, a filter on the rows): its alias
     * is then {@link #ANONYMOUS}, which no name in a query can refer to.
     */
    record Aliased(String alias, Collection collection) implements FromSource {
      /** The alias of a subquery source written without one: not an identifier. */
      public static final String ANONYMOUS = "";

      /** Whether the query wrote no alias for this source. */
      public boolean anonymous() {
        return alias.isEmpty();
      }
    }
  }

  /** Where a FROM source's values come from. */
  public sealed interface Collection {
    /** The input documents ({@code root}, {@code c}) or a previous alias, then a path. */
    record Path(String name, List<Object> segments) implements Collection {
      public Path {
        segments = List.copyOf(segments);
      }
    }

    /** {@code (SELECT ...)}. */
    record Subquery(Query query) implements Collection {}
  }

  /**
   * One ORDER BY key.
   *
   * @param expression the key
   * @param ascending the direction written, or for {@link Kind#SIMILARITY} none was written (then
   *     the order follows the distance function: see {@code VectorSearch.mostSimilarFirst})
   * @param kind how the key orders
   */
  public record OrderItem(Expr expression, boolean ascending, Kind kind) {
    /** A key with a direction (ASC when none is written). */
    public OrderItem(Expr expression, boolean ascending) {
      this(expression, ascending, Kind.KEY);
    }

    /** True for {@code ORDER BY RANK}. */
    public boolean rank() {
      return kind == Kind.RANK;
    }
  }

  /** How an ORDER BY item orders. */
  public enum Kind {
    /** By the key's value, in the direction written. */
    KEY,
    /**
     * {@code ORDER BY VectorDistance(...)} without a direction: most similar first, which is
     * descending for cosine and dot product and ascending for euclidean distance (the service's
     * documented order, "from most similar to least").
     */
    SIMILARITY,
    /**
     * {@code ORDER BY RANK f}: by the rank of a scoring function ({@code FullTextScore}, {@code
     * VectorDistance}, or their fusion {@code RRF}), best first. Always the only item.
     */
    RANK
  }
}
