package io.cosmolab.migrator;

import java.util.Locale;

/**
 * Which change feed a run tails after the snapshot.
 *
 * <ul>
 *   <li>{@link #ALL_VERSIONS_AND_DELETES}: every create, replace and delete in order, with the
 *       previous image where the account gives one. Deletes follow at once. On the service the
 *       source needs an all-versions {@code changeFeedPolicy} (and continuous backup).
 *   <li>{@link #LATEST_VERSION}: the feed every container has. It gives the latest version of each
 *       changed document and no deletes, so a <em>reconciliation pass</em> removes the target's
 *       documents that are no longer in the source: once each time the feed is found drained (at
 *       most once per {@link MigratorOptions#reconcileInterval()} while tailing), at the end of
 *       {@code --until-caught-up}, and before cutover verifies.
 *   <li>{@link #AUTO} (the default): all versions and deletes where the source serves it, else the
 *       latest version. The mode chosen is saved with the state; a resumed run keeps it.
 * </ul>
 */
public enum ChangeFeedMode {
  AUTO,
  ALL_VERSIONS_AND_DELETES,
  LATEST_VERSION;

  /** {@code auto}, {@code all-versions-and-deletes} or {@code latest-version}. */
  public static ChangeFeedMode parse(String text) {
    for (ChangeFeedMode m : values()) {
      if (m.toString().equals(text.strip().toLowerCase(Locale.ROOT))) {
        return m;
      }
    }
    throw new IllegalArgumentException(
        "--change-feed is auto, all-versions-and-deletes or latest-version, was '" + text + "'");
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
