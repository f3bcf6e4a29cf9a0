package io.cosmolab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.store.InMemoryDocumentStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The commit gate's LSNs: handed out once each, given back only when nobody else's came after them.
 */
class CommitGateTest {
  private final CommitGate gate = new CommitGate(0, marks());

  private static HighWaterMarks marks() {
    return new HighWaterMarks(
        new InMemoryDocumentStore().open("c"), 0, 0, Map.of(), () -> 0, () -> 0);
  }

  @Test
  void aFailedTransaction_givesItsLsnsBack_whenNoneWasTakenAfterThem() {
    int t = gate.open();
    long first = gate.take(t);
    long second = gate.take(t);
    gate.abandon(t, first, second, 2);
    assertThat(gate.take(gate.open())).isEqualTo(first);
  }

  @Test
  void aFailedTransaction_whoseLsnsAnotherInterleaved_givesNoneBack_soNoLsnIsUsedTwice() {
    int a = gate.open(); // a batch on one partition
    long a1 = gate.take(a);
    int b = gate.open(); // a write on another, between the batch's operations
    long lsnOfB = gate.take(b);
    gate.finish(b); // committed: its change record is at b
    long a2 = gate.take(a); // the batch's next operation, then the batch fails
    gate.abandon(a, a1, a2, 2);
    assertThat(gate.committed()).isEqualTo(a2); // b stays committed; a1 and a2 are a gap
    long next = gate.take(gate.open());
    assertThat(next).isGreaterThan(a2).isNotEqualTo(lsnOfB);
  }

  @Test
  void aGivenBackLsnTakenAgain_belongsToItsNewTransaction_whichAloneFreesIt() {
    int t = gate.open();
    long f = gate.take(t);
    gate.abandon(t, f, f, 1); // given back
    int n = gate.open();
    assertThat(gate.take(n)).isEqualTo(f); // taken again by another transaction
    int m = gate.open();
    long g = gate.take(m);
    gate.finish(n);
    assertThat(gate.committed()).isEqualTo(g - 1); // m is still open
    gate.finish(m);
    assertThat(gate.committed()).isEqualTo(g).isEqualTo(gate.lastTaken());
  }

  @Test
  void theCommittedLsn_neverPassesAnOpenTransaction_norAGivenBackLsn_underConcurrentWriters()
      throws Exception {
    // slots for 2 open transactions at once, so 4 writers also wait for slots
    for (int openAtOnce : new int[] {2, 64}) {
      CommitGate shared = new CommitGate(0, marks(), openAtOnce);
      Set<Long> committedLsns = ConcurrentHashMap.newKeySet();
      AtomicReference<String> broken = new AtomicReference<>();
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        long seed = 42L + w;
        writers.add(
            new Thread(
                () -> {
                  Random random = new Random(seed);
                  for (int t = 0; t < 20_000 && broken.get() == null; t++) {
                    int operations = 1 + random.nextInt(3); // a batch takes one LSN each
                    int slot = shared.open();
                    long first = shared.take(slot);
                    long last = first;
                    for (int i = 1; i < operations; i++) {
                      last = shared.take(slot);
                    }
                    if (random.nextInt(8) == 0) {
                      LockSupport.parkNanos(1_000); // let others interleave while this one is open
                    }
                    long seen = shared.committed(); // it only grows: its highest so far
                    if (seen >= first) {
                      broken.set("committed " + seen + " while LSN " + first + " was open");
                    }
                    if (random.nextInt(4) == 0) {
                      shared.abandon(slot, first, last, operations); // may give them back
                    } else {
                      for (long lsn = first; lsn <= last; lsn++) {
                        // a batch's LSNs need not be consecutive; only its own count
                        if (lsn == first || lsn == last) {
                          if (!committedLsns.add(lsn)) {
                            broken.set("LSN " + lsn + " committed twice");
                          }
                        }
                      }
                      shared.finish(slot);
                    }
                  }
                }));
      }
      for (Thread t : writers) {
        // a writer that throws (a finish that found no slot) fails the test, not just its thread
        t.setUncaughtExceptionHandler((thread, e) -> broken.compareAndSet(null, e.toString()));
        t.start();
      }
      for (Thread t : writers) {
        t.join(60_000);
        assertThat(t.isAlive()).as("a writer still running after 60 s").isFalse();
      }
      assertThat(broken.get()).as("with %d slots", openAtOnce).isNull();
      long next = shared.take(shared.open()); // all finished: committed is the last LSN taken
      assertThat(shared.committed()).isEqualTo(next - 1);
    }
  }
}
