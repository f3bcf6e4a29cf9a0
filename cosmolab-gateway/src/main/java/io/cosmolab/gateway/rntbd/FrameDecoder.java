package io.cosmolab.gateway.rntbd;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Cuts a connection's bytes into {@link Inbound} values. Every failure is a value, {@link
 * Inbound.Malformed}, after which the decoder reads nothing more from the connection.
 *
 * <p>A request frame, as {@code RntbdRequest.encode} in azure-cosmos writes it (all numbers
 * little-endian):
 *
 * <pre>
 *   offset  size     field
 *   0       4        L, the length of the head frame: these 4 bytes, the 20 below and the tokens
 *   4       2        resource type    ({@link Tokens.ResourceType}; 0 in the context request)
 *   6       2        operation type   ({@link Tokens.Operation}; 0 in the context request)
 *   8       16       activity id      (a GUID, {@link TokenType#readGuid})
 *   24      L - 24   tokens, each:    id (2) | type (1, {@link TokenType}) | value
 *   ---- only when the token PayloadPresent (0x0002) is 1:
 *   L       4        P, the payload's length
 *   L + 4   P        the payload (JSON: a document, a query, a patch, a batch)
 * </pre>
 *
 * The first frame on a connection must be the context request (resource and operation type both 0,
 * no payload); later frames are requests. Limits: a head frame of at most {@value #MAX_HEAD_BYTES}
 * bytes and a payload of at most the gateway's body limit, so a length a client made up never makes
 * the server wait for, or allocate, gigabytes.
 *
 * <p>Concurrency: one instance per connection, confined to its event loop.
 */
final class FrameDecoder extends ByteToMessageDecoder {
  /** Tokens are strings of at most 64 KiB each; a real head frame is a few hundred bytes. */
  static final int MAX_HEAD_BYTES = 1024 * 1024;

  static final int FRAME_HEADER_BYTES = 24;

  private final int maxPayloadBytes;
  private boolean negotiated;
  private boolean failed;

  FrameDecoder(int maxPayloadBytes) {
    this.maxPayloadBytes = maxPayloadBytes;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (failed) {
      in.skipBytes(in.readableBytes());
      return;
    }
    while (in.readableBytes() >= 4) {
      Inbound frame;
      try {
        frame = next(in);
      } catch (FrameException e) {
        frame = new Inbound.Malformed(e.getMessage());
      } catch (RuntimeException e) { // an index past the end: still bytes that are not a frame
        frame = new Inbound.Malformed("the frame does not parse: " + e);
      }
      if (frame == null) {
        return; // wait for more bytes
      }
      out.add(frame);
      if (frame instanceof Inbound.Malformed) {
        failed = true;
        in.skipBytes(in.readableBytes());
        return;
      }
    }
  }

  /** The next frame, or null when its bytes have not all arrived; reads nothing then. */
  private Inbound next(ByteBuf in) {
    int start = in.readerIndex();
    long length = in.getUnsignedIntLE(start);
    if (length < FRAME_HEADER_BYTES || length > MAX_HEAD_BYTES) {
      throw new FrameException(
          "a frame's length must be "
              + FRAME_HEADER_BYTES
              + ".."
              + MAX_HEAD_BYTES
              + " bytes, was "
              + length);
    }
    if (in.readableBytes() < length) {
      return null;
    }
    ByteBuf head = in.slice(start + 4, (int) length - 4);
    int resourceType = head.readUnsignedShortLE();
    int operationType = head.readUnsignedShortLE();
    UUID activityId = TokenType.readGuid(head);
    Map<Integer, Object> tokens = readTokens(head);
    boolean context = resourceType == 0 && operationType == 0;
    if (context != !negotiated) {
      throw new FrameException(
          negotiated
              ? "a second context request on one connection"
              : "the first frame must be the context request, was resource type "
                  + resourceType
                  + " operation "
                  + operationType);
    }
    byte[] payload = EMPTY;
    int end = start + (int) length;
    if (!context && tokens.get(Tokens.Request.PAYLOAD_PRESENT) instanceof Byte b && b != 0) {
      if (in.readableBytes() < length + 4) {
        return null;
      }
      long size = in.getUnsignedIntLE(end);
      if (size > maxPayloadBytes) {
        throw new FrameException(
            "a payload of " + size + " bytes is over the limit of " + maxPayloadBytes);
      }
      if (in.readableBytes() < length + 4 + size) {
        return null;
      }
      payload = new byte[(int) size];
      in.getBytes(end + 4, payload);
      end += 4 + (int) size;
    }
    in.readerIndex(end);
    if (context) {
      negotiated = true;
      return new Inbound.ContextRequest(activityId, tokens);
    }
    return new Inbound.Request(
        activityId, resourceType, operationType, tokens, payload, System.nanoTime());
  }

  private static final byte[] EMPTY = new byte[0];

  /** The tokens of a head frame, by id; {@code in} holds exactly them. */
  static Map<Integer, Object> readTokens(ByteBuf in) {
    Map<Integer, Object> tokens = new HashMap<>(32);
    while (in.isReadable()) {
      if (in.readableBytes() < 3) {
        throw new FrameException("a token needs 3 bytes of id and type, the frame has fewer left");
      }
      int id = in.readUnsignedShortLE();
      int typeId = in.readUnsignedByte();
      TokenType type = TokenType.ofId(typeId);
      if (type == null) {
        throw new FrameException(
            String.format("token 0x%04X has an unknown type 0x%02X", id, typeId));
      }
      tokens.put(id, type.read(in));
    }
    return tokens;
  }
}
