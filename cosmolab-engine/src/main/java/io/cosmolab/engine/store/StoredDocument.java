package io.cosmolab.engine.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.partitioning.PartitionKeyValue;

/**
 * One document as stored: its place in the key order (EPK, id), its body with system properties,
 * and what the engine derived from it once (size, indexed terms) so reads and splits need not
 * derive it again.
 *
 * <p>The body is never mutated after it is stored; readers that hand it out copy it.
 *
 * @param epk the effective partition key
 * @param id the document id
 * @param partitionKey the partition key value
 * @param body the document, with {@code _rid}, {@code _self}, {@code _etag}, {@code _ts}
 * @param sizeBytes the size of the body as UTF-8 JSON
 * @param indexedTerms the number of indexed leaf values (for request charges)
 * @param lsn the position in the container's change log of the write that produced this version
 *     (the container-wide sequence that orders the log; also the etag)
 * @param timestampMillis when this version was written (injected clock; {@code _ts} in ms)
 * @param rangeLsn the LSN of that write in its physical partition's own numbering: what clients see
 *     as {@code _lsn}
 */
public record StoredDocument(
    String epk,
    String id,
    PartitionKeyValue partitionKey,
    ObjectNode body,
    int sizeBytes,
    int indexedTerms,
    long lsn,
    long timestampMillis,
    long rangeLsn) {

  public String etag() {
    return body.get("_etag").textValue();
  }
}
