package io.cosmolab.engine;

import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.store.ChangeRecord;
import io.cosmolab.engine.store.ContainerStore;
import java.util.Iterator;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * What lets an ORDER BY page keep what it walked while its partitions are written ({@link
 * OrderedWalk}): a mark of each partition's LSN before the walk, and the writes committed there
 * since, read from the change log after it.
 *
 * <p>Concurrency: stateless but for what it reads; a mark and a check each take one partition's
 * write lock at a time, briefly, and hold nothing else.
 */
final class WalkMarks {
  private final PartitionLayout layout;
  private final ContainerStore store;
  private final ChangeLogRetention retention;
  private final LongSupplier logPositionNow;
  private final LongSupplier lastTakenNow;

  /**
   * @param logPositionNow the change log's position: the container-wide LSN of the last committed
   *     write ({@link Container#lsn()})
   * @param lastTakenNow the last container-wide LSN taken, by a write finished or not
   */
  WalkMarks(
      PartitionLayout layout,
      ContainerStore store,
      ChangeLogRetention retention,
      LongSupplier logPositionNow,
      LongSupplier lastTakenNow) {
    this.layout = layout;
    this.store = store;
    this.retention = retention;
    this.logPositionNow = logPositionNow;
    this.lastTakenNow = lastTakenNow;
  }

  /** How long a mark or a check waits for a partition's write in progress before giving up. */
  private static final long QUIET_WAIT_MILLIS = 10;

  /**
   * The physical partitions serving {@code targets}, each one's LSN taken under its write lock (so
   * every write at or below it has finished, its index update included, and every write above it
   * starts later), and the change log's position before them; null when the layout no longer has
   * one of them, or a write held one for longer than {@value #QUIET_WAIT_MILLIS} ms. An ORDER BY
   * page walks the index from such a mark and then asks {@link #writesSince} what was written in
   * its partitions meanwhile.
   */
  QuietMark mark(List<PartitionKeyRange> targets) {
    long logPosition =
        logPositionNow.getAsLong(); // below every LSN a write that starts from now on takes
    Layout l = layout.current();
    long[] lsns = settledLsns(l, targets);
    return lsns == null ? null : new QuietMark(l, lsns, logPosition);
  }

  /**
   * Each target partition's LSN, read while holding its write lock (one partition at a time); null
   * when the layout has no such partition, this thread holds a lock already, or a lock was not free
   * within the wait.
   */
  private static long[] settledLsns(Layout l, List<PartitionKeyRange> targets) {
    long[] lsns = new long[targets.size()];
    for (int i = 0; i < lsns.length; i++) {
      Layout.Partition p = l.partition(targets.get(i).id());
      if (p == null || p.writes.isHeldByCurrentThread()) {
        return null; // gone; or a stored procedure's query, inside its own transaction: scan
      }
      try {
        if (!p.writes.tryLock(QUIET_WAIT_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS)) {
          return null;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
      try {
        lsns[i] = p.lsn();
      } finally {
        p.writes.unlock();
      }
    }
    return lsns;
  }

  /**
   * The writes committed in {@code targets}' partitions since {@code mark} to documents in {@code
   * scope}, oldest first (none when the partitions' LSNs have not moved), each with the version it
   * replaced; null when they cannot be known: the layout changed, a write held a partition too
   * long, or the change log's retention passed the mark (records after the horizon are never
   * dropped, so all of them are there otherwise). A page reads only documents in its scope (a
   * logical partition, or a prefix of a hierarchical key, when the query names one), so writes to
   * the other logical partitions of its physical partitions are no concern of its.
   */
  List<ChangeRecord> writesSince(QuietMark mark, List<PartitionKeyRange> targets, EpkRange scope) {
    Layout l = layout.current();
    if (!l.equals(mark.layout())) { // the same routing and the same partitions (by identity)
      return null;
    }
    long[] lsns = settledLsns(l, targets);
    if (lsns == null) {
      return null;
    }
    if (java.util.Arrays.equals(lsns, mark.lsns())) {
      return List.of();
    }
    // every write counted below (at or below a settled LSN) had finished when its partition's lock
    // was taken, so its record is at or below the last LSN taken now: the log is read that far,
    // not on behind the writes that other partitions append while it is read
    long end = lastTakenNow.getAsLong();
    if (retention.horizon() > mark.logPosition()) {
      return null;
    }
    List<ChangeRecord> out = new java.util.ArrayList<>();
    Iterator<ChangeRecord> log = store.changesAfter(mark.logPosition());
    while (log.hasNext()) {
      ChangeRecord r = log.next();
      if (r.lsn() > end) {
        break;
      }
      int i = 0;
      while (i < targets.size() && !targets.get(i).contains(r.epk())) {
        i++;
      }
      if (i < targets.size()
          && r.rangeLsn() > mark.lsns()[i]
          && r.rangeLsn() <= lsns[i]
          && scope.contains(r.epk())) {
        out.add(r); // in a target partition and the scope, after the mark, before this check
      }
    }
    // the horizon only rises, and a record is dropped only at or below it: if it is still below
    // the mark, every record read was there to read
    return retention.horizon() > mark.logPosition() ? null : out;
  }

  /** See {@link #mark}; {@code logPosition} is the change log's ({@link Container#lsn()}). */
  @SuppressWarnings("ArrayRecordComponent") // package-private, made and read by one page
  record QuietMark(Layout layout, long[] lsns, long logPosition) {}
}
