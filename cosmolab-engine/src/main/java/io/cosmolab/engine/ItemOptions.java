package io.cosmolab.engine;

/**
 * Conditions and options of a point operation.
 *
 * @param ifMatch the write applies only if the document's etag equals this (else 412)
 * @param ifNoneMatch a read answers 304 if the document's etag equals this
 * @param strongRead the read is strong or bounded-staleness, which charges twice the RU
 */
public record ItemOptions(String ifMatch, String ifNoneMatch, boolean strongRead) {
  /** No conditions, session consistency. */
  public static final ItemOptions NONE = new ItemOptions(null, null, false);

  public static ItemOptions ifMatch(String etag) {
    return new ItemOptions(etag, null, false);
  }

  public static ItemOptions ifNoneMatch(String etag) {
    return new ItemOptions(null, etag, false);
  }

  public ItemOptions strong() {
    return new ItemOptions(ifMatch, ifNoneMatch, true);
  }
}
