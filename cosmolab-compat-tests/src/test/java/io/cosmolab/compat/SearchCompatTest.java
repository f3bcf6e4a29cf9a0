package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosFullTextIndex;
import com.azure.cosmos.models.CosmosFullTextPath;
import com.azure.cosmos.models.CosmosFullTextPolicy;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.CosmosVectorDataType;
import com.azure.cosmos.models.CosmosVectorDistanceFunction;
import com.azure.cosmos.models.CosmosVectorEmbedding;
import com.azure.cosmos.models.CosmosVectorEmbeddingPolicy;
import com.azure.cosmos.models.CosmosVectorIndexSpec;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.PartitionKeyDefinition;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.query.CompiledQuery;
import io.cosmolab.query.SearchPolicy;
import io.cosmolab.query.exec.Executor;
import io.cosmolab.testkit.CosmosLabExtension;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Vector, full-text and hybrid search through the Java SDK's own pipelines: ORDER BY VectorDistance
 * through its non-streaming ORDER BY (each partition's TOP k, merged), ORDER BY RANK through its
 * hybrid-search pipeline (global statistics, component queries, RRF) — on one physical partition
 * and on four, against a brute-force oracle and cosmolab's single-pass executor over the same
 * documents.
 */
@ExtendWith(CosmosLabExtension.class)
class SearchCompatTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int DOCS = 60;
  private static final String[] WORDS = {
    "stone", "river", "forest", "cloud", "meadow", "harbor", "valley", "ember", "glacier", "orchard"
  };
  private static CosmosContainer single;
  private static CosmosContainer spread;
  private static List<ObjectNode> data;
  private static SearchPolicy policy;

  @BeforeAll
  static void load(CosmosClient client) {
    client.createDatabaseIfNotExists("search");
    CosmosDatabase db = client.getDatabase("search");
    single = container(db, "search-single", 1);
    spread = container(db, "search-spread", 4);
    Random random = new Random(7);
    data = new ArrayList<>();
    for (int i = 0; i < DOCS; i++) {
      ObjectNode d = MAPPER.createObjectNode();
      d.put("id", String.format("doc-%02d", i));
      d.put("pk", "p" + (i % 13));
      StringBuilder text = new StringBuilder();
      // "lantern" i % 7 times among 8 + i / 7 other words: no two documents share both their
      // term frequency and their length, so no two score the same (ties would be broken by RID
      // order through the SDK and by input order in the oracle)
      for (int w = 0; w < i % 7; w++) {
        text.append("lanterns ");
      }
      for (int w = 0; w < 8 + i / 7; w++) {
        text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
      }
      d.put("text", text.toString().strip());
      ArrayNodeBuilder.add(d.putArray("embedding"), random, 3);
      ArrayNodeBuilder.add(d.putArray("position"), random, 2);
      data.add(d);
    }
    for (CosmosContainer c : List.of(single, spread)) {
      Fixtures.createAll(c, data);
    }
    assertThat(spread.getFeedRanges()).hasSize(4);
    CosmosContainerProperties read = spread.read().getProperties();
    policy =
        SearchPolicy.fromJson(
            MAPPER.valueToTree(read.getVectorEmbeddingPolicy()),
            MAPPER.valueToTree(read.getFullTextPolicy()));
  }

  /** Random vectors with components in [-1, 1). */
  private static final class ArrayNodeBuilder {
    static void add(com.fasterxml.jackson.databind.node.ArrayNode a, Random random, int n) {
      for (int i = 0; i < n; i++) {
        a.add(Math.round((random.nextDouble() * 2 - 1) * 1000) / 1000.0);
      }
    }
  }

  private static CosmosContainer container(CosmosDatabase db, String id, int partitions) {
    PartitionKeyDefinition key = new PartitionKeyDefinition();
    key.setPaths(List.of("/pk"));
    CosmosContainerProperties props = new CosmosContainerProperties(id, key);
    props.setVectorEmbeddingPolicy(
        vectors(
            embedding("/embedding", 3, CosmosVectorDistanceFunction.COSINE),
            embedding("/position", 2, CosmosVectorDistanceFunction.EUCLIDEAN)));
    CosmosFullTextPath text = new CosmosFullTextPath();
    text.setPath("/text");
    text.setLanguage("en-US");
    props.setFullTextPolicy(
        new CosmosFullTextPolicy().setDefaultLanguage("en-US").setPaths(List.of(text)));
    IndexingPolicy indexing = new IndexingPolicy();
    indexing.setVectorIndexes(
        List.of(
            new CosmosVectorIndexSpec().setPath("/embedding").setType("flat"),
            new CosmosVectorIndexSpec().setPath("/position").setType("flat")));
    indexing.setCosmosFullTextIndexes(List.of(new CosmosFullTextIndex().setPath("/text")));
    props.setIndexingPolicy(indexing);
    db.createContainer(props, ThroughputProperties.createManualThroughput(partitions * 6000));
    return db.getContainer(id);
  }

  private static CosmosVectorEmbedding embedding(
      String path, int dimensions, CosmosVectorDistanceFunction function) {
    CosmosVectorEmbedding e = new CosmosVectorEmbedding();
    e.setPath(path);
    e.setDataType(CosmosVectorDataType.FLOAT32);
    e.setEmbeddingDimensions(dimensions);
    e.setDistanceFunction(function);
    return e;
  }

  private static CosmosVectorEmbeddingPolicy vectors(CosmosVectorEmbedding... embeddings) {
    CosmosVectorEmbeddingPolicy p = new CosmosVectorEmbeddingPolicy();
    p.setCosmosVectorEmbeddings(List.of(embeddings));
    return p;
  }

  @Test
  void policies_areEchoedAsTheSdkSentThem() {
    CosmosContainerProperties read = spread.read().getProperties();
    assertThat(read.getVectorEmbeddingPolicy().getVectorEmbeddings())
        .extracting(CosmosVectorEmbedding::getPath, CosmosVectorEmbedding::getDistanceFunction)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("/embedding", CosmosVectorDistanceFunction.COSINE),
            org.assertj.core.groups.Tuple.tuple(
                "/position", CosmosVectorDistanceFunction.EUCLIDEAN));
    assertThat(read.getFullTextPolicy().getPaths())
        .extracting(CosmosFullTextPath::getPath)
        .containsExactly("/text");
    assertThat(read.getIndexingPolicy().getVectorIndexes()).hasSize(2);
  }

  @ParameterizedTest(name = "TOP {0}")
  @ValueSource(ints = {1, 5, 17})
  void vectorSearch_cosine_returnsTheNearestByTheOracle_onOneAndFourPartitions(int top) {
    double[] q = {0.3, -0.2, 0.9};
    String query =
        "SELECT TOP @k c.id, VectorDistance(c.embedding, @q) AS score FROM c"
            + " ORDER BY VectorDistance(c.embedding, @q)";
    List<String> expected =
        data.stream()
            .sorted(Comparator.comparingDouble((ObjectNode d) -> -cosine(d.get("embedding"), q)))
            .limit(top)
            .map(d -> d.get("id").asText())
            .toList();
    for (CosmosContainer c : List.of(single, spread)) {
      List<JsonNode> rows = run(c, spec(query, top, q));
      assertThat(rows).extracting(r -> r.get("id").asText()).containsExactlyElementsOf(expected);
      assertThat(rows.get(0).get("score").asDouble())
          .isCloseTo(cosine(data.get(index(expected.get(0))).get("embedding"), q), within());
    }
  }

  @Test
  void vectorSearch_euclideanByThePolicy_nearestIsTheSmallestDistance() {
    double[] q = {0.1, 0.1};
    String query = "SELECT TOP @k c.id FROM c ORDER BY VectorDistance(c.position, @q)";
    List<String> expected =
        data.stream()
            .sorted(Comparator.comparingDouble((ObjectNode d) -> euclidean(d.get("position"), q)))
            .limit(6)
            .map(d -> d.get("id").asText())
            .toList();
    for (CosmosContainer c : List.of(single, spread)) {
      assertThat(run(c, spec(query, 6, q)))
          .extracting(r -> r.get("id").asText())
          .containsExactlyElementsOf(expected);
    }
  }

  @Test
  void vectorSearch_withoutTopOrLimit_isA400NamingTheBound() {
    assertThatThrownBy(
            () ->
                run(
                    spread,
                    new SqlQuerySpec(
                        "SELECT c.id FROM c ORDER BY VectorDistance(c.embedding, [1,0,0])")))
        .isInstanceOf(CosmosException.class)
        .hasMessageContaining("needs TOP or OFFSET ... LIMIT");
  }

  @Test
  void fullTextFilters_stemAndMatchTheSameDocumentsEverywhere() {
    String query =
        "SELECT VALUE c.id FROM c WHERE FullTextContains(c.text, 'lantern')"
            + " AND FullTextContainsAny(c.text, 'glaciers', 'embers')";
    List<String> expected = oracle(query, List.of());
    assertThat(expected).isNotEmpty();
    for (CosmosContainer c : List.of(single, spread)) {
      assertThat(run(c, new SqlQuerySpec(query)))
          .extracting(JsonNode::asText)
          .containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "SELECT TOP 8 c.id FROM c ORDER BY RANK FullTextScore(c.text, 'lantern')",
        // no OFFSET: the Java SDK 4.81 reads at most LIMIT rows per partition and component, then
        // skips OFFSET of them (its Take stage sets the producers' top), so OFFSET m LIMIT n gives
        // fewer than n rows through it; the JavaScript SDK skips and takes as planned
        "SELECT TOP 6 c.id FROM c WHERE c.pk != 'p3' ORDER BY RANK FullTextScore(c.text,"
            + " 'lantern', 'glacier')"
      })
  void fullTextRanking_throughTheHybridPipeline_equalsTheSinglePassRanking(String query) {
    List<String> expected = oracle(query, List.of());
    assertThat(expected).hasSizeGreaterThan(4);
    for (CosmosContainer c : List.of(single, spread)) {
      assertThat(ranked(c, new SqlQuerySpec(query)))
          .extracting(r -> r.get("id").asText())
          .containsExactlyElementsOf(expected);
    }
  }

  @Test
  void hybridSearch_rrfOfTextAndVector_putsTheDocumentBestInBothFirst() {
    // doc-06 holds "lanterns" six times, the most of any; give the query its own vector
    double[] q = toArray(data.get(6).get("embedding"));
    String query =
        "SELECT TOP 5 c.id FROM c ORDER BY RANK RRF(FullTextScore(c.text, 'lantern'),"
            + " VectorDistance(c.embedding, @q), [1, 1])";
    SqlQuerySpec spec = new SqlQuerySpec(query, List.of(new SqlParameter("@q", q)));
    List<String> exact = oracle(query, List.of(Map.entry("@q", MAPPER.valueToTree(q))));
    assertThat(exact.get(0)).isEqualTo("doc-06");
    for (CosmosContainer c : List.of(single, spread)) {
      List<JsonNode> rows = ranked(c, spec);
      assertThat(rows).hasSize(5);
      assertThat(rows.get(0).get("id").asText()).isEqualTo("doc-06");
      // the client fuses the ranks of each component's best documents, not of all: the rest of the
      // order may differ from the single pass only where two fused scores are close
      assertThat(rows).extracting(r -> r.get("id").asText()).doesNotHaveDuplicates();
    }
  }

  @Test
  void aPolicyTheServiceRefuses_isA400NamingTheEntry(CosmosClient client) {
    PartitionKeyDefinition key = new PartitionKeyDefinition();
    key.setPaths(List.of("/pk"));
    CosmosContainerProperties props = new CosmosContainerProperties("search-bad", key);
    props.setVectorEmbeddingPolicy(
        vectors(embedding("/v", 5000, CosmosVectorDistanceFunction.COSINE)));
    assertThatThrownBy(() -> client.getDatabase("search").createContainer(props))
        .isInstanceOf(CosmosException.class)
        .satisfies(e -> assertThat(((CosmosException) e).getStatusCode()).isEqualTo(400))
        .hasMessageContaining("the vector embedding /v needs")
        .hasMessageContaining("a whole number from 1 to 4096, was 5000");
    CosmosContainerProperties french = new CosmosContainerProperties("search-klingon", key);
    french.setFullTextPolicy(new CosmosFullTextPolicy().setDefaultLanguage("tlh"));
    assertThatThrownBy(() -> client.getDatabase("search").createContainer(french))
        .satisfies(e -> assertThat(((CosmosException) e).getStatusCode()).isEqualTo(400))
        .hasMessageContaining("tlh")
        .hasMessageContaining("the languages cosmolab processes are de-DE, en-US");
  }

  @Test
  void fullTextScoreOutsideOrderByRank_isA400NamingTheRule() {
    assertThatThrownBy(
            () -> run(spread, new SqlQuerySpec("SELECT FullTextScore(c.text, 'x') AS s FROM c")))
        .isInstanceOf(CosmosException.class)
        .satisfies(e -> assertThat(((CosmosException) e).getStatusCode()).isEqualTo(400))
        .hasMessageContaining("only allowed in an ORDER BY RANK clause");
  }

  private static List<JsonNode> run(CosmosContainer c, SqlQuerySpec q) {
    List<JsonNode> out = new ArrayList<>();
    c.queryItems(q, new CosmosQueryRequestOptions(), JsonNode.class)
        .iterableByPage(7)
        .forEach(p -> out.addAll(p.getResults()));
    return out;
  }

  /**
   * The rows of an ORDER BY RANK query as two runs in a row agree on them (at most {@value
   * #RANK_RUNS} runs). The Java SDK 4.81's hybrid pipeline runs its component queries twice at once
   * (the coalesced results are subscribed to twice without a cache), and both runs fill one shared
   * list of producers and one query body. When they interleave, the ranks of one run are applied to
   * the rows of the other, which fails with an index out of bounds or, rarer, returns a wrong
   * order; and a body both runs wrote to carries its parameters twice, which the server refuses
   * (Azure/azure-sdk-for-java#49823, fixed by #49831 after 4.81, the newest release on Maven
   * Central). The race is the client's and happens against the service too; under load about one
   * run in a few hundred is hit, so two runs that agree are the server's answer.
   */
  private static List<JsonNode> ranked(CosmosContainer c, SqlQuerySpec q) {
    List<JsonNode> previous = null;
    for (int attempt = 1; attempt < RANK_RUNS; attempt++) {
      List<JsonNode> rows;
      try {
        rows = run(c, q);
      } catch (RuntimeException e) {
        if (!hybridPipelineRace(e)) {
          throw e;
        }
        previous = null;
        continue;
      }
      if (rows.equals(previous)) {
        return rows;
      }
      previous = rows;
    }
    return run(c, q);
  }

  /**
   * Whether a failed run may be the race of {@link #ranked}: a failure raised inside the client (it
   * surfaces wherever the two runs collide: an index out of bounds in the RRF step, a negative
   * retry count in a producer's metrics, a list modified while copied), or the server's refusal of
   * a body that carries its parameters twice. Any other answer from the server is not retried.
   */
  private static boolean hybridPipelineRace(RuntimeException e) {
    if (e instanceof CosmosException cosmos) {
      return cosmos.getStatusCode() == 400
          && cosmos.getMessage().contains("parameters")
          && cosmos.getMessage().contains("appears twice in one object");
    }
    return true;
  }

  private static final int RANK_RUNS = 6;

  private static SqlQuerySpec spec(String query, int k, double[] q) {
    return new SqlQuerySpec(query, List.of(new SqlParameter("@k", k), new SqlParameter("@q", q)));
  }

  /** The ids cosmolab's executor gives in one pass over all the documents. */
  private static List<String> oracle(String query, List<Map.Entry<String, JsonNode>> params) {
    List<Executor.Input> inputs = new ArrayList<>();
    IntStream.range(0, data.size()).forEach(i -> inputs.add(new Executor.Input(data.get(i), i)));
    return CompiledQuery.compile(query, CompiledQuery.parameters(params))
        .withSearchPolicy(policy)
        .execute(inputs, Instant.EPOCH)
        .stream()
        .map(r -> r.isObject() ? r.get("id").asText() : r.asText())
        .toList();
  }

  private static int index(String id) {
    return Integer.parseInt(id.substring(4));
  }

  private static org.assertj.core.data.Offset<Double> within() {
    return org.assertj.core.data.Offset.offset(1e-9);
  }

  private static double[] toArray(JsonNode v) {
    double[] out = new double[v.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = v.get(i).asDouble();
    }
    return out;
  }

  private static double cosine(JsonNode v, double[] q) {
    double[] x = toArray(v);
    double dot = 0;
    double xx = 0;
    double qq = 0;
    for (int i = 0; i < x.length; i++) {
      dot += x[i] * q[i];
      xx += x[i] * x[i];
      qq += q[i] * q[i];
    }
    return dot / Math.sqrt(xx * qq);
  }

  private static double euclidean(JsonNode v, double[] q) {
    double[] x = toArray(v);
    double s = 0;
    for (int i = 0; i < x.length; i++) {
      s += (x[i] - q[i]) * (x[i] - q[i]);
    }
    return Math.sqrt(s);
  }
}
