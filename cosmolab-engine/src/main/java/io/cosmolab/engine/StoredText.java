package io.cosmolab.engine;

import io.cosmolab.engine.document.SystemText;
import io.cosmolab.engine.resource.ResourceIds;

/**
 * A stored version's {@code _rid}, {@code _self} and {@code _etag}, made from its container, its
 * document's sequence and its LSN when they are read: 32 bytes per version in place of nine objects
 * (a string, its bytes and a text node for each).
 */
final class StoredText implements SystemText {
  private final Container container;
  private final long sequence;
  private final long lsn;

  StoredText(Container container, long sequence, long lsn) {
    this.container = container;
    this.sequence = sequence;
    this.lsn = lsn;
  }

  @Override
  public String text(String name) {
    return switch (name) {
      case "_rid" -> rid();
      case "_self" -> container.selfLink() + "docs/" + rid() + "/";
      case "_etag" -> container.etag(lsn);
      default -> throw new IllegalArgumentException("not a text system property: " + name);
    };
  }

  private String rid() {
    return ResourceIds.encode(ResourceIds.document(container.ridBytes(), sequence));
  }

  @Override
  public long documentPart() {
    return sequence << 8; // as ResourceIds.document lays it out
  }

  @Override
  public String toString() {
    return "StoredText[" + rid() + " at LSN " + lsn + "]";
  }
}
