package io.cosmolab.gateway.rntbd;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Writes a response frame, as {@code RntbdResponse.decode} in azure-cosmos reads it (all numbers
 * little-endian). The context response has the same layout, with {@link Tokens.Context} tokens and
 * no payload.
 *
 * <pre>
 *   offset  size     field
 *   0       4        L, the length of the head frame: these 4 bytes, the 20 below and the tokens
 *   4       4        status           (an HTTP status: 200, 201, 304, 404, 410, 429, ...)
 *   8       16       activity id      (a GUID, {@link TokenType#writeGuid}; the request's)
 *   24      L - 24   tokens, each:    id (2) | type (1, {@link TokenType}) | value;
 *                    PayloadPresent (0x0000, a Byte) is always one of them
 *   ---- only when PayloadPresent is 1:
 *   L       4        P, the payload's length
 *   L + 4   P        the payload (the JSON body the gateway would answer)
 * </pre>
 *
 * Stateless and thread-safe.
 */
final class FrameEncoder {
  private FrameEncoder() {}

  static ByteBuf encode(Outbound frame, ByteBufAllocator alloc, boolean context) {
    byte[] payload = frame.payload();
    boolean hasPayload = !context && payload.length > 0;
    ByteBuf out = alloc.buffer(256 + payload.length);
    int start = out.writerIndex();
    out.writeIntLE(0); // L, set below
    out.writeIntLE(frame.status());
    TokenType.writeGuid(frame.activityId(), out);
    if (!context) {
      writeToken(out, Tokens.Response.PAYLOAD_PRESENT, TokenType.BYTE, (byte) (hasPayload ? 1 : 0));
    }
    for (Outbound.Token t : frame.tokens()) {
      writeToken(out, t.id(), t.type(), t.value());
    }
    out.setIntLE(start, out.writerIndex() - start);
    if (hasPayload) {
      out.writeIntLE(payload.length);
      out.writeBytes(payload);
    }
    return out;
  }

  private static void writeToken(ByteBuf out, int id, TokenType type, Object value) {
    out.writeShortLE(id);
    out.writeByte(type.id);
    type.write(value, out);
  }
}
