package io.cosmolab.engine.query;

/**
 * The work behind a query page, as the service's query metrics report it.
 *
 * @param partitionsTargeted physical partitions the query ran on
 * @param documentsLoaded documents read from storage
 * @param bytesLoaded their size
 * @param documentsReturned rows in this page
 * @param bytesReturned their size
 * @param indexHits documents found through an index (0 while every query scans)
 * @param indexUsage which indexes served the query and which would have, worked out when asked (a
 *     client asks with {@code x-ms-cosmos-populateindexmetrics}; most pages are never asked)
 * @param times where the page's time went, by phase
 */
public record QueryMetrics(
    int partitionsTargeted,
    long documentsLoaded,
    long bytesLoaded,
    long documentsReturned,
    long bytesReturned,
    long indexHits,
    java.util.function.Supplier<IndexUtilization> indexUsage,
    Times times) {
  /**
   * The engine's time for a page, by phase, in nanoseconds of wall time (measured, not modelled:
   * they vary with the machine, as the service's do).
   *
   * @param compileNanos parsing and checking the text (a text seen before is parsed once)
   * @param logicalPlanNanos rewriting it: the search policy, computed properties, paging bounds
   * @param physicalPlanNanos choosing where it runs: partitions, admission, the indexes that serve
   *     its filter
   * @param indexLookupNanos finding the documents those indexes name (0 when none serves it)
   * @param executionNanos running it over its input and writing the page's rows; documents load as
   *     the query pulls them, so their loading is part of this
   */
  public record Times(
      long compileNanos,
      long logicalPlanNanos,
      long physicalPlanNanos,
      long indexLookupNanos,
      long executionNanos) {}

  /** Which indexes served the query and which would have. */
  public IndexUtilization indexUse() {
    return indexUsage.get();
  }
}
