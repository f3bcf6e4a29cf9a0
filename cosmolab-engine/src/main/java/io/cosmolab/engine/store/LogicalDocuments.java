package io.cosmolab.engine.store;

import java.util.Arrays;
import java.util.Iterator;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * One logical partition's documents by id, in UTF-8 order ({@link Utf8Order}): what {@link
 * InMemoryDocumentStore} keeps per logical partition.
 *
 * <p>Two forms. A partition of up to {@value #FEW} documents is an immutable sorted array, replaced
 * whole by each write: most logical partitions are small, and a skip list cost each of their
 * documents two objects more (its node and part of an index) and a create a walk down its levels (a
 * fifth of a create's time in a profile of two writers). A larger one is a skip list changed in
 * place; it becomes an array again once deletes leave it {@value #FEW_AGAIN} documents.
 *
 * <p>Concurrency: written by one thread at a time (the engine's partition lock), read by any. A
 * write returns the partition to publish: a new object, which readers find once it is published,
 * whole; or this one, changed in place by one skip-list operation, which every reader sees entirely
 * or not at all.
 */
abstract sealed class LogicalDocuments {
  /** The most documents kept as an array. */
  static final int FEW = 64;

  /** A skip list of this many documents or fewer becomes an array again. */
  static final int FEW_AGAIN = FEW / 2;

  static final LogicalDocuments EMPTY = new Few(new StoredDocument[0]);

  private LogicalDocuments() {}

  /** The document with this id, or null. */
  abstract StoredDocument get(String id);

  /** How many documents (read by the writer: a skip list's count is the writer's). */
  abstract int size();

  /** The documents in id order, from {@code fromId} on (inclusive), or all for null. */
  abstract Iterator<StoredDocument> from(String fromId);

  /** With {@code d} put (by its id): this, changed in place, or the partition to publish. */
  abstract LogicalDocuments with(StoredDocument d);

  /** Without the document {@code id}: this (changed in place, or unchanged) or a new one. */
  abstract LogicalDocuments without(String id);

  /** A partition that later writes change without readers of this one seeing them (batches). */
  abstract LogicalDocuments forBatch();

  /** An immutable sorted array. */
  private static final class Few extends LogicalDocuments {
    private final StoredDocument[] docs;

    Few(StoredDocument[] docs) {
      this.docs = docs;
    }

    /** The index of {@code id}, or {@code -(insertion point) - 1}. */
    private int search(String id) {
      int low = 0;
      int high = docs.length - 1;
      while (low <= high) {
        int mid = (low + high) >>> 1;
        int c = Utf8Order.compare(docs[mid].id(), id);
        if (c < 0) {
          low = mid + 1;
        } else if (c > 0) {
          high = mid - 1;
        } else {
          return mid;
        }
      }
      return -(low + 1);
    }

    @Override
    StoredDocument get(String id) {
      int i = search(id);
      return i >= 0 ? docs[i] : null;
    }

    @Override
    int size() {
      return docs.length;
    }

    @Override
    Iterator<StoredDocument> from(String fromId) {
      int start = 0;
      if (fromId != null) {
        int i = search(fromId);
        start = i >= 0 ? i : -i - 1;
      }
      return Arrays.asList(docs).subList(start, docs.length).iterator(); // no remove: read-only
    }

    @Override
    LogicalDocuments with(StoredDocument d) {
      int i = search(d.id());
      if (i >= 0) {
        StoredDocument[] copy = docs.clone();
        copy[i] = d;
        return new Few(copy);
      }
      int at = -i - 1;
      if (docs.length == FEW) {
        Many many = new Many();
        for (StoredDocument each : docs) {
          many.with(each);
        }
        return many.with(d);
      }
      StoredDocument[] grown = new StoredDocument[docs.length + 1];
      System.arraycopy(docs, 0, grown, 0, at);
      grown[at] = d;
      System.arraycopy(docs, at, grown, at + 1, docs.length - at);
      return new Few(grown);
    }

    @Override
    LogicalDocuments without(String id) {
      int i = search(id);
      if (i < 0) {
        return this;
      }
      StoredDocument[] shrunk = new StoredDocument[docs.length - 1];
      System.arraycopy(docs, 0, shrunk, 0, i);
      System.arraycopy(docs, i + 1, shrunk, i, docs.length - i - 1);
      return new Few(shrunk);
    }

    @Override
    LogicalDocuments forBatch() {
      return this; // immutable: every write makes a new one
    }

    @Override
    public String toString() {
      return "Few" + Arrays.stream(docs).map(StoredDocument::id).toList();
    }
  }

  /** A skip list, changed in place. */
  private static final class Many extends LogicalDocuments {
    private final ConcurrentSkipListMap<String, StoredDocument> map;
    private int size; // the writer's count (a skip list counts by walking)

    Many() {
      this(new ConcurrentSkipListMap<>(Utf8Order.COMPARATOR), 0);
    }

    private Many(ConcurrentSkipListMap<String, StoredDocument> map, int size) {
      this.map = map;
      this.size = size;
    }

    @Override
    StoredDocument get(String id) {
      return map.get(id);
    }

    @Override
    int size() {
      return size;
    }

    @Override
    Iterator<StoredDocument> from(String fromId) {
      return fromId == null
          ? map.values().iterator()
          : map.tailMap(fromId, true).values().iterator();
    }

    @Override
    LogicalDocuments with(StoredDocument d) {
      if (map.put(d.id(), d) == null) {
        size++;
      }
      return this;
    }

    @Override
    LogicalDocuments without(String id) {
      if (map.remove(id) != null) {
        size--;
        if (size <= FEW_AGAIN) {
          return new Few(map.values().toArray(new StoredDocument[0]));
        }
      }
      return this;
    }

    @Override
    LogicalDocuments forBatch() {
      return new Many(map.clone(), size);
    }

    @Override
    public String toString() {
      return "Many" + map.keySet();
    }
  }
}
