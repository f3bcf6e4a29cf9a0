package io.cosmolab.engine;

import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.document.JsonTrees;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.time.ManualClock;
import org.junit.jupiter.api.Test;

/**
 * A point read answers with the stored version's JSON, made once per version: the same bytes as
 * writing the document, reused by the next read, and new after the document changes.
 */
class ReadSerializationTest {

  @Test
  void readsOfOneVersion_shareItsSerializedForm_andANewVersionHasItsOwn() {
    Container c =
        Engines.onClock(ManualClock.startingAtEpoch2026(), ThrottlingMode.OFF)
            .createDatabase("db")
            .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    PartitionKeyValue k = PartitionKeyValue.of("a");
    c.create(k, obj("{'id':'x','pk':'a','n':1,'s':'\\u00e9t\\u00e9'}"));
    ItemResponse first = c.read(k, "x");
    byte[] bytes = first.documentJson();
    assertThat(bytes).isEqualTo(JsonTrees.write(first.document()));
    assertThat(c.read(k, "x").documentJson()).isSameAs(bytes);

    c.upsert(k, obj("{'id':'x','pk':'a','n':2}"), ItemOptions.NONE);
    ItemResponse second = c.read(k, "x");
    assertThat(second.documentJson())
        .isNotSameAs(bytes)
        .isEqualTo(JsonTrees.write(second.document()));
    assertThat(second.document().path("n").asInt()).isEqualTo(2);
    // a response whose document is not a stored version is written as it is
    ItemResponse made = new ItemResponse(200, obj("{'id':'y'}"), 1, null, 0, "0");
    assertThat(made.documentJson()).isEqualTo(JsonTrees.write(obj("{'id':'y'}")));
  }
}
