package io.cosmolab.migrator;

/**
 * What to do with a document lacking a path of the new key: refuse to run ({@code FAIL}, the
 * default), leave it out and report it ({@code SKIP}), or fill the missing path with a value
 * ({@code DEFAULT}).
 */
public record OnMissing(Mode mode, String value) {
  /** How a document without the key's paths is handled. */
  public enum Mode {
    FAIL,
    SKIP,
    DEFAULT
  }

  public OnMissing {
    if ((mode == Mode.DEFAULT) != (value != null)) {
      throw new IllegalArgumentException("a value goes with DEFAULT only");
    }
  }

  public static final OnMissing FAIL = new OnMissing(Mode.FAIL, null);
  public static final OnMissing SKIP = new OnMissing(Mode.SKIP, null);

  public static OnMissing defaultValue(String value) {
    return new OnMissing(Mode.DEFAULT, value);
  }

  /** {@code skip}, {@code fail} or {@code default=VALUE}. */
  public static OnMissing parse(String text) {
    String t = text.strip();
    if (t.equals("skip")) {
      return SKIP;
    }
    if (t.equals("fail")) {
      return FAIL;
    }
    if (t.startsWith("default=")) {
      return defaultValue(t.substring("default=".length()));
    }
    throw new IllegalArgumentException(
        "--on-missing is skip, fail or default=VALUE, was '" + text + "'");
  }

  /**
   * How documents lacking the key are handled once a run has started: {@code fail} stopped a run
   * whose plan found any; a document that arrives later without the key is skipped and counted (a
   * run cannot stop on it without stopping for good, since it would meet it again on resume).
   */
  public OnMissing onceRunning() {
    return mode == Mode.FAIL ? SKIP : this;
  }

  @Override
  public String toString() {
    return mode == Mode.DEFAULT
        ? "default=" + value
        : mode.name().toLowerCase(java.util.Locale.ROOT);
  }
}
