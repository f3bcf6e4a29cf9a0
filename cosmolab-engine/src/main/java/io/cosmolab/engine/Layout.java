package io.cosmolab.engine;

import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.routing.RoutingMap;
import io.cosmolab.engine.throughput.PartitionBudget;
import java.util.Map;

/**
 * A container's physical partitions at one moment: the routing map and, for each of its ranges,
 * what serves it. Immutable, and swapped whole by splits, merges and throughput changes, so a
 * request that reads one layout sees a range and its budget together.
 *
 * @param routing the partition key ranges
 * @param partitions the partition of each range id in {@code routing}, and no other
 */
record Layout(RoutingMap routing, Map<String, Partition> partitions) {

  Layout {
    partitions = Map.copyOf(partitions);
    if (partitions.size() != routing.size()) {
      throw new IllegalArgumentException(
          "a layout needs one partition per range: "
              + routing.size()
              + " ranges, "
              + partitions.size()
              + " partitions");
    }
  }

  /** The partition that owns this EPK. */
  Partition partitionFor(String epk) {
    return partitions.get(routing.rangeFor(epk).id());
  }

  /** The partition of a range id, or null when the range is gone (split or merged). */
  Partition partition(String rangeId) {
    return partitions.get(rangeId);
  }

  /**
   * What a partition's writer changes at every write: the first fields of a {@link Partition} (a
   * subclass's fields follow its superclass's).
   */
  abstract static class WrittenEachWrite {
    volatile long documents;
    volatile long bytes;
    long lastLsn; // guarded by writes: the last LSN taken, committed or not
    volatile long committedLsn; // the last LSN committed: what readers and tokens see
  }

  /**
   * 64 bytes after the written fields, so that what is allocated next (another partition's, when a
   * layout is made) does not share their cache line; {@link PartitionLock} says why it matters.
   */
  @SuppressWarnings("UnusedVariable") // never read: they only take room
  abstract static class Padded extends WrittenEachWrite {
    private long pad1;
    private long pad2;
    private long pad3;
    private long pad4;
    private long pad5;
    private long pad6;
    private long pad7;
    private long pad8;
  }

  /**
   * One physical partition: its range, the lock its document writes take, its budget (null when the
   * container uses its database's shared throughput), its usage and its LSN: the number of the last
   * write it committed, which it counts on its own 1, 2, 3… as the service's partitions do.
   *
   * <p>Concurrency: the usage counters and the LSN are written under {@link #writes} (or while the
   * layout is held exclusively) and read without it; the budget is lock-free.
   */
  static final class Partition extends Padded {
    final PartitionKeyRange range;
    final PartitionLock writes = new PartitionLock();
    final PartitionBudget budget;

    /**
     * A partition whose LSN starts at {@code lsn}: 0 for a new container, the parent's for the
     * children of a split, the higher of the two for a merge, the saved one after a restart.
     */
    Partition(
        PartitionKeyRange range, PartitionBudget budget, long documents, long bytes, long lsn) {
      this.range = range;
      this.budget = budget;
      this.documents = documents;
      this.bytes = bytes;
      this.lastLsn = lsn;
      this.committedLsn = lsn;
    }

    /**
     * The same range, usage and LSN with another budget (a throughput change, under the exclusive
     * layout: no write is open).
     */
    Partition withBudget(PartitionBudget b) {
      return new Partition(range, b, documents, bytes, committedLsn);
    }

    /** The LSN of the last write this partition committed. */
    long lsn() {
      return committedLsn;
    }

    /** Under {@link #writes}: the next LSN, for a write not yet committed. */
    long takeLsn() {
      return ++lastLsn;
    }

    /** Under {@link #writes}: every LSN taken so far is committed. */
    void commitLsns() {
      committedLsn = lastLsn;
    }

    /**
     * Under {@link #writes}: a transaction that wrote nothing gives its LSNs back, from {@code
     * first} on. No other write can have taken one meanwhile (they wait for the lock), so the
     * partition's numbers stay dense.
     */
    void giveBackLsns(long first) {
      lastLsn = first - 1;
    }

    long documents() {
      return documents;
    }

    long bytes() {
      return bytes;
    }

    /** Under {@link #writes}: one writer at a time, so the volatile updates need no atomicity. */
    @SuppressWarnings("NonAtomicVolatileUpdate")
    void addUsage(long documentsDelta, long bytesDelta) {
      documents += documentsDelta;
      bytes += bytesDelta;
    }
  }
}
