package io.cosmolab.migrator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.PartitionKey;
import io.cosmolab.testkit.CosmosLab;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A source whose change feed is the latest-version one (the default on the service, where all
 * versions and deletes needs continuous backup): the run falls back to it, and deletes reach the
 * target by reconciliation.
 */
class LatestVersionFeedTest {
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
  void aSourceWithoutAllVersions_isTailedOnItsLatestVersionFeed_andDeletesFollowByReconciliation(
      @TempDir Path tmp) {
    CosmosContainer source = Lab.latestVersionOrders(client, "lv1", 200);
    MigrationSpec spec = Lab.spec(lab, "lv1", "orders", "byRegion", "/region");
    try (Lab.Writer writer = new Lab.Writer(source, 11, 80);
        Migrator m = Migrator.open(spec, tmp, Lab.options())) {
      MigrationState s = m.run(false, () -> writer.writes() > 300);
      assertThat(s.changeFeedMode()).isEqualTo(ChangeFeedMode.LATEST_VERSION);
    }
    try (Migrator m = Migrator.open(spec, tmp, Lab.options())) {
      MigrationState s = m.run(true, () -> false);
      assertThat(s.changeFeed()).isEqualTo("latest-version");
      assertThat(s.removed()).as("deletes applied by reconciliation").isPositive();
      assertThat(s.deleted()).as("the latest-version feed has no deletes").isZero();
      assertThat(s.reconciledAtMillis()).isPositive();
      VerifyReport v = m.verify();
      assertThat(v.differences()).isEmpty();
      assertThat(v.equal()).isTrue();
    }
  }

  @Test
  void aReplaceThatMovesADocument_underTheLatestVersionFeed_leavesNoCopyBehind(@TempDir Path tmp) {
    CosmosContainer source = Lab.latestVersionOrders(client, "lv2", 20);
    MigrationSpec spec = Lab.spec(lab, "lv2", "orders", "byRegion", "/region");
    try (Migrator m = Migrator.open(spec, tmp, Lab.options())) {
      m.run(true, () -> false);
      source.upsertItem(Lab.order("o1", "t1", "asia", 1)); // was "us": moves partition
      source.deleteItem("o2", new PartitionKey("t2"), null);
      MigrationState s = m.run(true, () -> false);
      assertThat(s.removed()).isEqualTo(1);
      VerifyReport v = m.verify();
      assertThat(v.differences()).isEmpty();
      assertThat(v.targetDocuments()).isEqualTo(19);
    }
  }

  @Test
  void askingForAllVersions_fromASourceThatKeepsOnlyTheLatest_isRefusedWithTheWayOut(
      @TempDir Path tmp) {
    Lab.latestVersionOrders(client, "lv3", 5);
    MigrationSpec spec = Lab.spec(lab, "lv3", "orders", "byRegion", "/region");
    try (Migrator m =
        Migrator.open(
            spec, tmp, Lab.options().withChangeFeed(ChangeFeedMode.ALL_VERSIONS_AND_DELETES))) {
      assertThatThrownBy(() -> m.run(true, () -> false))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("--change-feed latest-version");
    }
  }

  @Test
  void theState_reportsTheSourceCount_theRates_andACopyEta(@TempDir Path tmp) {
    Lab.orders(client, "lv4", "orders", 120);
    MigrationSpec spec = Lab.spec(lab, "lv4", "orders", "byRegion", "/region");
    int[] pages = {0};
    try (Migrator m = Migrator.open(spec, tmp, Lab.options().withPageSize(20))) {
      MigrationState s = m.run(false, () -> ++pages[0] >= 3);
      assertThat(s.phase()).isEqualTo(MigrationState.Phase.COPYING);
      assertThat(s.changeFeedMode()).isEqualTo(ChangeFeedMode.ALL_VERSIONS_AND_DELETES);
      assertThat(s.sourceDocuments()).isEqualTo(120);
      assertThat(s.startedAtMillis()).isPositive();
      assertThat(s.documentsPerSecond()).isPositive();
      assertThat(s.ruPerSecond()).isPositive();
      assertThat(s.copyEtaSeconds()).isGreaterThanOrEqualTo(0);
    }
  }
}
