package io.cosmolab.engine.store;

import io.cosmolab.engine.partitioning.EpkRange;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The default store: ordered maps in memory. Documents are ordered by (EPK, id) in two levels —
 * logical partitions by EPK, then documents by id within each — and the change log by LSN, so range
 * scans and change-feed reads are ordered walks. A hash index serves point reads in constant time.
 *
 * <p>Why two levels: the documents of a logical partition share one EPK (32 to 96 characters), so a
 * single (EPK, id) skip list compares long equal strings at every level; profiles showed those
 * comparisons taking a third of a create. The outer map holds one entry per logical partition.
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

  private record Key(String epk, String id) {}

  private static final class Container implements ContainerStore {
    private final ConcurrentSkipListMap<String, ConcurrentSkipListMap<String, StoredDocument>>
        byEpk = new ConcurrentSkipListMap<>();
    private final ConcurrentHashMap<String, ConcurrentSkipListMap<String, StoredDocument>> logical =
        new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Key, StoredDocument> byKey = new ConcurrentHashMap<>();
    private final ConcurrentSkipListMap<Long, ChangeRecord> changes = new ConcurrentSkipListMap<>();
    private final AtomicLong count = new AtomicLong();

    @Override
    public StoredDocument get(String epk, String id) {
      return byKey.get(new Key(epk, id));
    }

    @Override
    public Iterator<StoredDocument> scan(EpkRange range) {
      Iterator<ConcurrentSkipListMap<String, StoredDocument>> partitions =
          byEpk.subMap(range.min(), true, range.max(), false).values().iterator();
      return new Iterator<>() {
        Iterator<StoredDocument> current = java.util.Collections.emptyIterator();

        @Override
        public boolean hasNext() {
          while (!current.hasNext() && partitions.hasNext()) {
            current = partitions.next().values().iterator();
          }
          return current.hasNext();
        }

        @Override
        public StoredDocument next() {
          if (!hasNext()) {
            throw new java.util.NoSuchElementException();
          }
          return current.next();
        }
      };
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
          ConcurrentSkipListMap<String, StoredDocument> partition = logical.get(d.epk());
          if (partition == null) {
            partition = new ConcurrentSkipListMap<>();
            logical.put(d.epk(), partition);
            byEpk.put(d.epk(), partition);
          }
          partition.put(d.id(), d);
          if (byKey.put(new Key(d.epk(), d.id()), d) == null) {
            count.incrementAndGet();
          }
        } else if (w instanceof Write.Delete del) {
          ConcurrentSkipListMap<String, StoredDocument> partition = logical.get(del.epk());
          if (partition != null) {
            partition.remove(del.id());
            if (partition.isEmpty()) {
              logical.remove(del.epk());
              byEpk.remove(del.epk());
            }
          }
          if (byKey.remove(new Key(del.epk(), del.id())) != null) {
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

  private volatile String catalog;

  /** Kept in memory: a new engine on the same store instance restores from it. */
  @Override
  public String loadCatalog() {
    return catalog;
  }

  @Override
  public void saveCatalog(String catalogJson) {
    this.catalog = catalogJson;
  }
}
