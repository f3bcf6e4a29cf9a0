package io.cosmolab.store.rocksdb;

import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.store.ChangeRecord;
import io.cosmolab.engine.store.ContainerStore;
import io.cosmolab.engine.store.DocumentStore;
import io.cosmolab.engine.store.StoredDocument;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The engine's storage on RocksDB, in one directory: column family {@code documents} (keyed by
 * container, EPK, id), {@code changes} (by container, LSN) and the default family holding the
 * catalog. See {@link Codec} for the layouts.
 *
 * <p>Durability: every commit is one atomic write batch through the write-ahead log. By default the
 * log is not synced to disk on each commit, so an acknowledged write survives the process being
 * killed ({@code kill -9}: the log is in the OS's page cache) but not a power cut; {@link
 * #open(Path, boolean)} with {@code syncEachCommit} survives both, at the cost of an fsync per
 * write.
 *
 * <p>Reads use short-lived iterators: a scan fetches a chunk of keys per iterator and resumes after
 * the last one, so an abandoned scan holds no native resources.
 *
 * <p>Thread-safe: RocksDB is; the per-container document counts are atomic, and the engine commits
 * one writer per container at a time.
 */
public final class RocksDbDocumentStore implements DocumentStore {
  private static final int CHUNK = 512;
  private static final byte[] CATALOG_KEY = "catalog".getBytes(StandardCharsets.UTF_8);

  private final Path directory;
  private final RocksDB db;
  private final DBOptions options;
  private final ColumnFamilyOptions familyOptions;
  private final ColumnFamilyHandle defaults;
  private final ColumnFamilyHandle documents;
  private final ColumnFamilyHandle changes;
  private final WriteOptions writeOptions;
  private final Map<String, Store> open = new ConcurrentHashMap<>();

  private RocksDbDocumentStore(
      Path directory,
      RocksDB db,
      DBOptions options,
      ColumnFamilyOptions familyOptions,
      List<ColumnFamilyHandle> handles,
      boolean sync) {
    this.directory = directory;
    this.db = db;
    this.options = options;
    this.familyOptions = familyOptions;
    this.defaults = handles.get(0);
    this.documents = handles.get(1);
    this.changes = handles.get(2);
    this.writeOptions = new WriteOptions().setSync(sync);
  }

  /** Opens (or creates) the store in {@code directory}; commits survive a killed process. */
  public static RocksDbDocumentStore open(Path directory) {
    return open(directory, false);
  }

  /**
   * Opens (or creates) the store in {@code directory}.
   *
   * @param syncEachCommit fsync the log on every commit, so commits also survive a power cut
   * @throws IllegalStateException naming the directory if it cannot be opened (for example, another
   *     cosmolab process holds it)
   */
  public static RocksDbDocumentStore open(Path directory, boolean syncEachCommit) {
    RocksDB.loadLibrary();
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the data directory " + directory, e);
    }
    ColumnFamilyOptions familyOptions = new ColumnFamilyOptions();
    List<ColumnFamilyDescriptor> families =
        List.of(
            new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, familyOptions),
            new ColumnFamilyDescriptor("documents".getBytes(StandardCharsets.UTF_8), familyOptions),
            new ColumnFamilyDescriptor("changes".getBytes(StandardCharsets.UTF_8), familyOptions));
    DBOptions options =
        new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try {
      RocksDB db = RocksDB.open(options, directory.toString(), families, handles);
      return new RocksDbDocumentStore(
          directory, db, options, familyOptions, handles, syncEachCommit);
    } catch (RocksDBException e) {
      options.close();
      familyOptions.close();
      throw new IllegalStateException(
          "cannot open the data directory "
              + directory
              + ": "
              + e.getMessage()
              + " (is another cosmolab using it?)",
          e);
    }
  }

  public Path directory() {
    return directory;
  }

  @Override
  public ContainerStore open(String containerRid) {
    return open.computeIfAbsent(containerRid, Store::new);
  }

  @Override
  public void drop(String containerRid) {
    byte[] prefix = Codec.prefix(containerRid);
    try {
      db.deleteRange(documents, prefix, Codec.prefixEnd(prefix));
      db.deleteRange(changes, prefix, Codec.prefixEnd(prefix));
    } catch (RocksDBException e) {
      throw failure("drop container " + containerRid, e);
    }
    open.remove(containerRid);
  }

  @Override
  public String loadCatalog() {
    try {
      byte[] v = db.get(defaults, CATALOG_KEY);
      return v == null ? null : new String(v, StandardCharsets.UTF_8);
    } catch (RocksDBException e) {
      throw failure("read the catalog", e);
    }
  }

  @Override
  public void saveCatalog(String catalogJson) {
    try {
      db.put(defaults, writeOptions, CATALOG_KEY, catalogJson.getBytes(StandardCharsets.UTF_8));
    } catch (RocksDBException e) {
      throw failure("save the catalog", e);
    }
  }

  @Override
  public void close() {
    writeOptions.close();
    defaults.close();
    documents.close();
    changes.close();
    db.close();
    options.close();
    familyOptions.close();
  }

  private IllegalStateException failure(String what, RocksDBException e) {
    return new IllegalStateException(
        "storage failed to " + what + " in " + directory + ": " + e.getMessage(), e);
  }

  /** One container's keys. */
  private final class Store implements ContainerStore {
    private final byte[] prefix;
    private final AtomicLong count;

    Store(String rid) {
      this.prefix = Codec.prefix(rid);
      long n = 0;
      try (ReadOptions ro = new ReadOptions();
          RocksIterator it = db.newIterator(documents, ro)) {
        for (it.seek(prefix); it.isValid() && Codec.startsWith(it.key(), prefix); it.next()) {
          n++;
        }
      }
      this.count = new AtomicLong(n);
    }

    @Override
    public StoredDocument get(String epk, String id) {
      try {
        byte[] v = db.get(documents, Codec.documentKey(prefix, epk, id));
        return v == null ? null : Codec.decodeDocument(v);
      } catch (RocksDBException e) {
        throw failure("read a document", e);
      }
    }

    @Override
    public Iterator<StoredDocument> scan(EpkRange range) {
      byte[] start = Codec.documentKey(prefix, range.min(), "");
      start = java.util.Arrays.copyOf(start, start.length - 1); // rid 0 min, without the 0 after
      return new Chunked<>(
          documents,
          start,
          key -> {
            String epk = Codec.epkOf(key, prefix);
            return epk != null && epk.compareTo(range.max()) < 0;
          },
          Codec::decodeDocument);
    }

    @Override
    public Iterator<ChangeRecord> changesAfter(long lsn) {
      return new Chunked<>(
          changes,
          Codec.changeKey(prefix, lsn + 1),
          key -> Codec.startsWith(key, prefix),
          Codec::decodeChange);
    }

    @Override
    public void commit(List<Write> writes) {
      long delta = 0;
      Set<String> present = new HashSet<>();
      Set<String> absent = new HashSet<>();
      try (WriteBatch batch = new WriteBatch()) {
        for (Write w : writes) {
          if (w instanceof Write.Put put) {
            StoredDocument d = put.document();
            byte[] key = Codec.documentKey(prefix, d.epk(), d.id());
            if (!exists(key, present, absent)) {
              delta++;
            }
            present.add(d.epk() + '\u0000' + d.id());
            absent.remove(d.epk() + '\u0000' + d.id());
            batch.put(documents, key, Codec.encode(d));
          } else if (w instanceof Write.Delete del) {
            byte[] key = Codec.documentKey(prefix, del.epk(), del.id());
            if (exists(key, present, absent)) {
              delta--;
            }
            absent.add(del.epk() + '\u0000' + del.id());
            present.remove(del.epk() + '\u0000' + del.id());
            batch.delete(documents, key);
          } else if (w instanceof Write.Append append) {
            ChangeRecord c = append.change();
            batch.put(changes, Codec.changeKey(prefix, c.lsn()), Codec.encode(c));
          }
        }
        db.write(writeOptions, batch);
      } catch (RocksDBException e) {
        throw failure("commit " + writes.size() + " writes", e);
      }
      count.addAndGet(delta);
    }

    private boolean exists(byte[] key, Set<String> present, Set<String> absent) {
      String k = new String(key, prefix.length, key.length - prefix.length, StandardCharsets.UTF_8);
      if (present.contains(k)) {
        return true;
      }
      if (absent.contains(k)) {
        return false;
      }
      try {
        return db.get(documents, key) != null;
      } catch (RocksDBException e) {
        throw failure("read a document", e);
      }
    }

    @Override
    public long documentCount() {
      return count.get();
    }
  }

  /**
   * Iterates a key range in chunks: each chunk opens an iterator, reads up to {@link #CHUNK}
   * entries and closes it; the next chunk seeks just past the last key read.
   */
  private final class Chunked<T> implements Iterator<T> {
    private final ColumnFamilyHandle family;
    private final java.util.function.Predicate<byte[]> inRange;
    private final Function<byte[], T> decode;
    private byte[] seek;
    private boolean seekInclusive = true;
    private boolean done;
    private final java.util.ArrayDeque<T> buffer = new java.util.ArrayDeque<>();

    Chunked(
        ColumnFamilyHandle family,
        byte[] start,
        java.util.function.Predicate<byte[]> inRange,
        Function<byte[], T> decode) {
      this.family = family;
      this.seek = start;
      this.inRange = inRange;
      this.decode = decode;
    }

    private void fill() {
      if (done || !buffer.isEmpty()) {
        return;
      }
      try (ReadOptions ro = new ReadOptions();
          RocksIterator it = db.newIterator(family, ro)) {
        it.seek(seek);
        if (!seekInclusive && it.isValid() && java.util.Arrays.equals(it.key(), seek)) {
          it.next();
        }
        int n = 0;
        for (; it.isValid() && n < CHUNK; it.next(), n++) {
          byte[] key = it.key();
          if (!inRange.test(key)) {
            done = true;
            return;
          }
          buffer.add(decode.apply(it.value()));
          seek = key;
          seekInclusive = false;
        }
        if (!it.isValid()) {
          done = true;
        }
      }
    }

    @Override
    public boolean hasNext() {
      fill();
      return !buffer.isEmpty();
    }

    @Override
    public T next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return buffer.poll();
    }
  }
}
