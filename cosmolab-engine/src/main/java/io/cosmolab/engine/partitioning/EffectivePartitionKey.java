package io.cosmolab.engine.partitioning;

import io.cosmolab.engine.error.CosmosError;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Computes effective partition keys (EPKs) bit-exactly as the service and the SDKs do, so a
 * document lands in the physical partition the SDK routes its requests to.
 *
 * <p>Sources: {@code gateway-protocol.md} §5 (the SDKs' {@code PartitionKeyInternalHelper}, {@code
 * MurmurHash3_128}, the JS {@code hashing/} folder), checked by every vector in §5.5 and the Java
 * SDK's string-truncation vectors.
 */
/*
 * How and why.
 *
 * Type markers (one byte): undefined 00, null 01, false 02, true 03, number 05, string 08.
 *
 * Hash V2 (kind Hash, version 2) -- one MurmurHash3-x64-128 over all components:
 *
 *   hashed buffer, per component:
 *     string   | 08 | UTF-8 bytes (never truncated) | FF |
 *     number   | 05 | IEEE-754 double, 8 bytes little-endian |
 *     bool/null/undefined | marker |
 *
 *   digest = h1 (8 bytes LE) ++ h2 (8 bytes LE); reverse all 16 bytes, i.e. h2 BE ++ h1 BE;
 *   clear the top two bits of byte 0 (so every EPK < "FF" and the key space is [0, 2^126));
 *   EPK = 32 upper-case hex characters.
 *
 * MultiHash (hierarchical): each level hashed alone as V2 with one component, and the 32-char
 * blocks concatenated (64 chars for two levels, 96 for three). A prefix of k levels gives k
 * blocks; its documents are exactly the EPKs in [EPK(prefix), EPK(prefix) + "FF").
 *
 * Hash V1 (kind Hash, version 1 or legacy): strings are first cut to 100 characters.
 *
 *   hashed buffer, per component: string | 08 | UTF-8 | 00 |, number | 05 | double LE |, others
 *   their marker; h = MurmurHash3-x86-32 (unsigned, as a double).
 *
 *   EPK = binary encoding of [number h, component 1, component 2, ...]:
 *     number | 05 | top byte of u | then 7-bit groups of the remaining bits, each in the top
 *            of a byte whose low bit is 1 ("more follows"), until the rest is zero; the last
 *            group's low bit is 0 |
 *       where u = the double's bits made order-preserving: bits < 2^63 -> bits ^ 2^63,
 *       otherwise -> -bits (two's complement).
 *     string | 08 | each UTF-8 byte + 1, at most 100 bytes | 00 |, or if the UTF-8 is longer
 *            than 100 bytes: 101 bytes and no terminator.
 *     bool/null/undefined | marker |
 *   Hence V1 EPKs start with 05C1 (the hash is in [0, 2^32)) and vary in length.
 */
public final class EffectivePartitionKey {
  private EffectivePartitionKey() {}

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();
  private static final int V1_MAX_STRING_CHARS = 100;
  private static final int V1_MAX_STRING_BYTES = 100;

  /**
   * The EPK of a value under a definition. For a hierarchical key, a value with fewer components
   * than paths is a prefix, and its EPK is the start of {@link #prefixRange}.
   *
   * @throws io.cosmolab.engine.error.CosmosException 400/1001 if the component count is wrong
   */
  public static String of(PartitionKeyDefinition definition, PartitionKeyValue value) {
    int paths = definition.paths().size();
    int given = value.size();
    if (given == 0 && definition.systemKey()) {
      return ""; // the empty key of a container without a key of its own sorts first
    }
    if (given > paths || (given < paths && !definition.isHierarchical()) || given == 0) {
      throw componentCountError(definition, value);
    }
    if (definition.isHierarchical()) {
      return multiHash(value.components());
    }
    return definition.version() == 1 ? hashV1(value.components()) : hashV2(value.components());
  }

  /**
   * The first 16 hex digits of a V2 or MultiHash EPK as a number (for MultiHash, the first level's
   * block): where the key falls in the hash space, without building the hex string. Equal to {@code
   * Long.parseUnsignedLong(of(definition, value).substring(0, 16), 16)}.
   *
   * @throws IllegalArgumentException for a version 1 key, whose EPK is not a uniform hash
   */
  public static long leadingBits(PartitionKeyDefinition definition, PartitionKeyValue value) {
    if (!definition.isHierarchical() && definition.version() == 1) {
      throw new IllegalArgumentException("a version 1 EPK has no uniform leading bits");
    }
    if (value.size() != definition.paths().size() || value.size() == 0) {
      throw componentCountError(definition, value);
    }
    Buffer buffer = new Buffer(32);
    List<PartitionKeyComponent> components = value.components();
    for (int i = 0; i < (definition.isHierarchical() ? 1 : components.size()); i++) {
      writeForHashingV2(components.get(i), buffer);
    }
    return MurmurHash3.hash128(buffer.bytes, buffer.length, 0)[1] & 0x3FFFFFFFFFFFFFFFL;
  }

  /**
   * Where the documents of a partition key value live: a full key's logical partition (its EPK,
   * which documents must match exactly, since a V1 EPK may prefix another), or a hierarchical
   * prefix's EPK range.
   *
   * @param range the EPK range holding them
   * @param exactEpk the EPK documents must equal, or null for a prefix
   */
  public record KeyScope(EpkRange range, String exactEpk) {}

  /** The scope of a full key or a hierarchical prefix. */
  public static KeyScope scopeOf(PartitionKeyDefinition definition, PartitionKeyValue value) {
    String epk = of(definition, value);
    boolean prefix =
        value.size() < definition.paths().size() && !(value.size() == 0 && definition.systemKey());
    return prefix
        ? new KeyScope(new EpkRange(epk, epk + "FF"), null)
        : new KeyScope(new EpkRange(epk, epk + "0"), epk);
  }

  /**
   * The EPK range holding every document whose key starts with {@code prefix}: a point range for a
   * full key, {@code [EPK(prefix), EPK(prefix) + "FF")} for a hierarchical prefix.
   */
  public static EpkRange prefixRange(PartitionKeyDefinition definition, PartitionKeyValue prefix) {
    String epk = of(definition, prefix);
    return new EpkRange(epk, epk + "FF");
  }

  /** The 400/1001 error for a key with the wrong number of components. */
  public static io.cosmolab.engine.error.CosmosException componentCountError(
      PartitionKeyDefinition definition, PartitionKeyValue value) {
    return CosmosError.PARTITION_KEY_MISMATCH.exception(
        "the partition key %s has %d component(s) but the container's key %s has %d path(s)",
        value, value.size(), definition.paths(), definition.paths().size());
  }

  /** Hash V2 over all components at once (kind Hash, version 2). */
  public static String hashV2(List<PartitionKeyComponent> components) {
    Buffer buffer = new Buffer(32);
    for (PartitionKeyComponent c : components) {
      writeForHashingV2(c, buffer);
    }
    return v2Hex(buffer);
  }

  /** MultiHash: each component hashed alone with V2, the blocks concatenated. */
  public static String multiHash(List<PartitionKeyComponent> components) {
    StringBuilder epk = new StringBuilder(32 * components.size());
    Buffer buffer = new Buffer(32);
    for (PartitionKeyComponent c : components) {
      buffer.length = 0;
      writeForHashingV2(c, buffer);
      epk.append(v2Hex(buffer));
    }
    return epk.toString();
  }

  /** Hash V1 (kind Hash, version 1): a 32-bit hash followed by the truncated components. */
  public static String hashV1(List<PartitionKeyComponent> components) {
    Buffer hashed = new Buffer(32);
    for (PartitionKeyComponent c : components) {
      hashed.put(c.typeMarker());
      if (c instanceof PartitionKeyComponent.Str s) {
        hashed.put(truncatedV1(s.value()).getBytes(StandardCharsets.UTF_8));
        hashed.put(0x00);
      } else if (c instanceof PartitionKeyComponent.Num n) {
        hashed.putLongLe(Double.doubleToRawLongBits(n.value()));
      }
    }
    long hash = MurmurHash3.hash32(hashed.bytes, hashed.length, 0) & 0xffffffffL;
    Buffer encoded = new Buffer(32);
    writeNumberBinary((double) hash, encoded);
    for (PartitionKeyComponent c : components) {
      if (c instanceof PartitionKeyComponent.Str s) {
        writeStringBinary(truncatedV1(s.value()), encoded);
      } else if (c instanceof PartitionKeyComponent.Num n) {
        writeNumberBinary(n.value(), encoded);
      } else {
        encoded.put(c.typeMarker());
      }
    }
    return hex(encoded.bytes, encoded.length);
  }

  /**
   * The V1 binary encoding of a number, as hex: the form every V1 EPK starts with (its hash). Used
   * to place split boundaries between hash values.
   */
  public static String encodeV1Number(double value) {
    Buffer b = new Buffer(12);
    writeNumberBinary(value, b);
    return hex(b.bytes, b.length);
  }

  private static void writeForHashingV2(PartitionKeyComponent c, Buffer buffer) {
    buffer.put(c.typeMarker());
    if (c instanceof PartitionKeyComponent.Str s) {
      buffer.putUtf8(s.value());
      buffer.put(0xFF);
    } else if (c instanceof PartitionKeyComponent.Num n) {
      buffer.putLongLe(Double.doubleToRawLongBits(n.value()));
    }
  }

  private static String v2Hex(Buffer buffer) {
    long[] h = MurmurHash3.hash128(buffer.bytes, buffer.length, 0);
    // Reversed digest: h2 big-endian, then h1 big-endian; top two bits cleared.
    long high = h[1] & 0x3FFFFFFFFFFFFFFFL;
    byte[] out = new byte[32]; // hex digits: one byte a char, made a string without a char[]
    writeHex(high, out, 0);
    writeHex(h[0], out, 16);
    return new String(out, StandardCharsets.ISO_8859_1);
  }

  private static void writeHex(long v, byte[] out, int at) {
    for (int i = 15; i >= 0; i--) {
      out[at + i] = (byte) HEX[(int) (v & 0xF)];
      v >>>= 4;
    }
  }

  private static String truncatedV1(String s) {
    if (s.length() <= V1_MAX_STRING_CHARS) {
      return s;
    }
    // Cut at 100 UTF-16 code units, as the SDKs do (their strings are UTF-16).
    return s.substring(0, V1_MAX_STRING_CHARS);
  }

  private static void writeNumberBinary(double value, Buffer out) {
    out.put(0x05);
    long bits = Double.doubleToRawLongBits(value);
    long payload = bits >= 0 ? bits ^ Long.MIN_VALUE : -bits;
    out.put((int) (payload >>> 56));
    payload <<= 8;
    int group = 0;
    boolean first = true;
    do {
      if (!first) {
        out.put(group);
      }
      first = false;
      group = (int) (payload >>> 56) | 0x01;
      payload <<= 7;
    } while (payload != 0);
    out.put(group & 0xFE);
  }

  private static void writeStringBinary(String s, Buffer out) {
    out.put(0x08);
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    boolean shortString = utf8.length <= V1_MAX_STRING_BYTES;
    int n = shortString ? utf8.length : V1_MAX_STRING_BYTES + 1;
    for (int i = 0; i < n; i++) {
      out.put((utf8[i] + 1) & 0xFF);
    }
    if (shortString) {
      out.put(0x00);
    }
  }

  static String hex(byte[] bytes, int length) {
    char[] out = new char[length * 2];
    for (int i = 0; i < length; i++) {
      out[2 * i] = HEX[(bytes[i] >> 4) & 0xF];
      out[2 * i + 1] = HEX[bytes[i] & 0xF];
    }
    return new String(out);
  }

  /** A growable byte buffer; confined to one call. */
  private static final class Buffer {
    byte[] bytes;
    int length;

    Buffer(int capacity) {
      bytes = new byte[capacity];
    }

    void put(int b) {
      ensure(1);
      bytes[length++] = (byte) b;
    }

    void put(byte[] b) {
      ensure(b.length);
      System.arraycopy(b, 0, bytes, length, b.length);
      length += b.length;
    }

    /** {@code s} as UTF-8: ASCII written as it is read, anything else encoded by the JDK. */
    void putUtf8(String s) {
      int n = s.length();
      ensure(n);
      int at = length;
      for (int i = 0; i < n; i++) {
        char ch = s.charAt(i);
        if (ch >= 0x80) {
          put(s.getBytes(StandardCharsets.UTF_8)); // from the start: nothing written counts yet
          return;
        }
        bytes[at + i] = (byte) ch;
      }
      length += n;
    }

    void putLongLe(long v) {
      ensure(8);
      for (int i = 0; i < 8; i++) {
        bytes[length++] = (byte) (v >>> (8 * i));
      }
    }

    private void ensure(int more) {
      if (length + more > bytes.length) {
        bytes = java.util.Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
      }
    }
  }
}
