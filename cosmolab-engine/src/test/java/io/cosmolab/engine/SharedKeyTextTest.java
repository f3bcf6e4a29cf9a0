package io.cosmolab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.store.StoredDocument;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.time.ManualClock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The documents of one logical partition keep one string of their key's text (each document read
 * from JSON has its own otherwise: 2 objects, about 50 bytes, for the collector to copy), and
 * readers see each document as it was written.
 */
class SharedKeyTextTest {
  private final ManualClock clock = ManualClock.startingAtEpoch2026();

  private Container container(PartitionKeyDefinition key) {
    return Engines.onClock(clock, ThrottlingMode.OFF)
        .createDatabase("db")
        .createContainer(ContainerSettings.of("c", key));
  }

  /** The stored versions of {@code ids} in the logical partition of {@code key}. */
  private List<StoredDocument> stored(Container c, PartitionKeyValue key, String... ids) {
    String epk = EffectivePartitionKey.of(c.partitionKey(), key);
    return c.reads().byIds(epk, List.of(ids), clock.millis());
  }

  private static String text(StoredDocument d, String property) {
    return d.body().get(property).textValue();
  }

  @Test
  void theDocumentsOfOneLogicalPartition_keepOneStringOfTheirKey() {
    Container c = container(PartitionKeyDefinition.hash("/tenant"));
    for (int i = 0; i < 4; i++) {
      // each parse makes its own string of the key
      c.create(Json.obj("{'id':'d" + i + "','tenant':'acme-7','n':" + i + "}"));
    }
    c.upsert(Json.obj("{'id':'d1','tenant':'acme-7','n':10}")); // a new version shares it too

    List<StoredDocument> docs = stored(c, PartitionKeyValue.of("acme-7"), "d0", "d1", "d2", "d3");

    assertThat(docs).hasSize(4);
    String first = text(docs.get(0), "tenant");
    assertThat(docs).allSatisfy(d -> assertThat(text(d, "tenant")).isSameAs(first));
    JsonNode read = c.read(PartitionKeyValue.of("acme-7"), "d1").document();
    assertThat(read.get("tenant").textValue()).isEqualTo("acme-7");
    assertThat(read.get("n").intValue()).isEqualTo(10);
  }

  @Test
  void theDocumentsABatchCreatesInANewLogicalPartition_shareOneStringToo() {
    Container c = container(PartitionKeyDefinition.hash("/tenant"));
    PartitionKeyValue key = PartitionKeyValue.of("new-tenant");
    List<io.cosmolab.engine.batch.BatchOperation> ops = new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ops.add(
          new io.cosmolab.engine.batch.BatchOperation.Create(
              Json.obj("{'id':'b" + i + "','tenant':'new-tenant'}")));
    }
    assertThat(c.executeBatch(key, ops).status()).isEqualTo(200);

    List<StoredDocument> docs = stored(c, key, "b0", "b1", "b2");

    assertThat(docs).hasSize(3);
    assertThat(docs)
        .allSatisfy(d -> assertThat(text(d, "tenant")).isSameAs(text(docs.get(0), "tenant")));
  }

  @Test
  void theDocumentsAScriptCreatesInANewLogicalPartition_shareOneString() {
    // a stored procedure that creates parameters[0] documents from their JSON text
    JavaProcedure creating =
        new JavaProcedure(
            (parameters, host) -> {
              for (int i = 0; i < parameters.path(0).asInt(); i++) {
                host.create(Json.obj("{'id':'s" + i + "','pk':'script-tenant'}"), false);
              }
            });
    try (CosmosEngine engine =
        CosmosEngine.builder().clock(clock).scriptRuntime(creating).build()) {
      Container c = ScriptsWithoutRuntimeTest.container(engine); // its procedure is "sp"
      PartitionKeyValue key = PartitionKeyValue.of("script-tenant");
      c.executeStoredProcedure(
          key,
          "sp",
          com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode().add(3),
          false);

      List<StoredDocument> docs = stored(c, key, "s0", "s1", "s2");

      assertThat(docs).hasSize(3);
      assertThat(docs).allSatisfy(d -> assertThat(text(d, "pk")).isSameAs(text(docs.get(0), "pk")));
    }
  }

  @Test
  void eachLevelOfAHierarchicalKey_isShared_andANestedPathKeepsItsOwn() {
    Container c = container(PartitionKeyDefinition.hierarchical("/tenant", "/user", "/a/b"));
    for (int i = 0; i < 2; i++) {
      c.create(
          Json.obj(
              "{'id':'d" + i + "','tenant':'acme','user':'u1','a':{'b':'deep'},'n':" + i + "}"));
    }

    List<StoredDocument> docs = stored(c, PartitionKeyValue.of("acme", "u1", "deep"), "d0", "d1");

    assertThat(docs).hasSize(2);
    assertThat(text(docs.get(1), "tenant")).isSameAs(text(docs.get(0), "tenant"));
    assertThat(text(docs.get(1), "user")).isSameAs(text(docs.get(0), "user"));
    assertThat(docs.get(1).body().get("a").get("b").textValue()).isEqualTo("deep");
  }

  @Test
  void aKeyThatIsNotText_andOtherPropertiesWithTheSameText_areLeftAsTheyAre() {
    Container c = container(PartitionKeyDefinition.hash("/n"));
    c.create(Json.obj("{'id':'a','n':5,'label':'5'}"));
    c.create(Json.obj("{'id':'b','n':5,'label':'5'}"));

    List<StoredDocument> docs = stored(c, PartitionKeyValue.of(5), "a", "b");

    assertThat(docs).extracting(d -> d.body().get("n").intValue()).containsExactly(5, 5);
    assertThat(text(docs.get(1), "label")).isNotSameAs(text(docs.get(0), "label"));
  }
}
