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
 */
public record QueryMetrics(
    int partitionsTargeted,
    long documentsLoaded,
    long bytesLoaded,
    long documentsReturned,
    long bytesReturned,
    long indexHits,
    java.util.function.Supplier<IndexUtilization> indexUsage) {
  /** Which indexes served the query and which would have. */
  public IndexUtilization indexUse() {
    return indexUsage.get();
  }
}
