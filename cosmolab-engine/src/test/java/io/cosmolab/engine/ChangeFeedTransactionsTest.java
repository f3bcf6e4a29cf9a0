package io.cosmolab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.changefeed.ChangeFeedMode;
import io.cosmolab.engine.changefeed.ChangeFeedPage;
import io.cosmolab.engine.changefeed.ChangeFeedRequest;
import io.cosmolab.engine.changefeed.ChangeFeedStart;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.script.ScriptKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A transaction's records stay on one change-feed page though writes to other physical partitions
 * commit while it runs: the service keeps a transaction's scope on a page ([D] the .NET SDK's
 * ChangeFeedRequestOptions.PageSizeHint), and a reader that got half a transaction would act on a
 * state that never existed. The stored procedure here writes a document, then waits while another
 * thread writes to the other partition, and so on; the interleaving is fixed, not left to timing.
 */
class ChangeFeedTransactionsTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** A stored procedure that writes {@code parameters[0]} documents, calling back between them. */
  private static JavaProcedure interleaving(Runnable between) {
    return new JavaProcedure(
        (parameters, host) -> {
          int n = parameters.path(0).asInt();
          String key = parameters.path(1).asText();
          for (int i = 0; i < n; i++) {
            host.create(NODES.objectNode().put("id", "s" + i).put("pk", key), false);
            between.run();
          }
        });
  }

  /** Two keys of different physical partitions of {@code c}. */
  private static String[] keysOfTwoPartitions(Container c) {
    Map<String, String> byRange = new HashMap<>();
    for (int i = 0; byRange.size() < 2; i++) {
      String key = "k" + i;
      String epk =
          io.cosmolab.engine.partitioning.EffectivePartitionKey.of(
              c.partitionKey(), PartitionKeyValue.of(key));
      byRange.putIfAbsent(c.routing().rangeFor(epk).id(), key);
    }
    return byRange.values().toArray(new String[0]);
  }

  /**
   * An engine with the interleaving runtime and a container of two physical partitions: the script
   * writes to the first key's, and each callback creates a document in the second's.
   */
  private static final class Interleaved implements AutoCloseable {
    final CosmosEngine engine;
    final Container c;
    final String[] keys;
    int others;

    Interleaved(io.cosmolab.engine.time.ManualClock clock, Integer retentionMinutes) {
      CosmosEngine.Builder b =
          CosmosEngine.builder().scriptRuntime(interleaving(this::writeToTheOtherPartition));
      engine = clock == null ? b.build() : b.clock(clock).build();
      c =
          engine
              .createDatabase("db")
              .createContainer(
                  ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                      .withPhysicalPartitions(2)
                      .withChangeFeedRetentionMinutes(retentionMinutes));
      keys = keysOfTwoPartitions(c);
      c.scripts()
          .create(
              ScriptKind.STORED_PROCEDURE,
              NODES.objectNode().put("id", "sp").put("body", "function () {}"));
    }

    /** One document in the second key, written by another thread while the script waits. */
    private void writeToTheOtherPartition() {
      CompletableFuture.runAsync(
              () -> c.create(NODES.objectNode().put("id", "o" + others++).put("pk", keys[1])))
          .join();
    }

    /** Runs the script: {@code writes} documents in the first key, the other key's between. */
    void runScript(int writes) {
      c.executeStoredProcedure(
          PartitionKeyValue.of(keys[0]), "sp", NODES.arrayNode().add(writes).add(keys[0]), false);
      assertThat(others).as("the other partition's writes").isGreaterThanOrEqualTo(writes);
    }

    @Override
    public void close() {
      engine.close();
    }
  }

  private static void writesOfAScript_interleavedWithAnotherPartitionsWrites_comeOnOnePage(
      int scriptWrites) {
    try (Interleaved lab = new Interleaved(null, null)) {
      Container c = lab.c;
      lab.runScript(scriptWrites);

      for (ChangeFeedMode mode : ChangeFeedMode.values()) {
        for (int maxItems = 1; maxItems <= 3; maxItems++) {
          ChangeFeedRequest r =
              ChangeFeedRequest.wholeContainer(ChangeFeedStart.beginning())
                  .withMode(mode)
                  .withMaxItems(maxItems);
          List<List<String>> pages = new ArrayList<>();
          for (int guard = 0; guard < 1000; guard++) {
            ChangeFeedPage page = c.readChangeFeed(r);
            if (page.notModified()) {
              break;
            }
            List<String> ids = new ArrayList<>();
            for (ObjectNode item : page.items()) {
              ObjectNode doc = item.has("current") ? (ObjectNode) item.get("current") : item;
              ids.add(doc.get("id").textValue());
            }
            pages.add(ids);
            r = r.withStart(ChangeFeedStart.continuation(page.continuation()));
          }
          List<String> all = new ArrayList<>();
          pages.forEach(all::addAll);
          assertThat(all)
              .as("%s, %d a page: every record once", mode, maxItems)
              .hasSize(2 * scriptWrites)
              .doesNotHaveDuplicates();
          long pagesWithScriptWrites =
              pages.stream().filter(p -> p.stream().anyMatch(id -> id.startsWith("s"))).count();
          assertThat(pagesWithScriptWrites)
              .as(
                  "%s, %d a page: the procedure's %d writes on one page, %s",
                  mode, maxItems, scriptWrites, pages)
              .isEqualTo(1);
        }
      }
    }
  }

  /**
   * A script of 48 writes in two runs; then its first run's 16 documents are rewritten and the
   * superseded records dropped from the log ({@code retentionDuration} 0): before the reader's
   * first page, or after it. Every version is read once (the rewritten documents twice, v1 and v2).
   */
  private static void firstRunSuperseded(boolean afterTheFirstPage) {
    io.cosmolab.engine.time.ManualClock clock =
        io.cosmolab.engine.time.ManualClock.startingAtEpoch2026();
    try (Interleaved lab = new Interleaved(clock, 0)) { // retention 0: superseded records go
      Container c = lab.c;
      String[] keys = lab.keys;
      int writes = 3 * LogPositions.UNKNOWN_WRITES; // a first run and a later one
      lab.runScript(writes);
      ChangeFeedRequest r =
          ChangeFeedRequest.wholeContainer(ChangeFeedStart.beginning()).withMaxItems(1);
      List<String> all = new ArrayList<>();
      Runnable supersede =
          () -> {
            for (int i = 0; i < LogPositions.UNKNOWN_WRITES; i++) {
              c.upsert(NODES.objectNode().put("id", "s" + i).put("pk", keys[0]).put("v", 2));
            }
            clock.advance(java.time.Duration.ofSeconds(1));
            c.create(NODES.objectNode().put("id", "z").put("pk", keys[1])); // its sweep drops them
            assertThat(c.retention().horizon()).as("the superseded first run is gone").isPositive();
          };
      if (!afterTheFirstPage) {
        supersede.run();
      }
      for (int guard = 0; guard < 1000; guard++) {
        ChangeFeedPage page = c.readChangeFeed(r);
        if (page.notModified()) {
          break;
        }
        page.items().forEach(item -> all.add(item.get("id").textValue() + ":v" + item.path("v")));
        r = r.withStart(ChangeFeedStart.continuation(page.continuation()));
        if (afterTheFirstPage && guard == 0) {
          assertThat(all).as("the first page, the whole script").hasSize(writes);
          supersede.run();
        }
      }
      int versions =
          afterTheFirstPage ? 2 * writes + 1 + LogPositions.UNKNOWN_WRITES : 2 * writes + 1;
      assertThat(all).hasSize(versions).doesNotHaveDuplicates();
    }
  }

  @Test
  void aSplitTransactionWhoseFirstRunWasSuperseded_isStillReadWhole_fromItsLaterRuns() {
    firstRunSuperseded(false);
  }

  @Test
  void aSplitTransactionsLaterRuns_areNotReadAgain_whenItsFirstRunIsDroppedBetweenPages() {
    firstRunSuperseded(true);
  }

  @Test
  void aStoredProceduresWrites_interleavedWithAnotherPartitions_comeOnOnePage() {
    writesOfAScript_interleavedWithAnotherPartitionsWrites_comeOnOnePage(5);
  }

  @Test
  void aLongStoredProcedure_interleavedWithAnotherPartitions_stillComesOnOnePage() {
    writesOfAScript_interleavedWithAnotherPartitionsWrites_comeOnOnePage(100);
  }
}
