package io.cosmolab.engine.changefeed;

import java.time.Duration;

/**
 * How long a container's change log keeps the history behind the all-versions-and-deletes feed:
 * versions replaced since and deletes. The latest version of every live document is kept whatever
 * its age (the latest-version feed needs it); everything else goes once it is older than {@code
 * window} or once {@code maxHistory} LSNs were written after it, whichever comes first.
 *
 * <p>On the service the window is the container's {@code changeFeedPolicy.retentionDuration}; an
 * all-versions-and-deletes reader resuming from before the window gets 400. [A] The LSN bound is
 * ours: it keeps the memory of a busy emulator bounded whatever the window.
 *
 * @param window how long history is kept (positive)
 * @param maxHistory how many LSNs of history are kept at most (positive)
 */
public record Retention(Duration window, long maxHistory) {
  /**
   * Ten minutes, and at most 100,000 LSNs of history: as many writes, fewer where scripts left gaps
   * (the unused end of a block of positions, when another partition wrote meanwhile).
   */
  public static final Retention DEFAULT = new Retention(Duration.ofMinutes(10), 100_000);

  public Retention {
    if (window == null || window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException(
          "the change feed retention window must be positive, was " + window);
    }
    if (maxHistory < 1) {
      throw new IllegalArgumentException(
          "the change feed history must keep at least 1 write, was " + maxHistory);
    }
  }
}
