package io.cosmolab.engine;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.limits.Limits;
import java.nio.charset.StandardCharsets;

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

  /** Document ids: 1–1,023 UTF-8 bytes, any Unicode but / and \. [D] LIMITS */
  static void checkDocumentId(String id) {
    if (id == null || id.isEmpty()) {
      throw CosmosError.BAD_REQUEST.exception(
          "the document needs an 'id' property holding a non-empty string");
    }
    if (id.indexOf('/') >= 0 || id.indexOf('\\') >= 0) {
      throw CosmosError.BAD_REQUEST.exception(
          "document id '%s' contains '%c'; ids cannot contain '/' or '\\'",
          id, id.indexOf('/') >= 0 ? '/' : '\\');
    }
    int bytes = id.length() <= Limits.MAX_ID_BYTES / 3 ? id.length() * 3 : utf8Length(id);
    if (bytes > Limits.MAX_ID_BYTES && utf8Length(id) > Limits.MAX_ID_BYTES) {
      throw CosmosError.BAD_REQUEST.exception(
          "document id is %d bytes long in UTF-8; the limit is %d bytes",
          utf8Length(id), Limits.MAX_ID_BYTES);
    }
  }

  private static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
