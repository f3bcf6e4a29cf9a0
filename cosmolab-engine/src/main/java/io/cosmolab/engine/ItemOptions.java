package io.cosmolab.engine;

/**
 * Conditions and options of a point operation.
 *
 * @param ifMatch the write applies only if the document's etag equals this (else 412)
 * @param ifNoneMatch a read answers 304 if the document's etag equals this, or if this is {@code *}
 *     (the document exists: {@link #unchanged})
 * @param strongRead the read is strong or bounded-staleness, which charges twice the RU
 * @param excludedFromIndex the write's version is not indexed ({@code x-ms-indexing-directive:
 *     Exclude}): it is charged for no indexed terms, and a query that an index serves does not find
 *     it (a point read does; [A] a query that scans does)
 * @param preTriggers the pre-triggers to run, by id ({@code x-ms-documentdb-pre-trigger-include})
 * @param postTriggers the post-triggers to run ({@code x-ms-documentdb-post-trigger-include})
 * @param requestHeaders the request's headers, which a trigger reads with {@code
 *     getRequest().getValue(name)} (empty when the request names no trigger)
 */
public record ItemOptions(
    String ifMatch,
    String ifNoneMatch,
    boolean strongRead,
    boolean excludedFromIndex,
    java.util.List<String> preTriggers,
    java.util.List<String> postTriggers,
    java.util.Map<String, String> requestHeaders) {
  public ItemOptions {
    preTriggers = preTriggers == null ? java.util.List.of() : java.util.List.copyOf(preTriggers);
    postTriggers = postTriggers == null ? java.util.List.of() : java.util.List.copyOf(postTriggers);
    requestHeaders =
        requestHeaders == null ? java.util.Map.of() : java.util.Map.copyOf(requestHeaders);
  }

  /** Conditions, consistency, indexing and triggers, no request headers. */
  public ItemOptions(
      String ifMatch,
      String ifNoneMatch,
      boolean strongRead,
      boolean excludedFromIndex,
      java.util.List<String> preTriggers,
      java.util.List<String> postTriggers) {
    this(ifMatch, ifNoneMatch, strongRead, excludedFromIndex, preTriggers, postTriggers, null);
  }

  /** The same options, with the request's headers for its triggers to read. */
  public ItemOptions withRequestHeaders(java.util.Map<String, String> headers) {
    return new ItemOptions(
        ifMatch, ifNoneMatch, strongRead, excludedFromIndex, preTriggers, postTriggers, headers);
  }

  /** Conditions, consistency and indexing, no triggers. */
  public ItemOptions(
      String ifMatch, String ifNoneMatch, boolean strongRead, boolean excludedFromIndex) {
    this(ifMatch, ifNoneMatch, strongRead, excludedFromIndex, null, null);
  }

  /** The same options, running these triggers around the write. */
  public ItemOptions withTriggers(java.util.List<String> pre, java.util.List<String> post) {
    return new ItemOptions(
        ifMatch, ifNoneMatch, strongRead, excludedFromIndex, pre, post, requestHeaders);
  }

  /** True if the request names a trigger. */
  public boolean hasTriggers() {
    return !preTriggers.isEmpty() || !postTriggers.isEmpty();
  }

  /** No conditions, session consistency. */
  public static final ItemOptions NONE = new ItemOptions(null, null, false);

  /** Conditions and consistency; the version written is indexed. */
  public ItemOptions(String ifMatch, String ifNoneMatch, boolean strongRead) {
    this(ifMatch, ifNoneMatch, strongRead, false);
  }

  /** The same options, with the version written kept out of the index. */
  public ItemOptions excludedFromIndexing() {
    return new ItemOptions(
        ifMatch, ifNoneMatch, strongRead, true, preTriggers, postTriggers, requestHeaders);
  }

  /** The same options with another If-Match. */
  public ItemOptions withIfMatch(String etag) {
    return new ItemOptions(
        etag,
        ifNoneMatch,
        strongRead,
        excludedFromIndex,
        preTriggers,
        postTriggers,
        requestHeaders);
  }

  public static ItemOptions ifMatch(String etag) {
    return new ItemOptions(etag, null, false);
  }

  public static ItemOptions ifNoneMatch(String etag) {
    return new ItemOptions(null, etag, false);
  }

  public ItemOptions strong() {
    return new ItemOptions(
        ifMatch, ifNoneMatch, true, excludedFromIndex, preTriggers, postTriggers, requestHeaders);
  }

  /**
   * Whether a read with {@code If-None-Match: ifNoneMatch} of a document whose etag is {@code etag}
   * answers 304: the etags are equal, or the condition is {@code *} (any version), as the .NET
   * SDK's emulator tests expect of the service ({@code CosmosItemConditionalTests}).
   */
  static boolean unchanged(String ifNoneMatch, String etag) {
    return ifNoneMatch != null && (ifNoneMatch.equals("*") || ifNoneMatch.equals(etag));
  }
}
