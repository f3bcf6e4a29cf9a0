package io.cosmolab.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.time.ManualClock;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A really full disk: a 64 MiB tmpfs filled up with a file. Runs only where this process may mount
 * (root in a container that allows it); skipped otherwise, saying why.
 */
class RocksDbTmpfsDiskFullTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void aReallyFullDiskFailsWritesWith507AndTheyResumeOnceTheFillerIsDeleted() throws Exception {
    Path mount = dir.resolve("tmpfs");
    Files.createDirectories(mount);
    assumeTrue(
        run("mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", mount.toString()),
        "skipped: cannot mount a tmpfs here (needs root and a mount-permitting sandbox)");
    try {
      Path data = mount.resolve("data");
      Path filler = mount.resolve("filler");
      int acknowledged = 0;
      try (CosmosEngine e =
          CosmosEngine.builder()
              .clock(ManualClock.startingAtEpoch2026())
              .throttling(ThrottlingMode.OFF)
              .store(RocksDbDocumentStore.open(data))
              .build()) {
        Container c =
            e.createDatabase("db")
                .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/id")));
        fill(filler);
        CosmosException full = null;
        for (int i = 0; i < 100_000 && full == null; i++) {
          try {
            c.create(JSON.createObjectNode().put("id", "d" + i).put("pad", "x".repeat(2000)));
            acknowledged++;
          } catch (CosmosException x) {
            full = x;
          }
        }
        assertThat(full).as("a write fails once the disk is full").isNotNull();
        System.out.println("RocksDbTmpfsDiskFullTest: " + full.getMessage());
        assertThat(full.status()).isEqualTo(507);
        assertThat(full.getMessage()).startsWith("the disk of the data directory " + data);

        Files.delete(filler);
        c.create(JSON.createObjectNode().put("id", "after").put("n", 1));
        acknowledged++;
        assertThat(count(c)).isEqualTo(acknowledged);
      }
      try (CosmosEngine e =
          CosmosEngine.builder()
              .clock(ManualClock.startingAtEpoch2026())
              .store(RocksDbDocumentStore.open(data))
              .build()) {
        assertThat(count(e.database("db").container("c"))).isEqualTo(acknowledged);
      }
    } finally {
      run("umount", mount.toString());
    }
  }

  private static long count(Container c) {
    return c.query(QueryRequest.of("SELECT VALUE COUNT(1) FROM c")).rows().get(0).longValue();
  }

  /** Writes until the disk refuses. */
  private static void fill(Path filler) {
    byte[] chunk = new byte[64 * 1024];
    try (OutputStream out = Files.newOutputStream(filler)) {
      while (true) {
        out.write(chunk);
      }
    } catch (IOException full) {
      // the disk is full
    }
  }

  private static boolean run(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
