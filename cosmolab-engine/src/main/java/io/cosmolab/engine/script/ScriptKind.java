package io.cosmolab.engine.script;

/** The three kinds of server-side script, with their URL segment and RID type nibble. */
public enum ScriptKind {
  STORED_PROCEDURE("sprocs", 0x8),
  TRIGGER("triggers", 0x7),
  USER_DEFINED_FUNCTION("udfs", 0x6);

  private final String segment;
  private final int ridType;

  ScriptKind(String segment, int ridType) {
    this.segment = segment;
    this.ridType = ridType;
  }

  /** The path segment ({@code sprocs}, {@code triggers}, {@code udfs}). */
  public String segment() {
    return segment;
  }

  /** The type nibble in byte 15 of the RID ({@code gateway-protocol.md} §3.3). */
  public int ridType() {
    return ridType;
  }

  /** The kind for a path segment, or null. */
  public static ScriptKind ofSegment(String segment) {
    for (ScriptKind k : values()) {
      if (k.segment.equals(segment)) {
        return k;
      }
    }
    return null;
  }
}
