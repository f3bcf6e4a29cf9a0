package io.cosmolab.engine.alerts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The built-in rules on a manual clock: each fires at the moment its condition has held as long as
 * the rule asks, names its container, partition and hottest keys, and clears when it stops.
 */
class AlertEvaluatorTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final ManualClock clock = ManualClock.startingAtEpoch2026();
  private final List<AlertEvent> log = new ArrayList<>();

  /** Scale 10: 40 RU/s is the minimum; two partitions of 20 RU/s each. */
  private Container container(ThrottlingMode mode, double scale, int partitions) {
    CosmosEngine engine = CosmosEngine.builder().clock(clock).throttling(mode).scale(scale).build();
    return engine
        .createDatabase("shop")
        .createContainer(
            ContainerSettings.of("orders", PartitionKeyDefinition.hash("/pk"))
                .withThroughput(Throughput.manual(400 / scale))
                .withPhysicalPartitions(partitions));
  }

  private AlertEvaluator evaluator(Container c) {
    return new AlertEvaluator(c.database().engine(), AlertRules.defaults(), log::add);
  }

  private static ObjectNode doc(String id, String pk) {
    ObjectNode d = JSON.createObjectNode();
    d.put("id", id);
    d.put("pk", pk);
    return d;
  }

  /** Point reads of {@code key} until they have been charged {@code ru}; 429s are counted. */
  private static int load(Container c, String key, double ru) {
    double spent = 0;
    int throttled = 0;
    while (spent < ru) {
      try {
        spent += c.read(PartitionKeyValue.of(key), "d").requestCharge();
      } catch (CosmosException e) {
        throttled++;
        spent += 1;
      }
    }
    return throttled;
  }

  private String rangeOf(Container c, String key) {
    return c.read(PartitionKeyValue.of(key), "d").partitionKeyRangeId();
  }

  @Test
  void hotPartition_firesAfterExactlyFiveMinutesAbove80Percent_andClearsAMinuteAfterTheLoad() {
    Container c = container(ThrottlingMode.ENFORCE, 10, 2);
    c.create(doc("d", "hot"));
    String hotRange = rangeOf(c, "hot");
    clock.advance(Duration.ofSeconds(10)); // the create and the read above are long gone
    clock.set(java.time.Instant.ofEpochSecond(clock.millis() / 1000 + 1)); // a second boundary
    long t0 = clock.millis();
    AlertEvaluator alerts = evaluator(c);
    double budget = c.partitionStats().get(0).budgetRuPerSecond();
    assertThat(budget).isEqualTo(20.0);
    for (int s = 0; s < 300; s++) {
      load(c, "hot", 0.9 * budget);
      assertThat(alerts.evaluate(clock.millis() + 999)).as("second %d", s).isEmpty();
      clock.advance(Duration.ofSeconds(1));
    }
    // t0 + 300 s: the partition has been above 80 % for every second of the last 5 minutes
    load(c, "hot", 0.9 * budget);
    List<Alert> active = alerts.evaluate(clock.millis());
    assertThat(active).hasSize(1);
    Alert a = active.get(0);
    assertThat(a.rule()).isEqualTo(AlertRule.HOT_PARTITION);
    assertThat(a.database()).isEqualTo("shop");
    assertThat(a.container()).isEqualTo("orders");
    assertThat(a.partitionKeyRangeId()).isEqualTo(hotRange);
    assertThat(a.sinceMillis()).isEqualTo(t0 + 300_000);
    assertThat(a.hottestKeys()).containsExactly("[\"hot\"]");
    assertThat(a.value()).isBetween(0.9, 1.0);
    assertThat(a.threshold()).isEqualTo(0.8);
    assertThat(log).extracting(AlertEvent::kind).containsExactly(AlertEvent.Kind.STARTED);

    // the load stops: the busiest second of the minute still shows it for 59 seconds
    long lastLoaded = clock.millis() / 1000;
    for (int s = 1; s < 60; s++) {
      clock.advance(Duration.ofSeconds(1));
      assertThat(alerts.evaluate(clock.millis())).as("%d s after", s).hasSize(1);
    }
    clock.advance(Duration.ofSeconds(1));
    assertThat(clock.millis() / 1000).isEqualTo(lastLoaded + 60);
    assertThat(alerts.evaluate(clock.millis())).isEmpty();
    assertThat(log)
        .extracting(AlertEvent::kind)
        .containsExactly(AlertEvent.Kind.STARTED, AlertEvent.Kind.STOPPED);
    assertThat(AlertEvaluator.describe(log.get(0)))
        .startsWith("alert started: hot-partition shop/orders partition " + hotRange + ": ")
        .contains("above 80 % for 5 min");
    assertThat(AlertEvaluator.describe(log.get(1))).startsWith("alert stopped: hot-partition");
  }

  @Test
  void hotPartition_oneQuietMinuteRestartsTheFiveMinutes() {
    Container c = container(ThrottlingMode.OBSERVE, 10, 2);
    c.create(doc("d", "hot"));
    AlertEvaluator alerts = evaluator(c);
    for (int s = 0; s < 250; s++) {
      load(c, "hot", 18);
      alerts.evaluate(clock.millis());
      clock.advance(Duration.ofSeconds(1));
    }
    clock.advance(Duration.ofSeconds(61)); // a minute with no busy second
    for (int s = 0; s < 300; s++) {
      load(c, "hot", 18);
      assertThat(alerts.evaluate(clock.millis())).as("second %d", s).isEmpty();
      clock.advance(Duration.ofSeconds(1));
    }
    load(c, "hot", 18);
    assertThat(alerts.evaluate(clock.millis())).hasSize(1);
  }

  @Test
  void hotPartition_at75PercentNeverFires() {
    Container c = container(ThrottlingMode.ENFORCE, 10, 2);
    c.create(doc("d", "warm"));
    AlertEvaluator alerts = evaluator(c);
    for (int s = 0; s < 600; s++) {
      load(c, "warm", 15);
      assertThat(alerts.evaluate(clock.millis())).isEmpty();
      clock.advance(Duration.ofSeconds(1));
    }
    assertThat(log).isEmpty();
  }

  @Test
  void largeLogicalPartition_firesAbove16GbScaled_namingTheKeyAndItsPartition() {
    // scale 1000: the 20 GiB limit is 21.5 MB and the alert 16 GiB / 1000 = 17.18 MB
    Container c = container(ThrottlingMode.OFF, 1000, 1);
    AlertEvaluator alerts = evaluator(c);
    String filler = "x".repeat(1_000_000);
    for (int i = 0; i < 17; i++) {
      ObjectNode d = doc("d" + i, "vip");
      d.put("blob", filler);
      c.create(d);
    }
    c.create(doc("d", "small"));
    assertThat(c.logicalPartitionBytes(PartitionKeyValue.of("vip"))).isLessThan((16L << 30) / 1000);
    assertThat(alerts.evaluate(clock.millis())).isEmpty();
    ObjectNode d = doc("d17", "vip");
    d.put("blob", filler);
    c.create(d);
    long bytes = c.logicalPartitionBytes(PartitionKeyValue.of("vip"));
    assertThat(bytes).isGreaterThan((16L << 30) / 1000).isLessThan((20L << 30) / 1000);
    List<Alert> active = alerts.evaluate(clock.millis());
    assertThat(active).hasSize(1);
    Alert a = active.get(0);
    assertThat(a.rule()).isEqualTo(AlertRule.LARGE_LOGICAL_PARTITION);
    assertThat(a.hottestKeys()).containsExactly("[\"vip\"]");
    assertThat(a.partitionKeyRangeId()).isEqualTo(rangeOf(c, "small"));
    assertThat(a.value()).isEqualTo((double) bytes);
    assertThat(a.threshold()).isEqualTo((16L << 30) / 1000.0);
    assertThat(a.message()).contains("[\"vip\"]", "18 documents", "16.4 MiB");
  }

  @ParameterizedTest
  @EnumSource(
      value = ThrottlingMode.class,
      names = {"ENFORCE", "OBSERVE"})
  void throttleRate_above1PercentOfRequestsOver5Minutes_realOrWouldBe(ThrottlingMode mode) {
    Container c = container(mode, 10, 2);
    c.create(doc("d", "k"));
    String range = rangeOf(c, "k");
    clock.advance(Duration.ofSeconds(2));
    AlertEvaluator alerts = evaluator(c);
    for (int s = 0; s < 100; s++) { // 1,000 requests well within the budget
      load(c, "k", 10);
      assertThat(alerts.evaluate(clock.millis())).isEmpty();
      clock.advance(Duration.ofSeconds(1));
    }
    // one second of twice the budget: 20 requests served, 20 refused (or let through)
    int refused = load(c, "k", 40);
    assertThat(refused).isEqualTo(mode == ThrottlingMode.ENFORCE ? 20 : 0);
    List<Alert> active = alerts.evaluate(clock.millis());
    assertThat(active).extracting(Alert::rule).containsExactly(AlertRule.THROTTLE_RATE);
    Alert a = active.get(0);
    assertThat(a.partitionKeyRangeId()).isEqualTo(range);
    assertThat(a.value()).isCloseTo(20.0 / 1040, org.assertj.core.data.Offset.offset(0.002));
    assertThat(a.hottestKeys()).containsExactly("[\"k\"]");
    long since = a.sinceMillis();
    // a quiet minute later the burst and the 1,000 requests before it are still in the window
    clock.advance(Duration.ofSeconds(60));
    assertThat(alerts.evaluate(clock.millis()))
        .singleElement()
        .extracting(Alert::sinceMillis)
        .isEqualTo(since);
    // five minutes after the burst it has left the window
    clock.advance(Duration.ofMinutes(4));
    assertThat(alerts.evaluate(clock.millis())).isEmpty();
    assertThat(log)
        .extracting(AlertEvent::kind)
        .containsExactly(AlertEvent.Kind.STARTED, AlertEvent.Kind.STOPPED);
  }

  @Test
  void throttleRate_needsAMinimumOfRequests() {
    Container c = container(ThrottlingMode.ENFORCE, 10, 2);
    c.create(doc("d", "k"));
    clock.advance(Duration.ofSeconds(2));
    AlertEvaluator alerts = evaluator(c);
    load(c, "k", 40); // 20 of 40 refused, but 40 requests are too few to be a rate
    assertThat(alerts.evaluate(clock.millis())).isEmpty();
  }

  @Test
  void crossPartitionQueries_above5PercentOfQueries() {
    Container c = container(ThrottlingMode.OFF, 10, 4);
    for (int i = 0; i < 20; i++) {
      c.create(doc("d", "k" + i));
    }
    AlertEvaluator alerts = evaluator(c);
    for (int i = 0; i < 96; i++) {
      c.query(QueryRequest.of("SELECT * FROM c").withPartitionKey(PartitionKeyValue.of("k1")));
    }
    for (int i = 0; i < 4; i++) {
      c.query(QueryRequest.of("SELECT * FROM c WHERE c.id = 'd'"));
    }
    assertThat(alerts.evaluate(clock.millis())).as("4 %%").isEmpty();
    for (int i = 0; i < 2; i++) {
      c.query(QueryRequest.of("SELECT * FROM c WHERE c.id = 'd'"));
    }
    List<Alert> active = alerts.evaluate(clock.millis());
    assertThat(active).extracting(Alert::rule).containsExactly(AlertRule.CROSS_PARTITION_QUERIES);
    assertThat(active.get(0).value())
        .isCloseTo(6.0 / 102, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(active.get(0).partitionKeyRangeId()).isNull();
    clock.advance(Duration.ofMinutes(5));
    assertThat(alerts.evaluate(clock.millis())).isEmpty();
  }

  @Test
  void crossPartitionQueries_aLegOfAnSdkFanOutCountsAsCrossPartition() {
    Container c = container(ThrottlingMode.OFF, 10, 4);
    c.create(doc("d", "k"));
    String range = c.routing().ranges().get(0).id();
    c.query(QueryRequest.of("SELECT * FROM c").withRangeId(range));
    c.query(QueryRequest.of("SELECT * FROM c").withPartitionKey(PartitionKeyValue.of("k")));
    assertThat(c.queryStats().totals()).containsExactly(2, 1);
  }

  @Test
  void queryFanOut_aQueryRetrievingOver50DocumentsPerRowReturned() {
    Container c = container(ThrottlingMode.OFF, 10, 2);
    for (int i = 0; i < 200; i++) {
      ObjectNode d = doc("d" + i, "k" + (i % 10));
      d.put("name", "n" + i);
      c.create(d);
    }
    AlertEvaluator alerts = evaluator(c);
    // a function of the property: no index serves it, every document is read
    c.query(
        QueryRequest.of(
            "SELECT * FROM c WHERE c.name = 'n7' OR c.name = 'n8' OR c.name = 'n9' OR c.name = 'n10'"));
    assertThat(alerts.evaluate(clock.millis())).as("ratio 50, not above").isEmpty();
    String text = "SELECT * FROM c WHERE UPPER(c.name) = 'N7'";
    c.query(QueryRequest.of(text));
    List<Alert> active = alerts.evaluate(clock.millis());
    assertThat(active).extracting(Alert::rule).contains(AlertRule.QUERY_FAN_OUT);
    Alert a =
        active.stream().filter(x -> x.rule() == AlertRule.QUERY_FAN_OUT).findFirst().orElseThrow();
    assertThat(a.value()).isEqualTo(200.0);
    assertThat(a.message()).contains("retrieved 200 documents to return 1", text);
    clock.advance(Duration.ofMinutes(5));
    assertThat(alerts.evaluate(clock.millis()))
        .extracting(Alert::rule)
        .doesNotContain(AlertRule.QUERY_FAN_OUT);
  }

  /** A query that names {@code rangeId}; true when it got the 410/1002 of a gone range. */
  private static boolean gone(Container c, String rangeId) {
    try {
      c.query(QueryRequest.of("SELECT * FROM c").withRangeId(rangeId));
      return false;
    } catch (CosmosException e) {
      assertThat(e.status()).isEqualTo(410);
      assertThat(e.subStatus()).isEqualTo(1002);
      return true;
    }
  }

  @Test
  void goneRangeRequests_firesWhenAReplacedRangeIsStillAskedEverySecond30sAfter_andClears() {
    clock.set(java.time.Instant.ofEpochSecond(clock.millis() / 1000 + 1)); // a second boundary
    Container c = container(ThrottlingMode.OFF, 10, 1);
    String parent = c.routing().ranges().get(0).id();
    AlertEvaluator alerts = evaluator(c);
    c.splitPartition(parent);
    // the clients' first requests after the split: recovery, not a loop
    for (int i = 0; i < 50; i++) {
      assertThat(gone(c, parent)).isTrue();
    }
    assertThat(gone(c, "no-such-range")).isTrue();
    clock.advance(Duration.ofSeconds(29));
    assertThat(alerts.evaluate(clock.millis())).as("within 30 s of the split").isEmpty();
    clock.advance(Duration.ofSeconds(1));
    // a client that was idle through the split: its burst of 40, all in one second
    for (int i = 0; i < 40; i++) {
      gone(c, parent);
    }
    assertThat(alerts.evaluate(clock.millis())).as("40 requests in 1 second, not 5").isEmpty();
    // then a client asking every second: the fifth distinct second fires it
    for (int s = 0; s < 4; s++) {
      clock.advance(Duration.ofSeconds(1));
      gone(c, parent);
      if (s < 3) {
        assertThat(alerts.evaluate(clock.millis())).as("%d seconds", s + 2).isEmpty();
      }
    }
    List<Alert> active = alerts.evaluate(clock.millis());
    assertThat(active).hasSize(1);
    Alert a = active.get(0);
    assertThat(a.rule()).isEqualTo(AlertRule.GONE_RANGE_REQUESTS);
    assertThat(a.partitionKeyRangeId()).isEqualTo(parent);
    assertThat(a.value()).isEqualTo(44.0);
    assertThat(a.message())
        .contains("44 requests in 5 seconds of the last 1 min named partition " + parent)
        .contains("replaced 34 s ago");
    assertThat(log).extracting(AlertEvent::kind).containsExactly(AlertEvent.Kind.STARTED);
    // the burst falls out of the minute 60 s after it came: the 4 requests left are under 10
    clock.advance(Duration.ofSeconds(56));
    assertThat(alerts.evaluate(clock.millis())).isEmpty();
    assertThat(log)
        .extracting(AlertEvent::kind)
        .containsExactly(AlertEvent.Kind.STARTED, AlertEvent.Kind.STOPPED);
  }

  @Test
  void goneRangeRequests_aMergedAwayRangeToo_andTheRulesSettings() {
    clock.set(java.time.Instant.ofEpochMilli(clock.millis() / 1000 * 1000 + 1500)); // mid-second
    Container c = container(ThrottlingMode.OFF, 10, 2);
    List<String> ids = c.routing().ranges().stream().map(r -> r.id()).toList();
    c.mergePartitions(ids.get(0), ids.get(1));
    AlertRules rules =
        AlertRules.defaults()
            .withGoneRange(
                new AlertRules.GoneRange(true, 3, 2, Duration.ofSeconds(10), Duration.ZERO));
    AlertEvaluator alerts = new AlertEvaluator(c.database().engine(), rules, log::add);
    // after 0: counted from the merge's own second, though it came half-way through
    gone(c, ids.get(0));
    gone(c, ids.get(1));
    clock.advance(Duration.ofSeconds(1));
    gone(c, ids.get(1));
    assertThat(alerts.evaluate(clock.millis())).as("2 for the right one").isEmpty();
    gone(c, ids.get(1));
    assertThat(alerts.evaluate(clock.millis()))
        .extracting(Alert::partitionKeyRangeId)
        .containsExactly(ids.get(1));
    clock.advance(Duration.ofSeconds(10));
    assertThat(alerts.evaluate(clock.millis())).as("out of the 10 s window").isEmpty();
    AlertEvaluator off =
        new AlertEvaluator(
            c.database().engine(),
            rules.withGoneRange(
                new AlertRules.GoneRange(false, 1, 1, Duration.ofSeconds(10), Duration.ZERO)),
            e -> {});
    gone(c, ids.get(0));
    assertThat(off.evaluate(clock.millis())).isEmpty();
  }

  @Test
  void disabledRules_neverFire() {
    Container c = container(ThrottlingMode.OFF, 10, 2);
    for (int i = 0; i < 200; i++) {
      c.create(doc("d" + i, "k" + i));
    }
    AlertRules rules =
        AlertRules.defaults()
            .withQueryFanOut(new AlertRules.QueryFanOut(false, 50, Duration.ofMinutes(5), 100))
            .withCrossPartitionQueries(
                new AlertRules.CrossPartitionQueries(false, 0.05, Duration.ofMinutes(5), 20));
    AlertEvaluator alerts = new AlertEvaluator(c.database().engine(), rules, log::add);
    for (int i = 0; i < 30; i++) {
      c.query(QueryRequest.of("SELECT * FROM c WHERE UPPER(c.id) = 'D7'"));
    }
    assertThat(alerts.evaluate(clock.millis())).isEmpty();
  }
}
