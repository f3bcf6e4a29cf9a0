package io.cosmolab.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.stats.CandidateStats;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Properties of the streaming statistics against exact counts, over random streams far beyond the
 * sketches' exact range: Zipf-skewed keys (the pre-aggregation table keeps them), near-unique keys
 * (it gives up on them), and streams that switch between the two. The frequent-items bounds are
 * guarantees, so they must hold for every key and every seed; the HLL estimate is probabilistic, so
 * it must fall within its 3σ bounds for every seed (the seeds are fixed: the test is deterministic)
 * and within 2σ for most.
 */
class SketchPropertiesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** How keys are drawn. */
  enum Shape {
    ZIPF,
    NEAR_UNIQUE,
    SWITCHING
  }

  static Stream<Arguments> streams() {
    return Stream.of(Shape.values())
        .flatMap(shape -> IntStream.rangeClosed(1, 8).mapToObj(seed -> Arguments.of(shape, seed)));
  }

  private static String draw(Shape shape, Random r, int i, int n, double[] zipfCdf) {
    return switch (shape) {
      case ZIPF -> "z" + rank(r, zipfCdf);
      case NEAR_UNIQUE -> r.nextInt(50) == 0 ? "hot" : "u" + r.nextInt(1_000_000);
      case SWITCHING -> i < n / 2 ? "z" + rank(r, zipfCdf) : "u" + r.nextInt(1_000_000);
    };
  }

  private static int rank(Random r, double[] cdf) {
    int k = java.util.Arrays.binarySearch(cdf, r.nextDouble() * cdf[cdf.length - 1]);
    return k < 0 ? -k - 1 : k;
  }

  @ParameterizedTest(name = "{0}, seed {1}")
  @MethodSource("streams")
  void heavyKeyWeights_liveWithinTheSketchBounds_andDistinctWithinItsError(Shape shape, int seed) {
    int n = 60_000;
    double[] cdf = new double[20_000];
    double h = 0;
    for (int r = 0; r < cdf.length; r++) {
      h += Math.pow(r + 1, -1.1);
      cdf[r] = h;
    }
    Random random = new Random(seed);
    CandidateStats s = new CandidateStats(Candidate.single("/k"));
    Map<String, Long> documents = new HashMap<>();
    Map<String, Long> bytes = new HashMap<>();
    for (int i = 0; i < n; i++) {
      String key = draw(shape, random, i, n, cdf);
      int size = 100 + random.nextInt(900);
      ObjectNode d = JSON.createObjectNode().put("id", "d" + i).put("k", key);
      s.add(d, size);
      documents.merge("[\"" + key + "\"]", 1L, Long::sum);
      bytes.merge("[\"" + key + "\"]", (long) size, Long::sum);
    }
    assertThat(s.documents()).isEqualTo(n);
    for (CandidateStats.Heavy heavy : s.heaviestByDocuments(50)) {
      long exact = documents.getOrDefault(heavy.key(), 0L);
      assertThat(exact).as(heavy.key()).isBetween(heavy.lowerBound(), heavy.upperBound());
    }
    for (CandidateStats.Heavy heavy : s.heaviestByBytes(50)) {
      long exact = bytes.getOrDefault(heavy.key(), 0L);
      assertThat(exact).as(heavy.key()).isBetween(heavy.lowerBound(), heavy.upperBound());
    }
    // the heaviest key is always found, and its weight is within the sketch's maximum error
    String top = documents.entrySet().stream().max(Map.Entry.comparingByValue()).get().getKey();
    assertThat(s.heaviestByDocuments(5)).extracting(CandidateStats.Heavy::key).contains(top);
    assertThat(Math.abs(s.heaviestByDocuments(1).get(0).estimate() - documents.get(top)))
        .isLessThanOrEqualTo(s.maximumError());
    // HLL lgK 12: relative standard error about 1.04 / sqrt(4096) = 1.6 %
    double exact = documents.size();
    double relative = Math.abs(s.distinctEstimate() - exact) / exact;
    assertThat(relative).as("distinct %s vs %s", s.distinctEstimate(), exact).isLessThan(0.049);
  }

  @ParameterizedTest(name = "{0} documents")
  @ValueSource(ints = {1, 10, 500, 5_000, 40_000})
  void everyKeysWeight_isWithinItsBounds_listedOrNot_andStillAfterMoreDocumentsArrive(int n) {
    Random random = new Random(n);
    CandidateStats s = new CandidateStats(Candidate.single("/k"));
    Map<String, Long> documents = new HashMap<>();
    Map<String, Long> bytes = new HashMap<>();
    for (int round = 1; round <= 2; round++) {
      for (int i = 0; i < n; i++) {
        // mostly keys seen once, some seen a few times, one hot
        String key = random.nextInt(20) == 0 ? "hot" : "k" + random.nextInt(Math.max(1, 4 * n));
        int size = 100 + random.nextInt(900);
        s.add(JSON.createObjectNode().put("k", key), size);
        documents.merge("[\"" + key + "\"]", 1L, Long::sum);
        bytes.merge("[\"" + key + "\"]", (long) size, Long::sum);
      }
      assertWithinBounds(documents, s.heaviestByDocuments(Integer.MAX_VALUE), s.maximumError());
      assertWithinBounds(bytes, s.heaviestByBytes(Integer.MAX_VALUE), s.maximumError());
    }
  }

  /** Listed keys lie within their bounds; any other key weighs at most the maximum error. */
  private static void assertWithinBounds(
      Map<String, Long> exact, List<CandidateStats.Heavy> listed, long maximumError) {
    Map<String, CandidateStats.Heavy> byKey = new HashMap<>();
    for (CandidateStats.Heavy h : listed) {
      byKey.put(h.key(), h);
    }
    for (Map.Entry<String, Long> e : exact.entrySet()) {
      CandidateStats.Heavy h = byKey.get(e.getKey());
      if (h == null) {
        assertThat(e.getValue()).as("unlisted %s", e.getKey()).isLessThanOrEqualTo(maximumError);
      } else {
        assertThat(e.getValue()).as(e.getKey()).isBetween(h.lowerBound(), h.upperBound());
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void theDistinctEstimate_fallsWithinItsTwoSigmaBounds_forMostSeeds(Shape shape) {
    int within = 0;
    int seeds = 20;
    for (int seed = 100; seed < 100 + seeds; seed++) {
      Random random = new Random(seed);
      CandidateStats s = new CandidateStats(Candidate.single("/k"));
      java.util.Set<String> exact = new java.util.HashSet<>();
      double[] cdf = new double[20_000];
      double h = 0;
      for (int r = 0; r < cdf.length; r++) {
        h += Math.pow(r + 1, -1.1);
        cdf[r] = h;
      }
      for (int i = 0; i < 20_000; i++) {
        String key = draw(shape, random, i, 20_000, cdf);
        exact.add(key);
        s.add(JSON.createObjectNode().put("k", key), 50);
      }
      if (exact.size() >= s.distinctLowerBound() && exact.size() <= s.distinctUpperBound()) {
        within++;
      }
    }
    assertThat(within).as("seeds within 2σ").isGreaterThanOrEqualTo(17); // expected 19 of 20
  }

  static Stream<Shape> shapes() {
    return Stream.of(Shape.values());
  }
}
