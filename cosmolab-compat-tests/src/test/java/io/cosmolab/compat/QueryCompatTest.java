package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyBuilder;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.testkit.CosmosLabExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every query plan shape through the Java SDK's own cross-partition pipeline (plan, per-range
 * rewritten queries, client-side merge) on 8 physical partitions, against the same data on one
 * partition as the oracle.
 */
@ExtendWith(CosmosLabExtension.class)
class QueryCompatTest {
  private static final int DOCS = 400;
  private static CosmosContainer single;
  private static CosmosContainer spread;
  private static CosmosContainer hierarchical;
  private static List<ObjectNode> data;

  @BeforeAll
  static void load(CosmosClient client) {
    client.createDatabaseIfNotExists("queries");
    CosmosDatabase db = client.getDatabase("queries");
    single = Fixtures.container(db, "single", 1, "/pk");
    spread = Fixtures.container(db, "spread", 8, "/pk");
    hierarchical = Fixtures.container(db, "hierarchical", 8, "/tenant", "/user", "/session");
    data = Fixtures.documents(DOCS, 42);
    for (CosmosContainer c : List.of(single, spread)) {
      Fixtures.createAll(c, data);
    }
    Fixtures.createAll(hierarchical, data, QueryCompatTest::hierarchicalKey);
    assertThat(spread.getFeedRanges()).hasSize(8);
  }

  @org.junit.jupiter.api.Test
  void queryMetrics_reportRetrievedAgainstOutput_theRatioThatExposesAFanOut() {
    // a filter no index serves, across partitions, scans every one: 400 retrieved for 1 row
    assertThat(metrics("SELECT * FROM c WHERE LOWER(c.id) = 'doc-0007'"))
        .containsExactly(1, DOCS, 1);
    // the same filter through the index retrieves only what it returns
    assertThat(metrics("SELECT * FROM c WHERE c.id = 'doc-0007'")).containsExactly(1, 1, 1);
  }

  @Test
  void queryMetrics_timeEachPhase_asTheJavaSdksOwnValidatorExpects() {
    // FeedResponseListValidator.hasValidQueryMetrics: total, VM execution and compile time above
    // 0 on every page, the other phases at least 0; an index-served filter also times its lookup
    java.time.Duration zero = java.time.Duration.ZERO;
    for (String query :
        List.of("SELECT * FROM c WHERE LOWER(c.id) >= 'doc'", "SELECT * FROM c WHERE c.n = 7")) {
      var pages = QueryProbe.perPage(spread, query, 40);
      assertThat(pages).as(query).isNotEmpty();
      for (var m : pages) {
        assertThat(m.getTotalQueryExecutionTime()).as(query).isGreaterThan(zero);
        assertThat(m.getVMExecutionTime()).as(query).isGreaterThan(zero);
        assertThat(m.getQueryPreparationTimes().getQueryCompilationTime())
            .as(query)
            .isGreaterThan(zero);
        assertThat(m.getQueryPreparationTimes().getLogicalPlanBuildTime())
            .isGreaterThanOrEqualTo(zero);
        assertThat(m.getQueryPreparationTimes().getPhysicalPlanBuildTime())
            .isGreaterThanOrEqualTo(zero);
        assertThat(m.getDocumentLoadTime()).isGreaterThanOrEqualTo(zero);
        assertThat(m.getTotalQueryExecutionTime()).isGreaterThanOrEqualTo(m.getVMExecutionTime());
      }
      if (query.endsWith("= 7")) {
        assertThat(pages).anySatisfy(m -> assertThat(m.getIndexLookupTime()).isGreaterThan(zero));
      }
    }
  }

  @Test
  void readMany_ofOneLogicalPartition_retrievesOnlyItsItems() {
    // as the Java SDK's CosmosDiagnosticsTest.readManyDiagnostics: the SDK sends one query per
    // physical partition, an OR of (id AND key) branches, which the index serves branch by branch
    List<com.azure.cosmos.models.CosmosItemIdentity> wanted = new ArrayList<>();
    for (int i : new int[] {2, 15, 28, 41, 54}) {
      wanted.add(
          new com.azure.cosmos.models.CosmosItemIdentity(
              new PartitionKey("p2"), String.format("doc-%04d", i)));
    }
    var response = spread.readMany(wanted, ObjectNode.class);
    assertThat(response.getResults())
        .extracting(d -> d.get("id").asText())
        .containsExactlyInAnyOrder("doc-0002", "doc-0015", "doc-0028", "doc-0041", "doc-0054");
    long retrieved = 0;
    for (var m : com.azure.cosmos.BridgeInternal.queryMetricsFromFeedResponse(response).values()) {
      retrieved += m.getRetrievedDocumentCount();
    }
    assertThat(retrieved).isEqualTo(5);
  }

  @Test
  void indexMetrics_nameTheIndexThatServedAFilter_theOneThatWouldHave_andTheCompositeOfAnOrderBy(
      CosmosClient client) {
    // every path is indexed in `spread`: the filter on /grp is served by /grp/?
    assertThat(indexUse(spread, "SELECT c.id FROM c WHERE c.grp = 'beta'"))
        .containsExactly("utilized /grp/? (ROOT.grp = \"beta\")");
    assertThat(indexUse(spread, "SELECT c.id FROM c ORDER BY c.n ASC, c.id ASC"))
        .containsExactly("composite [/n ASC, /id ASC]");
    // a container that excludes /grp scans for the same filter, and says which index would serve it
    com.azure.cosmos.models.PartitionKeyDefinition key =
        new com.azure.cosmos.models.PartitionKeyDefinition();
    key.setPaths(List.of("/pk"));
    com.azure.cosmos.models.CosmosContainerProperties props =
        new com.azure.cosmos.models.CosmosContainerProperties("excluding", key);
    com.azure.cosmos.models.IndexingPolicy policy = new com.azure.cosmos.models.IndexingPolicy();
    policy.setIncludedPaths(List.of(new com.azure.cosmos.models.IncludedPath("/*")));
    policy.setExcludedPaths(List.of(new com.azure.cosmos.models.ExcludedPath("/grp/?")));
    props.setIndexingPolicy(policy);
    client.getDatabase("queries").createContainerIfNotExists(props);
    CosmosContainer excluding = client.getDatabase("queries").getContainer("excluding");
    Fixtures.createAll(excluding, data.subList(0, 20));
    assertThat(indexUse(excluding, "SELECT c.id FROM c WHERE c.grp = 'beta' AND c.n > 10"))
        .containsExactlyInAnyOrder(
            "utilized /n/? (ROOT.n > 10)", "potential /grp/? (ROOT.grp = \"beta\")");
  }

  private static List<String> indexUse(CosmosContainer c, String query) {
    return QueryProbe.indexUse(c, query);
  }

  private static long[] metrics(String query) {
    return QueryProbe.metrics(spread, query);
  }

  private static PartitionKey hierarchicalKey(ObjectNode d) {
    return new PartitionKeyBuilder()
        .add(d.get("tenant").asText())
        .add(d.get("user").asText())
        .add(d.get("session").asText())
        .build();
  }

  static List<JsonNode> run(CosmosContainer c, SqlQuerySpec q, int pageSize) {
    List<JsonNode> out = new ArrayList<>();
    for (FeedResponse<JsonNode> page :
        c.queryItems(q, new CosmosQueryRequestOptions(), JsonNode.class).iterableByPage(pageSize)) {
      out.addAll(page.getResults());
    }
    return out;
  }

  /**
   * Ordered queries whose sort keys leave no ties: across partitions the SDK breaks ties by range,
   * not by RID, so tied rows may legitimately come in another order than on one partition.
   */
  static Stream<String> orderedQueries() {
    return Stream.of(
        "SELECT * FROM c ORDER BY c.id",
        "SELECT * FROM c ORDER BY c.id DESC",
        "SELECT c.id, c.n FROM c ORDER BY c.n ASC, c.id ASC",
        "SELECT c.id, c.n FROM c ORDER BY c.n DESC, c.id DESC",
        "SELECT c.id, c.grp, c.n FROM c ORDER BY c.grp ASC, c.n DESC, c.id ASC",
        "SELECT TOP 5 c.id, c.price FROM c ORDER BY c.price DESC",
        "SELECT c.id FROM c ORDER BY c.id OFFSET 17 LIMIT 9",
        "SELECT DISTINCT VALUE c.grp FROM c ORDER BY c.grp",
        // DISTINCT with a bound: a partition's duplicates must not use the bound up. (Not with
        // TOP: the Java SDK's Fetcher stops each range after TOP rows, before it de-duplicates,
        // which loses rows against the service too; the engine's differential test covers TOP.)
        "SELECT DISTINCT VALUE c.grp FROM c ORDER BY c.grp OFFSET 1 LIMIT 2",
        "SELECT DISTINCT VALUE c.n FROM c ORDER BY c.n DESC OFFSET 3 LIMIT 4",
        "SELECT VALUE c.id FROM c WHERE c.n > 25 ORDER BY c.id",
        // a JOIN's rows share their document's keys, in their order; pages of 7 end among them
        "SELECT c.id, t AS tag FROM c JOIN t IN c.tags ORDER BY c.id",
        "SELECT c.id, t AS tag FROM c JOIN t IN c.tags WHERE t != 'x' ORDER BY c.id DESC");
  }

  @ParameterizedTest
  @MethodSource("orderedQueries")
  void orderedQuery_onEightPartitions_equalsOnePartition(String text) {
    SqlQuerySpec q = new SqlQuerySpec(text);
    List<JsonNode> expected = run(single, q, 1000);
    List<JsonNode> actual = run(spread, q, 7);
    assertThat(expected).isNotEmpty();
    assertThat(Fixtures.sequence(actual)).isEqualTo(Fixtures.sequence(expected));
  }

  static Stream<String> unorderedQueries() {
    return Stream.of(
        "SELECT * FROM c WHERE c.n > 10",
        "SELECT DISTINCT VALUE c.grp FROM c",
        "SELECT DISTINCT c.grp, c.tenant FROM c",
        "SELECT VALUE COUNT(1) FROM c",
        "SELECT VALUE SUM(c.n) FROM c",
        "SELECT VALUE MIN(c.price) FROM c",
        "SELECT VALUE MAX(c.id) FROM c",
        "SELECT VALUE AVG(c.n) FROM c",
        "SELECT VALUE COUNT(1) FROM c WHERE c.pk = 'p3'",
        "SELECT c.grp, COUNT(1) AS cnt, SUM(c.n) AS total FROM c GROUP BY c.grp",
        "SELECT c.tenant, MAX(c.price) AS highest FROM c GROUP BY c.tenant",
        "SELECT COUNT(1) AS cnt, MIN(c.n) AS low FROM c",
        "SELECT c.id, t AS tag FROM c JOIN t IN c.tags WHERE t = 'x'",
        "SELECT VALUE COUNT(1) FROM c JOIN t IN c.tags",
        "SELECT c.id FROM c WHERE ARRAY_CONTAINS(c.tags, 'y1') AND c.grp IN ('alpha', 'beta')",
        // an aggregate beside ORDER BY: one row, and no orderByItems to wait for
        "SELECT VALUE COUNT(1) FROM c ORDER BY c.n",
        "SELECT VALUE MAX(c.price) FROM c WHERE c.n > 5 ORDER BY c.id DESC",
        // GROUP BY with SELECT VALUE
        "SELECT VALUE c.grp FROM c GROUP BY c.grp",
        "SELECT VALUE COUNT(1) FROM c GROUP BY c.grp",
        "SELECT VALUE MIN(c.n) FROM c GROUP BY c.tenant",
        "SELECT VALUE {'g': c.grp, 't': c.tenant} FROM c GROUP BY c.grp, c.tenant",
        // more groups than a page of 11 holds on every partition: each range's later pages take
        // the query its page before left open (QueryCursors), and the SDK merges them
        "SELECT c.n, COUNT(1) AS k, MAX(c.price) AS priciest FROM c GROUP BY c.n",
        // SUM over no values is 0, per group too
        "SELECT c.grp, SUM(c.missing) AS s FROM c GROUP BY c.grp",
        // a count of distinct values that several partitions hold: a distinct count (dCountInfo)
        "SELECT VALUE COUNT(1) FROM (SELECT DISTINCT VALUE c.grp FROM c)",
        "SELECT COUNT(1) AS kinds FROM (SELECT DISTINCT c.grp, c.tenant FROM c) d");
  }

  @Test
  void orderByAnArrayElementsProperty_worksOnOneAndEightPartitions(CosmosClient client) {
    // the official samples' query over their family documents
    CosmosDatabase db = client.getDatabase("queries");
    for (int partitions : new int[] {1, 8}) {
      CosmosContainer families = Fixtures.container(db, "families" + partitions, partitions, "/pk");
      int[][] grades = {{5, 1}, {8}, {2}, {7, 3}};
      for (int i = 0; i < grades.length; i++) {
        ObjectNode d = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        d.put("id", "f" + i).put("pk", "k" + i);
        var children = d.putArray("Children");
        for (int g : grades[i]) {
          children.addObject().put("Grade", g);
        }
        families.createItem(d);
      }
      List<String> ids = new ArrayList<>();
      for (JsonNode row :
          run(
              families,
              new SqlQuerySpec(
                  "SELECT c.id, c.Children[0].Grade AS g FROM c ORDER BY c.Children[0].Grade"),
              2)) {
        ids.add(row.get("id").asText());
      }
      assertThat(ids).as("%d partitions", partitions).containsExactly("f2", "f0", "f3", "f1");
    }
  }

  @Test
  void distinctUnderAnOrderByOnAnotherKey_returnsEachValueOnce_inTheOrderOfItsFirstRow() {
    // the Java SDK's DistinctQueryTests: an "Ordered" plan here made the SDK drop only a row equal
    // to the one before it, so a group came back once for every run of it in price order
    List<ObjectNode> byPrice = new ArrayList<>(data);
    byPrice.sort(java.util.Comparator.comparingDouble(d -> d.get("price").asDouble()));
    List<String> expected = byPrice.stream().map(d -> d.get("grp").asText()).distinct().toList();
    for (CosmosContainer c : List.of(single, spread)) {
      List<String> grps = new ArrayList<>();
      for (JsonNode row :
          run(c, new SqlQuerySpec("SELECT DISTINCT VALUE c.grp FROM c ORDER BY c.price"), 7)) {
        grps.add(row.asText());
      }
      assertThat(grps).isEqualTo(expected);
    }
  }

  @Test
  void distinctUnderOrderBy_resumes_onlyWhenTheKeysAreTheProjection() {
    // as the Java SDK's DistinctQueryTests.queryDocumentsWithOrderBy: the SDK resumes an ordered
    // DISTINCT from its continuation and refuses an unordered one's with 400
    String matched = "SELECT DISTINCT VALUE c.id FROM c ORDER BY c.id DESC";
    String unmatched = "SELECT DISTINCT VALUE c.id FROM c ORDER BY c.price DESC";
    CosmosQueryRequestOptions options = new CosmosQueryRequestOptions().setMaxBufferedItemCount(1);
    String token =
        spread
            .queryItems(matched, options, String.class)
            .iterableByPage(1)
            .iterator()
            .next()
            .getContinuationToken();
    assertThat(
            spread
                .queryItems(matched, options, String.class)
                .iterableByPage(token, 1)
                .iterator()
                .next()
                .getResults())
        .hasSize(1);
    String other =
        spread
            .queryItems(unmatched, options, String.class)
            .iterableByPage(1)
            .iterator()
            .next()
            .getContinuationToken();
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                spread
                    .queryItems(unmatched, options, String.class)
                    .iterableByPage(other, 1)
                    .iterator()
                    .next())
        .isInstanceOfSatisfying(
            com.azure.cosmos.CosmosException.class,
            e -> assertThat(e.getStatusCode()).isEqualTo(400));
  }

  @Test
  void sumOverNoValues_isZero_onOneAndEightPartitions() {
    for (CosmosContainer c : List.of(single, spread)) {
      List<JsonNode> rows = run(c, new SqlQuerySpec("SELECT VALUE SUM(c.missing) FROM c"), 5);
      assertThat(rows).hasSize(1);
      assertThat(rows.get(0).asDouble()).isZero();
    }
  }

  @Test
  void notEqualAcrossTypes_isTrue_soNotNullFiltersKeepEveryDefinedValue(CosmosClient client) {
    // the Java SDK's OrderbyDocumentQueryTest: `WHERE r.propInt != null ORDER BY r.propInt`
    // returns every document whose propInt is a number (cross-type != is true, not undefined)
    CosmosDatabase db = client.getDatabase("queries");
    for (int partitions : new int[] {1, 8}) {
      CosmosContainer c = Fixtures.container(db, "notEqual" + partitions, partitions, "/pk");
      Object[] values = {7, null, 3, "s", 11, MISSING, -2, null, MISSING};
      String[] statuses = {"done", "open", null, "done", MISSING_TEXT, "open", null, "x", "done"};
      for (int i = 0; i < values.length; i++) {
        ObjectNode d = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        d.put("id", "d" + i).put("pk", "k" + i);
        if (values[i] instanceof Integer n) {
          d.put("propInt", n);
        } else if (values[i] instanceof String t) {
          d.put("propInt", t);
        } else if (values[i] == null) {
          d.putNull("propInt");
        }
        if (statuses[i] == null) {
          d.putNull("status");
        } else if (!MISSING_TEXT.equals(statuses[i])) {
          d.put("status", statuses[i]);
        }
        c.createItem(d);
      }
      String where = "%d partitions".formatted(partitions);
      assertThat(ids(c, "SELECT * FROM r WHERE r.propInt != null ORDER BY r.propInt", 2))
          .as(where)
          .containsExactly("d6", "d2", "d0", "d4", "d3");
      assertThat(ids(c, "SELECT * FROM r WHERE r.propInt != null ORDER BY r.propInt DESC", 2))
          .as(where)
          .containsExactly("d3", "d4", "d0", "d2", "d6");
      List<String> values2 = new ArrayList<>();
      for (JsonNode v :
          run(c, new SqlQuerySpec("SELECT VALUE r.propInt FROM r WHERE r.propInt != null"), 3)) {
        values2.add(v.asText());
      }
      assertThat(values2).as(where).containsExactlyInAnyOrder("7", "3", "s", "11", "-2");
      // a null status is not 'done'; a missing one is undefined, and left out
      assertThat(ids(c, "SELECT * FROM r WHERE r.status != 'done'", 4))
          .as(where)
          .containsExactlyInAnyOrder("d1", "d2", "d5", "d6", "d7");
      assertThat(ids(c, "SELECT * FROM r WHERE NOT (r.propInt = 3)", 4))
          .as(where)
          .containsExactlyInAnyOrder("d0", "d1", "d3", "d4", "d6", "d7");
    }
  }

  private static final Object MISSING = new Object();
  private static final String MISSING_TEXT = "<missing>";

  private static List<String> ids(CosmosContainer c, String query, int pageSize) {
    List<String> ids = new ArrayList<>();
    for (JsonNode row : run(c, new SqlQuerySpec(query), pageSize)) {
      ids.add(row.get("id").asText());
    }
    return ids;
  }

  @Test
  void queryAdvice_namesTheRulesAQueryMeets_onlyWhenAsked() {
    // the Java SDK's QueryAdviceTest: CONTAINS meets QA1002, whose message (the SDK's own copy)
    // suggests STARTSWITH; SELECT * meets none; without the option no page has advice
    for (CosmosContainer c : List.of(single, spread)) {
      List<String> advised = advice(c, "SELECT * FROM c WHERE CONTAINS(c.grp, 'al')", true);
      assertThat(advised).isNotEmpty();
      assertThat(advised)
          .allSatisfy(
              a ->
                  assertThat(a)
                      .startsWith("QA1002: ")
                      .containsIgnoringCase("STARTSWITH")
                      .contains("https://aka.ms/CosmosDB/QueryAdvisor/QA1002"));
      assertThat(advice(c, "SELECT * FROM c WHERE CONTAINS(c.grp, 'al')", false)).isEmpty();
      assertThat(advice(c, "SELECT * FROM c", true)).isEmpty();
      assertThat(
              advice(
                  c,
                  "SELECT * FROM c WHERE LOWER(c.grp) = 'alpha' AND c.n < GetCurrentTicks()",
                  true))
          .isNotEmpty()
          .allSatisfy(
              a ->
                  assertThat(a.lines().map(l -> l.substring(0, 6)))
                      .containsExactly("QA1006", "QA1008"));
    }
  }

  /** Each page's advice ({@code FeedResponse.getQueryAdvice}), for the pages that have any. */
  private static List<String> advice(CosmosContainer c, String query, boolean enabled) {
    List<String> out = new ArrayList<>();
    CosmosQueryRequestOptions options = new CosmosQueryRequestOptions();
    options.setQueryAdviceEnabled(enabled);
    for (FeedResponse<JsonNode> page :
        c.queryItems(new SqlQuerySpec(query), options, JsonNode.class).iterableByPage(50)) {
      if (page.getQueryAdvice() != null) {
        out.add(page.getQueryAdvice());
      }
    }
    return out;
  }

  @Test
  void offsetAndLimitPastTwoToThe31_run_asLinqsSkipSendsThem() {
    // LINQ's Skip(n) is OFFSET n LIMIT 2147483647; the plan sends each partition LIMIT n +
    // 2147483647, which the service accepts up to 2^32 - 1 (the .NET SDK's SkipTakeQueryTests)
    for (CosmosContainer c : List.of(single, spread)) {
      assertThat(run(c, new SqlQuerySpec("SELECT c.id FROM c OFFSET 10 LIMIT 2147483647"), 100))
          .hasSize(DOCS - 10);
      assertThat(run(c, new SqlQuerySpec("SELECT c.id FROM c OFFSET 2147483647 LIMIT 10"), 100))
          .isEmpty();
    }
  }

  @Test
  void expressionOverAggregates_isRefusedByThePlan_withTheServicesMessage() {
    for (CosmosContainer c : List.of(single, spread)) {
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> run(c, new SqlQuerySpec("SELECT VALUE COUNT(1) + SUM(c.n) FROM c"), 5))
          .isInstanceOfSatisfying(
              com.azure.cosmos.CosmosException.class,
              e -> assertThat(e.getStatusCode()).isEqualTo(400))
          .hasMessageContaining(
              "Compositions of aggregates and other expressions are not allowed.");
    }
  }

  @Test
  void orderByWithGroupBy_isRefusedByThePlan() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                run(
                    spread,
                    new SqlQuerySpec("SELECT c.grp FROM c GROUP BY c.grp ORDER BY c.grp"),
                    5))
        .isInstanceOfSatisfying(
            com.azure.cosmos.CosmosException.class,
            e -> assertThat(e.getStatusCode()).isEqualTo(400))
        .hasMessageContaining("ORDER BY cannot be used together with GROUP BY");
  }

  @ParameterizedTest
  @MethodSource("unorderedQueries")
  void unorderedQuery_onEightPartitions_equalsOnePartition(String text) {
    SqlQuerySpec q = new SqlQuerySpec(text);
    List<JsonNode> expected = run(single, q, 1000);
    List<JsonNode> actual = run(spread, q, 11);
    assertThat(expected).isNotEmpty();
    if (text.contains("AVG")) {
      assertThat(actual).hasSize(1);
      assertThat(actual.get(0).asDouble()).isCloseTo(expected.get(0).asDouble(), within(1e-9));
      return;
    }
    assertThat(Fixtures.multiset(actual)).isEqualTo(Fixtures.multiset(expected));
  }

  private static org.assertj.core.data.Offset<Double> within(double d) {
    return org.assertj.core.data.Offset.offset(d);
  }

  @Test
  void parameters_bindLikeLiterals() {
    SqlQuerySpec q =
        new SqlQuerySpec(
            "SELECT VALUE c.id FROM c WHERE c.n BETWEEN @lo AND @hi AND c.grp = @g",
            new SqlParameter("@lo", 10),
            new SqlParameter("@hi", 20),
            new SqlParameter("@g", "beta"));
    long expected =
        data.stream()
            .filter(d -> d.get("n").asInt() >= 10 && d.get("n").asInt() <= 20)
            .filter(d -> d.get("grp").asText().equals("beta"))
            .count();
    assertThat(run(spread, q, 5)).hasSize((int) expected);
  }

  @Test
  void topWithoutOrderBy_returnsExactlyTop() {
    assertThat(run(spread, new SqlQuerySpec("SELECT TOP 7 c.id FROM c"), 3)).hasSize(7);
  }

  @Test
  void hierarchicalPrefix_returnsExactlyThePrefixDocuments() {
    for (String[] prefix : new String[][] {{"t1"}, {"t2", "u5"}, {"t0", "u3", "s3"}}) {
      PartitionKeyBuilder b = new PartitionKeyBuilder();
      for (String part : prefix) {
        b.add(part);
      }
      CosmosQueryRequestOptions options =
          new CosmosQueryRequestOptions().setPartitionKey(b.build());
      List<String> ids = new ArrayList<>();
      hierarchical
          .queryItems("SELECT * FROM c", options, ObjectNode.class)
          .iterableByPage(9)
          .forEach(p -> p.getResults().forEach(d -> ids.add(d.get("id").asText())));
      List<String> expected =
          data.stream()
              .filter(d -> d.get("tenant").asText().equals(prefix[0]))
              .filter(d -> prefix.length < 2 || d.get("user").asText().equals(prefix[1]))
              .filter(d -> prefix.length < 3 || d.get("session").asText().equals(prefix[2]))
              .map(d -> d.get("id").asText())
              .toList();
      assertThat(expected).isNotEmpty();
      assertThat(ids).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  /**
   * Resuming an ORDER BY from a token, the Java SDK sends every partition a filter of the keys past
   * the token's row, with the types that sort after it ({@code IS_BOOLEAN(c.n)} and others when
   * descending over numbers or strings).
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT c.id, c.n FROM c ORDER BY c.n DESC, c.id DESC",
        "SELECT c.id FROM c ORDER BY c.id DESC",
        "SELECT c.id, c.price FROM c ORDER BY c.price DESC",
        "SELECT c.id, c.price FROM c ORDER BY c.price",
        "SELECT c.id, c.n FROM c ORDER BY c.n ASC, c.id ASC"
      })
  void orderedQuery_resumedFromEachPagesToken_equalsOnePartition(String text) {
    List<JsonNode> expected = run(single, new SqlQuerySpec(text), 1000);
    List<JsonNode> collected = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      FeedResponse<JsonNode> page =
          spread
              .queryItems(text, new CosmosQueryRequestOptions(), JsonNode.class)
              .iterableByPage(token, 41)
              .iterator()
              .next();
      collected.addAll(page.getResults());
      token = page.getContinuationToken();
      pages++;
    } while (token != null);
    assertThat(pages).isGreaterThan(5);
    assertThat(Fixtures.sequence(collected)).isEqualTo(Fixtures.sequence(expected));
  }

  @Test
  void continuationTokens_resumeAcrossPages() {
    List<String> plain = new ArrayList<>();
    String token = null;
    do {
      FeedResponse<ObjectNode> page =
          spread
              .queryItems(
                  "SELECT * FROM c WHERE c.n < 30",
                  new CosmosQueryRequestOptions(),
                  ObjectNode.class)
              .iterableByPage(token, 23)
              .iterator()
              .next();
      page.getResults().forEach(d -> plain.add(d.get("id").asText()));
      token = page.getContinuationToken();
    } while (token != null);
    assertThat(plain)
        .doesNotHaveDuplicates()
        .hasSize((int) data.stream().filter(d -> d.get("n").asInt() < 30).count());
  }
}
