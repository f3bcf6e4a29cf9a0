package io.cosmolab.engine;

import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.index.IndexingPolicy;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.time.ManualClock;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class IndexTest {
  private final ManualClock clock = ManualClock.startingAtEpoch2026();

  private Container container(String name, IndexingPolicy policy) {
    return Engines.onClock(clock, ThrottlingMode.OFF)
        .createDatabase(name)
        .createContainer(
            ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                .withPhysicalPartitions(4)
                .withIndexingPolicy(policy));
  }

  private static final IndexingPolicy NOTHING_BUT_PK =
      new IndexingPolicy("consistent", List.of("/pk/?", "/id/?"), List.of("/*"));

  @Test
  void indexedEquality_loadsOnlyItsHits_andCostsFarLessThanAScan() {
    Container indexed = container("i", IndexingPolicy.DEFAULT);
    Container scanned = container("s", NOTHING_BUT_PK);
    for (int i = 0; i < 2000; i++) {
      String doc =
          "{'id':'d"
              + i
              + "','pk':'k"
              + (i % 50)
              + "','sku':'s"
              + i
              + "','pad':'"
              + "x".repeat(900)
              + "'}";
      indexed.create(obj(doc));
      scanned.create(obj(doc));
    }
    String q = "SELECT * FROM c WHERE c.sku = 's1234'";
    QueryPage viaIndex = indexed.query(QueryRequest.of(q));
    QueryPage viaScan = scanned.query(QueryRequest.of(q));
    assertThat(viaIndex.rows()).isEqualTo(viaScan.rows()).hasSize(1);
    assertThat(viaIndex.metrics().indexHits()).isEqualTo(1);
    assertThat(viaIndex.metrics().documentsLoaded()).isEqualTo(1);
    assertThat(viaScan.metrics().indexHits()).isZero();
    assertThat(viaScan.metrics().documentsLoaded()).isEqualTo(2000);
    // both pay 2.5 RU on each of the 4 partitions; the scan also pays for the 2 MB it loads
    // (10 RU per MB), which is what an excluded path costs (TQP: 2.98 RU indexed, 409.51 RU not)
    double loadedMb =
        (viaScan.metrics().bytesLoaded() - viaIndex.metrics().bytesLoaded()) / 1024.0 / 1024.0;
    assertThat(viaIndex.requestCharge()).isLessThan(12);
    assertThat(viaScan.requestCharge() - viaIndex.requestCharge())
        .isCloseTo(10 * loadedMb, org.assertj.core.api.Assertions.within(0.05));
    assertThat(loadedMb).isGreaterThan(1.9);
  }

  /**
   * 1,000 documents, 10 devices x 100 days (as strings): a device has 100 documents, a device's day
   * one; the id d{i} has key k{i % 50}.
   */
  private Container devicesByDay(String name) {
    Container c = container(name, IndexingPolicy.DEFAULT);
    for (int i = 0; i < 1000; i++) {
      c.create(
          obj(
              "{'id':'d"
                  + i
                  + "','pk':'k"
                  + (i % 50)
                  + "','device':'v"
                  + (i % 10)
                  + "','day':'"
                  + (i / 10)
                  + "'}"));
    }
    return c;
  }

  @Test
  void aConjunctionOfIndexedEqualities_loadsOnlyTheIntersectionOfTheirHits() {
    Container c = devicesByDay("and");
    // the service intersects the terms of a conjunction: one document read, not the device's 100
    loads(c, "SELECT * FROM c WHERE c.device = 'v3' AND c.day = '42'", 1, 1);
    loads(c, "SELECT * FROM c WHERE c.device = 'v3' AND c.day = 'never'", 0, 0);
    // a range beside an equality: the equality's hits, the range checked on them
    loads(c, "SELECT * FROM c WHERE c.device = 'v3' AND c.day > '90'", 9, 100);
  }

  @Test
  void aDisjunctionOfServedConjunctions_loadsTheUnionOfTheirHits_asReadManySends() {
    Container c = devicesByDay("or");
    // the SDKs' readMany: one (id AND key) branch per item, ORed
    QueryPage many =
        loads(
            c,
            "SELECT * FROM c WHERE (c.id = 'd423' AND c.pk = 'k23') OR (c.id = 'd74' AND"
                + " c.pk = 'k24') OR (c.id = 'd999' AND c.pk = 'k49') OR (c.id = 'd5' AND"
                + " c.pk = 'k6')",
            3,
            3); // d5's key is k5: no row
    // the index metrics name what served each branch, by the rule the lookup used
    assertThat(many.metrics().indexUse().utilized())
        .extracting(io.cosmolab.engine.query.IndexUtilization.SingleIndex::filter)
        .contains("(ROOT.id = \"d423\")", "(ROOT.pk = \"k49\")");
    // days are strings ("6" to "9", "50" to "99" are after "5"); the devices' hits are loaded
    QueryPage ranged =
        loads(
            c,
            "SELECT * FROM c WHERE (c.device = 'v1' AND c.day > '5') OR c.device = 'v2'",
            54 + 100,
            200);
    assertThat(ranged.metrics().indexUse().utilized())
        .extracting(io.cosmolab.engine.query.IndexUtilization.SingleIndex::filter)
        .containsExactlyInAnyOrder("(ROOT.device = \"v1\")", "(ROOT.device = \"v2\")");
    // a disjunction inside a conjunction: intersected with the other terms' hits
    loads(c, "SELECT * FROM c WHERE c.device = 'v3' AND (c.day = '1' OR c.day IN ('2'))", 2, 2);
    // a branch no index bounds makes the disjunction a scan
    loads(c, "SELECT * FROM c WHERE c.device = 'v3' OR LOWER(c.id) = 'd1'", 101, 1000);
  }

  @Test
  void startsWith_isAPrefixRangeOfTheIndex_asTheServicesRangeIndexServesIt() {
    Container c = devicesByDay("prefix");
    // days "4", "40" to "49": 11 days of 10 documents, loaded alone (STARTSWITH is what the query
    // advisor's QA1002 suggests instead of CONTAINS: it must cost less here too)
    QueryPage prefix = loads(c, "SELECT * FROM c WHERE STARTSWITH(c.day, '4')", 110, 110);
    assertThat(prefix.metrics().indexUse().utilized())
        .extracting(io.cosmolab.engine.query.IndexUtilization.SingleIndex::indexSpec)
        .containsExactly("/day/?");
    loads(c, "SELECT * FROM c WHERE STARTSWITH(c.day, '4', false) AND c.device = 'v2'", 11, 100);
    loads(c, "SELECT * FROM c WHERE STARTSWITH(c.day, '99')", 10, 10);
    loads(c, "SELECT * FROM c WHERE STARTSWITH(c.day, '')", 1000, 1000);
    // ignoring case, a range of one case does not bound it: a scan
    loads(c, "SELECT * FROM c WHERE STARTSWITH(c.device, 'V1', true)", 100, 1000);
    // the same rows as a scan, whatever the prefix (the oracle: a filter no index serves)
    for (String p : new String[] {"1", "10", "9", "v", "d", "\uffff", "4\uffff"}) {
      assertThat(ids(c, "SELECT VALUE c.id FROM c WHERE STARTSWITH(c.day, '" + p + "')"))
          .as(p)
          .containsExactlyInAnyOrderElementsOf(
              ids(
                  c,
                  "SELECT VALUE c.id FROM c WHERE SUBSTRING(c.day, 0, LENGTH('"
                      + p
                      + "')) = '"
                      + p
                      + "'"));
    }
  }

  @Test
  void indexMetrics_quoteAPathSegmentThatIsNotAnIdentifier() {
    Container c = container("quoted", IndexingPolicy.DEFAULT);
    c.create(obj("{'id':'a','pk':'k','first name':'Ann','n_1':1}"));
    assertThat(
            c.query(QueryRequest.of("SELECT * FROM c WHERE c['first name'] = 'Ann' AND c.n_1 = 1"))
                .metrics()
                .indexUse()
                .utilized())
        .extracting(io.cosmolab.engine.query.IndexUtilization.SingleIndex::indexSpec)
        .containsExactlyInAnyOrder("/\"first name\"/?", "/n_1/?");
  }

  @Test
  void disjunctions_servedByTheIndex_returnWhatAScanReturns() {
    Container indexed = container("ori", IndexingPolicy.DEFAULT);
    Container scanned = container("ors", NOTHING_BUT_PK);
    Random random = new Random(7);
    for (int i = 0; i < 300; i++) {
      String doc =
          "{'id':'d"
              + i
              + "','pk':'k"
              + (i % 7)
              + "','a':"
              + random.nextInt(6)
              + ",'b':'"
              + (char) ('p' + random.nextInt(4))
              + "'}";
      indexed.create(obj(doc));
      scanned.create(obj(doc));
    }
    String[] terms = {
      "c.a = 1", "c.a > 3", "c.b = 'q'", "c.b IN ('p', 's')", "c.a <= 0", "c.id = 'd17'"
    };
    for (int q = 0; q < 60; q++) {
      StringBuilder where = new StringBuilder();
      int branches = 1 + random.nextInt(3);
      for (int b = 0; b < branches; b++) {
        if (b > 0) {
          where.append(" OR ");
        }
        where.append('(').append(terms[random.nextInt(terms.length)]);
        if (random.nextBoolean()) {
          where.append(" AND ").append(terms[random.nextInt(terms.length)]);
        }
        where.append(')');
      }
      String sql = "SELECT VALUE c.id FROM c WHERE " + where;
      assertThat(indexed.query(QueryRequest.of(sql)).rows())
          .as(sql)
          .containsExactlyInAnyOrderElementsOf(scanned.query(QueryRequest.of(sql)).rows());
    }
  }

  @Test
  void index_isMaintainedByEveryKindOfWrite() {
    Container c = container("m", IndexingPolicy.DEFAULT);
    for (int i = 0; i < 20; i++) {
      c.create(obj("{'id':'d" + i + "','pk':'k" + (i % 3) + "','n':" + i + "}"));
    }
    assertThat(ids(c, "SELECT VALUE c.id FROM c WHERE c.n >= 18 ORDER BY c.id"))
        .containsExactly("d18", "d19");
    c.upsert(obj("{'id':'d0','pk':'k0','n':100}"));
    c.delete(PartitionKeyValue.of("k1"), "d19");
    c.create(obj("{'id':'new','pk':'k2','n':50}"));
    c.patch(
        PartitionKeyValue.of("k0"),
        "d3",
        List.of(io.cosmolab.engine.document.PatchOperation.set("/n", Json.node("-1"))));
    c.executeBatch(
        PartitionKeyValue.of("k1"),
        List.of(
            new io.cosmolab.engine.batch.BatchOperation.Replace(
                "d1", obj("{'id':'d1','pk':'k1','n':99}"), null)));
    assertThat(ids(c, "SELECT VALUE c.id FROM c WHERE c.n >= 18 ORDER BY c.id"))
        .containsExactly("d0", "d1", "d18", "new");
    assertThat(ids(c, "SELECT VALUE c.id FROM c WHERE c.n = 3")).isEmpty();
    assertThat(ids(c, "SELECT VALUE c.id FROM c WHERE c.n < 0")).containsExactly("d3");
  }

  @Test
  void rangeLookups_selectValuesOfTheComparedTypeOnly() {
    Container c = container("t", IndexingPolicy.DEFAULT);
    c.create(obj("{'id':'num','pk':'p','v':5}"));
    c.create(obj("{'id':'str','pk':'p','v':'5'}"));
    c.create(obj("{'id':'bool','pk':'p','v':true}"));
    c.create(obj("{'id':'nul','pk':'p','v':null}"));
    assertThat(ids(c, "SELECT VALUE c.id FROM c WHERE c.v > 1")).containsExactly("num");
    assertThat(ids(c, "SELECT VALUE c.id FROM c WHERE c.v < 'z'")).containsExactly("str");
    assertThat(ids(c, "SELECT VALUE c.id FROM c WHERE c.v = null")).containsExactly("nul");
    assertThat(ids(c, "SELECT VALUE c.id FROM c WHERE c.v IN (5, '5')"))
        .containsExactlyInAnyOrder("num", "str");
  }

  @Test
  void indexedAndScannedAnswers_agreeOnRandomFilters() {
    long seed = new Random().nextLong();
    Random r = new Random(seed);
    Container indexed = container("ri", IndexingPolicy.DEFAULT);
    Container scanned = container("rs", NOTHING_BUT_PK);
    for (int i = 0; i < 300; i++) {
      String v = r.nextInt(4) == 0 ? "'s" + r.nextInt(5) + "'" : Integer.toString(r.nextInt(20));
      String doc = "{'id':'d" + i + "','pk':'k" + r.nextInt(9) + "','v':" + v + "}";
      indexed.create(obj(doc));
      scanned.create(obj(doc));
      if (r.nextInt(10) == 0) {
        String q =
            "SELECT VALUE c.id FROM c WHERE c.v "
                + List.of("=", "<", "<=", ">", ">=").get(r.nextInt(5))
                + " "
                + r.nextInt(20)
                + " ORDER BY c.id";
        assertThat(ids(indexed, q)).as("seed %d: %s", seed, q).isEqualTo(ids(scanned, q));
      }
    }
  }

  @Test
  void policy_mostSpecificPatternWins() {
    IndexingPolicy p =
        new IndexingPolicy(
            "consistent", List.of("/*", "/a/keep/?"), List.of("/a/*", "/\"_etag\"/?"));
    assertThat(p.isIndexed(List.of("b"))).isTrue();
    assertThat(p.isIndexed(List.of("a", "x"))).isFalse();
    assertThat(p.isIndexed(List.of("a", "keep"))).isTrue();
    assertThat(p.isIndexed(List.of("_etag"))).isFalse();
    assertThat(new IndexingPolicy("none", List.of("/*"), List.of()).isIndexed(List.of("b")))
        .isFalse();
    assertThat(IndexingPolicy.fromJson(IndexingPolicy.DEFAULT.toJson()))
        .isEqualTo(IndexingPolicy.DEFAULT);
  }

  @Test
  void orderByOnTwoPaths_needsAMatchingCompositeIndex_asOnTheService() {
    Container plain = container("o1", IndexingPolicy.DEFAULT);
    plain.create(obj("{'id':'a','pk':'p','x':1,'y':2}"));
    ContainerDocumentsTest.assertCosmosError(
        () -> plain.query(QueryRequest.of("SELECT * FROM c ORDER BY c.x, c.y DESC")),
        io.cosmolab.engine.error.CosmosError.BAD_REQUEST,
        "does not have a corresponding composite index",
        "/x ASC, /y DESC");
    Container composite =
        container(
            "o2",
            IndexingPolicy.DEFAULT.withCompositeIndex(
                new IndexingPolicy.CompositePath("/x", true),
                new IndexingPolicy.CompositePath("/y", false)));
    composite.create(obj("{'id':'a','pk':'p','x':1,'y':2}"));
    assertThat(
            composite
                .query(QueryRequest.of("SELECT VALUE c.id FROM c ORDER BY c.x, c.y DESC"))
                .rows())
        .hasSize(1);
    // all directions reversed is served by the same index; a mix is not
    assertThat(
            composite
                .query(QueryRequest.of("SELECT VALUE c.id FROM c ORDER BY c.x DESC, c.y"))
                .rows())
        .hasSize(1);
    ContainerDocumentsTest.assertCosmosError(
        () -> composite.query(QueryRequest.of("SELECT * FROM c ORDER BY c.x, c.y")),
        io.cosmolab.engine.error.CosmosError.BAD_REQUEST,
        "composite index");
  }

  @Test
  void orderByOnAnExcludedPath_orAnExpression_isRefused() {
    Container c = container("o3", NOTHING_BUT_PK);
    c.create(obj("{'id':'a','pk':'p','x':1}"));
    ContainerDocumentsTest.assertCosmosError(
        () -> c.query(QueryRequest.of("SELECT * FROM c ORDER BY c.x")),
        io.cosmolab.engine.error.CosmosError.BAD_REQUEST,
        "requires a range index",
        "/x");
    Container d = container("o4", IndexingPolicy.DEFAULT);
    ContainerDocumentsTest.assertCosmosError(
        () -> d.query(QueryRequest.of("SELECT * FROM c ORDER BY c.x + 1")),
        io.cosmolab.engine.error.CosmosError.BAD_REQUEST,
        "could not be mapped to a document path");
  }

  @Test
  void orderByAJoinsValue_orAnIteratedElement_isRefusedAsTheServiceRefusesIt() {
    Container c = container("o7", IndexingPolicy.DEFAULT);
    c.create(obj("{'id':'a','pk':'p','tags':['x','y'],'kids':[{'n':2}]}"));
    for (String text :
        List.of(
            "SELECT t FROM c JOIN t IN c.tags ORDER BY t",
            "SELECT c.id FROM c JOIN k IN c.kids ORDER BY k.n",
            "SELECT c.id FROM c JOIN k IN c.kids ORDER BY c.id, k.n",
            "SELECT VALUE t FROM t IN c.tags ORDER BY t",
            // a JOIN that rebinds the root's alias: c then names the kids
            "SELECT c.n FROM c JOIN c IN c.kids ORDER BY c.n")) {
      ContainerDocumentsTest.assertCosmosError(
          () -> c.query(QueryRequest.of(text)),
          io.cosmolab.engine.error.CosmosError.BAD_REQUEST,
          "Order-by over correlated collections is not supported");
    }
    // the root's paths under a JOIN are the documents': served
    assertThat(ids(c, "SELECT VALUE c.id FROM c JOIN t IN c.tags ORDER BY c.id"))
        .containsExactly("a", "a");
  }

  @Test
  void orderByUnderAFromPath_isCheckedAgainstTheDocumentsPath_notTheAliass() {
    // FROM c.address a: a.city is /address/city in the documents and in the policy
    Container excluded =
        container(
            "o8",
            new IndexingPolicy("consistent", List.of("/*"), List.of("/address/*", "/_etag/?")));
    excluded.create(obj("{'id':'a','pk':'p','address':{'city':'b'},'city':'z'}"));
    ContainerDocumentsTest.assertCosmosError(
        () -> excluded.query(QueryRequest.of("SELECT a.city FROM c.address a ORDER BY a.city")),
        io.cosmolab.engine.error.CosmosError.BAD_REQUEST,
        "requires a range index",
        "/address/city");
    Container onlyAddress =
        container("o9", new IndexingPolicy("consistent", List.of("/address/*"), List.of("/*")));
    onlyAddress.create(obj("{'id':'a','pk':'p','address':{'city':'b'}}"));
    onlyAddress.create(obj("{'id':'b','pk':'p','address':{'city':'a'}}"));
    assertThat(
            onlyAddress
                .query(QueryRequest.of("SELECT VALUE a.city FROM c.address a ORDER BY a.city"))
                .rows())
        .extracting(JsonNode::asText)
        .containsExactly("a", "b");
  }

  @Test
  void orderByAnArrayElementsProperty_isServedByItsIndexPath_asTheOfficialSamplesUseIt() {
    // the samples' family documents: ORDER BY c.Children[0].Grade, indexed as /Children/0/Grade
    Container c = container("o5", IndexingPolicy.DEFAULT);
    c.create(obj("{'id':'a','pk':'p1','Children':[{'Grade':5},{'Grade':1}]}"));
    c.create(obj("{'id':'b','pk':'p2','Children':[{'Grade':8}]}"));
    c.create(obj("{'id':'c','pk':'p3','Children':[{'Grade':2}]}"));
    assertThat(ids(c, "SELECT VALUE c.id FROM c ORDER BY c.Children[0].Grade"))
        .containsExactly("c", "a", "b");
    assertThat(ids(c, "SELECT VALUE c.id FROM c ORDER BY c.Children[0].Grade DESC"))
        .containsExactly("b", "a", "c");
    Container excluded =
        container(
            "o6",
            new IndexingPolicy("consistent", List.of("/*"), List.of("/Children/*", "/_etag/?")));
    ContainerDocumentsTest.assertCosmosError(
        () -> excluded.query(QueryRequest.of("SELECT * FROM c ORDER BY c.Children[0].Grade")),
        io.cosmolab.engine.error.CosmosError.BAD_REQUEST,
        "requires a range index",
        "/Children/0/Grade");
    // a position that is not a literal whole number is still no document path
    ContainerDocumentsTest.assertCosmosError(
        () -> c.query(QueryRequest.of("SELECT * FROM c ORDER BY c.Children[c.n].Grade")),
        io.cosmolab.engine.error.CosmosError.BAD_REQUEST,
        "could not be mapped to a document path");
  }

  @Test
  void compositeIndexes_roundTripThroughTheRestForm() {
    IndexingPolicy p =
        IndexingPolicy.fromJson(
            Json.node(
                "{'indexingMode':'consistent','includedPaths':[{'path':'/*'}],'excludedPaths':[],"
                    + "'compositeIndexes':[[{'path':'/a','order':'ascending'},{'path':'/b','order':'descending'}]]}"));
    assertThat(p.compositeIndexes()).hasSize(1);
    assertThat(p.servesOrderBy(List.of("/a", "/b"), List.of(true, false))).isTrue();
    assertThat(IndexingPolicy.fromJson(p.toJson())).isEqualTo(p);
  }

  @Test
  void theEtagExclusion_isAddedOnlyToAPolicyThatDoesNotNameEtag() {
    // Spring Data Cosmos's emulator tests read back exactly the paths they sent when the policy
    // names _etag (IndexPolicyUpdateIT, CosmosAnnotationIT); {} gets the service's exclusion
    assertThat(IndexingPolicy.fromJson(Json.node("{}")).excludedPaths())
        .containsExactly("/\"_etag\"/?");
    assertThat(
            IndexingPolicy.fromJson(
                    Json.node(
                        "{'includedPaths':[{'path':'/\\\"_etag\\\"/?'}],'excludedPaths':[{'path':'/*'}]}"))
                .excludedPaths())
        .containsExactly("/*");
    assertThat(
            IndexingPolicy.fromJson(
                    Json.node(
                        "{'excludedPaths':[{'path':'/excluded/*'},{'path':'/props/*'},{'path':'/_etag/?'}]}"))
                .excludedPaths())
        .containsExactly("/excluded/*", "/props/*", "/_etag/?");
    assertThat(
            IndexingPolicy.fromJson(Json.node("{'excludedPaths':[{'path':'/a/*'}]}"))
                .excludedPaths())
        .containsExactly("/a/*", "/\"_etag\"/?");
  }

  /** Runs {@code sql} on {@code c}: it must return {@code rows} rows and load {@code loaded}. */
  private static QueryPage loads(Container c, String sql, int rows, long loaded) {
    QueryPage page = c.query(QueryRequest.of(sql));
    assertThat(page.rows()).as(sql).hasSize(rows);
    assertThat(page.metrics().documentsLoaded()).as(sql).isEqualTo(loaded);
    return page;
  }

  private static List<String> ids(Container c, String q) {
    return c.query(QueryRequest.of(q)).rows().stream().map(JsonNode::textValue).toList();
  }

  @Test
  void buildingAnIndex_doesNotStopWritesToThePartitionItScans_norTakeBackWhatTheyReplaced()
      throws Exception {
    io.cosmolab.engine.testing.StallingStore store = new io.cosmolab.engine.testing.StallingStore();
    Container c =
        CosmosEngine.builder()
            .clock(clock)
            .throttling(ThrottlingMode.OFF)
            .store(store)
            .build()
            .createDatabase("b")
            .createContainer(
                ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                    .withPhysicalPartitions(1));
    for (int i = 0; i < 50; i++) {
      c.create(obj("{'id':'d" + i + "','pk':'k" + (i % 5) + "','n':" + (i % 10) + "}"));
    }
    // the build's scan (the first a query on /n makes) reads, then stalls: it will yield versions
    // the writes below replace meanwhile, which the index must not take back
    store.stallNextScanAfterReading();
    java.util.concurrent.ExecutorService queries =
        java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      java.util.concurrent.Future<List<String>> query =
          queries.submit(() -> ids(c, "SELECT VALUE c.id FROM c WHERE c.n = 3"));
      assertThat(store.awaitStalled()).isTrue();
      java.util.concurrent.Future<?> write =
          java.util.concurrent.ForkJoinPool.commonPool()
              .submit(
                  () -> {
                    c.upsert(obj("{'id':'d0','pk':'k0','n':3}")); // was 0
                    c.delete(PartitionKeyValue.of("k3"), "d3"); // was 3
                    c.create(obj("{'id':'late','pk':'k1','n':3}"));
                  });
      write.get(10, java.util.concurrent.TimeUnit.SECONDS); // not behind the stalled build
      store.release();
      assertThat(query.get(10, java.util.concurrent.TimeUnit.SECONDS)).isNotEmpty();
    } finally {
      store.release();
      queries.shutdownNow();
    }
    QueryPage page = c.query(QueryRequest.of("SELECT VALUE c.id FROM c WHERE c.n = 3"));
    assertThat(page.rows().stream().map(JsonNode::textValue).sorted())
        .containsExactly("d0", "d13", "d23", "d33", "d43", "late");
    assertThat(page.metrics().indexHits()).as("no stale entry").isEqualTo(6);
    QueryPage zeros = c.query(QueryRequest.of("SELECT VALUE c.id FROM c WHERE c.n = 0"));
    assertThat(zeros.rows()).hasSize(4); // d10, d20, d30, d40; d0 moved to 3
    assertThat(zeros.metrics().indexHits()).as("no stale entry").isEqualTo(4);
    assertThat(ids(c, "SELECT VALUE c.id FROM c WHERE c.n = 1"))
        .as("a rewrite with its value unchanged, before the fill reached it")
        .containsExactlyInAnyOrder("d1", "d11", "d21", "d31", "d41");
  }

  @Test
  void anIndexBuiltWhileWritesRace_holdsExactlyTheLatestVersions() throws Exception {
    Random random = new Random(7);
    for (int round = 0; round < 10; round++) {
      Container c = container("race" + round, IndexingPolicy.DEFAULT);
      for (int i = 0; i < 400; i++) {
        c.create(obj("{'id':'d" + i + "','pk':'k" + (i % 7) + "','n':" + (i % 10) + "}"));
      }
      long seed = random.nextLong();
      java.util.concurrent.atomic.AtomicBoolean stop =
          new java.util.concurrent.atomic.AtomicBoolean();
      Thread writer =
          new Thread(
              () -> {
                Random r = new Random(seed);
                while (!stop.get()) {
                  int i = r.nextInt(400);
                  String pk = "k" + (i % 7);
                  if (r.nextInt(5) == 0) {
                    try {
                      c.delete(PartitionKeyValue.of(pk), "d" + i);
                    } catch (io.cosmolab.engine.error.CosmosException gone) {
                      // deleted already
                    }
                  } else {
                    c.upsert(
                        obj("{'id':'d" + i + "','pk':'" + pk + "','n':" + r.nextInt(10) + "}"));
                  }
                }
              });
      writer.start();
      try {
        ids(c, "SELECT VALUE c.id FROM c WHERE c.n = 1"); // builds the index of /n meanwhile
      } finally {
        stop.set(true);
        writer.join(10_000);
      }
      for (int v = 0; v < 10; v++) {
        QueryPage viaIndex = c.query(QueryRequest.of("SELECT VALUE c.id FROM c WHERE c.n = " + v));
        List<String> oracle = new java.util.ArrayList<>();
        for (JsonNode d : c.query(QueryRequest.of("SELECT * FROM c")).rows()) {
          if (d.get("n").intValue() == v) {
            oracle.add(d.get("id").textValue());
          }
        }
        assertThat(viaIndex.rows().stream().map(JsonNode::textValue).toList())
            .as("round %d (writer seed %d), n = %d", round, seed, v)
            .containsExactlyInAnyOrderElementsOf(oracle);
        assertThat(viaIndex.metrics().indexHits()).isEqualTo(oracle.size());
      }
    }
  }
}
