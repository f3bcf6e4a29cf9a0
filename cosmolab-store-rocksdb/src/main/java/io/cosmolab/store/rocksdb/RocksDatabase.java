package io.cosmolab.store.rocksdb;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileManager;
import org.rocksdb.WALRecoveryMode;
import org.rocksdb.WriteOptions;

/**
 * One opening of the database: its handles and options, closed together. Replaced as a whole when
 * writing resumes after a full disk.
 */
final class RocksDatabase implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.cosmolab.store.rocksdb");

  /**
   * The write-ahead log kept before the column families holding its oldest records are flushed. An
   * open replays the log (twice after a clean close: the listed-tables check, then the open), so
   * this bounds the time a restart spends on history. RocksDB's default is four times the families'
   * memtables, 1.5 GB here; and the catalog's family, written rarely, never fills its memtable, so
   * it pinned every log until then: a restart after 420,000 writes spent 5.6 s replaying them,
   * after 220,000 writes 3.1 s (RestartBench, docs/benchmarks.md).
   */
  static final long MAX_TOTAL_WAL_BYTES = 64L << 20;

  final RocksDB db;
  final DBOptions options;
  final ColumnFamilyOptions familyOptions;
  final ColumnFamilyHandle defaults;
  final ColumnFamilyHandle documents;
  final ColumnFamilyHandle changes;
  final WriteOptions writes;
  final ReadOptions reads;

  private RocksDatabase(
      RocksDB db,
      DBOptions options,
      ColumnFamilyOptions familyOptions,
      List<ColumnFamilyHandle> h,
      boolean sync) {
    this.db = db;
    this.options = options;
    this.familyOptions = familyOptions;
    this.defaults = h.get(0);
    this.documents = h.get(1);
    this.changes = h.get(2);
    this.writes = new WriteOptions().setSync(sync);
    this.reads = new ReadOptions().setVerifyChecksums(true);
  }

  /**
   * Opens strictly; after a stop that was not a clean close, then leniently about the log's tail
   * only. See {@link RocksDbDocumentStore}'s class comment.
   */
  static RocksDatabase open(
      Path directory, SstFileManager space, boolean sync, long maxWalBytes, List<String> notes) {
    Path marker = directory.resolve(RocksDbDocumentStore.CLOSED_CLEANLY);
    boolean clean = Files.exists(marker);
    if (clean) {
      checkTablesListed(directory, marker);
    }
    RocksDatabase d;
    try {
      d = attempt(directory, space, sync, maxWalBytes, WALRecoveryMode.AbsoluteConsistency);
    } catch (RocksDBException strict) {
      if (Failures.kindOf(strict, directory) != Failures.Kind.DAMAGED) {
        throw Failures.ofOpen(directory, strict, Failures.diskUsage(directory));
      }
      if (clean) {
        throw refusal(directory, strict);
      }
      try {
        d =
            attempt(
                directory, space, sync, maxWalBytes, WALRecoveryMode.TolerateCorruptedTailRecords);
      } catch (RocksDBException lenient) {
        throw Failures.kindOf(lenient, directory) == Failures.Kind.DAMAGED
            ? refusal(directory, lenient)
            : Failures.ofOpen(directory, lenient, Failures.diskUsage(directory));
      }
      String note =
          "the write-ahead log in "
              + directory
              + " ended in an incomplete record, as a process killed in the middle of a write"
              + " leaves it; that record was dropped (RocksDB reported \""
              + Failures.text(strict)
              + "\"). It was never acknowledged, unless the tail of the log was damaged by"
              + " something else, in which case the last writes before the stop are missing";
      LOG.log(System.Logger.Level.WARNING, note);
      synchronized (notes) {
        notes.add(note);
      }
    }
    try {
      // from here on, a stop that is not a clean close may leave a torn tail
      Files.deleteIfExists(marker);
    } catch (IOException e) {
      d.close();
      throw new UncheckedIOException("cannot remove " + marker, e);
    }
    return d;
  }

  /**
   * After a clean close, checks that the MANIFEST still lists every table file it listed then.
   * RocksDB reads a MANIFEST whose last block has a damaged length field as one that merely ends
   * there, opens without the edits after it, and deletes the table files they added as obsolete: a
   * change log that comes back empty. Read-only, so that nothing is deleted before the check; if
   * even that does not open, the strict open that follows reports why.
   */
  private static void checkTablesListed(Path directory, Path marker) {
    List<String> expected;
    try {
      expected = Files.readAllLines(marker).stream().filter(l -> !l.isBlank()).toList();
    } catch (IOException e) {
      return;
    }
    ColumnFamilyOptions familyOptions = new ColumnFamilyOptions();
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (DBOptions options =
        new DBOptions().setWalRecoveryMode(WALRecoveryMode.AbsoluteConsistency)) {
      RocksDB probe;
      try {
        probe =
            RocksDB.openReadOnly(options, directory.toString(), families(familyOptions), handles);
      } catch (RocksDBException e) {
        if (Failures.kindOf(e, directory) == Failures.Kind.DAMAGED) {
          throw Failures.damaged(directory, "opening it", Failures.text(e));
        }
        return; // not damage: the strict open that follows says what it is
      }
      List<String> listed = tableFileNames(probe);
      handles.forEach(ColumnFamilyHandle::close);
      probe.close();
      List<String> lost = expected.stream().filter(f -> !listed.contains(f)).toList();
      if (!lost.isEmpty()) {
        throw Failures.damagedBecause(
            directory,
            "the MANIFEST no longer lists table files "
                + String.join(", ", lost)
                + ", which it listed when cosmolab last closed the directory");
      }
    } finally {
      familyOptions.close();
    }
  }

  /**
   * The error for damage that the store will not open past. When the database opens read-only with
   * the log's damaged records skipped, the damage is in the log: say so, since moving on would lose
   * acknowledged writes. (Read-only: nothing on disk changes.)
   */
  private static CosmosException refusal(Path directory, RocksDBException e) {
    ColumnFamilyOptions familyOptions = new ColumnFamilyOptions();
    try (DBOptions options =
        new DBOptions().setWalRecoveryMode(WALRecoveryMode.SkipAnyCorruptedRecords)) {
      List<ColumnFamilyHandle> handles = new ArrayList<>();
      RocksDB probe;
      try {
        probe =
            RocksDB.openReadOnly(options, directory.toString(), families(familyOptions), handles);
      } catch (RocksDBException stillDamaged) {
        return Failures.damaged(directory, "opening it", Failures.text(e));
      }
      handles.forEach(ColumnFamilyHandle::close);
      probe.close();
      return CosmosError.INTERNAL_SERVER_ERROR.exception(
          "data directory damaged: the write-ahead log of %s (%s) is damaged, RocksDB reports"
              + " \"%s\"; cosmolab refuses to start rather than lose acknowledged writes; move"
              + " the directory aside (or restore it from a copy) and start again",
          directory, logFiles(directory), Failures.text(e));
    } finally {
      familyOptions.close();
    }
  }

  private static String logFiles(Path directory) {
    try (var files = Files.list(directory)) {
      return String.join(
          ", ",
          files
              .map(p -> p.getFileName().toString())
              .filter(n -> n.endsWith(".log"))
              .sorted()
              .toList());
    } catch (IOException e) {
      return "*.log";
    }
  }

  private static List<ColumnFamilyDescriptor> families(ColumnFamilyOptions familyOptions) {
    return List.of(
        new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, familyOptions),
        new ColumnFamilyDescriptor("documents".getBytes(StandardCharsets.UTF_8), familyOptions),
        new ColumnFamilyDescriptor("changes".getBytes(StandardCharsets.UTF_8), familyOptions));
  }

  private static RocksDatabase attempt(
      Path directory,
      SstFileManager space,
      boolean sync,
      long maxWalBytes,
      WALRecoveryMode recovery)
      throws RocksDBException {
    ColumnFamilyOptions familyOptions = new ColumnFamilyOptions();
    List<ColumnFamilyDescriptor> families = families(familyOptions);
    // only a new directory may gain column families: in an existing one a missing family means
    // the MANIFEST lost its creation, and creating it afresh would serve an empty store
    boolean fresh = !Files.exists(directory.resolve("CURRENT"));
    DBOptions options =
        new DBOptions()
            .setCreateIfMissing(true)
            .setCreateMissingColumnFamilies(fresh)
            .setParanoidChecks(true)
            .setWalRecoveryMode(recovery)
            .setMaxTotalWalSize(maxWalBytes)
            .setSstFileManager(space);
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try {
      RocksDB db = RocksDB.open(options, directory.toString(), families, handles);
      return new RocksDatabase(db, options, familyOptions, handles, sync);
    } catch (RocksDBException e) {
      options.close();
      familyOptions.close();
      throw e;
    }
  }

  @Override
  public void close() {
    closeHandles();
    db.close();
    closeOptions();
  }

  /**
   * Stops background work, syncs the log and closes; returns the table files live at the close when
   * all of it succeeded (the log on disk is then whole), else null. (Without {@code syncEachCommit}
   * the log is not synced per commit, and a power cut after the close must not leave a torn tail
   * behind a "closed cleanly" marker.)
   */
  List<String> closeCleanly() {
    List<String> tables;
    try {
      db.pauseBackgroundWork();
      db.syncWal();
      tables = tableFileNames(db);
      closeHandles();
      db.closeE();
    } catch (RocksDBException e) {
      LOG.log(System.Logger.Level.WARNING, "RocksDB did not close cleanly: " + Failures.text(e));
      closeHandles();
      db.close();
      tables = null;
    }
    closeOptions();
    return tables;
  }

  static List<String> tableFileNames(RocksDB db) {
    List<String> out = new ArrayList<>();
    for (LiveFileMetaData f : db.getLiveFilesMetaData()) {
      out.add(withoutLeadingSlash(f.fileName()));
    }
    out.sort(String::compareTo);
    return out;
  }

  private void closeHandles() {
    reads.close();
    writes.close();
    defaults.close();
    documents.close();
    changes.close();
  }

  private void closeOptions() {
    options.close();
    familyOptions.close();
  }

  /** RocksDB names live files "/000012.sst": the name without its leading slash. */
  static String withoutLeadingSlash(String fileName) {
    return fileName.startsWith("/") ? fileName.substring(1) : fileName;
  }
}
