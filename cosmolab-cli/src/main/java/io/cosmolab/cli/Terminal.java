package io.cosmolab.cli;

/** What the commands ask of the terminal they run in. */
public final class Terminal {
  private Terminal() {}

  /**
   * Whether to draw a progress bar on stderr: as {@code --progress} / {@code --no-progress} say
   * ({@code option} non-null), else when there is a terminal.
   */
  // System.console() is null before JDK 22 without a terminal; from 22 on, isTerminal() says
  // (called reflectively, as the CLI compiles for 21)
  @SuppressWarnings("SystemConsoleNull")
  public static boolean showProgress(Boolean option) {
    if (option != null) {
      return option;
    }
    java.io.Console console = System.console();
    if (console == null) {
      return false;
    }
    try { // Console.isTerminal() exists from JDK 22; before, a console means a terminal
      return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException e) {
      return true;
    }
  }

  /** A 30-column progress bar, drawn over the current line: {@code [==== ] 40% detail}. */
  public static String bar(double fraction, String detail) {
    double f = Math.max(0, Math.min(1, fraction));
    int filled = (int) Math.round(f * 30);
    return String.format(
        java.util.Locale.ROOT,
        "\r[%s%s] %3.0f%%  %s",
        "=".repeat(filled),
        " ".repeat(30 - filled),
        f * 100,
        detail);
  }
}
