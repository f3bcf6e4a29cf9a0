package io.cosmolab.migrator.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/** A document's user content: system properties stripped, written with sorted keys, hashed. */
public final class Canonical {
  /** What the service adds to a document (and {@code _lsn}, which cosmolab's feed adds). */
  public static final Set<String> SYSTEM =
      Set.of("_rid", "_self", "_etag", "_attachments", "_ts", "_lsn");

  private Canonical() {}

  /** A copy without the system properties and without {@code extra} (e.g. a computed key). */
  public static ObjectNode userContent(ObjectNode document, String extra) {
    ObjectNode out = document.deepCopy();
    out.remove(SYSTEM);
    if (extra != null) {
      out.remove(extra);
    }
    return out;
  }

  /** The JSON text with every object's keys sorted: equal content, equal text. */
  public static String text(JsonNode node) {
    StringBuilder b = new StringBuilder(256);
    write(node, b);
    return b.toString();
  }

  private static void write(JsonNode node, StringBuilder b) {
    if (node.isObject()) {
      List<String> names = new ArrayList<>();
      node.fieldNames().forEachRemaining(names::add);
      Collections.sort(names);
      b.append('{');
      for (int i = 0; i < names.size(); i++) {
        if (i > 0) {
          b.append(',');
        }
        b.append(com.fasterxml.jackson.databind.node.TextNode.valueOf(names.get(i))).append(':');
        write(node.get(names.get(i)), b);
      }
      b.append('}');
    } else if (node.isArray()) {
      b.append('[');
      for (int i = 0; i < node.size(); i++) {
        if (i > 0) {
          b.append(',');
        }
        write(node.get(i), b);
      }
      b.append(']');
    } else if (node.isNumber()) {
      b.append(new java.math.BigDecimal(node.asText()).stripTrailingZeros().toPlainString());
    } else {
      b.append(node);
    }
  }

  /** The first 64 bits of the SHA-256 of the canonical text. */
  public static long hash(JsonNode node) {
    try {
      byte[] d =
          MessageDigest.getInstance("SHA-256").digest(text(node).getBytes(StandardCharsets.UTF_8));
      long h = 0;
      for (int i = 0; i < 8; i++) {
        h = (h << 8) | (d[i] & 0xff);
      }
      return h;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
