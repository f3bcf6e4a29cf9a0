package io.cosmolab.engine;

import static io.cosmolab.engine.ContainerDocumentsTest.assertCosmosError;
import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.time.ManualClock;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The one codec of query continuations ({@link Resume}): what each token form resumes. */
class ContinuationTokenTest {
  private final Container c = Engines.container(ManualClock.startingAtEpoch2026(), 2);

  ContinuationTokenTest() {
    for (int i = 0; i < 20; i++) {
      c.create(Json.obj("{'id':'d" + i + "','pk':'k" + (i % 5) + "','n':" + i + "}"));
    }
  }

  private static String token(String raw) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(raw.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aPositionTokenGivenToAnOrderedQuery_is400ForAnotherQuery() {
    QueryPage streaming = c.query(QueryRequest.of("SELECT * FROM c").withMaxItemCount(3));
    assertCosmosError(
        () ->
            c.query(
                QueryRequest.of("SELECT * FROM c ORDER BY c.id")
                    .withContinuation(streaming.continuation())),
        CosmosError.BAD_REQUEST,
        "different query");
  }

  @Test
  void everyFormOfToken_fromAnotherContainer_is400_evenOneOfTheSameNameMadeAgain() {
    Database db = c.database();
    Container other =
        db.createContainer(
            ContainerSettings.of(
                    "other", io.cosmolab.engine.partitioning.PartitionKeyDefinition.hash("/pk"))
                .withPhysicalPartitions(2));
    for (int i = 0; i < 20; i++) {
      other.create(Json.obj("{'id':'d" + i + "','pk':'k" + (i % 5) + "','n':" + i + "}"));
    }
    for (String text :
        new String[] {
          "SELECT * FROM c", // a position token
          "SELECT VALUE c.id FROM c ORDER BY c.id", // a sort-key token
          "SELECT DISTINCT VALUE c.pk FROM c" // over two partitions, no scope: an offset token
        }) {
      QueryRequest q = QueryRequest.of(text).withMaxItemCount(2);
      String token = c.query(q).continuation();
      assertThat(token).as(text).isNotNull();
      assertCosmosError(
          () -> other.query(q.withContinuation(token)), CosmosError.BAD_REQUEST, "different query");
    }
    QueryRequest q = QueryRequest.of("SELECT * FROM c").withMaxItemCount(2);
    String token = other.query(q).continuation();
    db.deleteContainer("other");
    Container again =
        db.createContainer(
            ContainerSettings.of(
                    "other", io.cosmolab.engine.partitioning.PartitionKeyDefinition.hash("/pk"))
                .withPhysicalPartitions(2));
    again.create(Json.obj("{'id':'d1','pk':'k1'}"));
    assertCosmosError(
        () -> again.query(q.withContinuation(token)), CosmosError.BAD_REQUEST, "different query");
  }

  @Test
  void anOffsetTokenOfTheSameQueryText_restartsAStreamingQuery() {
    QueryRequest q = QueryRequest.of("SELECT * FROM c").withMaxItemCount(3);
    String v1 =
        Resume.afterRows(
            q, c.rid(), QueryRunner.compile(q.text(), q.parameters()).ast(), 3); // old form
    assertThat(c.query(q.withContinuation(v1)).rows()).isEqualTo(c.query(q).rows());
  }

  @Test
  void forgedOrTruncatedTokens_are400InvalidContinuationToken() {
    String binding = "0";
    for (String raw :
        new String[] {
          "v2:" + binding + ":1:zz:d1", // an EPK that is not upper-case hex
          "v2:" + binding + ":x:AB:d1", // a count that is not a number
          "v2:" + binding + ":1:AB", // a field missing
          "v1:abc:def", // a field missing
          "v1:abc:def:-1", // a negative offset
          "v3:anything"
        }) {
      assertCosmosError(
          () -> c.query(QueryRequest.of("SELECT * FROM c").withContinuation(token(raw))),
          CosmosError.BAD_REQUEST,
          "Invalid Continuation Token");
    }
  }

  @Test
  void aSortKeyTokenPastTwoBillionRowsReturned_isReadBackAsIssued() {
    QueryRequest q =
        QueryRequest.of("SELECT c.id, c.n FROM c ORDER BY c.n")
            .withPartitionKey(io.cosmolab.engine.partitioning.PartitionKeyValue.of("k1"))
            .withMaxItemCount(1);
    String[] f = decode(c.query(q).continuation()).split(":", 7);
    assertThat(f[0]).isEqualTo("v3");
    f[3] = String.valueOf(Integer.MAX_VALUE); // the rows returned before: the next token's pass it
    QueryPage near = c.query(q.withContinuation(token(String.join(":", f))));
    assertThat(Long.parseLong(decode(near.continuation()).split(":", 7)[3]))
        .isGreaterThan(Integer.MAX_VALUE);

    assertThat(c.query(q.withContinuation(near.continuation())).rows()).hasSize(1);
    f[3] = "9223372036854775808"; // past a long: not a token this server issued
    assertCosmosError(
        () -> c.query(q.withContinuation(token(String.join(":", f)))),
        CosmosError.BAD_REQUEST,
        "Invalid Continuation Token");
  }

  private static String decode(String token) {
    return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
  }

  @Test
  void aPositionTokenWithAnIdHoldingColons_resumesAfterThatDocument() {
    c.create(Json.obj("{'id':'a:b:c','pk':'k0','n':99}"));
    QueryRequest q = QueryRequest.of("SELECT VALUE c.id FROM c").withMaxItemCount(1);
    java.util.List<com.fasterxml.jackson.databind.JsonNode> all =
        c.query(q.withMaxItemCount(1000)).rows();
    assertThat(Engines.drainQuery(c, q, 1)).isEqualTo(all).hasSize(21);
  }
}
