package io.cosmolab.gateway.rntbd;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A response frame before encoding: the status, the tokens in the order they are written, and the
 * payload ({@link FrameEncoder} draws the layout).
 */
@SuppressWarnings("ArrayRecordComponent") // handed on, never changed
record Outbound(UUID activityId, int status, List<Token> tokens, byte[] payload) {

  /** One token: its id, its type and a value of that type's Java type. */
  record Token(int id, TokenType type, Object value) {}

  /** Collects the tokens of one response, in order. Confined to the thread building it. */
  static final class Builder {
    private final List<Token> tokens = new ArrayList<>(24);

    Builder add(int id, TokenType type, Object value) {
      if (value != null) {
        tokens.add(new Token(id, type, value));
      }
      return this;
    }

    boolean has(int id) {
      for (Token t : tokens) {
        if (t.id() == id) {
          return true;
        }
      }
      return false;
    }

    Outbound build(UUID activityId, int status, byte[] payload) {
      return new Outbound(activityId, status, List.copyOf(tokens), payload);
    }
  }
}
