package io.cosmolab.store.rocksdb;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import java.nio.file.Path;
import java.util.Locale;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * What a RocksDB failure means for the user, and the error that says so.
 *
 * <p>The classification reads the status code first ({@link Status.Code#Corruption}, {@link
 * Status.SubCode#NoSpace}). Two cases have no code of their own in RocksJava and are recognised by
 * the text RocksDB puts in the status: the space limit of an {@code SstFileManager} (RocksDB's
 * sub-code {@code kSpaceLimit}, which RocksJava maps to {@code Undefined}, state "Max allowed space
 * was reached"), and a lock already held, which RocksDB reports as a plain I/O error on the path of
 * the {@code LOCK} file. A file the MANIFEST lists but the directory lacks is also a plain I/O
 * error ("No such file or directory" on a path inside the directory), and a column family the
 * MANIFEST no longer knows is an invalid argument ("Column family not found"); both are damage.
 */
final class Failures {
  private Failures() {}

  enum Kind {
    /** A checksum or format check failed, or a file the database lists is missing. */
    DAMAGED,
    /** The disk, or the space limit of the directory, is full. */
    NO_SPACE,
    /** Another process (or another store in this process) holds the directory's lock. */
    LOCKED,
    /** Anything else: permissions, a bad option, a bug. */
    OTHER
  }

  static Kind kindOf(RocksDBException e, Path directory) {
    Status s = e.getStatus();
    String state = text(e);
    Status.Code code = s == null ? Status.Code.Undefined : s.getCode();
    Status.SubCode sub = s == null ? Status.SubCode.Undefined : s.getSubCode();
    if (code == Status.Code.Corruption
        || (code == Status.Code.InvalidArgument && state.contains("Column family not found"))) {
      return Kind.DAMAGED;
    }
    if (sub == Status.SubCode.NoSpace
        || state.contains("Max allowed space was reached")
        || state.contains("No space left on device")) {
      return Kind.NO_SPACE;
    }
    if (code == Status.Code.IOError && state.contains(directory.resolve("LOCK").toString())) {
      return Kind.LOCKED;
    }
    if (code == Status.Code.IOError
        && state.contains("No such file or directory")
        && state.contains(directory.toString())) {
      return Kind.DAMAGED;
    }
    return Kind.OTHER;
  }

  /** RocksDB's own words: the state of the status when there is one, else the message. */
  static String text(RocksDBException e) {
    Status s = e.getStatus();
    if (s != null && s.getState() != null && !s.getState().isEmpty()) {
      return s.getCodeString() + ": " + s.getState();
    }
    return String.valueOf(e.getMessage());
  }

  static CosmosException damaged(Path directory, String what, String said) {
    return CosmosError.INTERNAL_SERVER_ERROR.exception(
        "data directory damaged: %s: %s failed, RocksDB reports \"%s\". cosmolab serves no answer"
            + " from damaged data; restore the directory from a copy, or move it aside to start"
            + " empty",
        directory, what, said);
  }

  /** Damage cosmolab found itself, not through a RocksDB status. */
  static CosmosException damagedBecause(Path directory, String finding) {
    return CosmosError.INTERNAL_SERVER_ERROR.exception(
        "data directory damaged: %s: %s. cosmolab serves no answer from damaged data; restore the"
            + " directory from a copy, or move it aside to start empty",
        directory, finding);
  }

  static CosmosException full(Path directory, String what, String said, String usage) {
    return CosmosError.INSUFFICIENT_STORAGE.exception(
        "the disk of the data directory %s is full (%s): could not %s, and none of it was"
            + " applied (RocksDB reports \"%s\"). Free some space: writes resume by themselves,"
            + " without a restart",
        directory, usage, what, said);
  }

  /** The error for a failure while serving: damaged data, a full disk, or something else. */
  static CosmosException of(Path directory, String what, RocksDBException e, String usage) {
    return switch (kindOf(e, directory)) {
      case DAMAGED -> damaged(directory, what, text(e));
      case NO_SPACE -> full(directory, what, text(e), usage);
      case LOCKED, OTHER ->
          CosmosError.INTERNAL_SERVER_ERROR.exception(
              "storage failed to %s in %s: %s", what, directory, text(e));
    };
  }

  /** The error for a directory that does not open, with the hint that fits what RocksDB said. */
  static CosmosException ofOpen(Path directory, RocksDBException e, String usage) {
    String said = text(e);
    return switch (kindOf(e, directory)) {
      case DAMAGED -> damaged(directory, "opening it", said);
      case NO_SPACE ->
          CosmosError.INSUFFICIENT_STORAGE.exception(
              "cannot open the data directory %s: its disk is full (%s); RocksDB reports \"%s\"."
                  + " Free some space and start again",
              directory, usage, said);
      case LOCKED ->
          CosmosError.INTERNAL_SERVER_ERROR.exception(
              "cannot open the data directory %s: its LOCK file is held (is another cosmolab using"
                  + " it?); RocksDB reports \"%s\"",
              directory, said);
      case OTHER ->
          CosmosError.INTERNAL_SERVER_ERROR.exception(
              "cannot open the data directory %s: RocksDB reports \"%s\"", directory, said);
    };
  }

  /** "12.0 MiB free of 100.0 GiB" for the disk that holds {@code directory}. */
  static String diskUsage(Path directory) {
    java.io.File f = directory.toFile();
    return human(f.getUsableSpace()) + " free of " + human(f.getTotalSpace());
  }

  static String human(long bytes) {
    String[] units = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double v = bytes;
    int u = 0;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return u == 0 ? bytes + " bytes" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }
}
