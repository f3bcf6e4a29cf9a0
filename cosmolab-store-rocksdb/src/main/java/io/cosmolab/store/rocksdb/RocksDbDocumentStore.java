package io.cosmolab.store.rocksdb;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.store.ChangeRecord;
import io.cosmolab.engine.store.ContainerStore;
import io.cosmolab.engine.store.DocumentStore;
import io.cosmolab.engine.store.StoredDocument;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import java.util.function.Predicate;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.Env;
import org.rocksdb.FlushOptions;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.SstFileManager;
import org.rocksdb.WriteBatch;

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
 * <p>Reads use short-lived iterators: a scan fetches a chunk of keys per iterator (whole logical
 * partitions, so a batch is seen whole) and resumes after the last one, so an abandoned scan holds
 * no native resources.
 *
 * <p>Thread-safe: RocksDB is; the per-container document counts are atomic, and the engine commits
 * one writer per physical partition at a time. Every use of the database holds the read side of
 * {@link #gate}; only reopening it (see below) holds the write side.
 */
public final class RocksDbDocumentStore implements DocumentStore {
  /*
   * Damaged data fails loudly. RocksDB checks a checksum on every block it reads (set explicitly
   * below, with paranoid checks), but an iterator that meets a bad block merely stops being valid:
   * a loop on isValid() alone ends the scan early, and a count or a change feed comes out short
   * with no error. So every scan asks the iterator's status() when it stops, and a failure becomes
   * "data directory damaged: ..." (500), never a shorter answer. The engine reads every document
   * and the whole change log when it starts, so damage in a table file usually stops the start.
   *
   * Write-ahead log recovery. RocksDB's default, point-in-time recovery, stops replaying at the
   * first damaged record and opens with everything after it silently gone: acknowledged writes
   * lost. AbsoluteConsistency refuses any imperfection, including the incomplete last record a
   * process killed in the middle of a write leaves behind, which must still open (that write was
   * never acknowledged). TolerateCorruptedTailRecords opens past such a tail but still refuses a
   * checksum mismatch; it also, though, reads a damaged length field in the log's last 32 KiB
   * block as a torn tail and drops the rest of that block without a word. So the store opens in
   * AbsoluteConsistency, and only if that fails on damage does it try TolerateCorruptedTailRecords:
   * if that opens, the damage was confined to the log's tail, and the start says so in the log
   * (what was dropped may include acknowledged writes only if the tail itself was damaged, not
   * torn); if it fails too, the store refuses to start rather than lose acknowledged writes.
   * After a clean close (a marker says so) there is no torn tail, and no lenient attempt is made.
   * The MANIFEST has the same weakness, and RocksDB then deletes the table files of the edits it
   * dropped; so the marker lists the table files live at the close, and the next open checks them
   * read-only first (see checkTablesListed).
   *
   * A full disk. When a flush or a log write fails for lack of space, RocksDB stops taking writes
   * until DB::Resume, which RocksJava does not expose. A write that fails that way returns 507 and
   * marks the store stalled; the next write, once the disk has room again, closes and reopens the
   * database (the log replays what was acknowledged), so writing resumes without a restart.
   */
  private static final System.Logger LOG = System.getLogger("io.cosmolab.store.rocksdb");
  private static final int CHUNK = 512;
  private static final byte[] CATALOG_KEY = "catalog".getBytes(StandardCharsets.UTF_8);

  /**
   * Written by {@link #close()} once RocksDB has closed without error, removed by the next open:
   * after a clean close the write-ahead log has no torn tail, so any imperfection in it is damage.
   */
  static final String CLOSED_CLEANLY = "cosmolab-closed-cleanly";

  /**
   * Free space a stalled store wants before it reopens, at least: reopening flushes the log it
   * replays, and reopening on a disk that is still full would only fail again. A log larger than
   * this (up to {@link RocksDatabase#MAX_TOTAL_WAL_BYTES} and a little over) raises it to the log's
   * size ({@link #resumeFreeBytes}).
   */
  private static final long RESUME_FREE_BYTES = 32L << 20;

  private final Path directory;
  private final boolean sync;
  private final long maxWalBytes;
  private final SstFileManager space;
  private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();
  private final Map<String, Store> open = new ConcurrentHashMap<>();
  private final List<String> recoveryNotes = new ArrayList<>();

  /** The open database; null only while a reopen has failed (guarded by {@link #gate}). */
  private RocksDatabase live;

  /** Why {@link #live} is null. */
  private CosmosException unavailable;

  /** A write failed for lack of space: the next write reopens the database first, if it can. */
  private volatile boolean stalled;

  private boolean closed;

  private RocksDbDocumentStore(
      Path directory, boolean sync, SstFileManager space, long maxWalBytes) {
    this.directory = directory;
    this.sync = sync;
    this.space = space;
    this.maxWalBytes = maxWalBytes;
    this.live = RocksDatabase.open(directory, space, sync, maxWalBytes, recoveryNotes);
  }

  /** Opens (or creates) the store in {@code directory}; commits survive a killed process. */
  public static RocksDbDocumentStore open(Path directory) {
    return open(directory, false);
  }

  /**
   * Opens (or creates) the store in {@code directory}.
   *
   * @param syncEachCommit fsync the log on every commit, so commits also survive a power cut
   * @throws CosmosException naming the directory if it cannot be opened, with what RocksDB said:
   *     {@code "data directory damaged: ..."} for corruption, a full disk (507), or its lock held
   *     by another process
   */
  public static RocksDbDocumentStore open(Path directory, boolean syncEachCommit) {
    return open(directory, syncEachCommit, RocksDatabase.MAX_TOTAL_WAL_BYTES);
  }

  /** {@link #open(Path, boolean)} with another bound on the write-ahead log (for tests). */
  static RocksDbDocumentStore open(Path directory, boolean syncEachCommit, long maxWalBytes) {
    RocksDB.loadLibrary();
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the data directory " + directory, e);
    }
    SstFileManager space;
    try {
      space = new SstFileManager(Env.getDefault());
    } catch (RocksDBException e) {
      throw Failures.ofOpen(directory, e, Failures.diskUsage(directory));
    }
    try {
      return new RocksDbDocumentStore(directory, syncEachCommit, space, maxWalBytes);
    } catch (RuntimeException e) {
      space.close();
      throw e;
    }
  }

  public Path directory() {
    return directory;
  }

  /**
   * What the start had to forgive, one line each (also logged as warnings): empty unless the
   * write-ahead log ended in an incomplete record.
   */
  public List<String> recoveryNotes() {
    synchronized (recoveryNotes) {
      return List.copyOf(recoveryNotes);
    }
  }

  @Override
  public ContainerStore open(String containerRid) {
    return open.computeIfAbsent(containerRid, Store::new);
  }

  @Override
  public String loadCatalog() {
    byte[] v = read("read the catalog", d -> d.db.get(d.defaults, d.reads, CATALOG_KEY));
    return v == null ? null : new String(v, StandardCharsets.UTF_8);
  }

  /** The catalog and the drop of containers it no longer lists: one write batch. */
  @Override
  public void saveCatalog(String catalogJson, java.util.Collection<String> dropped) {
    write(
        dropped.isEmpty() ? "save the catalog" : "drop containers " + dropped,
        d -> {
          try (WriteBatch batch = new WriteBatch()) {
            batch.put(d.defaults, CATALOG_KEY, catalogJson.getBytes(StandardCharsets.UTF_8));
            for (String rid : dropped) {
              byte[] prefix = Codec.prefix(rid);
              batch.deleteRange(d.documents, prefix, Codec.prefixEnd(prefix));
              batch.deleteRange(d.changes, prefix, Codec.prefixEnd(prefix));
              batch.delete(d.defaults, Codec.marksKey(rid));
            }
            d.db.write(d.writes, batch);
          }
        });
    dropped.forEach(open::remove);
  }

  @Override
  public void close() {
    gate.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      if (live != null) {
        List<String> tables = stalled ? null : live.closeCleanly();
        if (stalled) {
          live.close();
        }
        live = null;
        if (tables != null) {
          markClosedCleanly(tables);
        }
      }
      unavailable =
          CosmosError.INTERNAL_SERVER_ERROR.exception("the store in %s is closed", directory);
      space.close();
    } finally {
      gate.writeLock().unlock();
    }
  }

  /**
   * Writes the marker, listing the table files live at the close, durably: it must not outlive a
   * log tail lost in a power cut.
   */
  private void markClosedCleanly(List<String> tables) {
    Path marker = directory.resolve(CLOSED_CLEANLY);
    try (FileChannel ch =
        FileChannel.open(
            marker,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      ch.write(
          java.nio.ByteBuffer.wrap(String.join("\n", tables).getBytes(StandardCharsets.UTF_8)));
      ch.force(true);
    } catch (IOException e) {
      // the next start is then as careful as after a killed process, no worse
      LOG.log(System.Logger.Level.WARNING, "cannot write " + marker + ": " + e);
    }
  }

  /** Writes every memtable to table files and waits (for tests that need table files). */
  void flush() {
    write(
        "flush",
        d -> {
          try (FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
            d.db.flush(f, List.of(d.defaults, d.documents, d.changes));
          }
        });
  }

  /** The table files of one column family ({@code "documents"}, {@code "changes"}). */
  List<Path> tableFiles(String family) {
    return read(
        "list table files",
        d -> {
          List<Path> out = new ArrayList<>();
          for (LiveFileMetaData f : d.db.getLiveFilesMetaData()) {
            if (new String(f.columnFamilyName(), StandardCharsets.UTF_8).equals(family)) {
              out.add(Path.of(f.path()).resolve(RocksDatabase.withoutLeadingSlash(f.fileName())));
            }
          }
          return out;
        });
  }

  /**
   * Caps the bytes of table files the directory may hold; past it, a flush fails as if the disk
   * were full. A portable way to test a full disk; 0 lifts the cap.
   */
  void limitSpace(long bytes) {
    space.setMaxAllowedSpaceUsage(bytes);
  }

  /** A call on the database that RocksDB may fail. */
  @FunctionalInterface
  private interface Call<T> {
    T apply(RocksDatabase d) throws RocksDBException;
  }

  @FunctionalInterface
  private interface Action {
    void apply(RocksDatabase d) throws RocksDBException;
  }

  private <T> T read(String what, Call<T> call) {
    RocksDatabase d = acquire(false);
    try {
      return call.apply(d);
    } catch (RocksDBException e) {
      throw Failures.of(directory, what, e, usage());
    } finally {
      gate.readLock().unlock();
    }
  }

  private void write(String what, Action action) {
    RocksDatabase d = acquire(true);
    try {
      action.apply(d);
    } catch (RocksDBException e) {
      if (Failures.kindOf(e, directory) == Failures.Kind.NO_SPACE) {
        stalled = true;
      }
      throw Failures.of(directory, what, e, usage());
    } finally {
      gate.readLock().unlock();
    }
  }

  /** The open database, with the read side of the gate held; the caller unlocks it. */
  private RocksDatabase acquire(boolean writing) {
    if (stalled && writing) {
      resume();
    }
    gate.readLock().lock();
    if (live == null) {
      CosmosException why = unavailable;
      gate.readLock().unlock();
      if (!closed && stalled) {
        resume();
        return acquire(writing);
      }
      throw why;
    }
    return live;
  }

  /**
   * The free space a reopen wants: the log files' size (what it flushes), and no less than 32 MB.
   */
  private long resumeFreeBytes() {
    try {
      return Math.max(RESUME_FREE_BYTES, logBytes(directory));
    } catch (IOException | UncheckedIOException e) {
      return RESUME_FREE_BYTES; // cannot tell: the fixed floor, as before
    }
  }

  /** The bytes of the write-ahead log's files ({@code *.log}) in a store's directory. */
  static long logBytes(Path directory) throws IOException {
    long bytes = 0;
    try (java.util.stream.Stream<Path> files = Files.list(directory)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (f.getFileName().toString().endsWith(".log")) {
          bytes += Files.size(f);
        }
      }
    }
    return bytes;
  }

  /**
   * Reopens the database after a write failed for lack of space, if the disk has room again;
   * otherwise leaves it as it is, so the write fails again with RocksDB's no-space error.
   */
  private void resume() {
    gate.writeLock().lock();
    try {
      if (!stalled || closed) {
        return;
      }
      if (space.isMaxAllowedSpaceReached()
          || directory.toFile().getUsableSpace() < resumeFreeBytes()) {
        if (live == null) {
          throw Failures.full(directory, "reopen it", "not tried: the disk is still full", usage());
        }
        return;
      }
      if (live != null) {
        live.close();
        live = null;
      }
      try {
        live = RocksDatabase.open(directory, space, sync, maxWalBytes, recoveryNotes);
      } catch (CosmosException e) {
        unavailable = e;
        throw e;
      }
      stalled = false;
      LOG.log(
          System.Logger.Level.INFO,
          "writes resume in {0}: the disk has room again ({1})",
          directory,
          usage());
    } finally {
      gate.writeLock().unlock();
    }
  }

  private String usage() {
    String disk = Failures.diskUsage(directory);
    return space.isMaxAllowedSpaceReached()
        ? disk
            + "; the directory's space limit is reached, at "
            + Failures.human(space.getTotalSize())
        : disk;
  }

  /** Checks why an iterator stopped: the end of the data, or a failure that must not pass. */
  private void checkStopped(RocksIterator it, String what) {
    try {
      it.status();
    } catch (RocksDBException e) {
      throw Failures.of(directory, what, e, usage());
    }
  }

  private <T> T decode(Function<byte[], T> decode, byte[] value, String what) {
    try {
      return decode.apply(value);
    } catch (RuntimeException e) {
      // checksums passed, so this is a record written wrong; still, never answer from it
      throw Failures.damagedBecause(
          directory, what + " failed: a stored record does not decode: " + e);
    }
  }

  /** One container's keys. */
  private final class Store implements ContainerStore {
    private final byte[] prefix;
    private final byte[] marksKey;
    private final AtomicLong count;

    Store(String rid) {
      this.prefix = Codec.prefix(rid);
      this.marksKey = Codec.marksKey(rid);
      RocksDatabase d = acquire(false);
      long n = 0;
      try (RocksIterator it = d.db.newIterator(d.documents, d.reads)) {
        for (it.seek(prefix); it.isValid() && Codec.startsWith(it.key(), prefix); it.next()) {
          n++;
        }
        if (!it.isValid()) {
          checkStopped(it, "count the documents of container " + rid);
        }
      } finally {
        gate.readLock().unlock();
      }
      this.count = new AtomicLong(n);
    }

    @Override
    public StoredDocument get(String epk, String id) {
      byte[] v =
          read(
              "read a document",
              d -> d.db.get(d.documents, d.reads, Codec.documentKey(prefix, epk, id)));
      return v == null ? null : decode(Codec::decodeDocument, v, "read a document");
    }

    /** One RocksDB snapshot for all of them, so a write batch is seen whole or not at all. */
    @Override
    public List<StoredDocument> getAll(String epk, List<String> ids) {
      List<byte[]> values =
          read(
              "read documents",
              d -> {
                org.rocksdb.Snapshot snapshot = d.db.getSnapshot();
                try (org.rocksdb.ReadOptions at =
                    new org.rocksdb.ReadOptions().setVerifyChecksums(true).setSnapshot(snapshot)) {
                  List<byte[]> out = new java.util.ArrayList<>(ids.size());
                  for (String id : ids) {
                    out.add(d.db.get(d.documents, at, Codec.documentKey(prefix, epk, id)));
                  }
                  return out;
                } finally {
                  d.db.releaseSnapshot(snapshot);
                }
              });
      List<StoredDocument> docs = new java.util.ArrayList<>(values.size());
      for (byte[] v : values) {
        if (v != null) {
          docs.add(decode(Codec::decodeDocument, v, "read documents"));
        }
      }
      return docs;
    }

    @Override
    public Iterator<StoredDocument> scan(EpkRange range) {
      byte[] start = Codec.documentKey(prefix, range.min(), "");
      start = Arrays.copyOf(start, start.length - 1); // rid 0 min, without the 0 after
      return documents(range, start);
    }

    @Override
    public Iterator<StoredDocument> scanFrom(EpkRange range, String fromEpk, String fromId) {
      return documents(range, Codec.documentKey(prefix, fromEpk, fromId));
    }

    private Iterator<StoredDocument> documents(EpkRange range, byte[] start) {
      return new Chunked<>(
          d -> d.documents,
          "scan documents",
          start,
          key -> {
            String epk = Codec.epkOf(key, prefix);
            return epk != null && epk.compareTo(range.max()) < 0;
          },
          Codec::decodeDocument,
          (a, b) -> Objects.equals(Codec.epkOf(a, prefix), Codec.epkOf(b, prefix)));
    }

    @Override
    public Iterator<ChangeRecord> changesAfter(long lsn) {
      return new Chunked<>(
          d -> d.changes,
          "read the change log",
          Codec.changeKey(prefix, lsn + 1),
          key -> Codec.startsWith(key, prefix),
          Codec::decodeChange,
          (a, b) -> false); // committed records never change: any chunk boundary will do
    }

    @Override
    public void commit(List<Write> writes) {
      long[] delta = {0};
      write("commit " + writes.size() + " writes", d -> commit(d, writes, delta));
      count.addAndGet(delta[0]);
    }

    private void commit(RocksDatabase d, List<Write> writes, long[] delta) throws RocksDBException {
      Set<String> present = new HashSet<>();
      Set<String> absent = new HashSet<>();
      // the documents written, by body: a change record of one reuses its JSON
      java.util.IdentityHashMap<Object, StoredDocument> written = new java.util.IdentityHashMap<>();
      try (WriteBatch batch = new WriteBatch()) {
        for (Write w : writes) {
          if (w instanceof Write.Put put) {
            StoredDocument doc = put.document();
            written.put(doc.body(), doc);
            byte[] key = Codec.documentKey(prefix, doc.epk(), doc.id());
            if (!exists(d, key, present, absent)) {
              delta[0]++;
            }
            present.add(doc.epk() + '\u0000' + doc.id());
            absent.remove(doc.epk() + '\u0000' + doc.id());
            batch.put(d.documents, key, Codec.encode(doc));
          } else if (w instanceof Write.Delete del) {
            byte[] key = Codec.documentKey(prefix, del.epk(), del.id());
            if (exists(d, key, present, absent)) {
              delta[0]--;
            }
            absent.add(del.epk() + '\u0000' + del.id());
            present.remove(del.epk() + '\u0000' + del.id());
            batch.delete(d.documents, key);
          } else if (w instanceof Write.Append append) {
            ChangeRecord c = append.change();
            StoredDocument current = c.current() == null ? null : written.get(c.current());
            batch.put(
                d.changes,
                Codec.changeKey(prefix, c.lsn()),
                Codec.encode(c, current == null ? null : current.json()));
          } else if (w instanceof Write.DropChange drop) {
            batch.delete(d.changes, Codec.changeKey(prefix, drop.lsn()));
          }
        }
        d.db.write(d.writes, batch);
      }
    }

    private boolean exists(RocksDatabase d, byte[] key, Set<String> present, Set<String> absent)
        throws RocksDBException {
      String k = new String(key, prefix.length, key.length - prefix.length, StandardCharsets.UTF_8);
      if (present.contains(k)) {
        return true;
      }
      if (absent.contains(k)) {
        return false;
      }
      return d.db.get(d.documents, d.reads, key) != null;
    }

    @Override
    public long documentCount() {
      return count.get();
    }

    @Override
    public Marks marks() {
      byte[] v = read("read the marks", d -> d.db.get(d.defaults, d.reads, marksKey));
      return v == null ? null : decode(Codec::decodeMarks, v, "read the marks");
    }

    @Override
    public void saveMarks(Marks marks) {
      write("save the marks", d -> d.db.put(d.defaults, d.writes, marksKey, Codec.encode(marks)));
    }
  }

  /**
   * Iterates a key range in chunks: each chunk opens an iterator, reads {@link #CHUNK} entries and
   * closes it; the next chunk seeks just past the last key read. An iterator that stops before the
   * end of the range is asked why, so damage fails the scan instead of ending it.
   *
   * <p>An iterator reads one state of the database, and a chunk never ends inside a {@code unit}
   * (for documents, a logical partition: keys of one EPK): it reads on past {@link #CHUNK} to the
   * unit's end. A write batch touches one logical partition, so a scan sees each batch whole or not
   * at all, as the in-memory store's does.
   */
  private final class Chunked<T> implements Iterator<T> {
    private final Function<RocksDatabase, ColumnFamilyHandle> family;
    private final String what;
    private final Predicate<byte[]> inRange;
    private final Function<byte[], T> decode;
    private final java.util.function.BiPredicate<byte[], byte[]> sameUnit;
    private byte[] seek;
    private boolean seekInclusive = true;
    private boolean done;
    // the chunk's values as stored, each decoded when it is asked for: a reader that stops early
    // (the change log's retention sweep stops at the first record still in its window) decodes
    // one record, not a chunk of them with two bodies each
    private final ArrayDeque<byte[]> buffer = new ArrayDeque<>();

    Chunked(
        Function<RocksDatabase, ColumnFamilyHandle> family,
        String what,
        byte[] start,
        Predicate<byte[]> inRange,
        Function<byte[], T> decode,
        java.util.function.BiPredicate<byte[], byte[]> sameUnit) {
      this.family = family;
      this.what = what;
      this.seek = start;
      this.inRange = inRange;
      this.decode = decode;
      this.sameUnit = sameUnit;
    }

    private void fill() {
      if (done || !buffer.isEmpty()) {
        return;
      }
      RocksDatabase d = acquire(false);
      try (RocksIterator it = d.db.newIterator(family.apply(d), d.reads)) {
        it.seek(seek);
        if (!seekInclusive && it.isValid() && Arrays.equals(it.key(), seek)) {
          it.next();
        }
        int n = 0;
        for (; it.isValid(); it.next(), n++) {
          byte[] key = it.key();
          if (!inRange.test(key)) {
            done = true;
            return;
          }
          if (n >= CHUNK && !sameUnit.test(seek, key)) {
            return; // a full chunk, ended between two units
          }
          buffer.add(it.value());
          seek = key;
          seekInclusive = false;
        }
        checkStopped(it, what);
        done = true;
      } finally {
        gate.readLock().unlock();
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
      return RocksDbDocumentStore.this.decode(decode, buffer.poll(), what);
    }
  }
}
