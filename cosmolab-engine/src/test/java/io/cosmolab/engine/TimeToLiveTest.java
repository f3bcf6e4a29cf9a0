package io.cosmolab.engine;

import static io.cosmolab.engine.ContainerDocumentsTest.assertCosmosError;
import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.changefeed.ChangeFeedMode;
import io.cosmolab.engine.changefeed.ChangeFeedPage;
import io.cosmolab.engine.changefeed.ChangeFeedRequest;
import io.cosmolab.engine.changefeed.ChangeFeedStart;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TimeToLiveTest {
  private final ManualClock clock = ManualClock.startingAtEpoch2026();
  private final Database db = Engines.onClock(clock, ThrottlingMode.OFF).createDatabase("db");
  private final PartitionKeyValue p = PartitionKeyValue.of("p");

  private Container withTtl(Integer ttl) {
    return db.createContainer(
        ContainerSettings.of("c" + ttl, PartitionKeyDefinition.hash("/pk"))
            .withDefaultTimeToLive(ttl));
  }

  @Test
  void containerDefault_expiresDocumentsAfterTheirLastWrite() {
    Container c = withTtl(60);
    c.create(obj("{'id':'a','pk':'p'}"));
    clock.advance(Duration.ofSeconds(59));
    assertThat(c.read(p, "a").status()).isEqualTo(200);
    clock.advance(Duration.ofSeconds(1));
    assertCosmosError(() -> c.read(p, "a"), CosmosError.NOT_FOUND);
    assertThat(c.expireNow()).isEqualTo(1);
    assertThat(c.documentCount()).isZero();
  }

  @Test
  void itemTtl_overridesTheDefault_andMinusOneNeverExpires() {
    Container c = withTtl(-1);
    c.create(obj("{'id':'short','pk':'p','ttl':10}"));
    c.create(obj("{'id':'forever','pk':'p'}"));
    c.create(obj("{'id':'never','pk':'p','ttl':-1}"));
    clock.advance(Duration.ofDays(365));
    assertCosmosError(() -> c.read(p, "short"), CosmosError.NOT_FOUND);
    assertThat(c.read(p, "forever").status()).isEqualTo(200);
    assertThat(c.read(p, "never").status()).isEqualTo(200);
  }

  @Test
  void withTtlOff_itemTtlIsIgnored() {
    Container c = withTtl(null);
    c.create(obj("{'id':'a','pk':'p','ttl':1}"));
    clock.advance(Duration.ofHours(1));
    assertThat(c.read(p, "a").status()).isEqualTo(200);
  }

  @Test
  void expiry_appearsInAllVersionsFeedAsADeleteMarkedTimeToLiveExpired() {
    Container c = withTtl(5);
    c.create(obj("{'id':'a','pk':'p'}"));
    clock.advance(Duration.ofSeconds(6));
    ChangeFeedPage page =
        c.readChangeFeed(
            ChangeFeedRequest.wholeContainer(ChangeFeedStart.beginning())
                .withMode(ChangeFeedMode.ALL_VERSIONS_AND_DELETES));
    assertThat(page.items()).hasSize(2);
    assertThat(page.items().get(1).get("metadata").get("operationType").textValue())
        .isEqualTo("delete");
    assertThat(page.items().get(1).get("metadata").get("timeToLiveExpired").booleanValue())
        .isTrue();
  }

  @Test
  void expiredDocument_canBeCreatedAgain() {
    Container c = withTtl(5);
    c.create(obj("{'id':'a','pk':'p','v':1}"));
    clock.advance(Duration.ofSeconds(10));
    assertThat(c.create(obj("{'id':'a','pk':'p','v':2}")).status()).isEqualTo(201);
    assertThat(c.read(p, "a").document().get("v").intValue()).isEqualTo(2);
  }

  @Test
  void changingTheDefault_reevaluatesStoredDocuments() {
    Container c = withTtl(null);
    c.create(obj("{'id':'a','pk':'p'}"));
    clock.advance(Duration.ofSeconds(30));
    c.setDefaultTimeToLive(10);
    assertCosmosError(() -> c.read(p, "a"), CosmosError.NOT_FOUND);
    assertThat(c.documentCount()).isZero();
  }

  @Test
  void invalidTtls_areRejected() {
    Container c = withTtl(-1);
    assertCosmosError(
        () -> c.create(obj("{'id':'a','pk':'p','ttl':0}")), CosmosError.BAD_REQUEST, "ttl");
    assertCosmosError(
        () -> c.create(obj("{'id':'a','pk':'p','ttl':'soon'}")), CosmosError.BAD_REQUEST, "ttl");
    assertCosmosError(
        () -> c.create(obj("{'id':'a','pk':'p','ttl':null}")),
        CosmosError.BAD_REQUEST,
        "The input ttl 'null' is invalid. Ensure to provide a nonzero positive integer");
    assertCosmosError(() -> withTtl(0), CosmosError.BAD_REQUEST, "defaultTtl");
  }

  @Test
  void aWriteAfterTheTime_handsTheDeletionToHousekeeping_andDoesNotRunIt() {
    java.util.List<Runnable> queued = new java.util.ArrayList<>();
    Container c =
        CosmosEngine.builder()
            .clock(clock)
            .throttling(ThrottlingMode.OFF)
            .housekeeping(queued::add)
            .build()
            .createDatabase("h")
            .createContainer(
                ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                    .withDefaultTimeToLive(5));
    c.create(obj("{'id':'old','pk':'p'}"));
    clock.advance(Duration.ofSeconds(6));
    c.create(obj("{'id':'new','pk':'p'}"));
    c.create(obj("{'id':'newer','pk':'p'}"));
    assertThat(queued).as("one sweep queued, however many writes notice").hasSize(1);
    assertCosmosError(() -> c.read(p, "old"), CosmosError.NOT_FOUND);
    assertThat(c.documentCount()).as("still stored: the writes did not delete it").isEqualTo(3);
    queued.remove(0).run();
    assertThat(c.documentCount()).isEqualTo(2);
    clock.advance(Duration.ofSeconds(6));
    c.create(obj("{'id':'last','pk':'p'}"));
    assertThat(queued).as("the next sweep is queued once the first is done").hasSize(1);
  }

  @Test
  void byDefault_expiredDocumentsAreDeletedInTheBackground() throws InterruptedException {
    Container c = withTtl(5);
    c.create(obj("{'id':'a','pk':'p'}"));
    clock.advance(Duration.ofSeconds(6));
    c.create(obj("{'id':'b','pk':'p'}"));
    for (int i = 0; i < 500 && c.documentCount() > 1; i++) {
      Thread.sleep(10);
    }
    assertThat(c.documentCount()).isEqualTo(1);
  }
}
