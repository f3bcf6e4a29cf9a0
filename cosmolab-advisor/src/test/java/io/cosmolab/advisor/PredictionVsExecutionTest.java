package io.cosmolab.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.workload.Access;
import io.cosmolab.advisor.workload.Operation;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.time.ManualClock;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The advisor's prediction against the engine executing the same workload in enforce mode: the same
 * documents, key and throughput, then one busy second of point reads spread like the documents. The
 * predicted share of 429s must be within 5 points of the executed one.
 */
class PredictionVsExecutionTest {

  @Test
  void predicted429Share_matchesTheEngineInEnforceMode() {
    List<ObjectNode> docs = AdvisorTest.sessions(6000, 0.4, 31);
    Candidate key = Candidate.single("/tenantId");
    int readsPerSecond = 20_000;
    Throughput throughput = Throughput.manual(24_000); // 4 partitions of 6,000 RU/s

    Advice predicted =
        Advisor.analyze(
                docs.iterator(),
                List.of(key),
                new AdvisorOptions(
                    throughput, 0, List.of(new Operation(Operation.Type.READ, readsPerSecond))))
            .get(0);

    ManualClock clock = ManualClock.startingAtEpoch2026();
    Container c = loaded(docs, key, throughput, clock);
    Random r = new Random(5);
    double executed =
        throttledShare(
            clock,
            readsPerSecond,
            i -> {
              ObjectNode d = docs.get(r.nextInt(docs.size()));
              c.read(PartitionKeyValue.of(d.get("tenantId").asText()), d.get("id").asText());
            });
    System.out.printf(
        "predicted 429 share %.4f, executed %.4f%n", predicted.predicted429Share(), executed);
    assertThat(predicted.physicalPartitions()).isEqualTo(c.routing().size());
    assertThat(predicted.predicted429Share()).isGreaterThan(0.1);
    assertThat(executed)
        .as("predicted %.3f, executed %.3f", predicted.predicted429Share(), executed)
        .isCloseTo(predicted.predicted429Share(), org.assertj.core.data.Offset.offset(0.05));
  }

  /**
   * Runs {@code count} requests spread evenly over one virtual second and gives the share answered
   * with 429; any other error fails the test.
   */
  private static double throttledShare(
      ManualClock clock, int count, java.util.function.IntConsumer request) {
    int throttled = 0;
    long elapsed = 0;
    for (int i = 0; i < count; i++) {
      long due = (long) i * 1000 / count;
      clock.advanceMillis(due - elapsed);
      elapsed = due;
      try {
        request.accept(i);
      } catch (CosmosException e) {
        if (e.status() != 429) {
          throw e;
        }
        throttled++;
      }
    }
    return throttled / (double) count;
  }

  /**
   * An engine holding {@code docs} under {@code key}, its clock past the start, in enforce mode.
   */
  private static Container loaded(
      List<ObjectNode> docs, Candidate key, Throughput throughput, ManualClock clock) {
    CosmosEngine engine =
        CosmosEngine.builder().clock(clock).throttling(ThrottlingMode.OFF).build();
    Container c =
        engine
            .createDatabase("db")
            .createContainer(
                ContainerSettings.of("c", key.definition()).withThroughput(throughput));
    for (ObjectNode d : docs) {
      c.create(d.deepCopy());
    }
    clock.advanceMillis(10_000);
    engine.setThrottling(ThrottlingMode.ENFORCE);
    return c;
  }

  @Test
  void predicted429Share_ofCreatesOnAHotTenant_matchesTheEngine() {
    List<ObjectNode> sample = AdvisorTest.sessions(6000, 0.35, 41);
    Candidate key = Candidate.single("/tenantId");
    Throughput throughput = Throughput.manual(24_000);
    int createsPerSecond = 3000;
    Advice predicted =
        Advisor.analyze(
                sample.iterator(),
                List.of(key),
                new AdvisorOptions(
                    throughput, 0, List.of(new Operation(Operation.Type.CREATE, createsPerSecond))))
            .get(0);

    ManualClock clock = ManualClock.startingAtEpoch2026();
    Container c = loaded(sample, key, throughput, clock);
    // a busy second of new sessions drawn like the sample: the same generator, another seed
    List<ObjectNode> fresh = AdvisorTest.sessions(createsPerSecond, 0.35, 43);
    double executed =
        throttledShare(clock, createsPerSecond, i -> c.create(fresh.get(i).put("id", "new-" + i)));
    System.out.printf(
        "creates: predicted 429 share %.4f, executed %.4f%n",
        predicted.predicted429Share(), executed);
    assertThat(predicted.predicted429Share()).isGreaterThan(0.1);
    assertThat(executed)
        .as("predicted %.3f, executed %.3f", predicted.predicted429Share(), executed)
        .isCloseTo(predicted.predicted429Share(), org.assertj.core.data.Offset.offset(0.05));
  }

  @Test
  void predicted429Share_ofZipfQueriesByUser_matchesTheEngine() {
    // 2,000 users with 4 orders each; queries by user, the user drawn by Zipf (s = 1.2)
    List<ObjectNode> docs = new java.util.ArrayList<>();
    for (int i = 0; i < 8000; i++) {
      ObjectNode d = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
      d.put("id", "o" + i);
      d.put("userId", "u" + (i % 2000));
      d.put("total", i % 97);
      docs.add(d);
    }
    Candidate key = Candidate.single("/userId");
    Throughput throughput = Throughput.manual(12_000); // 2 partitions of 6,000 RU/s
    int queriesPerSecond = 2000;
    double s = 1.2;
    String sql = "SELECT * FROM c WHERE c.userId = @u";
    Operation query =
        Operation.query(
                "orders of a user",
                sql,
                queriesPerSecond,
                java.util.Map.of(
                    "@u", new Access(null, Access.Distribution.ZIPF, s, null, null, null, null)))
            .withRows(4);
    Advice predicted =
        Advisor.analyze(
                docs.iterator(), List.of(key), new AdvisorOptions(throughput, 0, List.of(query)))
            .get(0);

    // the oracle draws users as the model ranks them: most documents first, ties by name
    List<String> ranked = new java.util.ArrayList<>();
    for (int u = 0; u < 2000; u++) {
      ranked.add("u" + u);
    }
    java.util.Collections.sort(ranked);
    double[] cdf = new double[ranked.size()];
    double h = 0;
    for (int r = 0; r < cdf.length; r++) {
      h += Math.pow(r + 1, -s);
      cdf[r] = h;
    }
    ManualClock clock = ManualClock.startingAtEpoch2026();
    Container c = loaded(docs, key, throughput, clock);
    Random random = new Random(11);
    double weights = h;
    double executed =
        throttledShare(
            clock,
            queriesPerSecond,
            i -> {
              int rank = java.util.Arrays.binarySearch(cdf, random.nextDouble() * weights);
              String user = ranked.get(rank < 0 ? -rank - 1 : rank);
              c.query(
                  io.cosmolab.engine.query.QueryRequest.of(sql)
                      .withParameters(
                          java.util.Map.of(
                              "@u", com.fasterxml.jackson.databind.node.TextNode.valueOf(user)))
                      .withPartitionKey(PartitionKeyValue.of(user)));
            });
    System.out.printf(
        "zipf queries: predicted 429 share %.4f, executed %.4f%n",
        predicted.predicted429Share(), executed);
    assertThat(predicted.routing().singlePartitionReadShare()).isEqualTo(1.0);
    assertThat(predicted.predicted429Share()).isGreaterThan(0.05);
    assertThat(executed)
        .as("predicted %.3f, executed %.3f", predicted.predicted429Share(), executed)
        .isCloseTo(predicted.predicted429Share(), org.assertj.core.data.Offset.offset(0.05));
  }

  @Test
  void predicted429Share_ofFanOutQueriesWithAHotPartition_matchesTheEngine() {
    // 3,000 users with 2 sessions each; a VIP tenant holds 40 % of the users. The key is the
    // tenant, and the query asks by user: every request visits every partition, and the VIP
    // tenant's partition also pays for its users' rows.
    List<ObjectNode> docs = new java.util.ArrayList<>();
    Random r = new Random(51);
    for (int u = 0; u < 3000; u++) {
      String tenant = r.nextDouble() < 0.4 ? "vip" : "t" + r.nextInt(300);
      for (int k = 0; k < 2; k++) {
        ObjectNode d = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
        d.put("id", "s" + u + "-" + k);
        d.put("tenantId", tenant);
        d.put("userId", "u" + u);
        docs.add(d);
      }
    }
    Candidate key = Candidate.single("/tenantId");
    Throughput throughput = Throughput.manual(24_000); // 4 partitions of 6,000 RU/s
    int queriesPerSecond = 2200;
    String sql = "SELECT * FROM c WHERE c.userId = @u";
    Operation query =
        Operation.query("sessions of a user", sql, queriesPerSecond, java.util.Map.of())
            .withRows(2);
    Advice predicted =
        Advisor.analyze(
                docs.iterator(), List.of(key), new AdvisorOptions(throughput, 0, List.of(query)))
            .get(0);

    ManualClock clock = ManualClock.startingAtEpoch2026();
    Container c = loaded(docs, key, throughput, clock);
    Random pick = new Random(13);
    double executed =
        throttledShare(
            clock,
            queriesPerSecond,
            i -> {
              String user = docs.get(pick.nextInt(docs.size())).get("userId").asText();
              c.query(
                  io.cosmolab.engine.query.QueryRequest.of(sql)
                      .withParameters(
                          java.util.Map.of(
                              "@u", com.fasterxml.jackson.databind.node.TextNode.valueOf(user))));
            });
    double over = 0;
    double demand = 0;
    for (double d : predicted.peak().ruPerSecondByPartition()) {
      over += Math.max(0, d - predicted.peak().budgetRuPerSecond());
      demand += d;
    }
    System.out.printf(
        "fan-out queries: predicted 429 share %.4f (RU beyond budget: %.4f), executed %.4f%n",
        predicted.predicted429Share(), over / demand, executed);
    assertThat(predicted.routing().fanOutReadShare()).isEqualTo(1.0);
    assertThat(predicted.predicted429Share()).isGreaterThan(0.1);
    assertThat(executed)
        .as("predicted %.3f, executed %.3f", predicted.predicted429Share(), executed)
        .isCloseTo(predicted.predicted429Share(), org.assertj.core.data.Offset.offset(0.05));
  }

  @Test
  void predictedRuPerPartition_ofAMixedWorkload_matchesWhatTheEngineCharges() {
    // creates, point reads and a fan-out lookup by id, under budget: no 429s, so every request
    // is charged and the per-partition RU/s can be compared one by one
    List<ObjectNode> docs = AdvisorTest.sessions(6000, 0.3, 61);
    Candidate key = Candidate.single("/tenantId");
    Throughput throughput = Throughput.manual(24_000); // 4 partitions of 6,000 RU/s
    int creates = 300;
    int reads = 3000;
    int lookups = 200;
    String sql = "SELECT * FROM c WHERE c.id = @id";
    Advice predicted =
        Advisor.analyze(
                docs.iterator(),
                List.of(key),
                new AdvisorOptions(
                    throughput,
                    0,
                    List.of(
                        new Operation(Operation.Type.CREATE, creates),
                        new Operation(Operation.Type.READ, reads),
                        Operation.query("lookup by id", sql, lookups, java.util.Map.of())
                            .withRows(1))))
            .get(0);

    ManualClock clock = ManualClock.startingAtEpoch2026();
    Container c = loaded(docs, key, throughput, clock);
    long firstSecond = clock.instant().getEpochSecond();
    List<ObjectNode> fresh = AdvisorTest.sessions(creates, 0.3, 67);
    List<Integer> schedule = new java.util.ArrayList<>();
    for (int i = 0; i < creates + reads + lookups; i++) {
      schedule.add(i < creates ? 0 : i < creates + reads ? 1 : 2);
    }
    java.util.Collections.shuffle(schedule, new Random(3));
    Random pick = new Random(7);
    int[] created = new int[1];
    double throttled =
        throttledShare(
            clock,
            schedule.size(),
            i -> {
              ObjectNode d = docs.get(pick.nextInt(docs.size()));
              switch (schedule.get(i)) {
                case 0 -> c.create(fresh.get(created[0]).put("id", "new-" + created[0]++));
                case 1 ->
                    c.read(PartitionKeyValue.of(d.get("tenantId").asText()), d.get("id").asText());
                default ->
                    c.query(
                        io.cosmolab.engine.query.QueryRequest.of(sql)
                            .withParameters(java.util.Map.of("@id", d.get("id"))));
              }
            });
    assertThat(throttled).isZero();
    List<io.cosmolab.engine.routing.PartitionKeyRange> ranges = c.routing().ranges();
    assertThat(predicted.peak().ruPerSecondByPartition()).hasSize(ranges.size());
    for (int p = 0; p < ranges.size(); p++) {
      double charged =
          c.partitionSeconds(ranges.get(p).id(), firstSecond, firstSecond + 2).stream()
              .mapToDouble(io.cosmolab.engine.metrics.PartitionMetrics.Second::ru)
              .sum();
      double expected = predicted.peak().ruPerSecondByPartition().get(p);
      System.out.printf(
          "partition %d: predicted %.0f RU/s, charged %.0f RU%n", p, expected, charged);
      assertThat(charged)
          .as("partition %d", p)
          .isCloseTo(expected, org.assertj.core.data.Percentage.withPercentage(10));
    }
  }

  @Test
  void aFanOutQuerysPage_isReadFromTheFirstPartitionThatHoldsEnoughMatches_asTheEngineCharges() {
    // 100 tenants of 60 sessions by 60 users: under /tenantId+/userId a tenant's sessions are on
    // every partition, about 15 on each of 4, so a dashboard's page of 10 comes from the first
    List<ObjectNode> docs = new java.util.ArrayList<>();
    for (int t = 0; t < 100; t++) {
      for (int u = 0; u < 60; u++) {
        ObjectNode d = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
        d.put("id", "s" + t + "-" + u);
        d.put("tenantId", "t" + t);
        d.put("userId", "u" + u);
        d.put("payload", "x".repeat(300));
        d.put("tenantId_userId", "t" + t + "-u" + u); // the property the application writes
        docs.add(d);
      }
    }
    Candidate key = Candidate.synthetic("/tenantId", "/userId");
    Throughput throughput = Throughput.manual(24_000); // 4 partitions of 6,000 RU/s
    int dashboards = 400;
    String sql = "SELECT * FROM c WHERE c.tenantId = @t";
    Advice predicted =
        Advisor.analyze(
                docs.iterator(),
                List.of(key),
                new AdvisorOptions(
                    throughput,
                    0,
                    List.of(
                        Operation.query("tenant dashboard", sql, dashboards, java.util.Map.of())
                            .withRows(10))))
            .get(0);

    ManualClock clock = ManualClock.startingAtEpoch2026();
    Container c = loaded(docs, key, throughput, clock);
    long firstSecond = clock.instant().getEpochSecond();
    Random pick = new Random(17);
    double throttled =
        throttledShare(
            clock,
            dashboards,
            i ->
                c.query(
                    io.cosmolab.engine.query.QueryRequest.of(sql)
                        .withParameters(
                            java.util.Map.of(
                                "@t", docs.get(pick.nextInt(docs.size())).get("tenantId")))
                        .withMaxItemCount(10)));
    assertThat(throttled).isZero();
    List<io.cosmolab.engine.routing.PartitionKeyRange> ranges = c.routing().ranges();
    List<Double> byPartition = predicted.peak().ruPerSecondByPartition();
    assertThat(byPartition).hasSize(ranges.size());
    double[] charged = new double[ranges.size()];
    for (int p = 0; p < ranges.size(); p++) {
      charged[p] =
          c.partitionSeconds(ranges.get(p).id(), firstSecond, firstSecond + 2).stream()
              .mapToDouble(io.cosmolab.engine.metrics.PartitionMetrics.Second::ru)
              .sum();
      System.out.printf(
          "dashboard page: partition %d %s predicted %.0f RU/s, charged %.0f RU%n",
          p, ranges.get(p), byPartition.get(p), charged[p]);
    }
    for (int p = 0; p < ranges.size(); p++) {
      assertThat(charged[p])
          .as("partition %d", p)
          .isCloseTo(byPartition.get(p), org.assertj.core.data.Percentage.withPercentage(15));
    }
    // the first partition gives every page's rows; the others only their 2.5 RU per request
    assertThat(byPartition.get(0)).isGreaterThan(3 * byPartition.get(1));
  }
}
