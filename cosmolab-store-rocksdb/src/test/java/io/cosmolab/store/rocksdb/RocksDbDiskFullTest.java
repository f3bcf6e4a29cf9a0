package io.cosmolab.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.query.QueryRequest;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk, simulated portably with the space limit of RocksDB's {@code SstFileManager}: past
 * it, a flush fails with a no-space background error and RocksDB stops taking writes, exactly as
 * when the disk is full. And the hints of a directory that does not open.
 */
class RocksDbDiskFullTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static ObjectNode doc(int i) {
    return JSON.createObjectNode().put("id", "d" + i).put("n", i);
  }

  private static long count(Container c) {
    return c.query(QueryRequest.of("SELECT VALUE COUNT(1) FROM c")).rows().get(0).longValue();
  }

  @Test
  void aFullDiskFailsWritesWith507AndWritesResumeOnceSpaceIsFreedWithoutARestart() {
    Path data = dir.resolve("data");
    try (RocksDbDocumentStore store = RocksDbDocumentStore.open(data);
        CosmosEngine e = StoreEngines.on(store)) {
      Container c =
          e.createDatabase("db")
              .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/id")));
      for (int i = 0; i < 100; i++) {
        c.create(doc(i));
      }
      store.limitSpace(1);
      try {
        store.flush();
      } catch (CosmosException expected) {
        assertThat(expected.status()).isEqualTo(507);
      }

      assertThatThrownBy(() -> c.create(doc(100)))
          .isInstanceOfSatisfying(
              CosmosException.class,
              x -> {
                assertThat(x.status()).isEqualTo(507);
                assertThat(x.error().code()).isEqualTo("InsufficientStorage");
              })
          .hasMessageStartingWith("the disk of the data directory " + data + " is full (")
          .hasMessageContaining(" free of ")
          .hasMessageContaining("writes resume by themselves");
      // still full: still refused, and reads still answer
      assertThatThrownBy(() -> c.create(doc(100)))
          .isInstanceOfSatisfying(
              CosmosException.class, x -> assertThat(x.status()).isEqualTo(507));
      assertThat(count(c)).isEqualTo(100);

      store.limitSpace(0);
      assertThat(c.create(doc(100)).status()).isEqualTo(201);
      for (int i = 101; i < 150; i++) {
        c.create(doc(i));
      }
      assertThat(count(c)).isEqualTo(150);
      assertThat(c.documentCount()).isEqualTo(150);
    }
    try (CosmosEngine e = StoreEngines.on(RocksDbDocumentStore.open(data))) {
      Container c = e.database("db").container("c");
      assertThat(count(c)).as("after a restart").isEqualTo(150);
      assertThat(c.read(PartitionKeyValue.of("d100"), "d100").status()).isEqualTo(200);
    }
  }

  @Test
  void aDirectoryInUseSaysAnotherCosmolabMayHoldIt() {
    Path data = dir.resolve("busy");
    try (RocksDbDocumentStore first = RocksDbDocumentStore.open(data)) {
      assertThat(first.directory()).isEqualTo(data);
      assertThatThrownBy(() -> RocksDbDocumentStore.open(data))
          .isInstanceOf(CosmosException.class)
          .hasMessageStartingWith("cannot open the data directory " + data)
          .hasMessageContaining("its LOCK file is held (is another cosmolab using it?)");
    }
  }

  @Test
  void aDamagedDirectoryDoesNotBlameAnotherCosmolab() throws Exception {
    Path data = dir.resolve("damaged");
    RocksDbDocumentStore.open(data).close();
    java.nio.file.Files.writeString(data.resolve("CURRENT"), "MANIFEST-9\n");
    assertThatThrownBy(() -> RocksDbDocumentStore.open(data))
        .isInstanceOf(CosmosException.class)
        .hasMessageStartingWith("data directory damaged: " + data)
        .hasMessageNotContaining("another cosmolab");
  }
}
