package io.cosmolab.engine;

import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.testing.StallingStore;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * A point read on the in-memory store waits for nothing another thread holds, so a server may run
 * it on a network event loop ({@link CosmosEngine#pointReadsNeverWait}).
 */
class PointReadsNeverWaitTest {

  private static Container container(CosmosEngine engine) {
    return engine
        .createDatabase("db")
        .createContainer(
            ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                .withThroughput(Throughput.manual(40_000))
                .withPhysicalPartitions(4));
  }

  @Test
  void aPointRead_completes_whileAnotherThreadHoldsEveryLockOfItsPartition() throws Exception {
    CosmosEngine engine = CosmosEngine.builder().throttling(ThrottlingMode.ENFORCE).build();
    assertThat(engine.pointReadsNeverWait()).isTrue();
    Container c = container(engine);
    c.create(obj("{'id':'a','pk':'p','n':1}"));
    Layout.Partition p =
        c.partitionLayout()
            .current()
            .partitionFor(
                io.cosmolab.engine.partitioning.EffectivePartitionKey.of(
                    c.partitionKey(), PartitionKeyValue.of("p")));
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    // a writer of the partition, descheduled inside its write with the layout held as a split
    // holds it, and a thread inside the budget's monitor (what every budget call took before)
    Thread holder =
        new Thread(
            () ->
                c.partitionLayout()
                    .exclusive(
                        () -> {
                          p.writes.lock();
                          try {
                            synchronized (p.budget) {
                              held.countDown();
                              awaitQuietly(release);
                            }
                          } finally {
                            p.writes.unlock();
                          }
                          return null;
                        }));
    holder.start();
    try {
      held.await();
      assertTimeoutPreemptively(
          Duration.ofSeconds(20),
          () -> {
            for (int i = 0; i < 100; i++) {
              assertThat(c.read(PartitionKeyValue.of("p"), "a").status()).isEqualTo(200);
            }
          });
    } finally {
      release.countDown();
      holder.join();
    }
    // the reads were charged and counted, once each
    assertThat(c.partitionStats().stream().mapToLong(s -> s.operations()).sum()).isEqualTo(101);
  }

  @Test
  void aStoreThatMayWait_saysSo() {
    CosmosEngine engine = CosmosEngine.builder().store(new StallingStore()).build();
    assertThat(engine.pointReadsNeverWait()).isFalse();
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
