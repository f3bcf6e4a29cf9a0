package io.cosmolab.engine.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One logical partition's documents by id, in UTF-8 order ({@link Utf8Order}): what {@link
 * InMemoryDocumentStore} keeps per logical partition.
 *
 * <p>Two forms. A partition of up to {@value #FEW} documents is an immutable sorted array, replaced
 * whole by each write: most logical partitions are small. A larger one is a directory of such
 * arrays (chunks), changed in place a chunk at a time; it becomes one array again once deletes
 * leave it {@value #FEW_AGAIN} documents. Neither keeps an object per document of its own (a skip
 * list, which the larger form was, kept two for one in two documents: docs/benchmarks.md).
 *
 * <p>Concurrency: written by one thread at a time (the engine's partition lock), read by any. A
 * write returns the partition to publish: a new object, which readers find once it is published,
 * whole; or this one, changed in place by one volatile write (a chunk's slot, or a new directory),
 * which every reader sees entirely or not at all.
 */
abstract sealed class LogicalDocuments {
  /** The most documents kept as an array. */
  static final int FEW = 64;

  /** The larger form with this many documents or fewer becomes an array again. */
  static final int FEW_AGAIN = FEW / 2;

  static final LogicalDocuments EMPTY = new Few(new StoredDocument[0]);

  private LogicalDocuments() {}

  /** The document with this id, or null. */
  abstract StoredDocument get(String id);

  /** How many documents (read by the writer: the larger form's count is the writer's). */
  abstract int size();

  /** The documents in id order, from {@code fromId} on (inclusive), or all for null. */
  abstract Iterator<StoredDocument> from(String fromId);

  /** With {@code d} put (by its id): this, changed in place, or the partition to publish. */
  abstract LogicalDocuments with(StoredDocument d);

  /** Without the document {@code id}: this (changed in place, or unchanged) or a new one. */
  abstract LogicalDocuments without(String id);

  /** A partition that later writes change without readers of this one seeing them (batches). */
  abstract LogicalDocuments forBatch();

  /** How many arrays hold the documents (for tests: the larger form's chunks). */
  abstract int arrays();

  /** An immutable sorted array. */
  private static final class Few extends LogicalDocuments {
    private final StoredDocument[] docs;

    Few(StoredDocument[] docs) {
      this.docs = docs;
    }

    private int search(String id) {
      return LogicalDocuments.search(docs, id);
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
      StoredDocument[] grown = inserted(docs, -i - 1, d);
      return grown.length > FEW ? Many.of(grown) : new Few(grown);
    }

    @Override
    LogicalDocuments without(String id) {
      int i = search(id);
      if (i < 0) {
        return this;
      }
      return new Few(removed(docs, i));
    }

    @Override
    LogicalDocuments forBatch() {
      return this; // immutable: every write makes a new one
    }

    @Override
    int arrays() {
      return 1;
    }

    @Override
    public String toString() {
      return "Few" + Arrays.stream(docs).map(StoredDocument::id).toList();
    }
  }

  /**
   * Sorted chunks of up to {@value #CHUNK} documents, each an immutable array, in a directory in id
   * order. A write copies the one chunk it changes and puts the copy in its slot of the directory:
   * one volatile write, which readers see whole. A chunk that a put fills past {@value #CHUNK} is
   * split, and one that deletes leave small is merged with a neighbour; either publishes a new
   * directory (the old one, still whole, serves readers that started on it).
   *
   * <p>Why not a skip list, which this was: a skip list keeps a node and, for one document in two,
   * an index object per document (about 36 bytes in two objects) for as long as it lives, and the
   * collector copies each on its way to the old generation (docs/benchmarks.md, "What a stored
   * document keeps"). Here a document costs a slot in a chunk (about 6 bytes, chunks being two
   * thirds full on average), and a write makes a chunk's copy, short-lived garbage.
   *
   * <p>Walks are weakly consistent, as the skip list's were: a walk reads the directory it starts
   * on and each chunk when it gets to it, so it sees every document that was there throughout, once
   * and in order, and a document written meanwhile or not.
   */
  private static final class Many extends LogicalDocuments {
    /** The most documents in one chunk. */
    static final int CHUNK = 64;

    // written by the one writer: a new directory, or a slot of this one
    private volatile AtomicReferenceArray<StoredDocument[]> chunks;
    private int size; // the writer's count

    private Many(AtomicReferenceArray<StoredDocument[]> chunks, int size) {
      this.chunks = chunks;
      this.size = size;
    }

    /** These documents (sorted by id, more than one) in chunks half full, room for inserts. */
    static Many of(StoredDocument[] sorted) {
      int half = CHUNK / 2;
      int n = (sorted.length + half - 1) / half;
      AtomicReferenceArray<StoredDocument[]> dir = new AtomicReferenceArray<>(n);
      for (int c = 0; c < n; c++) {
        dir.set(c, Arrays.copyOfRange(sorted, c * half, Math.min(sorted.length, (c + 1) * half)));
      }
      return new Many(dir, sorted.length);
    }

    /** The chunk that holds {@code id} or would: the last whose first id is not above it, or 0. */
    private static int chunkOf(AtomicReferenceArray<StoredDocument[]> dir, String id) {
      int low = 1;
      int high = dir.length() - 1;
      int found = 0;
      while (low <= high) {
        int mid = (low + high) >>> 1;
        if (Utf8Order.compare(dir.get(mid)[0].id(), id) <= 0) {
          found = mid;
          low = mid + 1;
        } else {
          high = mid - 1;
        }
      }
      return found;
    }

    @Override
    StoredDocument get(String id) {
      AtomicReferenceArray<StoredDocument[]> dir = chunks;
      StoredDocument[] chunk = dir.get(chunkOf(dir, id));
      int i = search(chunk, id);
      return i >= 0 ? chunk[i] : null;
    }

    @Override
    int size() {
      return size;
    }

    @Override
    Iterator<StoredDocument> from(String fromId) {
      AtomicReferenceArray<StoredDocument[]> dir = chunks;
      int first = fromId == null ? 0 : chunkOf(dir, fromId);
      return new Iterator<>() {
        int next = first; // the next chunk to read
        StoredDocument[] chunk;
        int at;

        @Override
        public boolean hasNext() {
          while (chunk == null || at >= chunk.length) {
            if (next >= dir.length()) {
              return false;
            }
            chunk = dir.get(next);
            at = 0;
            if (next++ == first && fromId != null) {
              int i = search(chunk, fromId);
              at = i >= 0 ? i : -i - 1;
            }
          }
          return true;
        }

        @Override
        public StoredDocument next() {
          if (!hasNext()) {
            throw new java.util.NoSuchElementException();
          }
          return chunk[at++];
        }
      };
    }

    @Override
    LogicalDocuments with(StoredDocument d) {
      AtomicReferenceArray<StoredDocument[]> dir = chunks;
      int c = chunkOf(dir, d.id());
      StoredDocument[] chunk = dir.get(c);
      int i = search(chunk, d.id());
      if (i >= 0) {
        StoredDocument[] copy = chunk.clone();
        copy[i] = d;
        dir.set(c, copy);
        return this;
      }
      size++;
      int at = -i - 1;
      if (chunk.length < CHUNK) {
        dir.set(c, inserted(chunk, at, d));
      } else if (at == CHUNK && c == dir.length() - 1) {
        chunks = replaced(dir, c, 1, chunk, new StoredDocument[] {d}); // appending: a new last
      } else if (at == 0 && c == 0) {
        chunks = replaced(dir, c, 1, new StoredDocument[] {d}, chunk); // a new first
      } else {
        StoredDocument[] all = inserted(chunk, at, d);
        int half = all.length / 2;
        chunks =
            replaced(
                dir,
                c,
                1,
                Arrays.copyOfRange(all, 0, half),
                Arrays.copyOfRange(all, half, all.length));
      }
      return this;
    }

    @Override
    LogicalDocuments without(String id) {
      AtomicReferenceArray<StoredDocument[]> dir = chunks;
      int c = chunkOf(dir, id);
      StoredDocument[] chunk = dir.get(c);
      int i = search(chunk, id);
      if (i < 0) {
        return this;
      }
      size--;
      StoredDocument[] shrunk = removed(chunk, i);
      if (size <= FEW_AGAIN) {
        StoredDocument[] all = new StoredDocument[size];
        int n = 0;
        for (int k = 0; k < dir.length(); k++) {
          StoredDocument[] each = k == c ? shrunk : dir.get(k);
          System.arraycopy(each, 0, all, n, each.length);
          n += each.length;
        }
        return new Few(all);
      }
      if (shrunk.length == 0) {
        chunks = replaced(dir, c, 1);
      } else if (shrunk.length >= CHUNK / 4 || !mergedAround(dir, c, shrunk)) {
        dir.set(c, shrunk);
      }
      return this;
    }

    /**
     * Merges a small chunk {@code shrunk} (the new content of slot {@code c}) with a neighbour if
     * the two hold half a chunk or less, publishing the new directory; false if neither fits.
     */
    private boolean mergedAround(
        AtomicReferenceArray<StoredDocument[]> dir, int c, StoredDocument[] shrunk) {
      for (int n : new int[] {c + 1, c - 1}) {
        if (n < 0 || n >= dir.length()) {
          continue;
        }
        StoredDocument[] other = dir.get(n);
        if (shrunk.length + other.length <= CHUNK / 2) {
          int low = Math.min(c, n);
          StoredDocument[] left = low == c ? shrunk : other;
          StoredDocument[] right = low == c ? other : shrunk;
          StoredDocument[] merged = Arrays.copyOf(left, left.length + right.length);
          System.arraycopy(right, 0, merged, left.length, right.length);
          chunks = replaced(dir, low, 2, merged);
          return true;
        }
      }
      return false;
    }

    @Override
    LogicalDocuments forBatch() {
      AtomicReferenceArray<StoredDocument[]> dir = chunks;
      AtomicReferenceArray<StoredDocument[]> copy = new AtomicReferenceArray<>(dir.length());
      for (int k = 0; k < dir.length(); k++) {
        copy.set(k, dir.get(k)); // chunks are immutable: shared
      }
      return new Many(copy, size);
    }

    @Override
    int arrays() {
      return chunks.length();
    }

    /** A new directory: {@code dir} with {@code count} slots from {@code at} replaced by these. */
    private static AtomicReferenceArray<StoredDocument[]> replaced(
        AtomicReferenceArray<StoredDocument[]> dir, int at, int count, StoredDocument[]... by) {
      AtomicReferenceArray<StoredDocument[]> next =
          new AtomicReferenceArray<>(dir.length() - count + by.length);
      int n = 0;
      for (int k = 0; k < at; k++) {
        next.set(n++, dir.get(k));
      }
      for (StoredDocument[] chunk : by) {
        next.set(n++, chunk);
      }
      for (int k = at + count; k < dir.length(); k++) {
        next.set(n++, dir.get(k));
      }
      return next;
    }

    @Override
    public String toString() {
      List<String> ids = new ArrayList<>(size);
      from(null).forEachRemaining(d -> ids.add(d.id()));
      return "Many" + ids;
    }
  }

  /** The index of {@code id} in a sorted array, or {@code -(insertion point) - 1}. */
  private static int search(StoredDocument[] docs, String id) {
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

  /** {@code docs} with {@code d} inserted at {@code at}. */
  private static StoredDocument[] inserted(StoredDocument[] docs, int at, StoredDocument d) {
    StoredDocument[] grown = new StoredDocument[docs.length + 1];
    System.arraycopy(docs, 0, grown, 0, at);
    grown[at] = d;
    System.arraycopy(docs, at, grown, at + 1, docs.length - at);
    return grown;
  }

  /** {@code docs} without its {@code i}-th. */
  private static StoredDocument[] removed(StoredDocument[] docs, int i) {
    StoredDocument[] shrunk = new StoredDocument[docs.length - 1];
    System.arraycopy(docs, 0, shrunk, 0, i);
    System.arraycopy(docs, i + 1, shrunk, i, docs.length - i - 1);
    return shrunk;
  }
}
