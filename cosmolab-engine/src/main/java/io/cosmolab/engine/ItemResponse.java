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
 */
public record ItemResponse(
    int status,
    ObjectNode document,
    double requestCharge,
    String etag,
    long lsn,
    String partitionKeyRangeId) {

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
