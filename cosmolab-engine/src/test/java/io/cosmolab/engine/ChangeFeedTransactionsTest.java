package io.cosmolab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.changefeed.ChangeFeedMode;
import io.cosmolab.engine.changefeed.ChangeFeedPage;
import io.cosmolab.engine.changefeed.ChangeFeedRequest;
import io.cosmolab.engine.changefeed.ChangeFeedStart;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.script.ScriptHost;
import io.cosmolab.engine.script.ScriptKind;
import io.cosmolab.engine.script.ScriptRuntime;
import io.cosmolab.engine.script.ScriptSource;
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
  private static final class Interleaving implements ScriptRuntime {
    private final Runnable between;

    Interleaving(Runnable between) {
      this.between = between;
    }

    @Override
    public void runStoredProcedure(ScriptSource procedure, JsonNode parameters, ScriptHost host) {
      int n = parameters.path(0).asInt();
      String key = parameters.path(1).asText();
      for (int i = 0; i < n; i++) {
        host.create(NODES.objectNode().put("id", "s" + i).put("pk", key), false);
        between.run();
      }
    }

    @Override
    public void runTrigger(ScriptSource trigger, ScriptHost host) {
      throw new UnsupportedOperationException();
    }

    @Override
    public FunctionScope openFunctions() {
      throw new UnsupportedOperationException();
    }

    @Override
    public String description() {
      return "interleaving";
    }
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

  private static void writesOfAScript_interleavedWithAnotherPartitionsWrites_comeOnOnePage(
      int scriptWrites) {
    String[] keys = new String[2];
    Container[] holder = new Container[1];
    int[] others = new int[1];
    Runnable otherPartitionWrites =
        () ->
            CompletableFuture.runAsync(
                    () ->
                        holder[0].create(
                            NODES.objectNode().put("id", "o" + others[0]++).put("pk", keys[1])))
                .join();
    try (CosmosEngine engine =
        CosmosEngine.builder().scriptRuntime(new Interleaving(otherPartitionWrites)).build()) {
      Container c =
          engine
              .createDatabase("db")
              .createContainer(
                  ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                      .withPhysicalPartitions(2));
      holder[0] = c;
      String[] two = keysOfTwoPartitions(c);
      keys[0] = two[0];
      keys[1] = two[1];
      c.scripts()
          .create(
              ScriptKind.STORED_PROCEDURE,
              NODES.objectNode().put("id", "sp").put("body", "function () {}"));
      c.executeStoredProcedure(
          PartitionKeyValue.of(keys[0]),
          "sp",
          NODES.arrayNode().add(scriptWrites).add(keys[0]),
          false);
      assertThat(others[0]).isEqualTo(scriptWrites);

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
    String[] keys = new String[2];
    Container[] holder = new Container[1];
    int[] others = new int[1];
    Runnable otherPartitionWrites =
        () ->
            CompletableFuture.runAsync(
                    () ->
                        holder[0].create(
                            NODES.objectNode().put("id", "o" + others[0]++).put("pk", keys[1])))
                .join();
    io.cosmolab.engine.time.ManualClock clock =
        io.cosmolab.engine.time.ManualClock.startingAtEpoch2026();
    try (CosmosEngine engine =
        CosmosEngine.builder()
            .clock(clock)
            .scriptRuntime(new Interleaving(otherPartitionWrites))
            .build()) {
      Container c =
          engine
              .createDatabase("db")
              .createContainer(
                  ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                      .withPhysicalPartitions(2)
                      .withChangeFeedRetentionMinutes(0)); // superseded records go at once
      holder[0] = c;
      String[] two = keysOfTwoPartitions(c);
      keys[0] = two[0];
      keys[1] = two[1];
      c.scripts()
          .create(
              ScriptKind.STORED_PROCEDURE,
              NODES.objectNode().put("id", "sp").put("body", "function () {}"));
      int writes = 3 * LogPositions.UNKNOWN_WRITES; // a first run and a later one
      c.executeStoredProcedure(
          PartitionKeyValue.of(keys[0]), "sp", NODES.arrayNode().add(writes).add(keys[0]), false);
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
