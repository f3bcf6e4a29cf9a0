package io.cosmolab.migrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.testkit.CosmosLab;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Verification during catch-up on settled partitions, and at cutover on what changed since. */
class IncrementalVerifyTest {
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

  /** A pass whenever the feed is drained, over partitions with no write for 0 s. */
  private static MigratorOptions eager() {
    return Lab.options().withVerify(Duration.ZERO, Duration.ZERO);
  }

  private static MigratorOptions never() {
    return Lab.options().withVerify(Duration.ofSeconds(-1), Duration.ZERO);
  }

  @Test
  void differencesMadeInTheTarget_duringCatchUp_areFoundByAnIncrementalPass_beforeCutover(
      @TempDir Path tmp) {
    CosmosContainer source = Lab.orders(client, "v1", "orders", 90);
    MigrationSpec spec = Lab.spec(lab, "v1", "orders", "byRegion", "/region");
    CosmosContainer target = client.getDatabase("v1").getContainer("byRegion");
    try (Lab.Writer writer = new Lab.Writer(source, 5, 40);
        Migrator m = Migrator.open(spec, tmp, never())) {
      m.run(false, () -> writer.writes() > 150);
    }
    try (Migrator m = Migrator.open(spec, tmp, never())) {
      MigrationState s = m.run(true, () -> false);
      assertThat(s.phase()).isEqualTo(MigrationState.Phase.CATCHING_UP);
      assertThat(s.fullyVerified()).isFalse();
    }
    // caught up, not verified yet: a document lost and one changed in the target
    ObjectNode o3 = target.readItem("o3", new PartitionKey("eu"), ObjectNode.class).getItem();
    target.deleteItem("o0", new PartitionKey("eu"), null);
    o3.put("total", -3);
    target.upsertItem(o3);
    try (Migrator m = Migrator.open(spec, tmp, eager())) {
      MigrationState s = m.run(true, () -> false); // the feed drained: the first pass
      assertThat(s.fullyVerified()).isTrue();
      assertThat(s.verifiedPartitions()).isEqualTo(3);
      assertThat(s.differingPartitions()).isEqualTo(1);
      VerifyReport v = m.lastVerify();
      assertThat(v.partitionsRead()).isEqualTo(3);
      assertThat(v.differences())
          .extracting(d -> d.kind() + " " + d.partitionKey() + " " + d.id())
          .containsExactlyInAnyOrder("MISSING [\"eu\"] o0", "DIFFERENT [\"eu\"] o3");

      // later, while tailing: a document of "us" changed in the target, then one of its
      // partition changed in the source: the run writes "us", so the next pass reads it again
      ObjectNode o1 = target.readItem("o1", new PartitionKey("us"), ObjectNode.class).getItem();
      o1.put("total", -1);
      target.upsertItem(o1);
      // and one of "asia", whose partition the source leaves alone: not read again
      ObjectNode o2 = target.readItem("o2", new PartitionKey("asia"), ObjectNode.class).getItem();
      o2.put("total", -2);
      target.upsertItem(o2);
      source.upsertItem(Lab.order("o4", "t4", "us", 4000));
      s = m.run(true, () -> false);
      v = m.lastVerify();
      assertThat(v.partitionsRead()).isEqualTo(1);
      assertThat(v.differences())
          .extracting(d -> d.kind() + " " + d.id())
          .containsExactlyInAnyOrder("MISSING o0", "DIFFERENT o3", "DIFFERENT o1");
      assertThat(s.differingPartitions()).isEqualTo(2);

      // cutover re-reads the partitions that differ and says why it is not safe
      Cutover c = m.cutover(Duration.ofMillis(300), Duration.ofSeconds(30));
      assertThat(c.safe()).isFalse();
      assertThat(c.verify().differences())
          .extracting(VerifyReport.Difference::id)
          .containsExactlyInAnyOrder("o0", "o3", "o1");
      // the full comparison sees what the run never wrote
      assertThat(m.verify().differences())
          .extracting(VerifyReport.Difference::id)
          .containsExactlyInAnyOrder("o0", "o3", "o1", "o2");
    }
  }

  @Test
  void atCutover_onlyThePartitionsChangedSinceTheirVerification_areReadAgain(@TempDir Path tmp) {
    CosmosContainer source = Lab.orders(client, "v2", "orders", 300);
    MigrationSpec spec = Lab.spec(lab, "v2", "orders", "bySynthetic", "/region+/userId");
    try (Migrator m = Migrator.open(spec, tmp, eager())) {
      MigrationState s = m.run(true, () -> false);
      VerifyReport first = m.lastVerify();
      double firstRu = m.lastVerifyRequestUnits();
      assertThat(first.equal()).isTrue();
      assertThat(first.partitionsRead()).isEqualTo(first.partitions()).isEqualTo(33);
      assertThat(first.documentsRead()).isEqualTo(600);
      assertThat(s.changed()).isEmpty();

      // one document changes within its partition; another moves to another partition
      source.upsertItem(Lab.order("o5", "t5", "asia", 5)); // asia, u5: its own partition
      source.upsertItem(Lab.order("o6", "t6", "us", 6)); // from [asia-u6] to [us-u6]
      Cutover c = m.cutover(Duration.ofMillis(300), Duration.ofSeconds(30));
      assertThat(c.safe()).as(c.verdict()).isTrue();
      VerifyReport last = c.verify();
      assertThat(last.equal()).isTrue();
      assertThat(last.partitions()).isEqualTo(33);
      assertThat(last.partitionsRead()).isEqualTo(3); // asia-u5, asia-u6, us-u6
      // each read partition's documents, on both sides, and nothing of the other 30
      assertThat(last.documentsRead()).isLessThan(first.documentsRead() / 5);
      double lastRu = m.lastVerifyRequestUnits();
      System.out.printf(
          Locale.ROOT,
          "verify at cutover: %d of %d partitions read, %d documents, %.1f RU"
              + " (the first, full pass: %d documents, %.1f RU)%n",
          last.partitionsRead(),
          last.partitions(),
          last.documentsRead(),
          lastRu,
          first.documentsRead(),
          firstRu);
      assertThat(lastRu).isLessThan(firstRu);
    }
  }
}
