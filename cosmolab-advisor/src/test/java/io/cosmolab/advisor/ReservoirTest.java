package io.cosmolab.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.advisor.candidate.Candidate;
import io.cosmolab.advisor.load.Reservoir;
import io.cosmolab.advisor.stats.CandidateStats;
import io.cosmolab.engine.document.DocumentShape;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The mean indexed terms come from the sample: exact while it holds everything, close after. */
class ReservoirTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  @ParameterizedTest(name = "{0} documents")
  @ValueSource(ints = {1, 1_000, Reservoir.SIZE, 60_000})
  void meanTerms_isExactWhileEveryDocumentIsSampled_andWithinOnePercentAfter(int n) {
    Reservoir reservoir =
        new Reservoir(List.of("/k"), List.of(new CandidateStats(Candidate.single("/k"))));
    Random random = new Random(n);
    long exact = 0;
    for (int i = 0; i < n; i++) {
      ObjectNode d = NODES.objectNode().put("id", "d" + i).put("k", "k" + random.nextInt(100));
      int extra = i < n / 2 ? random.nextInt(10) : 20 + random.nextInt(40); // drifts upward
      for (int t = 0; t < extra; t++) {
        d.put("f" + t, t);
      }
      exact += DocumentShape.indexedTerms(d);
      reservoir.offer(d, DocumentShape.sizeOf(d));
    }
    double mean = exact / (double) n;
    if (n <= Reservoir.SIZE) {
      assertThat(reservoir.meanTerms()).isEqualTo((int) Math.round(mean));
    } else {
      assertThat((double) reservoir.meanTerms())
          .isCloseTo(mean, org.assertj.core.data.Percentage.withPercentage(2));
    }
  }
}
