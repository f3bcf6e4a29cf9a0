package io.cosmolab.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The result of a point operation.
 *
 * @param status 200, 201, 204 (delete) or 304 (read with a matching If-None-Match)
 * @param document the document as stored, with system properties; null for 204 and 304. The
 *     accessor returns a copy, made when asked for; {@link #documentView()} returns the stored
 *     document itself, which must not be modified
 * @param requestCharge the RU charged
 * @param etag the document's etag (null after a delete)
 * @param lsn the LSN of the physical partition that served it, in the partition's own numbering:
 *     its write's, or the partition's latest for a read (for session tokens)
 * @param partitionKeyRangeId the physical partition that served it
 * @param stored the stored version it answers with, whose serialized form a response can reuse;
 *     null when the response's document is not a stored version
 */
public record ItemResponse(
    int status,
    ObjectNode document,
    double requestCharge,
    String etag,
    long lsn,
    String partitionKeyRangeId,
    io.cosmolab.engine.store.StoredDocument stored) {

  /** A result whose document (if any) is not reused from the store. */
  public ItemResponse(
      int status,
      ObjectNode document,
      double requestCharge,
      String etag,
      long lsn,
      String partitionKeyRangeId) {
    this(status, document, requestCharge, etag, lsn, partitionKeyRangeId, null);
  }

  /**
   * The document as JSON bytes: the stored version's own serialized form when there is one (made
   * once and reused by every read), else written now; null without a document. Do not modify.
   */
  @SuppressWarnings("ReferenceEquality") // the very stored body, not an equal one
  public byte[] documentJson() {
    if (document == null) {
      return null;
    }
    return stored != null && stored.body() == document
        ? stored.json()
        : io.cosmolab.engine.document.JsonTrees.write(document);
  }

  /** A copy of the document, which the caller may modify. */
  @Override
  public ObjectNode document() {
    return document == null ? null : document.deepCopy();
  }

  /**
   * The document as stored, without a copy: for serializing it (the gateway). It must not be
   * modified.
   */
  public ObjectNode documentView() {
    return document;
  }
}
