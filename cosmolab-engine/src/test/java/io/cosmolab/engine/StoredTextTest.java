package io.cosmolab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.document.CompactObjects;
import io.cosmolab.engine.document.JsonTrees;
import io.cosmolab.engine.resource.ResourceIds;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A stored version's texts, written from numbers, are the texts the engine's encoders make. */
class StoredTextTest {
  @Test
  void ridSelfAndEtag_areWhatResourceIdsAndTheEtagFormatMake_overRandomContainersAndSequences() {
    Random random = new Random(7);
    for (int c = 0; c < 200; c++) {
      byte[] database = ResourceIds.database(random.nextInt(1 << 30));
      byte[] container = ResourceIds.container(database, random.nextInt(1 << 20));
      String self =
          "dbs/" + ResourceIds.encode(database) + "/colls/" + ResourceIds.encode(container) + "/";
      int salt = random.nextInt();
      StoredText.Source source = new StoredText.Source(container, self, salt);
      for (int i = 0; i < 50; i++) {
        long sequence =
            i == 0 ? 0 : i == 1 ? (1L << 55) - 1 : random.nextLong() >>> (9 + random.nextInt(50));
        long lsn = random.nextLong() >>> (16 + random.nextInt(48));
        StoredText text = new StoredText(source, sequence, lsn);
        String rid = ResourceIds.encode(ResourceIds.document(container, sequence));

        assertThat(text.text("_rid")).isEqualTo(rid);
        assertThat(text.text("_self")).isEqualTo(self + "docs/" + rid + "/");
        assertThat(text.text("_etag"))
            .isEqualTo(
                String.format(
                    "\"%08x-0000-0000-0000-%012x\"", salt & 0xFFFFFFFFL, lsn & 0xFFFFFFFFFFFFL));
        assertThat(text.documentPart()).isEqualTo(ResourceIds.documentPart(rid));
      }
    }
  }

  @Test
  void aStoredVersionsEtag_madeWhenAsked_isItsBodys_acrossWritesAndContainers() {
    io.cosmolab.engine.time.ManualClock clock =
        io.cosmolab.engine.time.ManualClock.startingAtEpoch2026();
    for (int n = 0; n < 3; n++) { // each container salts its etags differently
      Container c = Engines.container(clock, 2);
      for (int i = 0; i < 50; i++) {
        ObjectNode doc =
            Json.obj("{'id':'d" + (i % 7) + "','pk':'p" + (i % 3) + "','n':" + i + "}");
        ItemResponse written = i < 7 ? c.create(doc) : c.upsert(doc);
        io.cosmolab.engine.partitioning.PartitionKeyValue key =
            io.cosmolab.engine.partitioning.PartitionKeyValue.of("p" + (i % 3));
        ItemResponse read = c.read(key, "d" + (i % 7));
        assertThat(written.etag()).isEqualTo(written.document().get("_etag").textValue());
        assertThat(read.etag())
            .isEqualTo(read.document().get("_etag").textValue())
            .isEqualTo(written.etag());
      }
    }
  }

  @Test
  void aStoredVersion_isItsBodysTexts_andACopyHandedOutHoldsADetachedOne_notTheVersion() {
    io.cosmolab.engine.store.InMemoryDocumentStore store =
        new io.cosmolab.engine.store.InMemoryDocumentStore();
    Container c =
        CosmosEngine.builder()
            .store(store)
            .build()
            .createDatabase("db")
            .createContainer(
                ContainerSettings.of(
                    "c", io.cosmolab.engine.partitioning.PartitionKeyDefinition.hash("/pk")));
    c.create(Json.obj("{'id':'a','pk':'p','n':1}"));
    String epk =
        io.cosmolab.engine.partitioning.EffectivePartitionKey.of(
            c.partitionKey(), io.cosmolab.engine.partitioning.PartitionKeyValue.of("p"));
    io.cosmolab.engine.store.StoredDocument stored = store.open(c.rid()).get(epk, "a");
    for (String name : new String[] {"_rid", "_self", "_etag"}) {
      assertThat(CompactObjects.systemText(stored.body(), name)).isSameAs(stored);
    }

    ObjectNode copy = stored.body().deepCopy();

    io.cosmolab.engine.document.SystemText detached = CompactObjects.systemText(copy, "_rid");
    assertThat(detached).isInstanceOf(StoredText.class);
    for (String name : new String[] {"_rid", "_self", "_etag"}) {
      assertThat(detached.text(name)).isEqualTo(stored.text(name));
    }
    assertThat(detached.documentPart()).isEqualTo(stored.documentPart());
    assertThat(copy).isEqualTo(stored.body());
    assertThat(stored.text("_etag")).isEqualTo(stored.etag());
    // one detached form for the version's three texts
    assertThat(CompactObjects.systemText(copy, "_etag")).isSameAs(detached);

    // superseded, the version's body (which the change log may keep) no longer holds the version
    String etag = stored.etag();
    ObjectNode before = stored.body().deepCopy();
    c.upsert(Json.obj("{'id':'a','pk':'p','n':2}"));
    io.cosmolab.engine.document.SystemText after =
        CompactObjects.systemText(stored.body(), "_self");
    assertThat(after)
        .isInstanceOf(StoredText.class)
        .isSameAs(CompactObjects.systemText(stored.body(), "_rid"));
    assertThat(stored.body()).isEqualTo(before);
    assertThat(stored.body().get("_etag").textValue()).isEqualTo(etag);
    assertThat(store.open(c.rid()).get(epk, "a").etag()).isNotEqualTo(etag);
  }

  @Test
  void aStoredBodyWithoutAnEtag_isRefused_ratherThanGivenAMadeUpOne() {
    ObjectNode body = Json.obj("{'id':'a'}");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                new io.cosmolab.engine.store.StoredDocument(
                    "e",
                    "a",
                    io.cosmolab.engine.partitioning.PartitionKeyValue.of("e"),
                    body,
                    10,
                    1,
                    10,
                    0,
                    10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("without a text _etag");
  }

  @Test
  void aCopyOfAStoredBody_keepsMakingItsTexts_andSerializesAsTheStoredOne() throws Exception {
    StoredText.Source source =
        new StoredText.Source(
            ResourceIds.container(ResourceIds.database(3), 4), "dbs/x/colls/y/", 9);
    ObjectNode body = CompactObjects.copyOf(Json.obj("{'id':'a','n':{'m':[1,{'k':2}]}}"), 3);
    StoredText text = new StoredText(source, 42, 7);
    for (String name : new String[] {"_rid", "_self", "_etag"}) {
      CompactObjects.putSystemText(body, name, text);
    }

    ObjectNode copy = body.deepCopy();

    assertThat(CompactObjects.systemText(copy, "_rid")).isSameAs(text);
    assertThat(copy).isEqualTo(body);
    assertThat(JsonTrees.write(copy)).isEqualTo(JsonTrees.write(body));
    ((ObjectNode) copy.get("n")).put("added", true); // a deep copy: the stored body is untouched
    assertThat(body.get("n").has("added")).isFalse();
  }
}
