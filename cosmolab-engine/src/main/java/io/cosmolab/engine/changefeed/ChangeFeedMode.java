package io.cosmolab.engine.changefeed;

/** Which changes a change feed returns. */
public enum ChangeFeedMode {
  /** Creates and updates, each document once at its newest version; no deletes. */
  LATEST_VERSION,
  /** Every create, replace and delete, with the previous image where there is one. */
  ALL_VERSIONS_AND_DELETES
}
