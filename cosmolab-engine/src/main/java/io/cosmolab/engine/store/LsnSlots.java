package io.cosmolab.engine.store;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Values by LSN, for the in-memory change log: arrays of {@value #SIZE} slots, one per block of
 * LSNs, instead of a skip list with a boxed key, a node and part of an index per record (about
 * three objects a record the collector copies, and a tenth of a create's time: docs/benchmarks.md,
 * "What else it is not").
 */
/*
 * LSNs are dense and mostly increasing (each write takes the next; writers to different partitions
 * commit in any order, close together), so the newest block fills slot by slot. Old blocks empty as
 * retention drops superseded records; an emptied block leaves the directory. A block where few
 * records stay (the newest versions of documents never rewritten) would keep its whole array for
 * them, up to SIZE slots for one record, so a dense block with at most SPARSE records left, once
 * writers are two blocks past it, becomes sparse (at the drop that leaves it so, or when the block
 * two after it begins): the LSNs it holds in a sorted long[] and their values beside them. A sparse block that
 * grows past twice that (late puts, rare) becomes dense again.
 *
 * Concurrency: every change to a block takes the block's monitor (a put, a drop, a replace, the
 * change of form), so a change of form never loses a concurrent change. The monitor is held for a
 * few array stores; two writers meet on it only when they append to the same block in the same few
 * nanoseconds. Reads take no lock: a block's form is one volatile reference, and the slots of each
 * form are read and written with volatile semantics (AtomicReferenceArray). An iterator is weakly
 * consistent, as the skip list's was: it sees every value put before it started and not dropped
 * since, and may or may not see later changes; a reader that reads past a block's change of form
 * reads the form it started with, whose values were the block's at that moment.
 */
final class LsnSlots<V> {
  static final int SHIFT = 10;
  static final int SIZE = 1 << SHIFT;
  static final int SPARSE = SIZE / 16;

  private final ConcurrentSkipListMap<Long, Block> blocks = new ConcurrentSkipListMap<>();

  /** Puts a value at an LSN (replacing any there). */
  void put(long lsn, V value) {
    if (value == null) {
      throw new IllegalArgumentException("null value at LSN " + lsn);
    }
    while (true) {
      Block b = blocks.computeIfAbsent(base(lsn), Block::new);
      boolean first;
      synchronized (b) {
        if (b.live < 0) {
          continue; // emptied and removed meanwhile: a new block
        }
        first = b.live == 0;
        b.put(lsn, value);
      }
      if (first) {
        // writers have now moved two blocks past this one: make it sparse if retention left few
        // records in it while it was still too new to (Block.behind)
        Block passed = blocks.get(b.base - 2L * SIZE);
        if (passed != null) {
          passed.compactIfSparse();
        }
      }
      return;
    }
  }

  /** The value at an LSN, or null. */
  V get(long lsn) {
    Block b = blocks.get(base(lsn));
    return b == null ? null : b.form.get(lsn);
  }

  /** Replaces the value at an LSN if it is {@code expected} (the same object). */
  boolean replace(long lsn, V expected, V value) {
    Block b = blocks.get(base(lsn));
    if (b == null) {
      return false;
    }
    synchronized (b) {
      if (b.form.get(lsn) != expected || b.live < 0) {
        return false;
      }
      b.put(lsn, value);
      return true;
    }
  }

  /** Drops the value at an LSN, if any. */
  void remove(long lsn) {
    Block b = blocks.get(base(lsn));
    if (b == null) {
      return;
    }
    synchronized (b) {
      if (b.live < 0 || !b.remove(lsn)) {
        return;
      }
      if (b.live == 0) {
        b.live = -1; // a put that finds it now goes to a new block
        blocks.remove(b.base, b);
      }
    }
  }

  /** The values after an LSN, in LSN order. */
  Iterator<V> after(long lsn) {
    Iterator<Block> from = blocks.tailMap(base(lsn), true).values().iterator();
    return new Iterator<>() {
      Form<V> form;
      int next; // the position in form to look at next
      V value;

      @Override
      public boolean hasNext() {
        while (value == null) {
          if (form == null || next >= form.positions()) {
            if (!from.hasNext()) {
              return false;
            }
            form = from.next().form;
            next = form.firstAfter(lsn);
          } else {
            value = form.at(next++);
          }
        }
        return true;
      }

      @Override
      public V next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        V v = value;
        value = null;
        return v;
      }
    };
  }

  /** How many blocks the log has, and how many of them are sparse (for tests). */
  int[] shape() {
    int sparse = 0;
    for (Block b : blocks.values()) {
      if (b.form instanceof Sparse) {
        sparse++;
      }
    }
    return new int[] {blocks.size(), sparse};
  }

  private static long base(long lsn) {
    return lsn >> SHIFT << SHIFT;
  }

  /** One block's slots in one form; readers read it without a lock. */
  private interface Form<V> {
    V get(long lsn);

    /** How many positions {@link #at} reads. */
    int positions();

    /** The value at a position in LSN order, or null. */
    V at(int position);

    /** The first position holding an LSN above this one. */
    int firstAfter(long lsn);
  }

  /** One slot per LSN of the block. */
  private record Dense<V>(long base, AtomicReferenceArray<V> slots) implements Form<V> {
    @Override
    public V get(long lsn) {
      return slots.get((int) (lsn - base));
    }

    @Override
    public int positions() {
      return SIZE;
    }

    @Override
    public V at(int position) {
      return slots.get(position);
    }

    @Override
    public int firstAfter(long lsn) {
      return (int) Math.max(0, Math.min(SIZE, lsn - base + 1));
    }
  }

  /** The LSNs that hold a value, sorted, and their values; a dropped one's value is null. */
  private static final class Sparse<V> implements Form<V> {
    final long[] lsns;
    final AtomicReferenceArray<V> values;

    Sparse(long[] lsns, AtomicReferenceArray<V> values) {
      this.lsns = lsns;
      this.values = values;
    }

    @Override
    public V get(long lsn) {
      int i = java.util.Arrays.binarySearch(lsns, lsn);
      return i < 0 ? null : values.get(i);
    }

    @Override
    public int positions() {
      return lsns.length;
    }

    @Override
    public V at(int position) {
      return values.get(position);
    }

    @Override
    public int firstAfter(long lsn) {
      int i = java.util.Arrays.binarySearch(lsns, lsn);
      return i < 0 ? -i - 1 : i + 1;
    }
  }

  /** The block of SIZE LSNs from {@code base}; its fields change under its monitor only. */
  private final class Block {
    final long base;
    volatile Form<V> form;
    // values held; -1 once emptied and out of the directory. Under the monitor.
    int live;

    Block(long base) {
      this.base = base;
      this.form = new Dense<>(base, new AtomicReferenceArray<>(SIZE));
    }

    void put(long lsn, V value) {
      Form<V> f = form;
      if (f instanceof Dense<V> d) {
        if (d.slots.getAndSet((int) (lsn - base), value) == null) {
          live++;
        }
        return;
      }
      Sparse<V> s = (Sparse<V>) f;
      int i = java.util.Arrays.binarySearch(s.lsns, lsn);
      if (i >= 0 && s.values.get(i) != null) {
        s.values.set(i, value);
        return;
      }
      live++;
      if (i >= 0) {
        s.values.set(i, value);
      } else if (live > 2 * SPARSE) {
        form = dense(s, lsn, value);
      } else {
        form = sparse(s, lsn, value);
      }
    }

    boolean remove(long lsn) {
      Form<V> f = form;
      boolean removed;
      if (f instanceof Dense<V> d) {
        removed = d.slots.getAndSet((int) (lsn - base), null) != null;
      } else {
        Sparse<V> s = (Sparse<V>) f;
        int i = java.util.Arrays.binarySearch(s.lsns, lsn);
        removed = i >= 0 && s.values.getAndSet(i, null) != null;
      }
      if (removed) {
        live--;
        compactIfSparse();
      }
      return removed;
    }

    /** Makes a dense block with few records sparse, once writers are past it. */
    synchronized void compactIfSparse() {
      if (live > 0 && live <= SPARSE && form instanceof Dense && behind()) {
        form = sparse(form, -1, null);
      }
    }

    /**
     * Whether writers have moved two blocks past this one (a block after the next exists), so that
     * a put into it is rare (one whose commit lagged SIZE others): the newest blocks, which fill as
     * their records are superseded, stay dense. A block left with few records before that is made
     * sparse when the block two after it begins ({@link LsnSlots#put}).
     */
    private boolean behind() {
      return blocks.ceilingKey(base + 2L * SIZE) != null;
    }

    /** The values of a form (and one more, when lsn is not -1) as a sparse form. */
    private Sparse<V> sparse(Form<V> f, long lsn, V value) {
      long[] lsns = new long[live];
      AtomicReferenceArray<V> values = new AtomicReferenceArray<>(live);
      int n = 0;
      boolean added = lsn < 0;
      for (int p = 0; p < f.positions(); p++) {
        V v = f.at(p);
        if (v == null) {
          continue;
        }
        long at = f instanceof Sparse<V> s ? s.lsns[p] : base + p;
        if (!added && lsn < at) {
          lsns[n] = lsn;
          values.set(n++, value);
          added = true;
        }
        lsns[n] = at;
        values.set(n++, v);
      }
      if (!added) {
        lsns[n] = lsn;
        values.set(n, value);
      }
      return new Sparse<>(lsns, values);
    }

    /** The values of a sparse form and one more as a dense form. */
    private Dense<V> dense(Sparse<V> s, long lsn, V value) {
      AtomicReferenceArray<V> slots = new AtomicReferenceArray<>(SIZE);
      for (int p = 0; p < s.lsns.length; p++) {
        V v = s.values.get(p);
        if (v != null) {
          slots.set((int) (s.lsns[p] - base), v);
        }
      }
      slots.set((int) (lsn - base), value);
      return new Dense<>(base, slots);
    }
  }
}
