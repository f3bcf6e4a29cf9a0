package io.cosmolab.engine;

import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.index.IndexingPolicy;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.time.ManualClock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Writes are charged for the terms the indexing policy indexes, so excluding paths, the standard RU
 * optimisation, lowers the charge as on the service. Published figures (partitioning-model.md
 * §2.1–2.2): a 1 KB create with 10 indexed terms is about 7.0 RU (RUC worked example), and with
 * indexing off about 5 RU (KV) to 5.5 RU (OPTRW).
 */
class WriteChargeIndexingPolicyTest {
  private final Database db =
      Engines.onClock(ManualClock.startingAtEpoch2026(), ThrottlingMode.OFF).createDatabase("db");
  private int containers;

  private Container with(IndexingPolicy policy) {
    return db.createContainer(
        ContainerSettings.of("c" + containers++, PartitionKeyDefinition.hash("/pk"))
            .withIndexingPolicy(policy));
  }

  /** About 1 KB, with ten leaf values: id, pk and a0..a7. */
  private static ObjectNode doc(String id) {
    StringBuilder b = new StringBuilder("{'id':'" + id + "','pk':'p'");
    for (int i = 0; i < 8; i++) {
      b.append(",'a").append(i).append("':'").append("x".repeat(100)).append("'");
    }
    return obj(b.append("}").toString());
  }

  @Test
  void theDefaultPolicyChargesEveryTerm_nearThePublishedSevenRu() {
    double charge = with(IndexingPolicy.DEFAULT).create(doc("d")).requestCharge();
    assertThat(charge).isCloseTo(7.0, within(0.3));
  }

  @Test
  void excludingEverythingChargesTheBaseAlone_asIndexingOffDoesOnTheService() {
    IndexingPolicy nothing = new IndexingPolicy("consistent", List.of(), List.of("/*"));
    double charge = with(nothing).create(doc("d")).requestCharge();
    assertThat(charge).isBetween(4.9, 5.5);
    IndexingPolicy none = new IndexingPolicy("none", List.of(), List.of());
    assertThat(with(none).create(doc("d")).requestCharge()).isEqualTo(charge);
  }

  @Test
  void theExcludeIndexingDirective_chargesAsIndexingOff_andItsReplaceRemovesTheOldTerms() {
    Container c = with(IndexingPolicy.DEFAULT);
    ItemOptions exclude = ItemOptions.NONE.excludedFromIndexing();
    double excluded = c.create(PartitionKeyValue.of("p"), doc("x"), exclude).requestCharge();
    assertThat(excluded).isBetween(4.9, 5.5);
    double indexed = c.create(doc("i")).requestCharge();
    assertThat(indexed - excluded).isCloseTo(0.2 * 10, within(0.02));
    // an indexed version replaced by an excluded one removes its 10 terms; back again adds 10
    // (a replace pays each changed term twice: removed and added)
    double toExcluded =
        c.replace(PartitionKeyValue.of("p"), "i", doc("i"), exclude).requestCharge();
    double toIndexed = c.replace(PartitionKeyValue.of("p"), "i", doc("i")).requestCharge();
    double unchanged = c.replace(PartitionKeyValue.of("p"), "i", doc("i")).requestCharge();
    assertThat(toExcluded - unchanged).isCloseTo(2 * 0.2 * 10, within(0.02));
    assertThat(toIndexed - unchanged).isCloseTo(2 * 0.2 * 10, within(0.02));
    // the excluded document costs no index upkeep to delete, and is stored like any other
    assertThat(c.read(PartitionKeyValue.of("p"), "x").status()).isEqualTo(200);
    assertThat(
            c.delete(PartitionKeyValue.of("p"), "i").requestCharge()
                - c.delete(PartitionKeyValue.of("p"), "x").requestCharge())
        .isCloseTo(0.2 * 10, within(0.02));
  }

  @Test
  void onlyTheIncludedPathsAreCharged_onCreateReplaceAndDelete() {
    IndexingPolicy onePath = new IndexingPolicy("consistent", List.of("/a0/?"), List.of("/*"));
    Container c = with(onePath);
    Container all = with(IndexingPolicy.DEFAULT);
    double one = c.create(doc("d")).requestCharge();
    double every = all.create(doc("d")).requestCharge();
    assertThat(every - one).isCloseTo(0.2 * 9, within(0.02)); // 10 terms against 1
    ObjectNode changed = doc("d").put("a5", "changed");
    // a5 is not indexed: the replace changes no charged term; the default policy's changes one
    assertThat(
            all.replace(PartitionKeyValue.of("p"), "d", changed).requestCharge()
                - c.replace(PartitionKeyValue.of("p"), "d", changed).requestCharge())
        .isCloseTo(2 * 0.2, within(0.02));
    assertThat(
            all.delete(PartitionKeyValue.of("p"), "d").requestCharge()
                - c.delete(PartitionKeyValue.of("p"), "d").requestCharge())
        .isCloseTo(0.2 * 9, within(0.02));
  }

  @Test
  void arrayElementsCountThroughTheBracketNotation() {
    IndexingPolicy tags = new IndexingPolicy("consistent", List.of("/tags/[]/?"), List.of("/*"));
    double base =
        with(new IndexingPolicy("consistent", List.of(), List.of("/*")))
            .create(obj("{'id':'t','pk':'p','tags':['a','b','c']}"))
            .requestCharge();
    double charge =
        with(tags).create(obj("{'id':'t','pk':'p','tags':['a','b','c']}")).requestCharge();
    assertThat(charge - base).isCloseTo(0.2 * 3, within(0.02));
  }
}
