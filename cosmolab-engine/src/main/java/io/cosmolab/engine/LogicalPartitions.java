package io.cosmolab.engine;

import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.routing.SplitPoints;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Exact storage per logical partition, ordered by EPK: the state behind the 20 GB limit (403/1014),
 * storage splits at the median of stored bytes, and the largest-logical-partition metric.
 *
 * <p>Concurrency: an entry is written under the write lock of the physical partition that owns its
 * EPK (so entries of different partitions change at once, each by one writer), or with the layout
 * held exclusively; read by metrics and splits without a lock (each entry's counters are volatile,
 * and the maps are concurrent).
 */
final class LogicalPartitions {
  // ordered, for range sums and split points; touched only when a logical partition appears or
  // goes, while every write updates counters found through the hash map
  private final ConcurrentSkipListMap<String, Entry> byEpk = new ConcurrentSkipListMap<>();
  private final ConcurrentHashMap<String, Entry> lookup = new ConcurrentHashMap<>();
  private final Set<String> blockedReported = ConcurrentHashMap.newKeySet();

  private static final class Entry {
    final String epk;
    volatile PartitionKeyValue key;
    volatile long bytes;
    volatile long documents;

    Entry(String epk) {
      this.epk = epk;
    }
  }

  /** A logical partition's usage at a moment. */
  record Usage(PartitionKeyValue key, String epk, long bytes, long documents) {}

  /** The key value of a logical partition that has documents, or null. */
  PartitionKeyValue key(String epk) {
    Entry e = lookup.get(epk);
    return e == null ? null : e.key;
  }

  /**
   * {@code t} with the EPK string the logical partition already holds, when it has documents, and
   * its key value too when that is equal to {@code t}'s: a stored document keeps both, so the
   * documents of one logical partition then share one of each. Else {@code t}.
   */
  Target shared(Target t) {
    Entry e = lookup.get(t.epk());
    if (e == null) {
      return t;
    }
    PartitionKeyValue key = e.key;
    return new Target(key != null && key.equals(t.key()) ? key : t.key(), e.epk, t.id());
  }

  long bytes(String epk) {
    Entry e = lookup.get(epk);
    return e == null ? 0 : e.bytes;
  }

  /** Under the EPK's partition lock: one writer, so the volatile updates need no atomicity. */
  @SuppressWarnings("NonAtomicVolatileUpdate")
  void add(String epk, PartitionKeyValue key, long bytesDelta, long documentsDelta) {
    Entry e = lookup.get(epk);
    if (e == null) {
      e = new Entry(epk);
      lookup.put(epk, e);
      byEpk.put(epk, e);
    }
    if (key != null) {
      e.key = key;
    }
    e.bytes += bytesDelta;
    e.documents += documentsDelta;
    if (e.documents <= 0) {
      lookup.remove(epk);
      byEpk.remove(epk);
    }
  }

  /** {documents, bytes} of the logical partitions in a range. */
  long[] usage(EpkRange range) {
    long docs = 0;
    long bytes = 0;
    for (Entry e : sub(range)) {
      docs += e.documents;
      bytes += e.bytes;
    }
    return new long[] {docs, bytes};
  }

  /** The logical partitions of a range, in EPK order, with their bytes. */
  Iterator<SplitPoints.KeyBytes> keyBytes(EpkRange range) {
    Iterator<Entry> it = sub(range).iterator();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public SplitPoints.KeyBytes next() {
        Entry e = it.next();
        return new SplitPoints.KeyBytes(e.epk, e.bytes);
      }
    };
  }

  private Iterable<Entry> sub(EpkRange range) {
    return byEpk.subMap(range.min(), true, range.max(), false).values();
  }

  /** The {@code n} largest by bytes, largest first, ties in EPK order. */
  List<Usage> largest(int n) {
    // a min-heap of the n best: its head is the smallest bytes, then the greatest EPK
    Comparator<Entry> worstFirst =
        Comparator.<Entry>comparingLong(e -> e.bytes)
            .thenComparing(e -> e.epk, Comparator.reverseOrder());
    PriorityQueue<Entry> heap = new PriorityQueue<>(worstFirst);
    for (Entry e : lookup.values()) {
      heap.add(e);
      if (heap.size() > n) {
        heap.poll();
      }
    }
    List<Usage> out = new ArrayList<>(heap.size());
    while (!heap.isEmpty()) {
      Entry e = heap.poll();
      out.add(0, new Usage(e.key, e.epk, e.bytes, e.documents));
    }
    return out;
  }

  /** True the second time a blocked split of this range is reported (report once). */
  boolean blockedReported(String rangeId) {
    return !blockedReported.add(rangeId);
  }
}
