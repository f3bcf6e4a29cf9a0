package io.cosmolab.migrator.internal;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.FeedResponse;
import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.migrator.ChangeFeedMode;

/**
 * The source's change-feed position before the snapshot: every write the snapshot may miss comes
 * after it. The feed is read from "now" to its end, so every feed range has a concrete position (an
 * SDK token may otherwise hold "from now" for a range not yet read, resolved only later); changes
 * between "now" and the snapshot's start are in the snapshot, so skipping them is right.
 *
 * @param mode the feed chosen: never {@link ChangeFeedMode#AUTO}
 * @param continuation the SDK continuation over every feed range
 */
public record FeedStart(ChangeFeedMode mode, String continuation) {

  /**
   * Takes the position in {@code wanted} mode; {@code AUTO} tries all versions and deletes and
   * falls back to the latest version when the source refuses it (400: its policy keeps only the
   * latest version).
   */
  public static FeedStart take(CosmosContainer source, ChangeFeedMode wanted, int pageSize) {
    if (wanted == ChangeFeedMode.LATEST_VERSION) {
      return new FeedStart(wanted, drain(source, false, pageSize));
    }
    try {
      return new FeedStart(ChangeFeedMode.ALL_VERSIONS_AND_DELETES, drain(source, true, pageSize));
    } catch (CosmosException e) {
      if (e.getStatusCode() != 400) {
        throw e;
      }
      if (wanted == ChangeFeedMode.AUTO) {
        return new FeedStart(ChangeFeedMode.LATEST_VERSION, drain(source, false, pageSize));
      }
      throw new IllegalStateException(
          "the source refuses the all-versions-and-deletes change feed (its changeFeedPolicy"
              + " keeps the latest version only?): enable it, or run with --change-feed"
              + " latest-version (deletes then follow by reconciliation). The service says: "
              + Sdk.firstLine(e),
          e);
    }
  }

  private static String drain(CosmosContainer source, boolean allVersions, int pageSize) {
    CosmosChangeFeedRequestOptions o =
        CosmosChangeFeedRequestOptions.createForProcessingFromNow(FeedRange.forFullRange());
    if (allVersions) {
      o = o.allVersionsAndDeletes();
    }
    String token = null;
    for (FeedResponse<JsonNode> page :
        source.queryChangeFeed(o, JsonNode.class).iterableByPage(pageSize)) {
      token = page.getContinuationToken();
    }
    if (token == null) {
      throw new IllegalStateException("the source's change feed gave no continuation");
    }
    return token;
  }
}
