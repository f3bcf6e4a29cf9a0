package io.cosmolab.rehearsal;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.rehearsal.report.TerminalSummary;
import org.junit.jupiter.api.Test;

/** Each built-in scenario shows its failure and its fix in numbers (seed 42). */
class LibraryTest {

  private static RehearsalReport run(Library l) {
    RehearsalReport r = Rehearsal.run(l.scenario());
    System.out.print(TerminalSummary.render(r));
    return r;
  }

  @Test
  void blackFriday_userIdThrottlesTheResellersPartition_bucketsSpreadIt() {
    RehearsalReport r = run(Library.BLACK_FRIDAY);
    CandidateResult.Headline user = r.candidate("/userId").headline();
    CandidateResult.Headline buckets = r.candidate("/userId*10").headline();
    assertThat(user.peak429Share()).isGreaterThan(0.5);
    assertThat(user.p99Millis()).isGreaterThanOrEqualTo(1000);
    assertThat(user.failedThrottled()).isGreaterThan(0);
    assertThat(user.ruUnusedShareWhileThrottling()).isGreaterThan(0.3);
    assertThat(user.hottestKey()).isEqualTo("[\"u-reseller\"]");
    assertThat(r.candidate("/userId").verdict()).isEqualTo("rejected");
    assertThat(buckets.p99Millis()).isLessThan(100);
    assertThat(buckets.failedRequests()).isZero();
    assertThat(buckets.throttledAttempts()).isLessThan(user.throttledAttempts() / 100);
    assertThat(r.candidate("/userId*10").verdict()).isEqualTo("recommended");
    // the normal phase, before the ramp, is calm under both
    assertThat(r.candidate("/userId").phases().get(0).throttledAttempts()).isZero();
  }

  @Test
  void vipTenant_tenantKeyThrottlesTheVip_syntheticSpreadsIt_hierarchicalDoesNotBeforeASplit() {
    RehearsalReport r = run(Library.VIP_TENANT);
    CandidateResult tenant = r.candidate("/tenantId");
    CandidateResult synthetic = r.candidate("/tenantId+/userId");
    CandidateResult hierarchical = r.candidate("/tenantId>/userId");
    assertThat(tenant.phases().get(0).throttledAttempts()).isZero(); // before the VIP
    assertThat(tenant.headline().throttledAttempts()).isGreaterThan(0);
    assertThat(tenant.headline().p99Millis()).isGreaterThanOrEqualTo(1000);
    assertThat(tenant.verdict()).isEqualTo("rejected");
    assertThat(synthetic.headline().throttledAttempts())
        .isLessThan(tenant.headline().throttledAttempts() / 100);
    assertThat(synthetic.headline().p99Millis()).isLessThan(100);
    assertThat(synthetic.verdict()).isEqualTo("recommended");
    // the VIP's prefix lives on one partition until a storage split: as hot as /tenantId
    assertThat(hierarchical.headline().splits()).isZero();
    assertThat(hierarchical.headline().throttledAttempts())
        .isGreaterThan(tenant.headline().throttledAttempts() / 2);
  }

  @Test
  void iotHotDevice_deviceKeyFillsTwentyGigabytes_theDayKeyDoesNot() {
    RehearsalReport r = run(Library.IOT_HOT_DEVICE);
    CandidateResult.Headline device = r.candidate("/deviceId").headline();
    CandidateResult.Headline day = r.candidate("/deviceId+/day").headline();
    assertThat(device.failedStorage()).isGreaterThan(0);
    assertThat(device.largestLogicalPartitionKey()).isEqualTo("[\"dev-chatty\"]");
    assertThat(device.largestLogicalPartitionBytes())
        .isGreaterThan((long) (0.99 * device.logicalPartitionLimitBytes()));
    assertThat(r.candidate("/deviceId").verdict()).isEqualTo("rejected");
    assertThat(r.candidate("/deviceId").reasons().get(0)).contains("403/1014");
    assertThat(day.failedStorage()).isZero();
    assertThat(day.largestLogicalPartitionBytes()).isLessThan(2L << 30);
    assertThat(r.candidate("/deviceId+/day").verdict()).isNotEqualTo("rejected");
  }

  @Test
  void timeKey_everyWriteOfTheDayOnOnePartition_userIdSpreads() {
    RehearsalReport r = run(Library.TIME_KEY);
    for (String key : new String[] {"/createdDate", "/yyyyMM"}) {
      CandidateResult.Headline h = r.candidate(key).headline();
      assertThat(h.peak429Share()).as(key).isGreaterThan(0.5);
      assertThat(h.p99Millis()).as(key).isGreaterThanOrEqualTo(1000);
      assertThat(h.ruUnusedShareWhileThrottling()).as(key).isGreaterThan(0.5);
      assertThat(r.candidate(key).verdict()).as(key).isEqualTo("rejected");
    }
    CandidateResult.Headline user = r.candidate("/userId").headline();
    assertThat(user.throttledAttempts()).isZero();
    assertThat(user.p99Millis()).isLessThan(100);
    assertThat(r.candidate("/userId").verdict()).isEqualTo("recommended");
  }

  @Test
  void gameHotServer_serverKeyThrottlesTheCrowdedServer_bucketsSpreadItAtAReadMultiplier() {
    RehearsalReport r = run(Library.GAME_HOT_SERVER);
    CandidateResult.Headline server = r.candidate("/serverId").headline();
    CandidateResult.Headline buckets = r.candidate("/serverId*20").headline();
    assertThat(r.candidate("/serverId").phases().get(0).throttledAttempts()).isZero();
    assertThat(server.peak429Share()).isGreaterThan(0.5);
    assertThat(server.hottestKey()).isEqualTo("[\"srv-launch\"]");
    assertThat(r.candidate("/serverId").verdict()).isEqualTo("rejected");
    assertThat(server.failedThrottled()).isGreaterThan(0);
    assertThat(server.ruUnusedShareWhileThrottling()).isGreaterThan(0.3);
    assertThat(buckets.throttledAttempts()).isLessThan(server.throttledAttempts() / 100);
    assertThat(buckets.failedRequests()).isZero();
    assertThat(buckets.p99Millis()).isLessThan(100);
    // 20 buckets hash unevenly onto 5 partitions: one holds more of the crowd, a few 429s remain
    assertThat(r.candidate("/serverId*20").verdict()).isNotEqualTo("rejected");
  }

  @Test
  void hierarchicalOrder_tenantFirstRoutesTheDashboards_userFirstFansThemOut() {
    RehearsalReport r = run(Library.HIERARCHICAL_ORDER);
    CandidateResult.Headline right = r.candidate("/tenantId>/userId").headline();
    CandidateResult.Headline wrong = r.candidate("/userId>/tenantId").headline();
    // the same two paths: only their order differs, and with it where a tenant's query goes
    assertThat(r.candidate("/tenantId>/userId").verdict()).isEqualTo("recommended");
    assertThat(right.failedRequests()).isZero();
    assertThat(right.p99Millis()).isLessThan(100);
    assertThat(r.candidate("/userId>/tenantId").verdict()).isEqualTo("rejected");
    assertThat(wrong.peak429Share()).isGreaterThan(0.5);
    assertThat(wrong.failedThrottled()).isPositive();
    // every dashboard query visits all five partitions: more than twice the attempts
    assertThat(wrong.attempts()).isGreaterThan(2 * right.attempts());
    // and before month end, both are calm
    assertThat(r.candidate("/userId>/tenantId").phases().get(0).throttledAttempts()).isZero();
  }

  @Test
  void suffixFanOut_bucketsScanEveryPartition_theDeviceKeyReadsOneLogicalPartition() {
    RehearsalReport r = run(Library.SUFFIX_FAN_OUT);
    CandidateResult buckets = r.candidate("/deviceId*100");
    CandidateResult device = r.candidate("/deviceId");
    // /deviceId is not indexed: under the buckets each read scans every partition for a few rows
    assertThat(buckets.timeline().alerts())
        .anySatisfy(
            m -> {
              assertThat(m.rule()).isEqualTo("query-fan-out");
              assertThat(m.detail()).contains("SELECT * FROM c WHERE c.deviceId = @device");
            })
        .anySatisfy(m -> assertThat(m.rule()).isEqualTo("cross-partition-queries"));
    assertThat(buckets.verdict()).isEqualTo("rejected");
    assertThat(buckets.headline().peak429Share()).isGreaterThan(0.5);
    assertThat(buckets.headline().failedThrottled()).isPositive();
    // under the device's own key the same read scans one logical partition: nothing to flag
    assertThat(device.timeline().alerts()).isEmpty();
    assertThat(device.verdict()).isEqualTo("recommended");
    assertThat(device.headline().throttledAttempts()).isZero();
    assertThat(device.headline().p99Millis()).isLessThan(100);
  }

  @Test
  void ordersJoinProducts_aCategoryKeyFansEveryLookupOut_theIdKeyAnswersEachFromOnePartition() {
    RehearsalReport r = run(Library.ORDERS_JOIN_PRODUCTS);
    CandidateResult category = r.candidate("/category");
    CandidateResult id = r.candidate("/id");
    // the join's lookups are nearly every query, and under /category each visits all partitions
    assertThat(category.timeline().alerts())
        .anySatisfy(m -> assertThat(m.rule()).isEqualTo("cross-partition-queries"));
    assertThat(category.verdict()).isEqualTo("rejected");
    assertThat(category.headline().peak429Share()).isGreaterThan(0.5);
    assertThat(category.headline().failedThrottled()).isPositive();
    assertThat(category.phases().get(0).failedRequests()).isZero(); // before the sale
    assertThat(id.timeline().alerts())
        .noneSatisfy(m -> assertThat(m.rule()).isEqualTo("cross-partition-queries"));
    assertThat(id.verdict()).isEqualTo("recommended");
    assertThat(id.headline().failedRequests()).isZero();
    assertThat(id.headline().p99Millis()).isLessThan(100);
    assertThat(id.headline().throttledAttempts())
        .isLessThan(category.headline().throttledAttempts() / 100);
  }
}
