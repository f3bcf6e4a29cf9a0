package io.cosmolab.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.query.exec.Executor;
import io.cosmolab.query.plan.HybridSearchPlanner;
import io.cosmolab.query.plan.QueryPlanner;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The plans of vector and hybrid search, field by field, and the container policies they read; the
 * partition queries a hybrid plan sends, run as the client would send them, rank as the single pass
 * does.
 */
class SearchPlanTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static SearchPolicy policy(String json) throws Exception {
    JsonNode p = MAPPER.readTree(json);
    return SearchPolicy.fromJson(p.get("vectorEmbeddingPolicy"), p.get("fullTextPolicy"));
  }

  private static final String EUCLIDEAN =
      "{\"vectorEmbeddingPolicy\": {\"vectorEmbeddings\": [{\"path\": \"/v\", \"dataType\":"
          + " \"float32\", \"distanceFunction\": \"euclidean\", \"dimensions\": 2}]}}";

  @Test
  void orderByVectorDistance_isANonStreamingOrderBy_mostSimilarFirst_underThePolicysMetric()
      throws Exception {
    CompiledQuery q =
        CompiledQuery.compile(
                "SELECT TOP 3 c.id FROM c ORDER BY VectorDistance(c.v, [1, 2])", Map.of())
            .withSearchPolicy(policy(EUCLIDEAN));
    ObjectNode info = QueryPlanner.queryInfo(q);
    assertThat(info.get("hasNonStreamingOrderBy").booleanValue()).isTrue();
    assertThat(info.get("orderBy")).hasToString("[\"Ascending\"]");
    String key =
        "(VECTORDISTANCE(c.v, [1, 2], false, {\"distanceFunction\": \"euclidean\", \"dataType\":"
            + " \"float32\"}) ?? 1.0E300)";
    assertThat(info.get("orderByExpressions").get(0).textValue()).isEqualTo(key);
    assertThat(info.get("rewrittenQuery").textValue())
        .startsWith("SELECT TOP 3 c._rid, [{\"item\": " + key + "}] AS orderByItems")
        .endsWith("ORDER BY " + key + " ASC");
    // without the policy the metric is cosine, a similarity: the largest first
    ObjectNode cosine =
        QueryPlanner.queryInfo(
            CompiledQuery.compile(
                "SELECT TOP 3 c.id FROM c ORDER BY VectorDistance(c.v, [1, 2])", Map.of()));
    assertThat(cosine.get("orderBy")).hasToString("[\"Descending\"]");
  }

  @Test
  void orderByVectorDistance_withoutTopOrLimit_isRefusedWithTheReason() {
    assertThatThrownBy(
            () ->
                QueryPlanner.queryInfo(
                    CompiledQuery.compile(
                        "SELECT c.id FROM c ORDER BY VectorDistance(c.v, [1, 2])", Map.of())))
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("needs TOP or OFFSET ... LIMIT");
  }

  @Test
  void orderByRank_plansStatisticsAndOneComponentQueryPerScore_withTheSdksPlaceholders() {
    ObjectNode info =
        HybridSearchPlanner.info(
            CompiledQuery.compile(
                "SELECT c.id FROM c WHERE c.n > 1 ORDER BY RANK RRF(FullTextScore(c.text,"
                    + " 'Running Shoes'), VectorDistance(c.v, [1, 0]), [2, 1]) OFFSET 1 LIMIT 4",
                Map.of()));
    assertThat(info.get("globalStatisticsQuery").textValue())
        .isEqualTo(
            "SELECT COUNT(1) AS documentCount, [{\"totalWordCount\":"
                + " SUM(_FullTextWordCount(c.text)), \"hitCounts\": [SUM(_FullTextHits(c.text,"
                + " \"run\")), SUM(_FullTextHits(c.text, \"shoe\"))]}] AS fullTextStatistics FROM c"
                + " AS c");
    assertThat(info.get("requiresGlobalStatistics").booleanValue()).isTrue();
    assertThat(info.get("componentWeights")).hasToString("[2.0,1.0]");
    assertThat(info.get("skip").intValue()).isEqualTo(1);
    assertThat(info.get("take").intValue()).isEqualTo(4);
    JsonNode text = info.get("componentQueryInfos").get(0);
    String bm25 =
        "_FullTextBm25(c.text, [\"run\",\"shoe\"],"
            + " {documentdb-formattablehybridsearchquery-totaldocumentcount},"
            + " {documentdb-formattablehybridsearchquery-totalwordcount-0},"
            + " {documentdb-formattablehybridsearchquery-hitcountsarray-0})";
    assertThat(text.get("orderBy")).hasToString("[\"Descending\"]");
    assertThat(text.get("hasNonStreamingOrderBy").booleanValue()).isTrue();
    assertThat(text.get("rewrittenQuery").textValue())
        .startsWith("SELECT TOP 5 c._rid, [{\"item\": " + bm25 + "}] AS orderByItems")
        .contains("\"componentScores\": [" + bm25 + ", (VECTORDISTANCE(c.v, [1, 0]) ?? -1.0E300)]")
        .contains("{\"payload\": {\"id\": c.id}")
        .endsWith(
            "WHERE ((c.n > 1)) AND ({documentdb-formattableorderbyquery-filter}) ORDER BY "
                + bm25
                + " DESC");
    assertThat(info.get("componentQueryInfos").get(1).get("rewrittenQuery").textValue())
        .endsWith("ORDER BY (VECTORDISTANCE(c.v, [1, 0]) ?? -1.0E300) DESC");
  }

  @Test
  void orderByRank_needsABound_andAnObjectPerResult() {
    assertThatThrownBy(
            () ->
                HybridSearchPlanner.info(
                    CompiledQuery.compile(
                        "SELECT c.id FROM c ORDER BY RANK FullTextScore(c.text, 'x')", Map.of())))
        .hasMessageContaining("needs TOP or OFFSET ... LIMIT");
    assertThatThrownBy(
            () ->
                HybridSearchPlanner.info(
                    CompiledQuery.compile(
                        "SELECT TOP 2 VALUE c.id FROM c ORDER BY RANK FullTextScore(c.text, 'x')",
                        Map.of())))
        .hasMessageContaining("SELECT VALUE");
  }

  /** The statistics query and a component query, filled in as the client fills them, rank right. */
  @Test
  void theClientsFilledInPartitionQueries_scoreAsTheSinglePass() throws Exception {
    List<Executor.Input> docs = new ArrayList<>();
    String[] texts = {"red bike", "red bikes and red bikes", "blue car", "running shoes", "bike"};
    for (int i = 0; i < texts.length; i++) {
      docs.add(
          new Executor.Input(
              MAPPER.readTree("{\"id\": \"d" + i + "\", \"text\": \"" + texts[i] + "\"}"), i));
    }
    CompiledQuery compiled =
        CompiledQuery.compile(
            "SELECT TOP 3 c.id FROM c ORDER BY RANK FullTextScore(c.text, 'bike', 'red')",
            Map.of());
    assertThat(statistics(compiled, docs))
        .hasToString(
            "{\"documentCount\":5,\"fullTextStatistics\":[{\"totalWordCount\":11,\"hitCounts\":[3,2]}]}");
    assertThat(rankedViaPlan(compiled, docs))
        .containsExactlyElementsOf(rankedDirectly(compiled, docs))
        .containsExactly("{\"id\":\"d1\"}", "{\"id\":\"d0\"}", "{\"id\":\"d4\"}");
  }

  /**
   * With a JOIN, the statistics are over the rows FROM and its JOINs yield, as the single pass's
   * corpus gathers them: the texts of {@code t} are counted, not the documents of {@code c}.
   */
  @Test
  void aRankOverJoinedRows_takesItsStatisticsFromThoseRows() throws Exception {
    List<Executor.Input> docs = new ArrayList<>();
    docs.add(
        new Executor.Input(
            MAPPER.readTree("{\"id\": \"a\", \"texts\": [\"red bike\", \"blue car\"]}"), 0));
    docs.add(new Executor.Input(MAPPER.readTree("{\"id\": \"b\", \"texts\": [\"bike bike\"]}"), 1));
    docs.add(
        new Executor.Input(
            MAPPER.readTree("{\"id\": \"c\", \"texts\": [\"shoes\", \"red shoes\"]}"), 2));
    CompiledQuery compiled =
        CompiledQuery.compile(
            "SELECT TOP 2 c.id, t FROM c JOIN t IN c.texts ORDER BY RANK FullTextScore(t, 'bike')",
            Map.of());
    assertThat(statistics(compiled, docs))
        .hasToString(
            "{\"documentCount\":5,\"fullTextStatistics\":[{\"totalWordCount\":9,\"hitCounts\":[2]}]}");
    assertThat(rankedViaPlan(compiled, docs))
        .containsExactlyElementsOf(rankedDirectly(compiled, docs))
        .startsWith("{\"id\":\"b\",\"t\":\"bike bike\"}");
  }

  private static JsonNode statistics(CompiledQuery compiled, List<Executor.Input> docs) {
    ObjectNode info = HybridSearchPlanner.info(compiled);
    return CompiledQuery.compile(info.get("globalStatisticsQuery").textValue(), Map.of())
        .execute(docs, Instant.EPOCH)
        .get(0);
  }

  /** The first component query, filled in with the statistics as the client fills it in. */
  private static List<String> rankedViaPlan(CompiledQuery compiled, List<Executor.Input> docs) {
    JsonNode stats = statistics(compiled, docs);
    JsonNode ft = stats.get("fullTextStatistics").get(0);
    String component =
        HybridSearchPlanner.info(compiled)
            .get("componentQueryInfos")
            .get(0)
            .get("rewrittenQuery")
            .textValue()
            .replace("{documentdb-formattableorderbyquery-filter}", "true")
            .replace(
                "{documentdb-formattablehybridsearchquery-totaldocumentcount}",
                stats.get("documentCount").toString())
            .replace(
                "{documentdb-formattablehybridsearchquery-totalwordcount-0}",
                ft.get("totalWordCount").toString())
            .replace(
                "{documentdb-formattablehybridsearchquery-hitcountsarray-0}",
                ft.get("hitCounts").toString());
    List<String> out = new ArrayList<>();
    for (JsonNode row : CompiledQuery.compile(component, Map.of()).execute(docs, Instant.EPOCH)) {
      out.add(row.get("payload").get("payload").toString());
    }
    return out;
  }

  private static List<String> rankedDirectly(CompiledQuery compiled, List<Executor.Input> docs) {
    List<String> out = new ArrayList<>();
    compiled.execute(docs, Instant.EPOCH).forEach(r -> out.add(r.toString()));
    return out;
  }

  @Test
  void policies_areCheckedAsTheServiceChecksThem_withMessagesNamingTheEntry() {
    assertThatThrownBy(
            () ->
                policy(
                    "{\"vectorEmbeddingPolicy\": {\"vectorEmbeddings\": [{\"path\": \"/v\","
                        + " \"dataType\": \"float32\", \"distanceFunction\": \"manhattan\","
                        + " \"dimensions\": 2}]}}"))
        .hasMessageContaining("/v has distanceFunction \"manhattan\"");
    assertThatThrownBy(
            () ->
                policy(
                    "{\"vectorEmbeddingPolicy\": {\"vectorEmbeddings\": [{\"path\": \"/v\","
                        + " \"distanceFunction\": \"cosine\", \"dimensions\": 0}]}}"))
        .hasMessageContaining("needs \"dimensions\", a whole number from 1 to 4096");
    assertThatThrownBy(
            () ->
                policy(
                    "{\"vectorEmbeddingPolicy\": {\"vectorEmbeddings\": [{\"path\": \"v\","
                        + " \"dimensions\": 2}]}}"))
        .hasMessageContaining("needs a \"path\" such as \"/text\"");
    assertThatThrownBy(() -> policy("{\"fullTextPolicy\": {\"defaultLanguage\": \"xx-XX\"}}"))
        .hasMessageContaining("defaultLanguage is \"xx-XX\"")
        .hasMessageContaining("en-US");
    assertThatThrownBy(
            () ->
                policy(
                    "{\"fullTextPolicy\": {\"fullTextPaths\": [{\"path\": \"/t\"}, {\"path\":"
                        + " \"/t\"}]}}"))
        .hasMessageContaining("lists the path /t twice");
  }
}
