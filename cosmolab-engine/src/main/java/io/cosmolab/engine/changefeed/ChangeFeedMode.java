package io.cosmolab.engine.changefeed;

/** Which changes a change feed returns. */
public enum ChangeFeedMode {
  /** Creates and updates, each document once at its newest version; no deletes. */
  LATEST_VERSION,
  /**
   * Every create, replace and delete; with a replace's or a delete's previous image only when the
   * engine gives them ({@code CosmosEngine.Builder.changeFeedPreviousImages}), as the service only
   * for a container that opted in.
   */
  ALL_VERSIONS_AND_DELETES
}
