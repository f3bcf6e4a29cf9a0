package io.cosmolab.engine.store;

import io.cosmolab.engine.partitioning.EpkRange;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The default store: skip lists in memory. Documents are keyed by (EPK, id) and the change log by
 * LSN, so range scans and change-feed reads are ordered walks; a hash index beside the document
 * skip list serves point reads in constant time (a skip-list lookup was half of a point read).
 *
 * <p>Concurrency: skip lists give readers lock-free, weakly consistent iteration; {@link
 * ContainerStore#commit} is called by one writer per container (the engine's write lock), which
 * makes a commit atomic for every reader that goes through the engine.
 */
public final class InMemoryDocumentStore implements DocumentStore {
  private final Map<String, Container> containers = new ConcurrentHashMap<>();

  @Override
  public ContainerStore open(String containerRid) {
    return containers.computeIfAbsent(containerRid, rid -> new Container());
  }

  @Override
  public void drop(String containerRid) {
    containers.remove(containerRid);
  }

  private record Key(String epk, String id) implements Comparable<Key> {
    @Override
    public int compareTo(Key o) {
      int c = epk.compareTo(o.epk);
      return c != 0 ? c : id.compareTo(o.id);
    }
  }

  private static final class Container implements ContainerStore {
    private final ConcurrentSkipListMap<Key, StoredDocument> documents =
        new ConcurrentSkipListMap<>();
    private final ConcurrentHashMap<Key, StoredDocument> byKey = new ConcurrentHashMap<>();
    private final ConcurrentSkipListMap<Long, ChangeRecord> changes = new ConcurrentSkipListMap<>();
    private final AtomicLong count = new AtomicLong();

    @Override
    public StoredDocument get(String epk, String id) {
      return byKey.get(new Key(epk, id));
    }

    @Override
    public Iterator<StoredDocument> scan(EpkRange range) {
      // "" sorts before every id, so (min, "") is the first key of the range
      ConcurrentNavigableMap<Key, StoredDocument> sub =
          documents.subMap(new Key(range.min(), ""), true, new Key(range.max(), ""), false);
      return sub.values().iterator();
    }

    @Override
    public Iterator<ChangeRecord> changesAfter(long lsn) {
      return changes.tailMap(lsn, false).values().iterator();
    }

    @Override
    public void commit(List<Write> writes) {
      for (Write w : writes) {
        if (w instanceof Write.Put put) {
          StoredDocument d = put.document();
          Key k = new Key(d.epk(), d.id());
          documents.put(k, d);
          if (byKey.put(k, d) == null) {
            count.incrementAndGet();
          }
        } else if (w instanceof Write.Delete del) {
          Key k = new Key(del.epk(), del.id());
          documents.remove(k);
          if (byKey.remove(k) != null) {
            count.decrementAndGet();
          }
        } else if (w instanceof Write.Append append) {
          changes.put(append.change().lsn(), append.change());
        }
      }
    }

    @Override
    public long documentCount() {
      return count.get();
    }
  }
}
