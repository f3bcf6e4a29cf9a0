package io.cosmolab.migrator;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a run has done, saved atomically in the state directory ({@code state.json}) after every
 * page it has fully applied, so a run killed at any moment resumes from the last saved page.
 *
 * @param format the file's schema, {@code cosmolab.migrate/v1}
 * @param sourceUri the source account's URL (never its key)
 * @param source {@code DB/CONTAINER}
 * @param targetUri the target account's URL
 * @param target {@code DB/CONTAINER}
 * @param partitionKey the new key as written
 * @param onMissing {@code fail}, {@code skip} or {@code default=VALUE}
 * @param phase COPYING (the snapshot) or CATCHING_UP (the change feed)
 * @param feedContinuation the source's all-versions change-feed continuation (every feed range),
 *     taken before the snapshot started, then advanced page by page
 * @param copyContinuation the snapshot query's continuation; null at its start or once done
 * @param copied documents written by the snapshot copy
 * @param skipped documents left out (lacking the key, with {@code --on-missing skip})
 * @param applied change-feed records applied (creates, replaces and deletes)
 * @param deleted deletes among them
 * @param throttled 429 answers received (each honoured by waiting its retry-after)
 * @param requestUnits request units charged, both sides
 * @param lagSeconds the change feed's lag at the last page: 0 when it had nothing new
 * @param caughtUpAtMillis when the feed was last found with nothing new; 0 before
 * @param updatedAtMillis when this was saved (the injected clock)
 * @param changeFeed the feed tailed: {@code all-versions-and-deletes} or {@code latest-version}
 *     (absent in states saved before the choice existed: all versions and deletes)
 * @param sourceDocuments the source's documents when the run started (its plan's count): what the
 *     copy's progress and ETA are measured against
 * @param removed target documents deleted by reconciliation (latest-version feed only)
 * @param startedAtMillis when the migration started
 * @param ruPerSecond request units per second, both sides, over the last ~10 s of the run
 * @param documentsPerSecond documents written (copied or applied) per second, the same window
 * @param reconciledAtMillis when the last reconciliation pass ended; 0 before
 * @param ranges progress per source feed range (see {@link RangeProgress}): the ranges the feed
 *     continuation holds, and those gone by a split with their counts; empty in a state saved
 *     before ranges were kept
 * @param lagDocuments changes in the source not yet read, summed over the open ranges (each at its
 *     last page); 0 when the feed was drained, -1 when not known
 * @param fullyVerified whether the first verification pass, over every partition, was made (false
 *     in a state saved before incremental verification existed: a resumed run makes it)
 * @param changed the target's logical partitions written by the catch-up since they were last
 *     verified, by key, with the time of the last write: what the next pass reads
 * @param verifiedAtMillis when the last verification pass ended; 0 before
 * @param verifiedPartitions partitions the verification ledger holds (verified at least once)
 * @param differingPartitions those that differed when last read
 * @param differences the documents listed as differing in those partitions
 */
public record MigrationState(
    String format,
    String sourceUri,
    String source,
    String targetUri,
    String target,
    String partitionKey,
    String onMissing,
    Phase phase,
    String feedContinuation,
    String copyContinuation,
    long copied,
    long skipped,
    long applied,
    long deleted,
    long throttled,
    double requestUnits,
    double lagSeconds,
    long caughtUpAtMillis,
    long updatedAtMillis,
    String changeFeed,
    long sourceDocuments,
    long removed,
    long startedAtMillis,
    double ruPerSecond,
    double documentsPerSecond,
    long reconciledAtMillis,
    List<RangeProgress> ranges,
    long lagDocuments,
    boolean fullyVerified,
    Map<String, Changed> changed,
    long verifiedAtMillis,
    long verifiedPartitions,
    long differingPartitions,
    long differences) {

  public static final String FORMAT = "cosmolab.migrate/v1";

  public MigrationState {
    ranges = ranges == null ? List.of() : List.copyOf(ranges);
    changed = changed == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(changed));
  }

  /**
   * A logical partition of the target written since it was last verified.
   *
   * @param atMillis the last write
   * @param sourceValues the source values that make its key (for a computed key), or null
   */
  public record Changed(long atMillis, String sourceValues) {}

  /** Where a run is. */
  public enum Phase {
    COPYING,
    CATCHING_UP
  }

  /** The feed tailed. */
  public ChangeFeedMode changeFeedMode() {
    return changeFeed == null
        ? ChangeFeedMode.ALL_VERSIONS_AND_DELETES
        : ChangeFeedMode.parse(changeFeed);
  }

  /**
   * Seconds until the copy is done at the current rate; -1 when not copying or the rate is not
   * known yet. Documents written while copying may outnumber the start's count: then 0.
   */
  public double copyEtaSeconds() {
    if (phase != Phase.COPYING || documentsPerSecond <= 0 || sourceDocuments <= 0) {
      return -1;
    }
    return Math.max(0, sourceDocuments - copied - skipped) / documentsPerSecond;
  }

  /** Whether the target is ready for a cut-over: copied and the lag under 2 s. */
  public boolean ready() {
    return phase == Phase.CATCHING_UP && lagSeconds < 2;
  }
}
