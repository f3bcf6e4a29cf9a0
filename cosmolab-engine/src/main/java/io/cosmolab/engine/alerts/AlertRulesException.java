package io.cosmolab.engine.alerts;

/**
 * A rules file that cannot be read or says something wrong; the message names file, line, field.
 */
public final class AlertRulesException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public AlertRulesException(String message, Throwable cause) {
    super(message, cause);
  }
}
