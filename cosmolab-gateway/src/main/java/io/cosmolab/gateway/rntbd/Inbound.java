package io.cosmolab.gateway.rntbd;

import java.util.Map;
import java.util.UUID;

/** What {@link FrameDecoder} makes of the bytes a client sends: one value per frame. */
sealed interface Inbound {

  /**
   * The context request that opens a connection (resource and operation type 0).
   *
   * @param tokens {@link Tokens.Context} ids to values
   */
  record ContextRequest(UUID activityId, Map<Integer, Object> tokens) implements Inbound {}

  /**
   * A request.
   *
   * @param resourceType a {@link Tokens.ResourceType}
   * @param operationType a {@link Tokens.Operation}
   * @param tokens {@link Tokens.Request} ids to values ({@link TokenType} says which Java type)
   * @param payload the body; empty when the frame has none
   */
  @SuppressWarnings("ArrayRecordComponent") // handed on, never changed
  record Request(
      UUID activityId,
      int resourceType,
      int operationType,
      Map<Integer, Object> tokens,
      byte[] payload,
      long receivedNanos) // System.nanoTime when decoded, on the event loop: the latency's start
      implements Inbound {

    String string(int token) {
      Object v = tokens.get(token);
      return v instanceof String s ? s : null;
    }

    /** A Byte token as a flag: present and not 0. */
    boolean flag(int token) {
      return tokens.get(token) instanceof Byte b && b != 0;
    }

    Long number(int token) {
      Object v = tokens.get(token);
      return v instanceof Long l ? l : v instanceof Byte b ? Long.valueOf(b) : null;
    }

    byte[] bytes(int token) {
      Object v = tokens.get(token);
      return v instanceof byte[] b ? b : null;
    }
  }

  /**
   * Bytes that are not a frame. The connection that sent them is closed: after a bad length nothing
   * that follows can be framed.
   */
  record Malformed(String reason) implements Inbound {}
}
