package io.cosmolab.engine.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.document.SystemText;
import io.cosmolab.engine.document.SystemTexts;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import java.lang.ref.SoftReference;
import java.util.Objects;

/**
 * One document as stored: its place in the key order (EPK, id), its body with system properties,
 * and what the engine derived from it once (size, indexed terms) so reads and splits need not
 * derive it again.
 *
 * <p>The body is never mutated after it is stored; readers that hand it out copy it.
 *
 * <p>A class, not a record, for one mutable field: the body's JSON bytes, made at the first {@link
 * #json()} and held softly (a cache: it takes no part in equality). A record would need an object
 * to hold it, one more per stored document for the collector to copy.
 *
 * <p>A version the engine wrote makes its body's {@code _rid}, {@code _self} and {@code _etag} when
 * they are read, from its container's {@link SystemTexts} and its own sequence and LSN: it is the
 * {@link SystemText} its body holds under those names, rather than a second object per version
 * holding the same numbers (docs/benchmarks.md, "What a stored document keeps"). A copy of the body
 * holds a detached one ({@link #detached}), which does not keep this version alive.
 */
public final class StoredDocument implements SystemText {
  private final String epk;
  private final String id;
  private final PartitionKeyValue partitionKey;
  private final ObjectNode body;
  private final int sizeBytes;
  private final int indexedTerms;
  private final long lsn;
  private final long timestampMillis;
  private final long rangeLsn;
  // the body's _etag, or null when texts makes it from lsn when asked (a string kept per stored
  // version was two objects for the collector to copy, ~80 bytes)
  private final String etag;
  // what makes the body's texts, with the document's sequence (its RID's), or null when the body
  // holds them as text (a version read back from disk)
  private final SystemTexts texts;
  private final long sequence;
  // the body as JSON, held softly; two readers racing on the first read both serialize, and
  // either result is the same bytes
  private volatile SoftReference<byte[]> serialized;

  /**
   * A stored version whose texts ({@code _etag}, and its body's {@code _rid} and {@code _self} once
   * {@link io.cosmolab.engine.document.CompactObjects#putSystemText} puts this version under their
   * names) are made from {@code texts}, its sequence and its LSN when asked.
   *
   * @param epk the effective partition key
   * @param id the document id
   * @param partitionKey the partition key value
   * @param body the document, with {@code _rid}, {@code _self}, {@code _etag}, {@code _ts}
   * @param sizeBytes the size of the body as UTF-8 JSON
   * @param indexedTerms the number of indexed leaf values (for request charges), or {@link
   *     #NOT_INDEXED} for a version written with the {@code Exclude} indexing directive
   * @param lsn the position in the container's change log of the write that produced this version
   *     (the container-wide sequence that orders the log; also the etag)
   * @param timestampMillis when this version was written (injected clock; {@code _ts} in ms)
   * @param rangeLsn the LSN of that write in its physical partition's own numbering: what clients
   *     see as {@code _lsn}
   * @param texts what makes the container's texts: held here so that a read that answers with
   *     {@link #json()} need not look into the body (whose nodes a random read finds cold in the
   *     cache) for its etag
   * @param sequence the document's sequence, which its RID and link are made from
   */
  public StoredDocument(
      String epk,
      String id,
      PartitionKeyValue partitionKey,
      ObjectNode body,
      int sizeBytes,
      int indexedTerms,
      long lsn,
      long timestampMillis,
      long rangeLsn,
      SystemTexts texts,
      long sequence) {
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
        null,
        Objects.requireNonNull(texts, "texts"),
        sequence);
  }

  private StoredDocument(
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
      SystemTexts texts,
      long sequence) {
    this.epk = epk;
    this.id = id;
    this.partitionKey = partitionKey;
    this.body = body;
    this.sizeBytes = sizeBytes;
    this.indexedTerms = indexedTerms;
    this.lsn = lsn;
    this.timestampMillis = timestampMillis;
    this.rangeLsn = rangeLsn;
    this.etag = etag;
    this.texts = texts;
    this.sequence = sequence;
  }

  /**
   * A stored version, its etag read from its body.
   *
   * @throws IllegalArgumentException when the body has no text {@code _etag}
   */
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
        etagOf(body),
        null,
        0);
  }

  /** The {@code _etag} a stored body carries: every one has one. */
  private static String etagOf(ObjectNode body) {
    String etag = body.path("_etag").textValue();
    if (etag == null) {
      throw new IllegalArgumentException("a stored body without a text _etag: " + body);
    }
    return etag;
  }

  public String epk() {
    return epk;
  }

  public String id() {
    return id;
  }

  public PartitionKeyValue partitionKey() {
    return partitionKey;
  }

  public ObjectNode body() {
    return body;
  }

  public int sizeBytes() {
    return sizeBytes;
  }

  /** The number of indexed leaf values a write of this version is charged for (0 if unindexed). */
  public int indexedTerms() {
    return Math.max(0, indexedTerms);
  }

  /**
   * Whether this version is in the container's range indexes: false when it was written with the
   * {@code Exclude} indexing directive (then a query that an index serves does not find it).
   */
  public boolean indexed() {
    return indexedTerms != NOT_INDEXED;
  }

  /**
   * {@code indexedTerms} of a version written with the {@code Exclude} indexing directive: one
   * number says both how much it was charged for (nothing) and that no index holds it, so a stored
   * document costs no more than before.
   */
  public static final int NOT_INDEXED = -1;

  /** What the store persists for {@link #indexedTerms} and {@link #indexed} together. */
  public int indexedTermsOrNotIndexed() {
    return indexedTerms;
  }

  public long lsn() {
    return lsn;
  }

  public long timestampMillis() {
    return timestampMillis;
  }

  public long rangeLsn() {
    return rangeLsn;
  }

  public String etag() {
    return etag != null ? etag : texts.etag(lsn);
  }

  /**
   * The text of {@code _rid}, {@code _self} or {@code _etag}, for a body that holds this version
   * under those names.
   */
  @Override
  public String text(String name) {
    return texts().text(name, sequence, lsn);
  }

  @Override
  public long documentPart() {
    return texts().documentPart(sequence);
  }

  /** What makes this version's texts; a version read back from disk has its texts in its body. */
  private SystemTexts texts() {
    if (texts == null) {
      throw new IllegalStateException("a version read back holds its texts in its body: " + this);
    }
    return texts;
  }

  @Override
  public SystemText detached() {
    return texts == null ? this : texts.of(sequence, lsn);
  }

  /**
   * The body as JSON, as {@link io.cosmolab.engine.document.JsonTrees#write} writes it: made once
   * per stored version and reused by every read that answers it whole (a point read's response is
   * most of a read's work otherwise), until the collector takes it back. Do not modify the array.
   */
  public byte[] json() {
    SoftReference<byte[]> ref = serialized;
    byte[] b = ref == null ? null : ref.get();
    if (b == null) {
      b = io.cosmolab.engine.document.JsonTrees.write(body);
      serialized = new SoftReference<>(b);
    }
    return b;
  }

  /** Equal when every field is (the cached JSON aside), as the record this was. */
  @Override
  public boolean equals(Object o) {
    return o instanceof StoredDocument d
        && sizeBytes == d.sizeBytes
        && indexedTerms == d.indexedTerms
        && lsn == d.lsn
        && timestampMillis == d.timestampMillis
        && rangeLsn == d.rangeLsn
        && epk.equals(d.epk)
        && id.equals(d.id)
        && Objects.equals(partitionKey, d.partitionKey)
        && body.equals(d.body)
        && Objects.equals(etag(), d.etag());
  }

  @Override
  public int hashCode() {
    return Objects.hash(epk, id, lsn, rangeLsn);
  }

  @Override
  public String toString() {
    return "StoredDocument[epk="
        + epk
        + ", id="
        + id
        + ", lsn="
        + lsn
        + ", rangeLsn="
        + rangeLsn
        + ", sizeBytes="
        + sizeBytes
        + ", etag="
        + etag()
        + "]";
  }
}
