package io.cosmolab.engine;

/**
 * One transaction's positions in its container's change log, taken from the commit gate in blocks
 * so that no other write's positions fall between them. Created and used under the transaction's
 * partition lock, by one thread.
 */
/*
 * Why blocks. Partitions write at once, and a change-feed page keeps a transaction's records
 * together: past its item count it reads on while the records are the transaction's, and stops at
 * the next transaction's (ChangeFeedReader). Had a write to another partition taken a position
 * between two of this transaction's, a full page would stop there, halfway through it. So a
 * transaction takes the positions it expects to use at once: 1 for a point write, a batch's
 * operation count; a script, which cannot say, UNKNOWN_WRITES, then blocks twice as large, up to
 * MAX_BLOCK. A block that follows the last without a gap extends it; one that does not (another
 * partition wrote meanwhile) leaves the transaction in several runs, which commit() notes in
 * SplitTransactions for the change feed. The unused end of the last block is given back at commit
 * when nothing was taken after it, else it stays a gap, which readers skip.
 */
final class LogPositions {
  /** The first block of a transaction that does not know its writes: a script's. */
  static final int UNKNOWN_WRITES = 16;

  /** The largest block a transaction takes at once. */
  static final int MAX_BLOCK = 1024;

  private final CommitGate gate;
  private final SplitTransactions splits;
  private int slot = -1; // the transaction's slot in the gate, while it is open
  private long first; // its first position; 0 before it takes one, and once closed
  private int taken; // positions taken, used or not: others' may lie between its blocks
  private long blockStart; // its current block
  private long blockNext; // the next unused position of that block
  private long blockEnd;
  private long[] earlierBlocks; // {start, end} pairs, when others' positions lie between blocks
  private int blockSize; // the size of the next block it takes

  /**
   * @param expectedWrites the writes the transaction will make if it knows (a point write's 1, a
   *     batch's operations), or {@link #UNKNOWN_WRITES} (a script's)
   */
  LogPositions(CommitGate gate, SplitTransactions splits, int expectedWrites) {
    this.gate = gate;
    this.splits = splits;
    this.blockSize = Math.max(1, expectedWrites);
  }

  /** Whether the transaction has taken a position and is not closed. */
  boolean open() {
    return first != 0;
  }

  /** The next position; the first opens the transaction in the gate. */
  long next() {
    if (first == 0) {
      slot = gate.open();
    }
    if (blockNext == 0 || blockNext > blockEnd) {
      int n = blockSize;
      long start = gate.take(slot, n);
      if (blockNext == 0) {
        blockStart = start;
      } else if (start != blockEnd + 1) { // another write's positions came between
        int k = earlierBlocks == null ? 0 : earlierBlocks.length;
        earlierBlocks =
            earlierBlocks == null ? new long[2] : java.util.Arrays.copyOf(earlierBlocks, k + 2);
        earlierBlocks[k] = blockStart;
        earlierBlocks[k + 1] = blockEnd;
        blockStart = start;
      } // else the new block continues the current one
      blockNext = start;
      blockEnd = start + n - 1;
      taken += n;
      blockSize = Math.min(MAX_BLOCK, Math.max(n * 2, UNKNOWN_WRITES));
    }
    long position = blockNext++;
    if (first == 0) {
      first = position;
    }
    return position;
  }

  /**
   * Closes the committed transaction: notes its runs if it has several, before the gate counts them
   * committed (a reader that sees its records sees the note), and gives back its last block's
   * unused end.
   */
  void commit() {
    if (earlierBlocks != null) {
      long[] blocks = java.util.Arrays.copyOf(earlierBlocks, earlierBlocks.length + 2);
      blocks[earlierBlocks.length] = blockStart;
      blocks[earlierBlocks.length + 1] = blockNext - 1;
      splits.add(blocks);
    }
    gate.finish(slot, blockNext, blockEnd);
    close();
  }

  /** Closes the transaction, which wrote nothing: gives its positions back if it can. */
  void abandon() {
    if (first != 0) {
      gate.abandon(slot, first, blockEnd, taken);
      close();
    }
  }

  private void close() {
    first = 0; // a later abandon() must not give the positions back
    taken = 0;
    blockNext = 0;
    earlierBlocks = null;
  }
}
