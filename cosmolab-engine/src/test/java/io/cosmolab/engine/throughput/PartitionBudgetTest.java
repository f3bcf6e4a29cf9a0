package io.cosmolab.engine.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.limits.Limits;
import io.cosmolab.engine.throughput.PartitionBudget.Admission;
import io.cosmolab.engine.throughput.PartitionBudget.Ask;
import io.cosmolab.engine.throughput.PartitionBudget.Refusal;
import org.junit.jupiter.api.Test;

/** The per-second window, carried debt and the burst bank, on explicit times. */
class PartitionBudgetTest {
  private static final long T0 = 1_767_225_600_000L; // a second boundary

  @Test
  void aSecondAdmitsUntilItsBudgetIsUsed_thenCarriesTheDebt() {
    PartitionBudget b = new PartitionBudget(100, false, Limits.SERVICE, T0);
    assertThat(b.admit(T0)).isEqualTo(Admission.ADMITTED);
    b.charge(250, Admission.ADMITTED, T0); // admitted with budget left, then 150 over
    assertThat(b.remaining(T0)).isEqualTo(-150);
    assertThat(b.admit(T0 + 999)).isEqualTo(Admission.THROTTLED);
    // the 150 over fill all of second +1 and 50 RU of second +2: admission resumes at +2 s
    assertThat(b.retryAfterMillis(T0 + 500)).isEqualTo(1500);
    assertThat(b.admit(T0 + 1_000)).isEqualTo(Admission.THROTTLED);
    assertThat(b.admit(T0 + 2_000)).isEqualTo(Admission.ADMITTED);
    assertThat(b.remaining(T0 + 2_000)).isEqualTo(50);
    assertThat(b.remaining(T0 + 3_000)).isEqualTo(100);
  }

  @Test
  void burstBank_collectsUnusedBudget_upTo300Seconds() {
    PartitionBudget b = new PartitionBudget(100, true, Limits.SERVICE, T0);
    assertThat(b.burstBank(T0 + 10_000)).isEqualTo(1_000); // 10 idle seconds
    assertThat(b.burstBank(T0 + 3_600_000)).isEqualTo(30_000); // capped at 300 s x 100 RU
  }

  @Test
  void burstBank_staysEmpty_whenOffOrWhenThePartitionIsAt3000RuPerSecondOrMore() {
    assertThat(new PartitionBudget(100, false, Limits.SERVICE, T0).burstBank(T0 + 60_000)).isZero();
    assertThat(new PartitionBudget(3_000, true, Limits.SERVICE, T0).burstBank(T0 + 60_000))
        .isZero();
  }

  @Test
  void changingTheRate_keepsTheDebt() {
    PartitionBudget b = new PartitionBudget(100, false, Limits.SERVICE, T0);
    b.charge(300, Admission.ADMITTED, T0);
    // 200 RU were owed beyond the first second; they stay charged to second +1 at the new rate
    b.setRuPerSecond(1_000, T0 + 1_000);
    assertThat(b.remaining(T0 + 1_000)).isEqualTo(800);
    assertThat(b.admit(T0 + 1_000)).isEqualTo(Admission.ADMITTED);
  }

  @Test
  void lowPriority_sharesAnUncontendedBudget_likeAnyRequest() {
    PartitionBudget b = new PartitionBudget(100, false, Limits.SERVICE, T0);
    for (int i = 0; i < 9; i++) {
      assertThat(b.admit(T0 + i, Priority.LOW)).isEqualTo(Admission.ADMITTED);
      b.charge(10, Admission.ADMITTED, T0 + i);
    }
    assertThat(b.remaining(T0 + 10)).isEqualTo(10);
  }

  @Test
  void lowPriority_isRefusedWhileHighPriorityContends_thenRunsAgain() {
    PartitionBudget b = new PartitionBudget(100, false, Limits.SERVICE, T0);
    b.charge(100, Admission.ADMITTED, T0); // the second is used up
    assertThat(b.admit(T0 + 100, Priority.HIGH)).isEqualTo(Admission.THROTTLED); // contention
    // the next second has budget, but it goes to high priority: low waits out the window
    assertThat(b.admit(T0 + 1_000, Priority.LOW)).isEqualTo(Admission.THROTTLED);
    assertThat(b.retryAfterMillis(T0 + 1_000, Priority.LOW)).isEqualTo(1_000);
    assertThat(b.admit(T0 + 1_000, Priority.HIGH)).isEqualTo(Admission.ADMITTED);
    // a second with no high-priority refusal after it: low priority is admitted again
    assertThat(b.admit(T0 + 2_000, Priority.LOW)).isEqualTo(Admission.ADMITTED);
  }

  @Test
  void priority_parsesTheHeader_andRefusesAnythingElseByName() {
    assertThat(Priority.parse(null)).isEqualTo(Priority.HIGH);
    assertThat(Priority.parse(" low ")).isEqualTo(Priority.LOW);
    assertThat(Priority.parse("High")).isEqualTo(Priority.HIGH);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Priority.parse("urgent"))
        .hasMessageContaining("must be High or Low, was 'urgent'");
    RequestClass low = RequestClass.of(Priority.LOW);
    assertThat(low.during(RequestClass::current)).isEqualTo(low);
    assertThat(RequestClass.current()).isEqualTo(RequestClass.DEFAULT); // the scope ended
  }

  @Test
  void throughputBucketHeader_acceptsIds1To5_andRefusesAnythingElseByName() {
    assertThat(RequestClass.parse(null, null)).isEqualTo(RequestClass.DEFAULT);
    assertThat(RequestClass.parse("Low", " 3 ")).isEqualTo(new RequestClass(Priority.LOW, 3));
    for (String bad : new String[] {"0", "6", "-1", "two", "1.5"}) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> RequestClass.parse(null, bad))
          .hasMessageContaining("x-ms-cosmos-throughput-bucket must be a throughput bucket id")
          .hasMessageContaining("was '" + bad + "'");
    }
  }

  @Test
  void aBucket_isCappedAtItsShare_whileTheRestOfThePartitionStaysOpen() {
    PartitionBudget b = new PartitionBudget(100, false, Limits.SERVICE, T0);
    Ask etl = new Ask(Priority.HIGH, 1, 0.3);
    for (int i = 0; i < 3; i++) {
      assertThat(b.admit(T0 + i, etl)).isEqualTo(Admission.ADMITTED);
      b.charge(10, Admission.ADMITTED, T0 + i, etl);
    }
    // 30 RU is the bucket's 30 % of 100: it is refused, for its bucket, until the next second
    assertThat(b.admit(T0 + 10, etl)).isEqualTo(Admission.THROTTLED);
    assertThat(b.refusal(T0 + 10, etl)).isEqualTo(Refusal.BUCKET);
    assertThat(b.retryAfterMillis(T0 + 10, etl)).isEqualTo(990);
    // requests outside the bucket still have 70 RU this second, and were not marked contended
    assertThat(b.admit(T0 + 10, Ask.HIGH)).isEqualTo(Admission.ADMITTED);
    assertThat(b.admit(T0 + 10, Priority.LOW)).isEqualTo(Admission.ADMITTED);
    assertThat(b.admit(T0 + 1_000, etl)).isEqualTo(Admission.ADMITTED);
  }

  @Test
  void aBucketsDebt_carriesIntoTheFollowingSeconds_atItsShare() {
    PartitionBudget b = new PartitionBudget(100, false, Limits.SERVICE, T0);
    Ask etl = new Ask(Priority.HIGH, 2, 0.5);
    b.charge(120, Admission.ADMITTED, T0, etl); // one expensive operation: 70 over its 50
    // the bucket repays 50 RU a second: 70 left at +1 s, 20 at +2 s
    assertThat(b.admit(T0 + 1_000, etl)).isEqualTo(Admission.THROTTLED);
    assertThat(b.retryAfterMillis(T0 + 1_000, etl)).isEqualTo(1_000);
    assertThat(b.admit(T0 + 2_000, etl)).isEqualTo(Admission.ADMITTED);
  }

  @Test
  void aBucketWithRoom_isStillRefused_whenThePartitionIsFull() {
    PartitionBudget b = new PartitionBudget(100, false, Limits.SERVICE, T0);
    Ask etl = new Ask(Priority.HIGH, 1, 0.5);
    b.charge(100, Admission.ADMITTED, T0, Ask.HIGH); // others used the whole second
    assertThat(b.admit(T0 + 1, etl)).isEqualTo(Admission.THROTTLED);
    assertThat(b.refusal(T0 + 1, etl)).isEqualTo(Refusal.BUDGET);
  }

  @Test
  void chargesFromManyThreadsAtOnce_addUpAsIfMadeOneAtATime() throws Exception {
    PartitionBudget b = new PartitionBudget(1e9, false, Limits.SERVICE, T0);
    Ask bucket = new Ask(Priority.HIGH, 2, 0.5);
    int threads = 4;
    int each = 25_000;
    java.util.List<Thread> all = new java.util.ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread th =
          new Thread(
              () -> {
                for (int i = 0; i < each; i++) {
                  Admission a = b.admit(T0 + 500, bucket);
                  assertThat(a).isEqualTo(Admission.ADMITTED);
                  b.charge(1.0, a, T0 + 500, i % 2 == 0 ? bucket : Ask.HIGH);
                }
              });
      all.add(th);
      th.start();
    }
    for (Thread th : all) {
      th.join();
    }
    // every charge counted once: 100,000 RU used of this second; the next second repays them
    assertThat(b.remaining(T0 + 999)).isEqualTo(1e9 - threads * each);
    assertThat(b.remaining(T0 + 1_000)).isEqualTo(1e9);
  }
}
