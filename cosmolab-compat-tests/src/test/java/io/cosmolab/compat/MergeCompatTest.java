package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.testkit.CosmosLab;
import io.cosmolab.testkit.CosmosLabExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Merges under a client that cached the layout before them, through the Java SDK (in gateway and
 * direct mode, by the suite's executions): a paged query and a change feed whose continuations name
 * ranges that a merge replaced, and point operations sent to a merged range's replicas.
 */
@ExtendWith(CosmosLabExtension.class)
class MergeCompatTest {

  /** Merges the partitions in pairs: the first two, the next two, and so on. */
  private static void mergeAll(Container engine) {
    int pairs = engine.routing().size() / 2;
    for (int i = 0; i < pairs; i++) {
      Fixtures.mergeAt(engine, i); // the pairs before it are one range each now
    }
  }

  /**
   * The ids that {@code SELECT * FROM c} returns in pages of {@code pageSize}, with {@code change}
   * run once the first {@code pagesBefore} pages are read.
   */
  private static List<String> pagedIds(
      CosmosContainer c, int pageSize, int pagesBefore, Runnable change) {
    List<String> seen = new ArrayList<>();
    int pages = 0;
    for (FeedResponse<ObjectNode> page :
        c.queryItems("SELECT * FROM c", new CosmosQueryRequestOptions(), ObjectNode.class)
            .iterableByPage(pageSize)) {
      page.getResults().forEach(d -> seen.add(d.get("id").asText()));
      if (++pages == pagesBefore) {
        change.run();
      }
    }
    return seen;
  }

  @Test
  void mergeDuringPagedQuery_sdkRecoversAndNothingIsLost(CosmosClient client, CosmosLab lab) {
    client.createDatabaseIfNotExists("merge");
    CosmosContainer c = Fixtures.container(client.getDatabase("merge"), "q", 4, "/pk");
    List<ObjectNode> docs = Fixtures.documents(300, 21);
    Fixtures.createAll(c, docs);
    Container engine = lab.engine().database("merge").container("q");
    List<String> seen = pagedIds(c, 25, 2, () -> mergeAll(engine));
    assertThat(engine.routing().size()).isEqualTo(2);
    assertThat(seen)
        .doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(Fixtures.ids(docs));
  }

  /**
   * A known fault of the Java SDK (4.81), pinned so that an upgrade that fixes it tells us: a query
   * resumed from a continuation taken before a merge returns every document of the token's range
   * once more, those of the pages before the token included. The SDK reads the rest of the token's
   * range from the merged range within its bounds, and everything to the right of it as one range;
   * that one spans both merged ranges, so the SDK replaces it by the two ranges whole ({@code
   * DocumentProducer.createChildDocumentProducerOnSplit}), and the merged one holds the token's
   * range again. The SDK works this out from the routing map alone, before any request, so the
   * service, which publishes the same map after a merge, gets the same duplicates.
   */
  @Test
  void resumingAPreMergeToken_theSdkReadsTheTokensRangeTwice_anSdkFault(
      CosmosClient client, CosmosLab lab) {
    client.createDatabaseIfNotExists("merge");
    CosmosContainer c = Fixtures.container(client.getDatabase("merge"), "resume", 4, "/pk");
    List<ObjectNode> docs = Fixtures.documents(300, 24);
    Fixtures.createAll(c, docs);
    Container engine = lab.engine().database("merge").container("resume");
    String query = "SELECT * FROM c";
    FeedResponse<ObjectNode> first =
        c.queryItems(query, new CosmosQueryRequestOptions(), ObjectNode.class)
            .iterableByPage(10)
            .iterator()
            .next();
    List<String> seen = new ArrayList<>();
    first.getResults().forEach(d -> seen.add(d.get("id").asText()));
    String token = first.getContinuationToken();
    String firstRangeMax = engine.routing().ranges().get(0).range().max();
    assertThat(token).contains("\"min\":\"\",\"max\":\"" + firstRangeMax + "\"");
    CosmosQueryRequestOptions ofFirstRange = new CosmosQueryRequestOptions();
    ofFirstRange.setFeedRange(c.getFeedRanges().get(0));
    List<String> firstRange = new ArrayList<>();
    c.queryItems(query, ofFirstRange, ObjectNode.class)
        .forEach(d -> firstRange.add(d.get("id").asText()));

    mergeAll(engine);
    for (FeedResponse<ObjectNode> page :
        c.queryItems(query, new CosmosQueryRequestOptions(), ObjectNode.class)
            .iterableByPage(token, 25)) {
      page.getResults().forEach(d -> seen.add(d.get("id").asText()));
    }
    assertThat(seen).containsAll(Fixtures.ids(docs)); // nothing is lost
    List<String> twice = new ArrayList<>(seen);
    Fixtures.ids(docs).forEach(twice::remove);
    assertThat(twice).isNotEmpty().containsExactlyInAnyOrderElementsOf(firstRange);
  }

  /**
   * Another fault of the Java SDK (4.81), from the same root, pinned: a query whose range split and
   * then had one child merged with a neighbour from outside it, both before the query asked that
   * range again, reads part of the merged range twice. On its 410 the SDK finds two ranges
   * overlapping its own, takes it for a split, and gives each a producer of that range whole,
   * resuming from its own last continuation ({@code
   * DocumentProducer.createChildDocumentProducerOnSplit}), not of the part within its own range;
   * the neighbour's producer reads the merged range too. A merge alone does not do it: with one
   * range overlapping, the SDK keeps its own bounds and sends them as {@code x-ms-start-epk}/{@code
   * x-ms-end-epk}. The service publishes the same routing map after the same split and merge, so
   * its clients get the same duplicates [I]. Met by ConcurrentClientsCompatTest, where a query that
   * outlives a split and a merge may see it.
   */
  @Test
  void
      aRangeSplitAndItsChildMergedOutward_underAPagedQuery_theSdkReadsTheMergedRangeWhole_anSdkFault(
          CosmosClient client, CosmosLab lab) {
    client.createDatabaseIfNotExists("merge");
    CosmosContainer c = Fixtures.container(client.getDatabase("merge"), "outward", 2, "/pk");
    List<ObjectNode> docs = Fixtures.documents(400, 25);
    Fixtures.createAll(c, docs);
    Container engine = lab.engine().database("merge").container("outward");
    List<String> seen =
        pagedIds(
            c,
            10,
            1,
            () -> {
              Fixtures.splitAll(engine); // [a, b] -> [a1, a2, b1, b2]
              Fixtures.mergeAt(engine, 1); // a2 + b1: [a1, m, b2]
            });
    assertThat(engine.routing().size()).isEqualTo(3);
    CosmosQueryRequestOptions ofMerged = new CosmosQueryRequestOptions();
    ofMerged.setFeedRange(c.getFeedRanges().get(1));
    List<String> merged = new ArrayList<>();
    c.queryItems("SELECT * FROM c", ofMerged, ObjectNode.class)
        .forEach(d -> merged.add(d.get("id").asText()));

    assertThat(seen).containsAll(Fixtures.ids(docs)); // nothing is lost
    List<String> twice = new ArrayList<>(seen);
    Fixtures.ids(docs).forEach(twice::remove);
    assertThat(twice).as("read twice, all from the merged range").isNotEmpty();
    assertThat(merged).containsAll(twice);
  }

  @Test
  void mergeDuringChangeFeed_sdkRecoversAndNothingIsLost(CosmosClient client, CosmosLab lab) {
    client.createDatabaseIfNotExists("merge");
    CosmosContainer c = Fixtures.container(client.getDatabase("merge"), "f", 4, "/pk");
    List<ObjectNode> docs = Fixtures.documents(200, 22);
    List<String> seen =
        ChangeFeedCompatTest.acrossALayoutChange(
            c, docs, () -> mergeAll(lab.engine().database("merge").container("f")));
    assertThat(c.getFeedRanges()).hasSize(2);
    assertThat(seen)
        .doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(Fixtures.ids(docs));
  }

  @Test
  void mergeUnderPointOperations_everyKindSucceedsAtTheMergedRange(
      CosmosClient client, CosmosLab lab) {
    client.createDatabaseIfNotExists("merge");
    CosmosContainer c = Fixtures.container(client.getDatabase("merge"), "p", 4, "/pk");
    List<ObjectNode> docs = Fixtures.documents(52, 23);
    for (ObjectNode d : docs) { // in direct mode, every range's replica addresses are now cached
      c.createItem(d);
    }
    mergeAll(lab.engine().database("merge").container("p"));
    PartitioningCompatTest.everyKindOfPointOperation(c, docs);
  }
}
