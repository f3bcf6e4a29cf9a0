package io.cosmolab.scripts;

import static io.cosmolab.scripts.StoredProcedureTest.BULK_IMPORT;
import static io.cosmolab.scripts.StoredProcedureTest.JSON;
import static io.cosmolab.scripts.StoredProcedureTest.doc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.script.ScriptKind;
import io.cosmolab.store.rocksdb.RocksDbDocumentStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scripts on the durable store (RocksDB, as `serve --data-dir` runs): a procedure's writes commit
 * together and survive a restart, a procedure that throws leaves nothing on disk either, a
 * trigger's change is stored, and the scripts themselves are still there after the restart.
 */
class DurableScriptsTest {
  private static final PartitionKeyValue A = PartitionKeyValue.of("a");

  private static CosmosEngine engine(Path data) {
    return CosmosEngine.builder()
        .scriptRuntime(StoredProcedureTest.RUNTIME)
        .store(RocksDbDocumentStore.open(data))
        .build();
  }

  private static long count(Container c) {
    return c.query(QueryRequest.of("SELECT VALUE COUNT(1) FROM c").withPartitionKey(A))
        .rows()
        .get(0)
        .asLong();
  }

  @Test
  void aProceduresWrites_commitTogetherOnDisk_andOneThatThrows_leavesNothing(@TempDir Path dir) {
    Path data = dir.resolve("data");
    try (CosmosEngine e = engine(data)) {
      Container c =
          e.createDatabase("db")
              .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
      StoredProcedureTest.sproc(c, "bulkImport", BULK_IMPORT);
      StoredProcedureTest.sproc(
          c,
          "halfway",
          "function () { var c = getContext().getCollection();"
              + " c.createDocument(c.getSelfLink(), {id: 'h1', pk: 'a'});"
              + " c.createDocument(c.getSelfLink(), {id: 'h2', pk: 'a'}, function (err) {"
              + " throw new Error('stop'); }); }");
      TriggerAndUdfTest.trigger(c, "stamp", "Pre", "All", TriggerAndUdfTest.STAMP);
      ArrayNode docs = JSON.createArrayNode();
      for (int i = 0; i < 50; i++) {
        docs.add(doc("d" + i, "a"));
      }
      assertThat(
              c.executeStoredProcedure(A, "bulkImport", JSON.createArrayNode().add(docs), false)
                  .body()
                  .asInt())
          .isEqualTo(50);
      assertThatThrownBy(
              () -> c.executeStoredProcedure(A, "halfway", JSON.createArrayNode(), false))
          .isInstanceOf(CosmosException.class)
          .hasMessageContaining("stop");
      c.create(A, doc("t", "a"), TriggerAndUdfTest.pre("stamp"));
      assertThat(count(c)).isEqualTo(51);
    }
    try (CosmosEngine e = engine(data)) {
      Container c = e.findDatabase("db").orElseThrow().findContainer("c").orElseThrow();
      assertThat(count(c)).as("the import and the stamped write, after a restart").isEqualTo(51);
      assertThatThrownBy(() -> c.read(A, "h1")).isInstanceOf(CosmosException.class);
      assertThat(c.read(A, "t").document().path("stamped").asText()).isEqualTo("Create");
      assertThat(c.scripts().list(ScriptKind.STORED_PROCEDURE))
          .extracting(s -> s.path("id").asText())
          .containsExactlyInAnyOrder("bulkImport", "halfway");
      // and they still run
      ArrayNode more = JSON.createArrayNode().add(doc("d50", "a")).add(doc("d51", "a"));
      c.executeStoredProcedure(A, "bulkImport", JSON.createArrayNode().add(more), false);
      assertThat(count(c)).isEqualTo(53);
      assertThat(List.of(c.read(A, "d51").document().path("id").asText())).containsExactly("d51");
    }
  }
}
