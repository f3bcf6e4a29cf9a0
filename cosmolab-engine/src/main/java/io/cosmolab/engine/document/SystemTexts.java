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

  /**
   * The text of {@code _rid}, {@code _self} or {@code _etag} of the version at {@code lsn} of the
   * document with this sequence.
   */
  default String text(String name, long sequence, long lsn) {
    return switch (name) {
      case "_rid" -> rid(sequence);
      case "_self" -> self(sequence);
      case "_etag" -> etag(lsn);
      default -> throw new IllegalArgumentException("not a text system property: " + name);
    };
  }

  /** The document part of the RID of the document with this sequence (bytes 8–15). */
  long documentPart(long sequence);

  /**
   * The texts of one version as an object of their own: what a copy of a stored body keeps, so that
   * a copy handed out does not keep the stored document alive.
   */
  SystemText of(long sequence, long lsn);
}
