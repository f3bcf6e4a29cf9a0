package io.cosmolab.engine;

import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.batch.BatchOperation;
import io.cosmolab.engine.batch.BatchResult;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.time.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A transactional batch whose response would pass the 4 MB limit fails whole, its last operation
 * 413 (the Java SDK's batchServerResponseTooLargeAsync); only the documents the response returns
 * count.
 */
class BatchResponseLimitTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
  private static final PartitionKeyValue KEY = PartitionKeyValue.of("k");

  private static ObjectNode big(String id) {
    return obj("{'id':'" + id + "','pk':'k'}").put("pad", "x".repeat(600 * 1024));
  }

  @Test
  void readsPastTheLimit_failTheBatch_lastOperation413_theRest424_nothingWritten() {
    Container c = Engines.container(clock, 1);
    c.create(big("big"));
    List<BatchOperation> ops = new ArrayList<>();
    ops.add(new BatchOperation.Create(obj("{'id':'never','pk':'k'}")));
    for (int i = 0; i < 10; i++) {
      ops.add(new BatchOperation.Read("big", null));
    }
    BatchResult r = c.executeBatch(KEY, ops);
    assertThat(r.status()).isEqualTo(207);
    assertThat(r.operations())
        .extracting(BatchResult.OperationResult::status)
        .last()
        .isEqualTo(413);
    assertThat(r.operations().subList(0, 10))
        .extracting(BatchResult.OperationResult::status)
        .containsOnly(424);
    // the charges of the operations add up to the batch's, the refused one's included
    assertThat(
            r.operations().stream().mapToDouble(BatchResult.OperationResult::requestCharge).sum())
        .isCloseTo(r.requestCharge(), org.assertj.core.api.Assertions.within(0.01));
    assertThat(r.operations().get(10).requestCharge()).isPositive();
    assertThatThrownBy(() -> c.read(KEY, "never")).isInstanceOf(CosmosException.class);
  }

  @Test
  void writesThatReturnNoBody_doNotCountTowardTheLimit() {
    Container c = Engines.container(clock, 1);
    List<BatchOperation> ops = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      ops.add(new BatchOperation.Upsert(big("u" + i), null));
    }
    assertThat(c.executeBatch(KEY, ops, i -> true).status()).isEqualTo(207);
    assertThat(c.executeBatch(KEY, ops, i -> false).status()).isEqualTo(200);
    assertThat(c.read(KEY, "u9").status()).isEqualTo(200);
  }
}
