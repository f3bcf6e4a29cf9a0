package io.cosmolab.engine;

import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.store.InMemoryDocumentStore;
import io.cosmolab.engine.throughput.Priority;
import io.cosmolab.engine.throughput.RequestClass;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.throughput.ThroughputBuckets;
import io.cosmolab.engine.throughput.ThroughputBuckets.Bucket;
import io.cosmolab.engine.time.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Throughput buckets in enforce mode, on a manual clock: a bucket's requests are capped at its
 * share of each partition's RU/s (429/3212), the rest of the partition stays open to others, the
 * default bucket catches requests that name none, an unconfigured id runs uncapped, the
 * configuration changes at most once every 10 minutes (429/3213), and it survives a restart.
 */
class ThroughputBucketsTest {
  private final ManualClock clock = ManualClock.startingAtEpoch2026();
  private static final PartitionKeyValue HOT = PartitionKeyValue.of("hot");

  private CosmosEngine engine(InMemoryDocumentStore store) {
    return CosmosEngine.builder()
        .clock(clock)
        .store(store)
        .throttling(ThrottlingMode.ENFORCE)
        .build();
  }

  private static Container container(CosmosEngine engine) {
    return engine
        .createDatabase("db")
        .createContainer(
            ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                .withThroughput(Throughput.manual(1_000))
                .withPhysicalPartitions(1));
  }

  /** Point reads of a 1 RU document in {@code bucket} (0: none) until one is refused; admitted. */
  private static int readsUntilRefused(Container c, int bucket, CosmosException[] refusal) {
    RequestClass rc = new RequestClass(Priority.HIGH, bucket);
    for (int i = 0; i < 5_000; i++) {
      try {
        rc.during(() -> c.read(HOT, "doc"));
      } catch (CosmosException e) {
        refusal[0] = e;
        return i;
      }
    }
    return 5_000;
  }

  @Test
  void aBucket_isRefusedAtItsShare_with3212_whileOtherRequestsStillRun() {
    Container c = container(engine(new InMemoryDocumentStore()));
    c.create(obj("{'id':'doc','pk':'hot'}"));
    c.replaceThroughputBuckets(new ThroughputBuckets(List.of(new Bucket(1, 20, false))));
    clock.advance(Duration.ofSeconds(2)); // the create's RU are repaid

    CosmosException[] refusal = new CosmosException[1];
    // 20 % of 1,000 RU/s: about 200 one-RU reads in bucket 1 within the second
    int inBucket = readsUntilRefused(c, 1, refusal);
    assertThat(inBucket).isBetween(199, 201);
    assertThat(refusal[0].error()).isEqualTo(CosmosError.THROUGHPUT_BUCKET_EXHAUSTED);
    assertThat(refusal[0].status()).isEqualTo(429);
    assertThat(refusal[0].subStatus()).isEqualTo(3212);
    assertThat(refusal[0].getMessage()).contains("throughput bucket 1 has used its 20%");
    assertThat(refusal[0].retryAfterMillis()).isEqualTo(1_000);

    // the partition's other 800 RU go to requests outside the bucket
    assertThat(readsUntilRefused(c, 0, refusal)).isBetween(799, 801);
    assertThat(refusal[0].subStatus()).isEqualTo(3200);
    assertThat(refusal[0].getMessage()).contains("physical partition 0 has used its 1000 RU/s");

    // the next second: bucket 4 is not configured, so it runs uncapped, on the whole budget
    clock.advance(Duration.ofSeconds(1));
    assertThat(readsUntilRefused(c, 4, refusal)).isBetween(999, 1_001);
    // and the second after, bucket 1 has its share again
    clock.advance(Duration.ofSeconds(1));
    assertThat(readsUntilRefused(c, 1, refusal)).isBetween(199, 201);
  }

  @Test
  void theDefaultBucket_capsRequestsThatNameNone() {
    Container c = container(engine(new InMemoryDocumentStore()));
    c.create(obj("{'id':'doc','pk':'hot'}"));
    c.replaceThroughputBuckets(
        new ThroughputBuckets(List.of(new Bucket(2, 10, true), new Bucket(3, 50, false))));
    clock.advance(Duration.ofSeconds(2));

    CosmosException[] refusal = new CosmosException[1];
    assertThat(readsUntilRefused(c, 0, refusal)).isBetween(99, 101);
    assertThat(refusal[0].getMessage()).contains("throughput bucket 2 has used its 10%");
    assertThat(readsUntilRefused(c, 3, refusal)).isBetween(499, 501);
  }

  @Test
  void theBuckets_changeOnceEveryTenMinutes_andSendingTheSameAgainIsNoChange() {
    Container c = container(engine(new InMemoryDocumentStore()));
    ThroughputBuckets first = new ThroughputBuckets(List.of(new Bucket(1, 20, false)));
    ThroughputBuckets second = new ThroughputBuckets(List.of(new Bucket(1, 40, false)));
    c.replaceThroughputBuckets(first);
    clock.advance(Duration.ofMinutes(4));
    c.replaceThroughputBuckets(first); // the same: accepted, not a change

    assertThatThrownBy(() -> c.replaceThroughputBuckets(second))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.subStatus()).isEqualTo(3213);
              assertThat(e.retryAfterMillis()).isEqualTo(Duration.ofMinutes(6).toMillis());
            })
        .hasMessageContaining("once every 10 minutes");
    // a throughput change that carries the refused buckets changes neither
    assertThatThrownBy(() -> c.replaceThroughput(Throughput.manual(2_000), second))
        .isInstanceOf(CosmosException.class);
    assertThat(c.throughput()).contains(Throughput.manual(1_000));
    assertThat(c.throughputBuckets()).isEqualTo(first);

    clock.advance(Duration.ofMinutes(6));
    c.replaceThroughput(Throughput.manual(2_000), second);
    assertThat(c.throughput()).contains(Throughput.manual(2_000));
    assertThat(c.throughputBuckets()).isEqualTo(second);
  }

  @Test
  void theBuckets_surviveARestart() {
    InMemoryDocumentStore store = new InMemoryDocumentStore();
    ThroughputBuckets buckets =
        new ThroughputBuckets(List.of(new Bucket(5, 25, true), new Bucket(1, 60, false)));
    try (CosmosEngine before = engine(store)) {
      container(before).replaceThroughputBuckets(buckets);
    }
    try (CosmosEngine after = engine(store)) {
      assertThat(after.database("db").container("c").throughputBuckets()).isEqualTo(buckets);
    }
  }

  @Test
  void aSharedThroughputContainer_refusesBuckets_namingWhy() {
    CosmosEngine engine = engine(new InMemoryDocumentStore());
    Container c =
        engine
            .createDatabase("shared", Throughput.manual(400))
            .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    assertThatThrownBy(
            () ->
                c.replaceThroughputBuckets(
                    new ThroughputBuckets(List.of(new Bucket(1, 20, false)))))
        .hasMessageContaining("uses the shared throughput of database 'shared'");
  }

  @Test
  void theJsonForm_isReadAndRefusedByName() {
    ThroughputBuckets read =
        ThroughputBuckets.fromJson(
            obj("{'b':[{'id':3,'maxThroughputPercentage':30},"
                    + "{'id':1,'maxThroughputPercentage':70,'isDefaultBucket':true}]}")
                .get("b"));
    assertThat(read.buckets())
        .containsExactly(new Bucket(1, 70, true), new Bucket(3, 30, false)); // in id order
    assertThat(ThroughputBuckets.fromJson(read.toJson())).isEqualTo(read);

    String[][] refused = {
      {"{'b':{'id':1}}", "must be an array"},
      {"{'b':[{'id':0,'maxThroughputPercentage':5}]}", "id must be from 1 to 5, was 0"},
      {
        "{'b':[{'id':2,'maxThroughputPercentage':0}]}",
        "maxThroughputPercentage must be from 1 to 100"
      },
      {"{'b':[{'id':2,'maxThroughputPercentage':101}]}", "was 101"},
      {
        "{'b':[{'id':2,'maxThroughputPercentage':5.5}]}",
        "maxThroughputPercentage as a whole number"
      },
      {"{'b':[{'maxThroughputPercentage':5}]}", "id as a whole number, was missing"},
      {
        "{'b':[{'id':2,'maxThroughputPercentage':5},{'id':2,'maxThroughputPercentage':9}]}",
        "bucket 2 is configured twice"
      },
      {
        "{'b':[{'id':1,'maxThroughputPercentage':5,'isDefaultBucket':true},"
            + "{'id':2,'maxThroughputPercentage':9,'isDefaultBucket':true}]}",
        "at most one throughput bucket can be the default, found [1, 2]"
      },
      {"{'b':[{'id':1,'maxThroughputPercentage':5,'name':'etl'}]}", "property 'name'"},
      {"{'b':[1,2,3,4,5,6]}", "at most 5 throughput buckets, 6 were given"},
    };
    for (String[] r : refused) {
      assertThatThrownBy(() -> ThroughputBuckets.fromJson(obj(r[0]).get("b")))
          .as(r[0])
          .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.status()).isEqualTo(400))
          .hasMessageContaining(r[1]);
    }
  }
}
