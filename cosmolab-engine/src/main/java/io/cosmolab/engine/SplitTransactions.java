package io.cosmolab.engine;

import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The committed transactions whose change records are not next to each other in the log: a script
 * that wrote more than its first block of positions while writes to other partitions took the
 * positions after it (LogPositions). The change feed reads them here to keep such a transaction on
 * one page (ChangeFeedReader): the page whose positions cover its first block takes the records of
 * its later blocks too, and a page that starts at or after its first block passes over the later
 * ones, which came with it. Both go by positions, not by what the log holds, so retention dropping
 * records between two pages changes neither.
 *
 * <p>Bounded: the {@link #KEPT} most recent are kept. A transaction dropped from here is read like
 * any other, each block where it lies, so a page may end between its blocks again, and a reader
 * whose page took its later blocks just before it was dropped reads them once more. Not kept across
 * a restart, with the same effect: an assumption that such transactions are rare (a script of more
 * than {@value LogPositions#UNKNOWN_WRITES} writes, racing writes to other partitions) and that a
 * reader is seldom in the middle of one when it goes.
 */
final class SplitTransactions {
  /** How many split transactions are kept, the most recent. */
  static final int KEPT = 16_384;

  // first LSN -> the transaction's blocks, {start, end} pairs in LSN order
  private final ConcurrentSkipListMap<Long, long[]> byFirst = new ConcurrentSkipListMap<>();
  // start of a block after the first -> {end, the transaction's first LSN}
  private final ConcurrentSkipListMap<Long, long[]> laterBlocks = new ConcurrentSkipListMap<>();
  private final AtomicInteger size = new AtomicInteger();

  /** True when no transaction is split: the change feed's common case, read once a page. */
  boolean isEmpty() {
    return byFirst.isEmpty();
  }

  /**
   * Records a committed transaction's blocks, {start, end} pairs in LSN order, more than one,
   * before its LSNs count as committed.
   */
  void add(long[] blocks) {
    if (blocks.length < 4 || (blocks.length & 1) != 0) {
      throw new IllegalArgumentException("a split transaction has two blocks or more");
    }
    long first = blocks[0];
    for (int i = 2; i < blocks.length; i += 2) {
      laterBlocks.put(blocks[i], new long[] {blocks[i + 1], first});
    }
    byFirst.put(first, blocks);
    if (size.incrementAndGet() > KEPT) { // each add drops at most one, so the count stays bounded
      Map.Entry<Long, long[]> oldest = byFirst.pollFirstEntry();
      if (oldest != null) {
        long[] gone = oldest.getValue();
        for (int i = 2; i < gone.length; i += 2) {
          laterBlocks.remove(gone[i]);
        }
        size.decrementAndGet();
      }
    }
  }

  /**
   * The blocks ({start, end} pairs, the first block first) of the split transactions whose first
   * block starts after {@code after} and at or before {@code upTo}.
   */
  java.util.Collection<long[]> withFirstRunIn(long after, long upTo) {
    if (upTo <= after) {
      return java.util.List.of();
    }
    return byFirst.subMap(after, false, upTo, true).values();
  }

  /**
   * The blocks of the split transaction one of whose later blocks holds {@code lsn}, or null when
   * {@code lsn} lies in no such block.
   */
  long[] blocksFromLater(long lsn) {
    Map.Entry<Long, long[]> e = laterBlocks.floorEntry(lsn);
    if (e == null || lsn > e.getValue()[0]) {
      return null;
    }
    return byFirst.get(e.getValue()[1]);
  }
}
