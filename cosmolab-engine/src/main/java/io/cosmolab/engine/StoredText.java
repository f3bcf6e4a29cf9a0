package io.cosmolab.engine;

import io.cosmolab.engine.document.Etags;
import io.cosmolab.engine.document.SystemText;
import io.cosmolab.engine.document.SystemTexts;
import io.cosmolab.engine.resource.ResourceIds;
import java.nio.charset.StandardCharsets;

/**
 * A version's {@code _rid}, {@code _self} and {@code _etag}, made from its container's {@link
 * Source}, its document's sequence and its LSN when they are read: what a copy of a stored body
 * keeps ({@link SystemText#detached}); a stored version is its own (StoredDocument), one object
 * fewer. Either is in place of nine objects (a string, its bytes and a text node for each). The
 * texts are written as bytes straight from the numbers ({@code ResourceIds.writeDocument};
 * StoredTextTest holds them to {@code ResourceIds.encode} and the etag format), since every query
 * row and first read makes them.
 */
final class StoredText implements SystemText {
  private final Source source;
  private final long sequence;
  private final long lsn;

  StoredText(Source source, long sequence, long lsn) {
    this.source = source;
    this.sequence = sequence;
    this.lsn = lsn;
  }

  @Override
  public String text(String name) {
    return source.text(name, sequence, lsn);
  }

  @Override
  public long documentPart() {
    return source.documentPart(sequence);
  }

  @Override
  public String toString() {
    return "StoredText[" + source.rid(sequence) + " at LSN " + lsn + "]";
  }

  /**
   * What a container's stored texts share: its RID's bytes, its link and its etag salt (not the
   * container itself, which a document outliving it, in a store a later engine opens, would keep
   * alive).
   */
  static final class Source implements SystemTexts {
    private final byte[] containerRid; // 8 bytes
    private final byte[] selfPrefix; // "dbs/{db}/colls/{coll}/docs/"
    private final int etagSalt;

    Source(byte[] containerRid, String selfLink, int etagSalt) {
      if (containerRid.length != 8) {
        throw new IllegalArgumentException("a container RID is 8 bytes: " + containerRid.length);
      }
      this.containerRid = containerRid.clone();
      this.selfPrefix = (selfLink + "docs/").getBytes(StandardCharsets.UTF_8);
      this.etagSalt = etagSalt;
    }

    @Override
    public String rid(long sequence) {
      byte[] out = new byte[ResourceIds.DOCUMENT_RID_CHARS];
      ResourceIds.writeDocument(containerRid, sequence, out, 0);
      return new String(out, StandardCharsets.ISO_8859_1);
    }

    /** {@code dbs/{db}/colls/{coll}/docs/{rid}/}. */
    @Override
    public String self(long sequence) {
      byte[] out = new byte[selfPrefix.length + ResourceIds.DOCUMENT_RID_CHARS + 1];
      System.arraycopy(selfPrefix, 0, out, 0, selfPrefix.length);
      ResourceIds.writeDocument(containerRid, sequence, out, selfPrefix.length);
      out[out.length - 1] = '/';
      return new String(out, StandardCharsets.UTF_8);
    }

    /** The etag of the write at {@code lsn} ({@link Etags}). */
    @Override
    public String etag(long lsn) {
      return Etags.of(etagSalt, lsn);
    }

    @Override
    public long documentPart(long sequence) {
      return ResourceIds.documentPart(sequence);
    }

    @Override
    public SystemText of(long sequence, long lsn) {
      return new StoredText(this, sequence, lsn);
    }
  }
}
