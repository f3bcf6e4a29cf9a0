package io.cosmolab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.store.InMemoryDocumentStore;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The commit gate's LSNs: handed out once each, given back only when nobody else's came after them.
 */
class CommitGateTest {
  private final CommitGate gate =
      new CommitGate(
          0,
          new HighWaterMarks(
              new InMemoryDocumentStore().open("c"), 0, 0, Map.of(), () -> 0, () -> 0));

  @Test
  void aFailedTransaction_givesItsLsnsBack_whenNoneWasTakenAfterThem() {
    long first = gate.take(true);
    long second = gate.take(false);
    gate.abandon(first, second, 2);
    assertThat(gate.take(true)).isEqualTo(first);
  }

  @Test
  void aFailedTransaction_whoseLsnsAnotherInterleaved_givesNoneBack_soNoLsnIsUsedTwice() {
    long a1 = gate.take(true); // a batch on one partition
    long b = gate.take(true); // a write on another, between the batch's operations
    gate.finish(b); // committed: its change record is at b
    long a2 = gate.take(false); // the batch's next operation, then the batch fails
    gate.abandon(a1, a2, 2);
    assertThat(gate.committed()).isEqualTo(a2); // b stays committed; a1 and a2 are a gap
    long next = gate.take(true);
    assertThat(next).isGreaterThan(a2).isNotEqualTo(b);
  }
}
