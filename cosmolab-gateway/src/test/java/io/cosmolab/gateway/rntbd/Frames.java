package io.cosmolab.gateway.rntbd;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** Request frames built byte by byte, as the SDK's {@code RntbdRequest.encode} writes them. */
final class Frames {
  private Frames() {}

  /** A token for {@link #frame}: its type and value. */
  record T(TokenType type, Object value) {}

  static byte[] context() {
    Map<Integer, T> t = new LinkedHashMap<>();
    t.put(Tokens.Context.PROTOCOL_VERSION, new T(TokenType.ULONG, 1L));
    t.put(Tokens.Context.CLIENT_VERSION, new T(TokenType.SMALL_STRING, "test"));
    t.put(Tokens.Context.SERVER_AGENT, new T(TokenType.SMALL_STRING, "frames-test"));
    return frame(0, 0, t, null);
  }

  /** A database read: answered 404 by a server without that database. */
  static byte[] readDatabase(String name, long transportId) {
    Map<Integer, T> t = new LinkedHashMap<>();
    t.put(Tokens.Request.PAYLOAD_PRESENT, new T(TokenType.BYTE, (byte) 0));
    t.put(Tokens.Request.DATABASE_NAME, new T(TokenType.STRING, name));
    t.put(Tokens.Request.TRANSPORT_REQUEST_ID, new T(TokenType.ULONG, transportId));
    return frame(Tokens.ResourceType.DATABASE, Tokens.Operation.READ, t, null);
  }

  static byte[] frame(int resourceType, int operation, Map<Integer, T> tokens, byte[] payload) {
    ByteBuf out = Unpooled.buffer();
    out.writeIntLE(0);
    out.writeShortLE(resourceType);
    out.writeShortLE(operation);
    TokenType.writeGuid(UUID.fromString("01020304-0506-0708-090a-0b0c0d0e0f10"), out);
    tokens.forEach(
        (id, t) -> {
          out.writeShortLE(id);
          out.writeByte(t.type().id);
          t.type().write(t.value(), out);
        });
    out.setIntLE(0, out.writerIndex());
    if (payload != null) {
      out.writeIntLE(payload.length);
      out.writeBytes(payload);
    }
    byte[] b = new byte[out.readableBytes()];
    out.readBytes(b);
    return b;
  }

  static byte[] concat(byte[]... parts) {
    ByteBuf out = Unpooled.buffer();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    byte[] b = new byte[out.readableBytes()];
    out.readBytes(b);
    return b;
  }
}
