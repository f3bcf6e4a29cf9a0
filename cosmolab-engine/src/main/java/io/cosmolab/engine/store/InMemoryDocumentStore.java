package io.cosmolab.engine.store;

import io.cosmolab.engine.partitioning.EpkRange;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The default store: ordered maps in memory. Documents are ordered by (EPK, id) in two levels —
 * logical partitions by EPK, then documents by id (in UTF-8 order, as on disk) within each — and
 * the change log by LSN, so range scans and change-feed reads are ordered walks.
 */
/*
 * Why two levels: the documents of a logical partition share one EPK (32 to 96 characters), so a
 * single (EPK, id) skip list compares long equal strings at every level; profiles showed those
 * comparisons taking a third of a create. The outer level holds one entry per logical partition,
 * twice: a skip list for ordered scans and a hash map for getAll, both holding the same map
 * objects, so a reader of either finds the same state of a logical partition. Point reads go
 * through a hash by id (ById), for speed.
 *
 * Concurrency: copy-on-write per logical partition for commits that change several of its
 * documents, and for small logical partitions (LogicalDocuments: an immutable array of up to 64
 * documents), in place for the rest. The engine commits writes to one logical partition from one
 * thread at a time (its partition lock) and may commit to different logical partitions at once.
 * A commit that changes one document of a small logical partition publishes its new array with
 * one write of the partition's slot; of a large one, puts the new copy of the one chunk it changes
 * in place: a single volatile write. Either way every reader sees it entirely or not at all. A
 * commit that changes several documents of one logical partition (a transactional batch) builds a
 * new copy of that logical partition and swaps it in with one write, so a scan or an index hit
 * (getAll) sees the whole batch or none of it; the copy costs the logical partition's size, paid
 * by batches only. Point reads are the exception, kept for their speed: the hash by id is updated
 * after the swap, one document at a time, so two point reads made during a batch's commit
 * (microseconds) may see one document new and the other old. Each point read alone sees a whole version. The change
 * log is written after the documents; the engine lets readers of the log go only as far as its
 * commit gate (the highest LSN below which every commit finished), so a change-feed reader never
 * sees a record before its document.
 */
public final class InMemoryDocumentStore implements DocumentStore {
  private final Map<String, Container> containers = new ConcurrentHashMap<>();

  /** An empty store. */
  public InMemoryDocumentStore() {}

  /** A get is a lookup in a concurrent map: no I/O, no lock. */
  @Override
  public boolean getNeverWaits() {
    return true;
  }

  @Override
  public ContainerStore open(String containerRid) {
    return containers.computeIfAbsent(containerRid, rid -> new Container());
  }

  /**
   * Where a logical partition's current state is: both indexes hold the same slot, so a write that
   * replaces the state (a small partition's new array, a batch's copy) is one volatile write, not
   * two map puts.
   */
  private static final class Slot {
    volatile LogicalDocuments docs;

    Slot(LogicalDocuments docs) {
      this.docs = docs;
    }
  }

  private static final class Container implements ContainerStore {
    private final ConcurrentSkipListMap<String, Slot> byEpk = new ConcurrentSkipListMap<>();
    // the same logical partitions by hash, for reads of several documents of one (getAll)
    private final ConcurrentHashMap<String, Slot> logical = new ConcurrentHashMap<>();
    // by LSN: a ChangeRecord, or for a create the StoredDocument it wrote (logged())
    private final LsnSlots<Object> changes = new LsnSlots<>();
    // striped: every create and delete counts, from as many threads as partitions are written
    private final LongAdder count = new LongAdder();
    // every document by id, for point reads: a read through the logical partition's map ran at
    // about half the speed (388k/s against 765k/s in PointOperationsBenchmark)
    private final ById byId = new ById();
    private volatile Marks marks;

    @Override
    public Marks marks() {
      return marks;
    }

    @Override
    public void saveMarks(Marks marks) {
      this.marks = marks;
    }

    @Override
    public StoredDocument get(String epk, String id) {
      return byId.get(epk, id);
    }

    @Override
    public List<StoredDocument> getAll(String epk, List<String> ids) {
      Slot slot = logical.get(epk);
      LogicalDocuments partition = slot == null ? null : slot.docs; // one state
      List<StoredDocument> out = new ArrayList<>(ids.size());
      if (partition != null) {
        for (String id : ids) {
          StoredDocument d = partition.get(id);
          if (d != null) {
            out.add(d);
          }
        }
      }
      return out;
    }

    @Override
    public Iterator<StoredDocument> scan(EpkRange range) {
      return walk(byEpk.subMap(range.min(), true, range.max(), false), null, null);
    }

    @Override
    public Iterator<StoredDocument> scanFrom(EpkRange range, String fromEpk, String fromId) {
      return walk(byEpk.subMap(fromEpk, true, range.max(), false), fromEpk, fromId);
    }

    /** The documents of these logical partitions in order; the first from {@code fromId}. */
    private static Iterator<StoredDocument> walk(
        Map<String, Slot> logicalPartitions, String fromEpk, String fromId) {
      Iterator<Map.Entry<String, Slot>> partitions = logicalPartitions.entrySet().iterator();
      return new Iterator<>() {
        Iterator<StoredDocument> current = java.util.Collections.emptyIterator();

        @Override
        public boolean hasNext() {
          while (!current.hasNext() && partitions.hasNext()) {
            Map.Entry<String, Slot> p = partitions.next();
            current = p.getValue().docs.from(p.getKey().equals(fromEpk) ? fromId : null);
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
      Iterator<Object> logged = changes.after(lsn);
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          return logged.hasNext();
        }

        @Override
        public ChangeRecord next() {
          return record(logged.next());
        }
      };
    }

    @Override
    public void commit(List<Write> writes) {
      // the document writes per logical partition, in order; the log after them. A point write
      // (one document write) goes straight to its partition: no grouping to allocate per write
      Write only = null;
      int documentWrites = 0;
      for (Write w : writes) {
        if (w instanceof Write.Put || w instanceof Write.Delete) {
          only = w;
          documentWrites++;
        }
      }
      if (documentWrites == 1) {
        apply(epkOf(only), List.of(only));
      } else if (documentWrites > 1) {
        Map<String, List<Write>> byPartition = new LinkedHashMap<>(2);
        for (Write w : writes) {
          if (w instanceof Write.Put || w instanceof Write.Delete) {
            byPartition.computeIfAbsent(epkOf(w), e -> new ArrayList<>(1)).add(w);
          }
        }
        for (Map.Entry<String, List<Write>> e : byPartition.entrySet()) {
          apply(e.getKey(), e.getValue());
        }
      }
      // point reads: after the logical partitions, one document at a time (see the class comment)
      for (Write w : writes) {
        StoredDocument previous = null;
        if (w instanceof Write.Put put) {
          previous = byId.put(put.document());
        } else if (w instanceof Write.Delete del) {
          previous = byId.remove(del.epk(), del.id());
        }
        if (previous != null) {
          unlog(previous);
          // the log may keep its body for the retention window, not the version and its JSON
          io.cosmolab.engine.document.CompactObjects.detachSystemTexts(previous.body());
        }
      }
      for (Write w : writes) {
        if (w instanceof Write.Append append) {
          changes.put(append.change().lsn(), logged(append.change(), writes));
        } else if (w instanceof Write.DropChange drop) {
          changes.remove(drop.lsn());
        }
      }
    }

    /** The EPK of a document write (a put or a delete). */
    private static String epkOf(Write w) {
      return w instanceof Write.Put put ? put.document().epk() : ((Write.Delete) w).epk();
    }

    /**
     * What the log keeps of a record: a create, as the document the same commit writes when {@link
     * #record} makes the very record of it again, rather than a second object repeating its fields,
     * kept as long as the document lives (the newest record of a live document stays:
     * ChangeLogRetention); any other record as it is.
     */
    @SuppressWarnings("ReferenceEquality") // the same body, not an equal one: identity is the point
    private static Object logged(ChangeRecord c, List<Write> writes) {
      if (c.operation() != ChangeRecord.Operation.CREATE) {
        return c; // record() makes only creates
      }
      for (Write w : writes) {
        if (w instanceof Write.Put put
            && put.document().body() == c.current()
            && record(put.document()).equals(c)) {
          return put.document();
        }
      }
      return c;
    }

    /**
     * Once a document is replaced or deleted, its create (if the log kept it as the document) is
     * kept as a record: the document may hold its serialized JSON (StoredDocument.json()), which
     * the log should not keep alive for as long as it keeps the record (its retention window).
     */
    @SuppressWarnings("ReferenceEquality") // the very document logged(), not an equal one
    private void unlog(StoredDocument superseded) {
      Object logged = changes.get(superseded.lsn());
      if (logged == superseded) {
        changes.replace(superseded.lsn(), logged, record(superseded));
      }
    }

    /** The record {@link #logged} kept. */
    private static ChangeRecord record(Object logged) {
      if (logged instanceof StoredDocument d) {
        return new ChangeRecord(
            d.lsn(),
            d.timestampMillis(),
            ChangeRecord.Operation.CREATE,
            d.epk(),
            d.id(),
            d.partitionKey(),
            d.body(),
            null,
            0,
            d.sizeBytes(),
            false,
            d.rangeLsn());
      }
      return (ChangeRecord) logged;
    }

    /**
     * The writes of one commit to one logical partition. One write changes the partition as it can
     * (a small one's new array, a large one's changed chunk in place); several (a batch) change a
     * copy that is swapped in at once, so readers see all of them or none.
     */
    private void apply(String epk, List<Write> writes) {
      Slot slot = logical.get(epk);
      LogicalDocuments next =
          slot == null
              ? LogicalDocuments.EMPTY
              : writes.size() > 1 ? slot.docs.forBatch() : slot.docs;
      int before = next.size();
      for (Write w : writes) {
        next = apply(next, w);
      }
      install(epk, slot, before, next);
    }

    private static LogicalDocuments apply(LogicalDocuments docs, Write w) {
      return w instanceof Write.Put put
          ? docs.with(put.document())
          : docs.without(((Write.Delete) w).id());
    }

    /**
     * Makes {@code next} the logical partition's state (its size was {@code before}): one write of
     * its slot, which readers see whole; a new slot in both indexes for a new logical partition
     * (the hash first, so a point read never misses what a scan already sees); an emptied one
     * leaves them.
     */
    private void install(String epk, Slot slot, int before, LogicalDocuments next) {
      count.add(next.size() - before);
      if (slot != null) {
        slot.docs = next;
        if (next.size() == 0) {
          byEpk.remove(epk);
          logical.remove(epk);
        }
      } else if (next.size() > 0) {
        Slot created = new Slot(next);
        logical.put(epk, created);
        byEpk.put(epk, created);
      }
    }

    @Override
    public long documentCount() {
      return count.sum();
    }
  }

  private volatile String catalog;

  /** Kept in memory: a new engine on the same store instance restores from it. */
  @Override
  public String loadCatalog() {
    return catalog;
  }

  @Override
  public void saveCatalog(String catalogJson, java.util.Collection<String> dropped) {
    this.catalog = catalogJson;
    dropped.forEach(containers::remove);
  }
}
