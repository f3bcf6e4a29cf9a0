package io.cosmolab.engine;

import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.batch.BatchOperation;
import io.cosmolab.engine.batch.BatchResult;
import io.cosmolab.engine.changefeed.ChangeFeedMode;
import io.cosmolab.engine.changefeed.ChangeFeedPage;
import io.cosmolab.engine.changefeed.ChangeFeedRequest;
import io.cosmolab.engine.changefeed.ChangeFeedStart;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.time.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * LSNs as the service numbers them: each physical partition counts its own writes 1, 2, 3…, the
 * children of a split go on from their parent's number and a merge from the higher of its parents',
 * while change-feed continuations (positions in the container's log) keep working across both.
 */
class PartitionLsnTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

  private static ChangeFeedPage feed(Container c, PartitionKeyRange r, ChangeFeedStart start) {
    return c.readChangeFeed(
        new ChangeFeedRequest(r.range(), null, ChangeFeedMode.LATEST_VERSION, start, 1000));
  }

  private static List<Long> lsns(ChangeFeedPage page) {
    List<Long> out = new ArrayList<>();
    for (ObjectNode item : page.items()) {
      out.add(item.get("_lsn").longValue());
    }
    return out;
  }

  @Test
  void eachPhysicalPartition_numbersItsOwnWrites_from1WithoutGaps() {
    Container c = Engines.container(clock, 2);
    Map<String, Long> writesPerRange = new HashMap<>();
    for (int i = 0; i < 20; i++) {
      ItemResponse r = c.create(obj("{'id':'d" + i + "','pk':'k" + i + "'}"));
      long n = writesPerRange.merge(r.partitionKeyRangeId(), 1L, Long::sum);
      assertThat(r.lsn()).as("the write's LSN is its partition's count").isEqualTo(n);
    }
    assertThat(writesPerRange).hasSize(2);
    for (PartitionKeyRange r : c.routing().ranges()) {
      long n = writesPerRange.get(r.id());
      assertThat(c.lsn(r.id())).isEqualTo(n);
      ChangeFeedPage page = feed(c, r, ChangeFeedStart.beginning());
      List<Long> expected = new ArrayList<>();
      for (long i = 1; i <= n; i++) {
        expected.add(i);
      }
      assertThat(lsns(page)).isEqualTo(expected);
      assertThat(page.partitionLsn()).isEqualTo(n);
    }
    assertThat(c.lsn()).as("the log's position counts every write").isEqualTo(20);
  }

  @Test
  void aFailedWrite_givesItsLsnBack_soTheNextWriteTakesIt() {
    Container c = Engines.container(clock, 1);
    c.create(obj("{'id':'a','pk':'p'}"));
    assertThatThrownBy(() -> c.create(obj("{'id':'a','pk':'p'}")))
        .isInstanceOf(CosmosException.class);
    BatchResult failed =
        c.executeBatch(
            PartitionKeyValue.of("p"),
            List.of(
                new BatchOperation.Create(obj("{'id':'b','pk':'p'}")),
                new BatchOperation.Create(obj("{'id':'a','pk':'p'}"))));
    assertThat(failed.status()).isEqualTo(207);
    assertThat(failed.lsn()).isEqualTo(1);
    assertThat(c.create(obj("{'id':'c','pk':'p'}")).lsn()).isEqualTo(2);
  }

  @Test
  void aBatch_takesOneLsn_sharedByItsWrites_asTheServicesTransactionsDo() {
    Container c = Engines.container(clock, 1);
    BatchResult r =
        c.executeBatch(
            PartitionKeyValue.of("p"),
            List.of(
                new BatchOperation.Create(obj("{'id':'a','pk':'p'}")),
                new BatchOperation.Read("a", null),
                new BatchOperation.Create(obj("{'id':'b','pk':'p'}"))));
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.lsn()).isEqualTo(1);
    assertThat(lsns(feed(c, c.routing().ranges().get(0), ChangeFeedStart.beginning())))
        .containsExactly(1L, 1L);
    assertThat(c.create(obj("{'id':'c','pk':'p'}")).lsn()).isEqualTo(2);
  }

  @Test
  void theChildrenOfASplit_goOnFromTheParentsLsn_andAContinuationFromBeforeTheSplitServesBoth() {
    Container c = Engines.container(clock, 1);
    for (int i = 0; i < 6; i++) {
      c.create(obj("{'id':'old" + i + "','pk':'k" + i + "'}"));
    }
    PartitionKeyRange parent = c.routing().ranges().get(0);
    ChangeFeedPage before = feed(c, parent, ChangeFeedStart.beginning());
    assertThat(before.partitionLsn()).isEqualTo(6);

    c.splitPartition(parent.id());
    List<PartitionKeyRange> children = c.routing().ranges();
    assertThat(children).hasSize(2);
    for (PartitionKeyRange child : children) {
      assertThat(c.lsn(child.id())).isEqualTo(6);
    }
    Map<String, Integer> newPerChild = new HashMap<>();
    for (int i = 0; i < 10; i++) {
      ItemResponse r = c.create(obj("{'id':'new" + i + "','pk':'n" + i + "'}"));
      int n = newPerChild.merge(r.partitionKeyRangeId(), 1, Integer::sum);
      assertThat(r.lsn()).isEqualTo(6 + n);
    }
    assertThat(newPerChild).hasSize(2);
    for (PartitionKeyRange child : children) {
      ChangeFeedPage page = feed(c, child, ChangeFeedStart.continuation(before.continuation()));
      int n = newPerChild.get(child.id());
      assertThat(page.items()).hasSize(n);
      assertThat(page.items()).allMatch(d -> d.get("id").textValue().startsWith("new"));
      assertThat(lsns(page)).first().isEqualTo(7L);
      assertThat(lsns(page)).last().isEqualTo(6L + n);
      assertThat(page.partitionLsn()).isEqualTo(6L + n);
    }
  }

  @Test
  void aMerge_goesOnFromTheHigherOfItsParentsLsns() {
    Container c = Engines.container(clock, 2);
    List<PartitionKeyRange> parents = c.routing().ranges();
    for (int i = 0; i < 13; i++) { // an odd count: the parents cannot end on the same LSN
      c.create(obj("{'id':'d" + i + "','pk':'k" + i + "'}"));
    }
    long left = c.lsn(parents.get(0).id());
    long right = c.lsn(parents.get(1).id());
    assertThat(left).isNotEqualTo(right);
    c.mergePartitions(parents.get(0).id(), parents.get(1).id());
    PartitionKeyRange merged = c.routing().ranges().get(0);
    assertThat(c.lsn(merged.id())).isEqualTo(Math.max(left, right));
    assertThat(c.create(obj("{'id':'after','pk':'z'}")).lsn()).isEqualTo(Math.max(left, right) + 1);
  }

  @Test
  void aGoneRangeId_answersTheHighestLsnOfThePartitionsNow() {
    Container c = Engines.container(clock, 1);
    c.create(obj("{'id':'a','pk':'p'}"));
    String parent = c.routing().ranges().get(0).id();
    c.splitPartition(parent);
    c.create(obj("{'id':'b','pk':'p'}"));
    assertThat(c.lsn(parent)).isEqualTo(2);
  }

  @Test
  void allVersions_showThePartitionsLsns_andThePreviousVersionsLsnToo() {
    Container c = Engines.container(clock, 2);
    c.create(obj("{'id':'other','pk':'zz'}"));
    ChangeFeedPage now =
        c.readChangeFeed(
            ChangeFeedRequest.wholeContainer(ChangeFeedStart.now())
                .withMode(ChangeFeedMode.ALL_VERSIONS_AND_DELETES));
    ItemResponse created = c.create(obj("{'id':'a','pk':'p'}"));
    ItemResponse replaced = c.upsert(obj("{'id':'a','pk':'p','v':2}"));
    ChangeFeedPage page =
        c.readChangeFeed(
            ChangeFeedRequest.wholeContainer(ChangeFeedStart.continuation(now.continuation()))
                .withMode(ChangeFeedMode.ALL_VERSIONS_AND_DELETES));
    assertThat(page.items()).hasSize(2);
    ObjectNode replace = page.items().get(1);
    assertThat(replace.get("metadata").get("lsn").longValue()).isEqualTo(replaced.lsn());
    assertThat(replace.get("current").get("_lsn").longValue()).isEqualTo(replaced.lsn());
    assertThat(replace.get("metadata").get("previousImageLSN").longValue())
        .isEqualTo(created.lsn());
  }
}
