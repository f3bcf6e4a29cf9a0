package io.cosmolab.engine.alerts;

/**
 * An alert starting or stopping.
 *
 * @param kind which
 * @param alert the alert (for a stop, as it was last seen active)
 * @param atMillis when (injected clock)
 */
public record AlertEvent(Kind kind, Alert alert, long atMillis) {
  /** Start or stop. */
  public enum Kind {
    STARTED,
    STOPPED
  }
}
