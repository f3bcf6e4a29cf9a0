package io.cosmolab.engine;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.limits.Limits;

/** Validation of resource names and document ids, with the service's limits. */
final class ResourceNames {
  private ResourceNames() {}

  /** Database and container names: 1–255 characters, none of / \ ? #. [R] gateway-protocol §9.1 */
  static void check(String kind, String id) {
    if (id == null || id.isEmpty()) {
      throw CosmosError.BAD_REQUEST.exception("a %s needs a non-empty id", kind);
    }
    if (id.length() > 255) {
      throw CosmosError.BAD_REQUEST.exception(
          "%s id is %d characters long; the limit is 255", kind, id.length());
    }
    for (char c : new char[] {'/', '\\', '?', '#'}) {
      if (id.indexOf(c) >= 0) {
        throw CosmosError.BAD_REQUEST.exception(
            "%s id '%s' contains '%c', which ids cannot contain (/ \\ ? #)", kind, id, c);
      }
    }
    if (id.endsWith(" ")) {
      throw CosmosError.BAD_REQUEST.exception("%s id '%s' ends with a space", kind, id);
    }
  }

  /**
   * Document ids: 1–1,023 UTF-8 bytes, neither / nor \ (a REST path cannot address them: the
   * service creates such a document and then cannot read, replace or delete it by id, so cosmolab
   * refuses it up front, as the Java SDK's id check does), no NUL, and well-formed UTF-16 (a lone
   * surrogate has no UTF-8 form, so no URL can name it). [D] LIMITS, troubleshoot-not-found
   *
   * <p>{@code ?} and {@code #} are allowed: the service creates such documents, and reads, replaces
   * and deletes them in direct mode and through its compute gateway (the Java, .NET and Go SDKs'
   * {@code ItemIdEncoding} emulator tests: "Disallowed#Chars" 201, 200, 200, 204). Only the routing
   * gateway of old answers 401 for a '#' in the path. Ids such as {@code "ORDER#17"}, the
   * single-table style, are common.
   */
  static void checkDocumentId(String id) {
    if (id == null || id.isEmpty()) {
      throw CosmosError.BAD_REQUEST.exception(
          "the document needs an 'id' property holding a non-empty string");
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c == '/' || c == '\\') {
        throw CosmosError.BAD_REQUEST.exception(
            "document id '%s' contains '%c'; ids cannot contain / or \\ (no request path could"
                + " address the document)",
            id, c);
      }
      if (c == 0) {
        throw CosmosError.BAD_REQUEST.exception(
            "document id contains a NUL character (U+0000) at position %d", i);
      }
      if (Character.isSurrogate(c)) {
        boolean paired =
            Character.isHighSurrogate(c)
                && i + 1 < id.length()
                && Character.isLowSurrogate(id.charAt(i + 1));
        if (!paired) {
          throw CosmosError.BAD_REQUEST.exception(
              "document id has an unpaired UTF-16 surrogate (U+%04X) at position %d: it is not"
                  + " valid Unicode text",
              (int) c, i);
        }
        i++;
      }
    }
    int bytes = utf8LengthOver(id, Limits.MAX_ID_BYTES);
    if (bytes >= 0) {
      throw CosmosError.BAD_REQUEST.exception(
          "document id is %d bytes long in UTF-8; the limit is %d bytes",
          bytes, Limits.MAX_ID_BYTES);
    }
  }

  /**
   * The UTF-8 length of {@code s} if it is over {@code limit} bytes, else -1. A UTF-16 char encodes
   * to at most 3 bytes, so short strings are never encoded.
   */
  static int utf8LengthOver(String s, int limit) {
    if ((long) s.length() * 3 <= limit) {
      return -1;
    }
    long bytes = io.cosmolab.engine.document.Utf8.length(s);
    return bytes > limit ? (int) Math.min(bytes, Integer.MAX_VALUE) : -1;
  }
}
