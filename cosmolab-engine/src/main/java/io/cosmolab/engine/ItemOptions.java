package io.cosmolab.engine;

/**
 * Conditions and options of a point operation.
 *
 * @param ifMatch the write applies only if the document's etag equals this (else 412)
 * @param ifNoneMatch a read answers 304 if the document's etag equals this
 * @param strongRead the read is strong or bounded-staleness, which charges twice the RU
 * @param excludedFromIndex the write's version is not indexed ({@code x-ms-indexing-directive:
 *     Exclude}), so it is charged for no indexed terms. [A] Queries still find it here; on the
 *     service a query that uses the index does not (unverified, so not modelled)
 */
public record ItemOptions(
    String ifMatch, String ifNoneMatch, boolean strongRead, boolean excludedFromIndex) {
  /** No conditions, session consistency. */
  public static final ItemOptions NONE = new ItemOptions(null, null, false);

  /** Conditions and consistency; the version written is indexed. */
  public ItemOptions(String ifMatch, String ifNoneMatch, boolean strongRead) {
    this(ifMatch, ifNoneMatch, strongRead, false);
  }

  /** The same options, with the version written kept out of the index. */
  public ItemOptions excludedFromIndexing() {
    return new ItemOptions(ifMatch, ifNoneMatch, strongRead, true);
  }

  /** The same options with another If-Match. */
  public ItemOptions withIfMatch(String etag) {
    return new ItemOptions(etag, ifNoneMatch, strongRead, excludedFromIndex);
  }

  public static ItemOptions ifMatch(String etag) {
    return new ItemOptions(etag, null, false);
  }

  public static ItemOptions ifNoneMatch(String etag) {
    return new ItemOptions(null, etag, false);
  }

  public ItemOptions strong() {
    return new ItemOptions(ifMatch, ifNoneMatch, true, excludedFromIndex);
  }
}
