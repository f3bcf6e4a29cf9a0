package io.cosmolab.migrator.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cosmolab.migrator.MigrationState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The state directory: {@code state.json} and the verification ledger {@code verify.json}, each
 * replaced atomically (written to a temporary file, forced to disk, renamed over the old one), so a
 * reader or a resumed run sees the old state or the new, never a torn one.
 */
public final class StateStore {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private final Path dir;

  public StateStore(Path dir) {
    this.dir = dir;
  }

  public Path file() {
    return dir.resolve("state.json");
  }

  /** The saved state, or null when there is none yet. */
  public MigrationState loadOrNull() {
    Path f = file();
    if (!Files.exists(f)) {
      return null;
    }
    try {
      MigrationState s = JSON.readValue(f.toFile(), MigrationState.class);
      if (!MigrationState.FORMAT.equals(s.format())) {
        throw new IllegalStateException(f + " is not a " + MigrationState.FORMAT + " state");
      }
      return s;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the migration state " + f, e);
    }
  }

  public void save(MigrationState state) {
    write("state.json", state);
  }

  /** The incremental verification's ledger ({@code verify.json}), empty when there is none. */
  public VerifyLedger loadLedger() {
    Path f = dir.resolve("verify.json");
    if (!Files.exists(f)) {
      return new VerifyLedger(new java.util.TreeMap<>());
    }
    try {
      return JSON.readValue(f.toFile(), VerifyLedger.class);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the verification ledger " + f, e);
    }
  }

  /** Replaces {@code verify.json}, atomically as the state. */
  public void saveLedger(VerifyLedger ledger) {
    write("verify.json", ledger);
  }

  private void write(String name, Object value) {
    try {
      Files.createDirectories(dir);
      Path tmp = dir.resolve(name + ".tmp");
      Path file = dir.resolve(name);
      byte[] bytes = JSON.writeValueAsBytes(value);
      try (FileChannel ch =
          FileChannel.open(
              tmp,
              StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.WRITE)) {
        ch.write(java.nio.ByteBuffer.wrap(bytes));
        ch.force(true);
      }
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot save the migration state in " + dir, e);
    }
  }
}
