package io.cosmolab.engine.resource;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;

/**
 * Resource ids ({@code _rid}) in the service's binary layout, which the SDKs parse ({@code
 * gateway-protocol.md} §3.3): Base64 with padding, {@code /} written as {@code -}.
 *
 * <pre>
 * database   | db: 4 bytes, non-zero |
 * container  | db: 4 | coll: 4, first byte has bit 0x80 set (else the SDK reads a "user") |
 * document   | container: 8 | doc: 8 = sequence << 8, so byte 8 < 0x80, byte 15 = 0x00 |
 * pk range   | container: 8 | id: 7 bytes big-endian | 0x50 (type nibble 5) |
 * script     | container: 8 | sequence: 7 bytes big-endian | type nibble: sproc 8, trigger 7, udf 6 |
 * user       | db: 4 | user: 4, first byte has bit 0x80 clear (the SDK's mark of a user) |
 * permission | user: 8 | permission: 4 bytes, non-zero | 0x00 0x00 0x00 0x00 |
 * </pre>
 *
 * Document ids grow with a per-container sequence, so {@code _rid} order is creation order; the
 * document part (bytes 8–15, big-endian) breaks ORDER BY ties as the SDKs expect.
 */
public final class ResourceIds {
  private ResourceIds() {}

  public static byte[] database(int ordinal) {
    return ByteBuffer.allocate(4).putInt(scramble(ordinal)).array();
  }

  public static byte[] container(byte[] database, int ordinal) {
    byte[] out = Arrays.copyOf(database, 8);
    ByteBuffer.wrap(out, 4, 4).putInt(scramble(ordinal) | 0x80000000);
    return out;
  }

  public static byte[] document(byte[] container, long sequence) {
    if (sequence < 0 || sequence >= (1L << 55)) {
      throw new IllegalArgumentException("document sequence out of range: " + sequence);
    }
    byte[] out = Arrays.copyOf(container, 16);
    ByteBuffer.wrap(out, 8, 8).putLong(documentPart(sequence));
    return out;
  }

  /** The document part (bytes 8–15) of the document RID with this sequence. */
  public static long documentPart(long sequence) {
    return sequence << 8;
  }

  /** The sequence a document RID's document part holds. */
  public static long sequenceOf(long documentPart) {
    return documentPart >>> 8;
  }

  /** The characters of a document RID's text form: 16 bytes are 22 and "==". */
  public static final int DOCUMENT_RID_CHARS = 24;

  /**
   * Writes the text form of {@link #document}{@code (container, sequence)} into {@code out} at
   * {@code at} ({@link #DOCUMENT_RID_CHARS} ASCII bytes), as {@link #encode} writes it, without
   * making the bytes or the string: stored documents' {@code _rid} and {@code _self} are written
   * this way each time they are read. The sequence is one {@link #document} accepted.
   */
  public static void writeDocument(byte[] container, long sequence, byte[] out, int at) {
    long part = documentPart(sequence);
    int o = at;
    for (int i = 0; i < 15; i += 3) { // five whole groups of three bytes
      int group =
          (byteOf(container, part, i) << 16)
              | (byteOf(container, part, i + 1) << 8)
              | byteOf(container, part, i + 2);
      out[o++] = ALPHABET[group >>> 18];
      out[o++] = ALPHABET[(group >>> 12) & 63];
      out[o++] = ALPHABET[(group >>> 6) & 63];
      out[o++] = ALPHABET[group & 63];
    }
    int last = byteOf(container, part, 15); // and one byte: two characters and "=="
    out[o++] = ALPHABET[last >>> 2];
    out[o++] = ALPHABET[(last & 3) << 4];
    out[o++] = '=';
    out[o] = '=';
  }

  private static final byte[] ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-"
          .getBytes(java.nio.charset.StandardCharsets.US_ASCII); // '-' for '/', as in encode

  /** Byte {@code i} of a document RID: the container's 8, then the document part's. */
  private static int byteOf(byte[] container, long part, int i) {
    return i < 8 ? container[i] & 0xFF : (int) (part >>> (8 * (15 - i))) & 0xFF;
  }

  public static byte[] partitionKeyRange(byte[] container, long rangeId) {
    byte[] out = Arrays.copyOf(container, 16);
    ByteBuffer.wrap(out, 8, 8).putLong((rangeId << 8) | 0x50);
    return out;
  }

  /** A user of a database: the user half has bit 31 clear, where a container's has it set. */
  public static byte[] user(byte[] database, int ordinal) {
    byte[] out = Arrays.copyOf(database, 8);
    int u = scramble(ordinal) & 0x7FFFFFFF;
    ByteBuffer.wrap(out, 4, 4).putInt(u == 0 ? 1 : u);
    return out;
  }

  /** A permission of a user: 16 bytes, which the SDK reads as user plus permission. */
  public static byte[] permission(byte[] user, int ordinal) {
    byte[] out = Arrays.copyOf(user, 16);
    ByteBuffer.wrap(out, 8, 4).putInt(scramble(ordinal));
    return out;
  }

  /** A stored procedure, trigger or UDF: {@code typeNibble} 8, 7 or 6 in byte 15. */
  public static byte[] script(byte[] container, long sequence, int typeNibble) {
    byte[] out = Arrays.copyOf(container, 16);
    ByteBuffer.wrap(out, 8, 8).putLong((sequence << 8) | ((long) typeNibble << 4));
    return out;
  }

  /** The text form: Base64 with padding, '/' replaced by '-'. */
  public static String encode(byte[] rid) {
    return Base64.getEncoder().encodeToString(rid).replace('/', '-');
  }

  /** The bytes of a text RID, or {@code null} if it is not one. */
  public static byte[] decode(String rid) {
    if (rid == null || rid.isEmpty() || rid.length() % 4 != 0) {
      return null;
    }
    try {
      byte[] bytes = Base64.getDecoder().decode(rid.replace('-', '/'));
      return bytes.length <= 20 ? bytes : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** The document part of a document RID (bytes 8–15, big-endian); ties in ORDER BY use it. */
  public static long documentPart(byte[] documentRid) {
    return ByteBuffer.wrap(documentRid, 8, 8).getLong();
  }

  /**
   * The document part of a stored document's {@code _rid}: what orders the ties of ORDER BY, the
   * index's entries and a walk's position.
   */
  public static long documentPartOf(com.fasterxml.jackson.databind.JsonNode storedBody) {
    io.cosmolab.engine.document.SystemText text =
        io.cosmolab.engine.document.CompactObjects.systemText(storedBody, "_rid");
    return text != null ? text.documentPart() : documentPart(storedBody.get("_rid").textValue());
  }

  /**
   * The document part of a text document RID ({@link #documentPart(byte[])} of its bytes), read
   * from the text without decoding it whole: ORDER BY asks it of every document it reads.
   */
  public static long documentPart(String documentRid) {
    // 16 bytes are 22 characters of base64 and "==": the first 21 carry 126 bits, the 22nd two more
    // (and 4 zero bits). Keeping the low 64 bits of the stream keeps bytes 8-15.
    if (documentRid.length() != 24 || !documentRid.endsWith("==")) {
      throw new IllegalArgumentException("not a document RID: " + documentRid);
    }
    long bits = 0;
    for (int i = 0; i < 21; i++) {
      bits = (bits << 6) | sextet(documentRid, i);
    }
    return (bits << 2) | (sextet(documentRid, 21) >>> 4);
  }

  private static int sextet(String rid, int i) {
    char c = rid.charAt(i);
    if (c >= 'A' && c <= 'Z') {
      return c - 'A';
    }
    if (c >= 'a' && c <= 'z') {
      return c - 'a' + 26;
    }
    if (c >= '0' && c <= '9') {
      return c - '0' + 52;
    }
    if (c == '+') {
      return 62;
    }
    if (c == '-' || c == '/') {
      return 63;
    }
    throw new IllegalArgumentException("not a document RID: " + rid);
  }

  /** Spreads small ordinals over the 32 bits, keeping them non-zero and distinct. */
  private static int scramble(int ordinal) {
    int x = (ordinal + 1) * 0x9E3779B1;
    return x == 0 ? 1 : x;
  }
}
