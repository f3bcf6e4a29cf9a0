package io.cosmolab.engine.document;

/**
 * What makes the text system properties of one container's documents from their numbers: the
 * container's RID, its link and what salts its etags. Shared by all its stored documents, each of
 * which keeps only its sequence and LSN ({@link SystemText}).
 */
public interface SystemTexts {
  /** The text {@code _rid} of the document with this sequence. */
  String rid(long sequence);

  /** The {@code _self} link of the document with this sequence. */
  String self(long sequence);

  /** The {@code _etag} of the write at this LSN. */
  String etag(long lsn);

  /** The document part of the RID of the document with this sequence (bytes 8–15). */
  long documentPart(long sequence);

  /**
   * The texts of one version as an object of their own: what a copy of a stored body keeps, so that
   * a copy handed out does not keep the stored document alive.
   */
  SystemText of(long sequence, long lsn);
}
