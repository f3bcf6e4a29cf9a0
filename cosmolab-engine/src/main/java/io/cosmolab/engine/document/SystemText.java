package io.cosmolab.engine.document;

/**
 * A stored document's text system properties ({@code _rid}, {@code _self}, {@code _etag}), made
 * when they are read instead of kept: one object per stored version in place of a string, its bytes
 * and a text node for each of the three (docs/benchmarks.md, "What a stored document keeps").
 * {@link CompactObjects#putSystemText} puts one under each name; readers of the body see ordinary
 * text nodes.
 */
public interface SystemText {
  /** The text of {@code _rid}, {@code _self} or {@code _etag}. */
  String text(String name);

  /** The document part of the document's RID (bytes 8–15), which ORDER BY ties read. */
  long documentPart();

  /**
   * The same texts, kept by an object that holds nothing else: what a copy of a stored body keeps
   * ({@link CompactObjects}), so that a copy handed out keeps no stored document alive. This one
   * when it holds nothing else already.
   */
  default SystemText detached() {
    return this;
  }
}
