package io.cosmolab.gateway.rntbd;

/**
 * A frame that does not parse. Thrown only inside {@link FrameDecoder}, which turns it into an
 * {@link Inbound.Malformed} value; it never leaves the decoder.
 */
final class FrameException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  FrameException(String message) {
    super(message, null, false, false);
  }
}
