package io.cosmolab.gateway.rntbd;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * The value types of RNTBD tokens, by the one-byte id that follows a token's id on the wire ({@code
 * RntbdTokenType} in azure-cosmos). Every multi-byte number is little-endian.
 *
 * <pre>
 *   id    name         value bytes                          Java value
 *   0x00  Byte         1                                    Byte
 *   0x01  UShort       2                                    Long
 *   0x02  ULong        4 (unsigned)                         Long
 *   0x03  Long         4 (signed)                           Long
 *   0x04  ULongLong    8                                    Long
 *   0x05  LongLong     8                                    Long
 *   0x06  Guid         16, see {@link #readGuid}            UUID
 *   0x07  SmallString  1 length, then UTF-8                 String
 *   0x08  String       2 length, then UTF-8                 String
 *   0x09  ULongString  4 length, then UTF-8                 String
 *   0x0A  SmallBytes   1 length, then bytes                 byte[]
 *   0x0B  Bytes        2 length, then bytes                 byte[]
 *   0x0C  ULongBytes   4 length, then bytes                 byte[]
 *   0x0D  Float        4 (IEEE 754)                         Double
 *   0x0E  Double       8 (IEEE 754)                         Double
 * </pre>
 */
enum TokenType {
  BYTE(0x00),
  USHORT(0x01),
  ULONG(0x02),
  LONG(0x03),
  ULONGLONG(0x04),
  LONGLONG(0x05),
  GUID(0x06),
  SMALL_STRING(0x07),
  STRING(0x08),
  ULONG_STRING(0x09),
  SMALL_BYTES(0x0A),
  BYTES(0x0B),
  ULONG_BYTES(0x0C),
  FLOAT(0x0D),
  DOUBLE(0x0E);

  private static final TokenType[] BY_ID = new TokenType[0x0F];

  static {
    for (TokenType t : values()) {
      BY_ID[t.id] = t;
    }
  }

  final int id;

  TokenType(int id) {
    this.id = id;
  }

  /** The type with this wire id, or null when there is none. */
  static TokenType ofId(int id) {
    return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
  }

  /**
   * Reads one value of this type.
   *
   * @throws FrameException when the value runs past the end of {@code in}
   */
  Object read(ByteBuf in) {
    return switch (this) {
      case BYTE -> in.readByte();
      case USHORT -> (long) need(in, 2).readUnsignedShortLE();
      case ULONG -> need(in, 4).readUnsignedIntLE();
      case LONG -> (long) need(in, 4).readIntLE();
      case ULONGLONG, LONGLONG -> need(in, 8).readLongLE();
      case GUID -> readGuid(need(in, 16));
      case SMALL_STRING -> text(in, need(in, 1).readUnsignedByte());
      case STRING -> text(in, need(in, 2).readUnsignedShortLE());
      case ULONG_STRING -> text(in, need(in, 4).readUnsignedIntLE());
      case SMALL_BYTES -> bytes(in, need(in, 1).readUnsignedByte());
      case BYTES -> bytes(in, need(in, 2).readUnsignedShortLE());
      case ULONG_BYTES -> bytes(in, need(in, 4).readUnsignedIntLE());
      case FLOAT -> (double) need(in, 4).readFloatLE();
      case DOUBLE -> need(in, 8).readDoubleLE();
    };
  }

  /** Writes {@code value} (of the Java type above) in this type's layout. */
  void write(Object value, ByteBuf out) {
    switch (this) {
      case BYTE -> out.writeByte(((Number) value).byteValue());
      case USHORT -> out.writeShortLE(((Number) value).intValue());
      case ULONG, LONG -> out.writeIntLE((int) ((Number) value).longValue());
      case ULONGLONG, LONGLONG -> out.writeLongLE(((Number) value).longValue());
      case GUID -> writeGuid((UUID) value, out);
      case SMALL_STRING -> {
        byte[] b = ((String) value).getBytes(StandardCharsets.UTF_8);
        out.writeByte(Math.min(b.length, 0xFF));
        out.writeBytes(b, 0, Math.min(b.length, 0xFF));
      }
      case STRING -> {
        byte[] b = ((String) value).getBytes(StandardCharsets.UTF_8);
        out.writeShortLE(Math.min(b.length, 0xFFFF));
        out.writeBytes(b, 0, Math.min(b.length, 0xFFFF));
      }
      case ULONG_STRING -> {
        byte[] b = ((String) value).getBytes(StandardCharsets.UTF_8);
        out.writeIntLE(b.length);
        out.writeBytes(b);
      }
      case SMALL_BYTES, BYTES, ULONG_BYTES -> {
        byte[] b = (byte[]) value;
        if (this == SMALL_BYTES) {
          out.writeByte(b.length);
        } else if (this == BYTES) {
          out.writeShortLE(b.length);
        } else {
          out.writeIntLE(b.length);
        }
        out.writeBytes(b);
      }
      case FLOAT -> out.writeFloatLE(((Number) value).floatValue());
      case DOUBLE -> out.writeDoubleLE(((Number) value).doubleValue());
    }
  }

  /**
   * A GUID as .NET lays it out: the first 8 bytes of the UUID as one little-endian int and two
   * little-endian shorts, the last 8 in order ({@code RntbdUUID}).
   *
   * <pre>
   *   byte  0..3   most significant bits 63..32, little-endian
   *   byte  4..5   most significant bits 31..16, little-endian
   *   byte  6..7   most significant bits 15..0,  little-endian
   *   byte  8..15  least significant bits 63..0, big-endian
   * </pre>
   */
  static UUID readGuid(ByteBuf in) {
    long msb = in.readUnsignedIntLE() << 32;
    msb |= (long) in.readUnsignedShortLE() << 16;
    msb |= in.readUnsignedShortLE();
    long lsb = in.readLong();
    return new UUID(msb, lsb);
  }

  static void writeGuid(UUID id, ByteBuf out) {
    long msb = id.getMostSignificantBits();
    out.writeIntLE((int) (msb >>> 32));
    out.writeShortLE((int) (msb >>> 16));
    out.writeShortLE((int) msb);
    out.writeLong(id.getLeastSignificantBits());
  }

  private static ByteBuf need(ByteBuf in, long n) {
    if (in.readableBytes() < n) {
      throw new FrameException(
          "a token value needs " + n + " bytes, the frame has " + in.readableBytes() + " left");
    }
    return in;
  }

  private static String text(ByteBuf in, long length) {
    need(in, length);
    return in.readCharSequence((int) length, StandardCharsets.UTF_8).toString();
  }

  private static byte[] bytes(ByteBuf in, long length) {
    need(in, length);
    byte[] b = new byte[(int) length];
    in.readBytes(b);
    return b;
  }
}
