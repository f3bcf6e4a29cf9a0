package io.cosmolab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.time.ManualClock;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A query whose client has gone stops reading: it looks every {@value
 * QueryRunner#ABANDON_CHECK_EVERY} documents, and ends with a 408 that carries the charge for what
 * it read, whatever its shape (a streaming scan, an ORDER BY, an aggregate or a GROUP BY, which
 * would otherwise read every document before answering).
 */
class AbandonedQueryTest {
  private static final int DOCS = 1_000;
  private final Container c = seeded();

  private static Container seeded() {
    Container c = Engines.container(ManualClock.startingAtEpoch2026(), 3);
    for (int i = 0; i < DOCS; i++) {
      ObjectNode d = Json.obj("{'pk':'k" + (i % 11) + "','n':" + (i * 7 % 97) + "}");
      d.put("id", "d" + i);
      c.create(d);
    }
    return c;
  }

  /** Says the client has gone from its {@code n}th question on (1 = at once). */
  private static BooleanSupplier goneFromAsk(int n, AtomicInteger asked) {
    return () -> asked.incrementAndGet() >= n;
  }

  private static final String[] SHAPES = {
    "SELECT * FROM c",
    "SELECT c.id FROM c WHERE c.n > 10",
    "SELECT c.id FROM c ORDER BY c.n",
    "SELECT COUNT(1) AS n FROM c",
    "SELECT c.pk, SUM(c.n) AS s FROM c GROUP BY c.pk",
    "SELECT DISTINCT VALUE c.n FROM c"
  };

  static java.util.stream.Stream<String> shapes() {
    return java.util.Arrays.stream(SHAPES);
  }

  @ParameterizedTest
  @MethodSource("shapes")
  void aQueryWhoseClientHasGone_stopsWithin64Documents_andIsChargedForWhatItRead(String text) {
    QueryRequest request = QueryRequest.of(text).withMaxItemCount(DOCS);
    double whole = c.query(request).requestCharge();
    AtomicInteger asked = new AtomicInteger();

    CosmosException e =
        catchThrowableOfType(CosmosException.class, () -> c.query(request, goneFromAsk(3, asked)));

    assertThat(e.error()).isEqualTo(CosmosError.REQUEST_ABANDONED);
    assertThat(e.status()).isEqualTo(408);
    assertThat(asked).hasValue(3); // not asked again once it said so
    // asked before documents 0, 64 and 128: it read two blocks of 64
    assertThat(e.getMessage())
        .isEqualTo(
            "the client closed its connection: the query stopped after reading 128 documents");
    assertThat(e.requestCharge()).isPositive().isLessThan(whole);
  }

  @ParameterizedTest
  @ValueSource(ints = {DOCS, 7})
  void aClientThatStays_getsTheSamePagesAsWithoutTheQuestion(int pageSize) {
    for (String text : SHAPES) {
      QueryRequest request = QueryRequest.of(text).withMaxItemCount(pageSize);
      AtomicInteger asked = new AtomicInteger();
      QueryPage plain = c.query(request);
      QueryPage asking = c.query(request, () -> asked.incrementAndGet() < 0);
      assertThat(asking.rows()).as(text).isEqualTo(plain.rows());
      assertThat(asking.continuation()).isEqualTo(plain.continuation());
      assertThat(asking.requestCharge()).isEqualTo(plain.requestCharge());
      assertThat(asked.get()).as(text).isPositive();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"SELECT * FROM c", "SELECT COUNT(1) AS n FROM c"})
  void aClientGoneBeforeTheFirstDocument_readsNone(String text) {
    CosmosException e =
        catchThrowableOfType(
            CosmosException.class, () -> c.query(QueryRequest.of(text), () -> true));
    assertThat(e.error()).isEqualTo(CosmosError.REQUEST_ABANDONED);
    assertThat(e.getMessage()).endsWith("after reading 0 documents");
  }
}
