package io.cosmolab.engine;

import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.changefeed.ChangeFeedMode;
import io.cosmolab.engine.changefeed.ChangeFeedPage;
import io.cosmolab.engine.changefeed.ChangeFeedRequest;
import io.cosmolab.engine.changefeed.ChangeFeedStart;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChangeFeedTest {
  private final ManualClock clock = ManualClock.startingAtEpoch2026();
  private final Container c = Engines.container(clock, 4);

  private static List<String> ids(ChangeFeedPage page) {
    List<String> out = new ArrayList<>();
    for (ObjectNode n : page.items()) {
      out.add(
          n.has("current")
              ? n.get("metadata").get("operationType").textValue()
                  + ":"
                  + (n.get("current").has("id")
                      ? n.get("current").get("id").textValue()
                      : n.get("metadata").get("id").textValue())
              : n.get("id").textValue());
    }
    return out;
  }

  /** Reads every page from {@code start}; returns the items and leaves the last continuation. */
  private List<String> drain(ChangeFeedRequest request, long[] continuation) {
    List<String> out = new ArrayList<>();
    ChangeFeedRequest r = request;
    for (int guard = 0; guard < 1000; guard++) {
      ChangeFeedPage page = c.readChangeFeed(r);
      continuation[0] = page.continuation();
      if (page.notModified()) {
        return out;
      }
      out.addAll(ids(page));
      r = r.withStart(ChangeFeedStart.continuation(page.continuation()));
    }
    throw new AssertionError("change feed did not catch up");
  }

  @Test
  void latestVersion_fromBeginning_returnsEachDocumentOnceAtItsNewestVersion_inLsnOrder() {
    c.create(obj("{'id':'a','pk':'1'}"));
    c.create(obj("{'id':'b','pk':'2'}"));
    c.upsert(obj("{'id':'a','pk':'1','v':2}"));
    c.create(obj("{'id':'x','pk':'3'}"));
    c.delete(PartitionKeyValue.of("3"), "x");
    ChangeFeedPage page =
        c.readChangeFeed(ChangeFeedRequest.wholeContainer(ChangeFeedStart.beginning()));
    assertThat(ids(page)).containsExactly("b", "a");
    assertThat(page.items().get(1).get("v").intValue()).isEqualTo(2);
    // the LSN in its physical partition's numbering: the second write there (of 4 partitions, pk
    // '1' shares its partition with no other key written here)
    assertThat(page.items().get(1).get("_lsn").longValue()).isEqualTo(2);
    assertThat(page.continuation()).isEqualTo(c.lsn());
  }

  @Test
  void caughtUp_isNotModified_andKeepsTheContinuation() {
    c.create(obj("{'id':'a','pk':'1'}"));
    long[] cont = new long[1];
    drain(ChangeFeedRequest.wholeContainer(ChangeFeedStart.beginning()), cont);
    ChangeFeedPage again =
        c.readChangeFeed(ChangeFeedRequest.wholeContainer(ChangeFeedStart.continuation(cont[0])));
    assertThat(again.notModified()).isTrue();
    assertThat(again.continuation()).isEqualTo(cont[0]);
    c.create(obj("{'id':'b','pk':'2'}"));
    ChangeFeedPage next =
        c.readChangeFeed(ChangeFeedRequest.wholeContainer(ChangeFeedStart.continuation(cont[0])));
    assertThat(ids(next)).containsExactly("b");
  }

  @Test
  void paging_returnsAtMostMaxItems_andContinuationsResumeWithoutLossOrRepeat() {
    for (int i = 0; i < 25; i++) {
      c.create(obj("{'id':'d" + i + "','pk':'k" + (i % 7) + "'}"));
    }
    ChangeFeedRequest r =
        ChangeFeedRequest.wholeContainer(ChangeFeedStart.beginning()).withMaxItems(10);
    ChangeFeedPage first = c.readChangeFeed(r);
    assertThat(first.items()).hasSize(10);
    long[] cont = new long[1];
    List<String> all = new ArrayList<>(ids(first));
    all.addAll(drain(r.withStart(ChangeFeedStart.continuation(first.continuation())), cont));
    assertThat(all).hasSize(25).doesNotHaveDuplicates();
  }

  @Test
  void aTransactionsRecords_shareTheirLsn_andComeOnOnePage_pastTheItemCount() {
    c.create(obj("{'id':'before','pk':'b'}"));
    List<io.cosmolab.engine.batch.BatchOperation> five = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      five.add(
          new io.cosmolab.engine.batch.BatchOperation.Create(obj("{'id':'t" + i + "','pk':'a'}")));
    }
    c.executeBatch(PartitionKeyValue.of("a"), five);
    c.create(obj("{'id':'after','pk':'b'}"));

    for (ChangeFeedMode mode : ChangeFeedMode.values()) {
      ChangeFeedRequest r =
          ChangeFeedRequest.wholeContainer(ChangeFeedStart.beginning()).withMaxItems(2);
      if (mode == ChangeFeedMode.ALL_VERSIONS_AND_DELETES) {
        long from =
            c.readChangeFeed(ChangeFeedRequest.wholeContainer(ChangeFeedStart.now()).withMode(mode))
                .continuation();
        r = r.withStart(ChangeFeedStart.continuation(from)).withMode(mode);
        c.create(obj("{'id':'before2','pk':'b'}"));
        List<io.cosmolab.engine.batch.BatchOperation> replaces = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
          replaces.add(
              new io.cosmolab.engine.batch.BatchOperation.Replace(
                  "t" + i, obj("{'id':'t" + i + "','pk':'a','v':2}"), null));
        }
        c.executeBatch(PartitionKeyValue.of("a"), replaces);
      }
      ChangeFeedPage first = c.readChangeFeed(r);
      // the item count is 2: the page ends after the transaction its second item began
      assertThat(first.items()).as("%s", mode).hasSize(6);
      List<Long> lsns = new ArrayList<>();
      for (ObjectNode item : first.items().subList(1, 6)) {
        ObjectNode doc = item.has("current") ? (ObjectNode) item.get("current") : item;
        assertThat(doc.get("id").textValue()).startsWith("t");
        lsns.add(doc.get("_lsn").longValue());
      }
      assertThat(lsns).as("%s: one transaction, one LSN", mode).containsOnly(lsns.get(0));
      long[] cont = new long[1];
      List<String> rest =
          drain(r.withStart(ChangeFeedStart.continuation(first.continuation())), cont);
      assertThat(rest)
          .as("%s", mode)
          .isEqualTo(mode == ChangeFeedMode.LATEST_VERSION ? List.of("after") : List.of());
    }
  }

  @Test
  void fromNow_skipsEarlierChanges() {
    c.create(obj("{'id':'old','pk':'1'}"));
    ChangeFeedPage now = c.readChangeFeed(ChangeFeedRequest.wholeContainer(ChangeFeedStart.now()));
    assertThat(now.notModified()).isTrue();
    c.create(obj("{'id':'new','pk':'1'}"));
    assertThat(
            ids(
                c.readChangeFeed(
                    ChangeFeedRequest.wholeContainer(
                        ChangeFeedStart.continuation(now.continuation())))))
        .containsExactly("new");
  }

  @Test
  void fromPointInTime_returnsChangesAtOrAfterIt() {
    c.create(obj("{'id':'early','pk':'1'}"));
    clock.advance(Duration.ofMinutes(5));
    Instant t = clock.instant();
    c.create(obj("{'id':'late','pk':'2'}"));
    assertThat(
            ids(c.readChangeFeed(ChangeFeedRequest.wholeContainer(ChangeFeedStart.pointInTime(t)))))
        .containsExactly("late");
  }

  @Test
  void perPhysicalPartitionFeeds_partitionTheWholeFeed() {
    for (int i = 0; i < 40; i++) {
      c.create(obj("{'id':'d" + i + "','pk':'k" + i + "'}"));
    }
    List<String> union = new ArrayList<>();
    for (PartitionKeyRange r : c.routing().ranges()) {
      union.addAll(
          drain(
              new ChangeFeedRequest(
                  r.range(), null, ChangeFeedMode.LATEST_VERSION, ChangeFeedStart.beginning(), 7),
              new long[1]));
    }
    assertThat(union).hasSize(40).doesNotHaveDuplicates();
  }

  @Test
  void logicalPartitionFeed_returnsOnlyThatKey() {
    c.create(obj("{'id':'a','pk':'one'}"));
    c.create(obj("{'id':'b','pk':'two'}"));
    c.create(obj("{'id':'c','pk':'one'}"));
    ChangeFeedRequest r =
        new ChangeFeedRequest(
            EpkRange.FULL,
            PartitionKeyValue.of("one"),
            ChangeFeedMode.LATEST_VERSION,
            ChangeFeedStart.beginning(),
            100);
    assertThat(ids(c.readChangeFeed(r))).containsExactly("a", "c");
  }

  @Test
  void hierarchicalPrefixFeed_returnsThePrefixDocuments() {
    Container h =
        Engines.onClock(clock, ThrottlingMode.OFF)
            .createDatabase("h")
            .createContainer(
                ContainerSettings.of("h", PartitionKeyDefinition.hierarchical("/t", "/u"))
                    .withPhysicalPartitions(4));
    h.create(obj("{'id':'1','t':'acme','u':'a'}"));
    h.create(obj("{'id':'2','t':'other','u':'a'}"));
    h.create(obj("{'id':'3','t':'acme','u':'b'}"));
    ChangeFeedRequest r =
        new ChangeFeedRequest(
            EpkRange.FULL,
            PartitionKeyValue.of("acme"),
            ChangeFeedMode.LATEST_VERSION,
            ChangeFeedStart.beginning(),
            100);
    assertThat(h.readChangeFeed(r).items())
        .extracting(n -> n.get("id").textValue())
        .containsExactly("1", "3");
  }

  /** A create, a replace and a delete of one document, read from the all-versions feed. */
  private static ChangeFeedPage createReplaceDelete(Container c) {
    c.create(obj("{'id':'a','pk':'1','v':1}"));
    c.upsert(obj("{'id':'a','pk':'1','v':2}"));
    c.delete(PartitionKeyValue.of("1"), "a");
    return c.readChangeFeed(
        ChangeFeedRequest.wholeContainer(ChangeFeedStart.beginning())
            .withMode(ChangeFeedMode.ALL_VERSIONS_AND_DELETES));
  }

  /**
   * As the service answers by default: no previous image on a replace or a delete (a delete is
   * {@code "current": {}} and its metadata names the id and the key), each with the LSN of the
   * version before it.
   */
  @Test
  void allVersionsAndDeletes_returnsEveryWriteWithMetadata_andNoPreviousImages() {
    ChangeFeedPage page = createReplaceDelete(c);
    assertThat(ids(page)).containsExactly("create:a", "replace:a", "delete:a");
    ObjectNode replace = page.items().get(1);
    assertThat(replace.has("previous")).isFalse();
    assertThat(replace.get("current").get("v").intValue()).isEqualTo(2);
    assertThat(replace.get("metadata").get("previousImageLSN").longValue()).isEqualTo(1);
    ObjectNode delete = page.items().get(2);
    assertThat(delete.has("previous")).isFalse();
    assertThat(delete.get("current")).isEmpty();
    assertThat(delete.get("metadata").get("lsn").longValue()).isEqualTo(3);
    assertThat(delete.get("metadata").get("previousImageLSN").longValue()).isEqualTo(2);
    assertThat(delete.get("metadata").get("timeToLiveExpired").booleanValue()).isFalse();
    // timeToLiveExpired is a delete's: creates and replaces carry none, as on the service
    assertThat(page.items().get(0).get("metadata").has("timeToLiveExpired")).isFalse();
    assertThat(replace.get("metadata").has("timeToLiveExpired")).isFalse();
    // a delete's id and key by property name, as the service writes them
    assertThat(delete.get("metadata").get("id").textValue()).isEqualTo("a");
    assertThat(delete.get("metadata").get("partitionKey")).hasToString("{\"pk\":\"1\"}");
  }

  /** An engine that gives previous images answers as a container opted in to them does. */
  @Test
  void allVersionsAndDeletes_withPreviousImagesOn_givesReplacesAndDeletesTheVersionBefore() {
    Container opted =
        CosmosEngine.builder()
            .clock(clock)
            .throttling(io.cosmolab.engine.throughput.ThrottlingMode.OFF)
            .changeFeedPreviousImages(true)
            .build()
            .createDatabase("db")
            .createContainer(
                io.cosmolab.engine.ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    ChangeFeedPage page = createReplaceDelete(opted);
    assertThat(page.items().get(0).has("previous")).isFalse();
    assertThat(page.items().get(1).get("previous").get("v").intValue()).isEqualTo(1);
    assertThat(page.items().get(2).get("previous").get("v").intValue()).isEqualTo(2);
    assertThat(page.items().get(2).get("metadata").get("id").textValue()).isEqualTo("a");
  }

  @Test
  void continuationTakenBeforeASplit_keepsWorkingOnTheChildren() {
    for (int i = 0; i < 20; i++) {
      c.create(obj("{'id':'before" + i + "','pk':'k" + i + "'}"));
    }
    PartitionKeyRange parent = c.routing().ranges().get(0);
    long[] cont = new long[1];
    List<String> seen =
        drain(
            new ChangeFeedRequest(
                parent.range(),
                null,
                ChangeFeedMode.LATEST_VERSION,
                ChangeFeedStart.beginning(),
                5),
            cont);
    c.splitPartition(parent.id());
    for (int i = 0; i < 20; i++) {
      c.create(obj("{'id':'after" + i + "','pk':'k" + i + "'}"));
    }
    List<String> afterSplit = new ArrayList<>();
    for (PartitionKeyRange child : c.routing().overlapping(parent.range())) {
      afterSplit.addAll(
          drain(
              new ChangeFeedRequest(
                  child.range(),
                  null,
                  ChangeFeedMode.LATEST_VERSION,
                  ChangeFeedStart.continuation(cont[0]),
                  5),
              new long[1]));
    }
    assertThat(afterSplit).allMatch(id -> id.startsWith("after")).doesNotHaveDuplicates();
    long expectedAfter =
        java.util.stream.IntStream.range(0, 20)
            .filter(i -> parent.contains(epkOf("k" + i)))
            .count();
    assertThat(afterSplit).hasSize((int) expectedAfter);
    assertThat(seen).allMatch(id -> id.startsWith("before"));
  }

  private String epkOf(String key) {
    return io.cosmolab.engine.partitioning.EffectivePartitionKey.of(
        c.partitionKey(), PartitionKeyValue.of(key));
  }

  @Test
  void feedCharge_isAboutAPointReadPerDocument_andOneRuWhenEmpty() {
    ChangeFeedPage empty =
        c.readChangeFeed(ChangeFeedRequest.wholeContainer(ChangeFeedStart.beginning()));
    assertThat(empty.requestCharge()).isEqualTo(1.0);
    for (int i = 0; i < 5; i++) {
      c.create(obj("{'id':'d" + i + "','pk':'k'}"));
    }
    ChangeFeedPage five =
        c.readChangeFeed(ChangeFeedRequest.wholeContainer(ChangeFeedStart.beginning()));
    assertThat(five.requestCharge()).isEqualTo(5.0);
  }
}
