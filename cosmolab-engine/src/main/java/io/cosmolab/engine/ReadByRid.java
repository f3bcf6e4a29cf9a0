package io.cosmolab.engine;

/**
 * What each document a page read weighs and where it lives, by the RID's document part: a map of
 * primitive longs to longs, open addressing with linear probing, for one page on one thread.
 */
/*
 * Why not a HashMap<Long, Long>: a scanned ORDER BY page that is charged as a walk would be records
 * every document it reads (PageInput), 100,000 of them on a page over 100,000
 * documents; the boxed map's puts and resizes were 13 % of such a page's samples in a profile
 * (PagingBench, ORDER BY c.status, c.n), where this one allocates two arrays per doubling.
 */
final class ReadByRid {
  private long[] keys = new long[64];
  private long[] values = new long[64];
  private boolean[] used = new boolean[64];
  private int size;

  /** Sets the value of {@code rid} (a RID's document part). */
  void put(long rid, long value) {
    if (2 * (size + 1) > keys.length) {
      grow();
    }
    int i = slot(rid);
    if (!used[i]) {
      used[i] = true;
      keys[i] = rid;
      size++;
    }
    values[i] = value;
  }

  /** The value of {@code rid}, or {@code absent} when it has none. */
  long get(long rid, long absent) {
    int i = slot(rid);
    return used[i] ? values[i] : absent;
  }

  int size() {
    return size;
  }

  /** Where {@code rid} is, or the free cell where it would go. */
  private int slot(long rid) {
    int mask = keys.length - 1;
    int i = (int) (mix(rid) & mask);
    while (used[i] && keys[i] != rid) {
      i = (i + 1) & mask;
    }
    return i;
  }

  private static long mix(long x) { // a 64-bit finalizer, so sequential RIDs spread
    x ^= x >>> 33;
    x *= 0xff51afd7ed558ccdL;
    x ^= x >>> 33;
    return x;
  }

  private void grow() {
    long[] oldKeys = keys;
    long[] oldValues = values;
    boolean[] oldUsed = used;
    keys = new long[oldKeys.length * 2];
    values = new long[oldKeys.length * 2];
    used = new boolean[oldKeys.length * 2];
    for (int j = 0; j < oldKeys.length; j++) {
      if (oldUsed[j]) {
        int i = slot(oldKeys[j]);
        used[i] = true;
        keys[i] = oldKeys[j];
        values[i] = oldValues[j];
      }
    }
  }
}
