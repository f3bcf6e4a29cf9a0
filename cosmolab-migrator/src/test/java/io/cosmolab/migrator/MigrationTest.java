package io.cosmolab.migrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.testkit.CosmosLab;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Copy, catch up on the change feed while a writer works on the source, and verify. */
class MigrationTest {
  private static CosmosLab lab;
  private static CosmosClient client;

  @BeforeAll
  static void start() {
    lab = CosmosLab.builder().start();
    client = lab.clientBuilder().buildClient();
  }

  @AfterAll
  static void stop() {
    client.close();
    lab.close();
  }

  @Test
  void copyAndCatchUp_withAConcurrentWriter_leaveTheTargetEqualToTheSource(@TempDir Path tmp)
      throws Exception {
    CosmosContainer source = Lab.orders(client, "m1", "orders", 300);
    MigrationSpec spec = Lab.spec(lab, "m1", "orders", "byRegion", "/region");
    MigrationState s;
    try (Lab.Writer writer = new Lab.Writer(source, 42, 120);
        Migrator m = Migrator.open(spec, tmp, Lab.options())) {
      s = m.run(false, () -> writer.writes() > 400);
      assertThat(s.phase()).isEqualTo(MigrationState.Phase.CATCHING_UP);
    }
    try (Migrator m = Migrator.open(spec, tmp, Lab.options())) {
      s = m.run(true, () -> false);
      assertThat(s.copied()).isGreaterThanOrEqualTo(300);
      assertThat(s.applied()).isPositive();
      assertThat(s.deleted()).isPositive();
      assertThat(s.ready()).isTrue();
      VerifyReport v = m.verify();
      assertThat(v.differences()).isEmpty();
      assertThat(v.equal()).isTrue();
      assertThat(v.targetDocuments()).isEqualTo(v.sourceDocuments());
      assertThat(v.partitions()).isEqualTo(3);
    }
  }

  @Test
  void theTarget_getsTheNewKey_andTheSourcesContainerSettings(@TempDir Path tmp) {
    client.createDatabaseIfNotExists("m2");
    CosmosContainerProperties p = new CosmosContainerProperties("orders", "/tenantId");
    p.setDefaultTimeToLiveInSeconds(3600);
    client.getDatabase("m2").createContainer(p);
    CosmosContainer source = client.getDatabase("m2").getContainer("orders");
    source.createItem(Lab.order("a", "t1", "eu", 1));
    try (Migrator m =
        Migrator.open(
            Lab.spec(lab, "m2", "orders", "byUser", "/tenantId>/userId"), tmp, Lab.options())) {
      m.run(true, () -> false);
      assertThat(m.verify().equal()).isTrue();
    }
    CosmosContainerProperties t =
        client.getDatabase("m2").getContainer("byUser").read().getProperties();
    assertThat(t.getPartitionKeyDefinition().getPaths()).containsExactly("/tenantId", "/userId");
    assertThat(t.getDefaultTimeToLiveInSeconds()).isEqualTo(3600);
  }

  @Test
  void aSyntheticKey_isComputedAndWritten_andFollowsUpdatesThatChangeIt(@TempDir Path tmp)
      throws Exception {
    CosmosContainer source = Lab.orders(client, "m3", "orders", 100);
    MigrationSpec spec = Lab.spec(lab, "m3", "orders", "bySynthetic", "/tenantId+/region");
    try (Migrator m = Migrator.open(spec, tmp, Lab.options())) {
      m.run(true, () -> false);
      // moves o1 to another new partition, deletes o2
      source.upsertItem(Lab.order("o1", "t1", "asia", 1));
      source.deleteItem("o2", new PartitionKey("t2"), null);
      m.run(true, () -> false);
      VerifyReport v = m.verify();
      assertThat(v.differences()).isEmpty();
      assertThat(v.sourceDocuments()).isEqualTo(99);
    }
    CosmosContainer target = client.getDatabase("m3").getContainer("bySynthetic");
    List<ObjectNode> o1 =
        target.queryItems("SELECT * FROM c WHERE c.id = 'o1'", null, ObjectNode.class).stream()
            .toList();
    assertThat(o1).hasSize(1);
    assertThat(o1.get(0).get("tenantId_region").asText()).isEqualTo("t1-asia");
    assertThat(
            client
                .getDatabase("m3")
                .getContainer("bySynthetic")
                .read()
                .getProperties()
                .getPartitionKeyDefinition()
                .getPaths())
        .containsExactly("/tenantId_region");
  }

  @Test
  void verify_listsMissingExtraAndDifferentDocumentsWithTheirIds(@TempDir Path tmp) {
    Lab.orders(client, "m4", "orders", 30);
    try (Migrator m =
        Migrator.open(Lab.spec(lab, "m4", "orders", "byRegion", "/region*4"), tmp, Lab.options())) {
      m.run(true, () -> false);
      assertThat(m.verify().equal()).isTrue();
      CosmosContainer target = client.getDatabase("m4").getContainer("byRegion");
      List<ObjectNode> docs =
          target.queryItems("SELECT * FROM c", null, ObjectNode.class).stream().toList();
      ObjectNode gone = docs.get(0);
      ObjectNode changed = docs.get(1);
      target.deleteItem(
          gone.get("id").asText(), new PartitionKey(gone.get("region_bucket").asText()), null);
      changed.put("total", -1);
      target.upsertItem(changed);
      ObjectNode extra = Lab.order("ghost", "t9", "eu", 0);
      extra.put("region_bucket", "eu-0");
      target.createItem(extra);
      VerifyReport v = m.verify();
      assertThat(v.equal()).isFalse();
      assertThat(v.differences())
          .extracting(d -> d.kind() + " " + d.id())
          .containsExactlyInAnyOrder(
              "MISSING " + gone.get("id").asText(),
              "DIFFERENT " + changed.get("id").asText(),
              "EXTRA ghost");
    }
  }

  /**
   * In both of the SDK's connection modes: in direct mode the migrator's clients cache each range's
   * replica addresses, and a split answers their next request 410 (range gone), on which the SDK
   * re-reads the ranges. (This case hung in direct mode in an earlier build, cause not found; it
   * passes now, and this keeps it so.)
   */
  @ParameterizedTest(name = "direct mode: {0}")
  @ValueSource(booleans = {false, true})
  void splitsOfASourceAndATargetRange_duringTheRun_loseNothing(boolean direct, @TempDir Path tmp) {
    String db = direct ? "m5d" : "m5";
    CosmosContainer source = Lab.orders(client, db, "orders", 300);
    MigrationSpec spec = Lab.spec(lab, db, "orders", "byRegion", "/region>/userId");
    java.util.concurrent.atomic.AtomicInteger pages =
        new java.util.concurrent.atomic.AtomicInteger();
    try (Lab.Writer writer = new Lab.Writer(source, 7, 100);
        Migrator m = Migrator.open(spec, tmp, Lab.options().withDirect(direct))) {
      m.run(
          false,
          () -> {
            int n = pages.incrementAndGet();
            if (n == 2) { // during the copy
              split(db, "orders");
              split(db, "byRegion");
            } else if (n == 12) { // during the catch-up
              split(db, "orders");
              split(db, "byRegion");
            }
            return n > 20 && writer.writes() > 300;
          });
    }
    try (Migrator m = Migrator.open(spec, tmp, Lab.options().withDirect(direct))) {
      m.run(true, () -> false);
      VerifyReport v = m.verify();
      assertThat(v.differences()).isEmpty();
      assertThat(v.equal()).isTrue();
    }
    assertThat(lab.engine().database(db).container("orders").routing().ranges().size())
        .isGreaterThanOrEqualTo(3);
  }

  @Test
  void documentsLackingTheKey_areSkippedAndCounted_inTheCopyAndInTheFeed(@TempDir Path tmp) {
    CosmosContainer source = Lab.orders(client, "m6", "orders", 20);
    ObjectNode bare = Lab.order("bare1", "t1", "eu", 1);
    bare.remove("region");
    source.createItem(bare);
    MigrationSpec spec =
        Lab.spec(lab, "m6", "orders", "byRegion", "/region").withOnMissing(OnMissing.SKIP);
    try (Migrator m = Migrator.open(spec, tmp, Lab.options())) {
      MigrationState s = m.run(true, () -> false);
      assertThat(s.skipped()).isEqualTo(1);
      ObjectNode later = Lab.order("bare2", "t2", "eu", 2);
      later.remove("region");
      source.createItem(later);
      source.upsertItem(Lab.order("bare1", "t1", "us", 1)); // now it has one: copied
      s = m.run(true, () -> false);
      assertThat(s.skipped()).isEqualTo(2);
      VerifyReport v = m.verify();
      assertThat(v.differences()).isEmpty();
      assertThat(v.targetDocuments()).isEqualTo(21);
    }
  }

  private static void split(String db, String container) {
    var c = lab.engine().database(db).container(container);
    c.splitPartition(c.routing().ranges().get(0).id());
  }
}
