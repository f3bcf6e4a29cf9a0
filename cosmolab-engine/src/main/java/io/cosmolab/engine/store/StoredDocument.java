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
 * @param etag the body's {@code _etag}, kept beside it so that a read that answers with {@link
 *     #json()} need not look into the body (whose nodes a random read finds cold in the cache)
 * @param serialized the body as JSON bytes, made at the first {@link #json()} and held softly (a
 *     cache: it takes no part in equality)
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
    long rangeLsn,
    String etag,
    Serialized serialized) {

  public StoredDocument {
    serialized = serialized == null ? new Serialized() : serialized;
  }

  /** A stored version, its etag read from its body, its JSON bytes made when first asked for. */
  public StoredDocument(
      String epk,
      String id,
      PartitionKeyValue partitionKey,
      ObjectNode body,
      int sizeBytes,
      int indexedTerms,
      long lsn,
      long timestampMillis,
      long rangeLsn) {
    this(
        epk,
        id,
        partitionKey,
        body,
        sizeBytes,
        indexedTerms,
        lsn,
        timestampMillis,
        rangeLsn,
        body.path("_etag").textValue(),
        null);
  }

  /**
   * The body as JSON, as {@link io.cosmolab.engine.document.JsonTrees#write} writes it: made once
   * per stored version and reused by every read that answers it whole (a point read's response is
   * most of a read's work otherwise). Do not modify the array.
   */
  public byte[] json() {
    return serialized.of(body);
  }

  /**
   * The serialized form of one stored version. Held softly, so the collector takes it back before
   * memory runs short (a document read once costs its bytes only until then); two readers racing on
   * the first read both serialize, and either result is the same bytes. Not part of equality.
   */
  public static final class Serialized {
    private volatile java.lang.ref.SoftReference<byte[]> bytes;

    /** Nothing serialized yet. */
    public Serialized() {}

    byte[] of(ObjectNode body) {
      java.lang.ref.SoftReference<byte[]> ref = bytes;
      byte[] b = ref == null ? null : ref.get();
      if (b == null) {
        b = io.cosmolab.engine.document.JsonTrees.write(body);
        bytes = new java.lang.ref.SoftReference<>(b);
      }
      return b;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Serialized;
    }

    @Override
    public int hashCode() {
      return 0;
    }
  }
}
