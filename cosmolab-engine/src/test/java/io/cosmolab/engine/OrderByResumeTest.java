package io.cosmolab.engine;

import static io.cosmolab.engine.ContainerDocumentsTest.assertCosmosError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.query.QueryPage;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.time.ManualClock;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An ORDER BY query's pages resume after the sort keys and RID of the last row they returned
 * ({@link Resume}, "sortkey"): together they are the single pass's rows, whatever the page size,
 * and a write between pages shifts no row.
 */
class OrderByResumeTest {
  private final Container c = Engines.container(ManualClock.startingAtEpoch2026(), 3);

  OrderByResumeTest() {
    for (int i = 0; i < 24; i++) {
      StringBuilder doc = new StringBuilder("{'id':'d" + i + "','pk':'k" + (i % 5) + "'");
      doc.append(",'n':").append(i % 7); // ties across documents
      if (i % 3 != 0) {
        doc.append(",'maybe':").append(i % 4); // undefined in a third of them
      }
      doc.append(",'tags':['a','b','c']"); // a JOIN makes three rows of each document
      doc.append("}");
      c.create(Json.obj(doc.toString()));
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT c.id, c.n FROM c ORDER BY c.n",
        "SELECT VALUE c.id FROM c ORDER BY c.n DESC",
        "SELECT c.id FROM c ORDER BY c.pk DESC",
        "SELECT c.id, c.maybe FROM c ORDER BY c.maybe",
        "SELECT c.id, t FROM c JOIN t IN c.tags ORDER BY c.n",
        "SELECT VALUE [c.id, t] FROM c JOIN t IN c.tags ORDER BY c.pk DESC",
        "SELECT TOP 11 c.id FROM c ORDER BY c.n DESC",
        "SELECT c.id FROM c ORDER BY c.n OFFSET 5 LIMIT 13",
        "SELECT c.id, t FROM c JOIN t IN c.tags ORDER BY c.n OFFSET 4 LIMIT 20"
      })
  void thePagesOfAnOrderByQuery_areItsSinglePass_atEveryPageSize(String text) {
    List<JsonNode> all = c.query(QueryRequest.of(text).withMaxItemCount(1000)).rows();
    assertThat(all).isNotEmpty();
    for (int pageSize : new int[] {1, 2, 3, 7}) {
      assertThat(Engines.drainQuery(c, QueryRequest.of(text), pageSize))
          .as("%s in pages of %d", text, pageSize)
          .isEqualTo(all);
    }
  }

  @Test
  void aDocumentWrittenBeforeThePosition_betweenPages_shiftsNoRow() {
    QueryRequest q = QueryRequest.of("SELECT VALUE c.id FROM c ORDER BY c.id");
    List<JsonNode> before = c.query(q.withMaxItemCount(1000)).rows();
    QueryPage first = c.query(q.withMaxItemCount(6));
    // sorts first: an offset-counted resume would hand the first page's last row out again
    c.create(Json.obj("{'id':'a-early','pk':'k1','n':-1}"));
    List<JsonNode> rows = new ArrayList<>(first.rows());
    rows.addAll(Engines.drainQuery(c, q.withContinuation(first.continuation()), 6));
    assertThat(rows).isEqualTo(before).doesNotHaveDuplicates();
  }

  @Test
  void aRowWrittenAfterThePosition_betweenPages_isReturned() {
    QueryRequest q = QueryRequest.of("SELECT VALUE c.id FROM c ORDER BY c.id");
    QueryPage first = c.query(q.withMaxItemCount(6));
    c.create(Json.obj("{'id':'z-late','pk':'k1','n':100}"));
    List<JsonNode> rest = Engines.drainQuery(c, q.withContinuation(first.continuation()), 6);
    assertThat(rest).hasSize(24 - 6 + 1);
    assertThat(rest.get(rest.size() - 1).textValue()).isEqualTo("z-late");
  }

  @Test
  void sortKeysTooLongForAHeader_resumeByCount() {
    for (int i = 0; i < 5; i++) {
      c.create(Json.obj("{'id':'long" + i + "','pk':'k1','text':'" + "x".repeat(3_000) + i + "'}"));
    }
    QueryRequest q =
        QueryRequest.of("SELECT VALUE c.id FROM c WHERE IS_DEFINED(c.text) ORDER BY c.text");
    QueryPage first = c.query(q.withMaxItemCount(2));
    assertThat(first.continuation()).hasSizeLessThan(200); // not 4 KB of sort key
    assertThat(Engines.drainQuery(c, q, 2))
        .isEqualTo(c.query(q.withMaxItemCount(1000)).rows())
        .hasSize(5);
  }

  @Test
  void anOffsetTokenOfAnOrderByWithTop_countsTheRowsItReturned() {
    // a token issued as an offset (before sort-key tokens): TOP counts the rows it returned
    QueryRequest q = QueryRequest.of("SELECT TOP 10 VALUE c.id FROM c ORDER BY c.id");
    List<JsonNode> all = c.query(q.withMaxItemCount(1000)).rows();
    String offset =
        Resume.afterRows(q, c.rid(), QueryRunner.compile(q.text(), q.parameters()).ast(), 3);
    assertThat(Engines.drainQuery(c, q.withContinuation(offset), 3)).isEqualTo(all.subList(3, 10));
  }

  @Test
  void anOrderByOverAFromSubquery_pagesToItsSinglePass() {
    // its rows are numbered as they come, not by RID, so it resumes by count
    QueryRequest q = QueryRequest.of("SELECT VALUE s.id FROM (SELECT * FROM c) s ORDER BY s.n");
    assertThat(Engines.drainQuery(c, q, 4)).isEqualTo(c.query(q.withMaxItemCount(1000)).rows());
  }

  @Test
  void aSortKeyToken_is400ForAnotherQuery() {
    QueryPage first = c.query(QueryRequest.of("SELECT * FROM c ORDER BY c.n").withMaxItemCount(2));
    assertCosmosError(
        () ->
            c.query(
                QueryRequest.of("SELECT * FROM c ORDER BY c.id")
                    .withContinuation(first.continuation())),
        CosmosError.BAD_REQUEST,
        "different query");
  }

  @Test
  void aSortKeyTokenOfTheSameQueryWithAFilterAdded_startsOver() {
    // the SDKs resume a cross-partition ORDER BY with a filter added to the query they send
    QueryPage first = c.query(QueryRequest.of("SELECT * FROM c ORDER BY c.n").withMaxItemCount(2));
    QueryRequest filtered =
        QueryRequest.of("SELECT * FROM c WHERE c.n >= 0 ORDER BY c.n").withMaxItemCount(2);
    assertThat(c.query(filtered.withContinuation(first.continuation())).rows())
        .isEqualTo(c.query(filtered).rows());
  }

  @Test
  void forgedSortKeyTokens_are400InvalidContinuationToken() {
    for (String raw :
        new String[] {
          "v3:a:b:1:0:5", // a field missing
          "v3:a:b:1:0:x:[{}]", // an order that is not a number
          "v3:a:b:1:-1:5:[{}]", // a negative count
          "v3:a:b:1:0:5:not json",
          "v3:a:b:1:0:5:{}", // keys that are not an array
          "v3:a:b:1:0:5:[1]" // a key that is not wrapped
        }) {
      String token =
          Base64.getUrlEncoder()
              .withoutPadding()
              .encodeToString(raw.getBytes(StandardCharsets.UTF_8));
      assertCosmosError(
          () -> c.query(QueryRequest.of("SELECT * FROM c ORDER BY c.n").withContinuation(token)),
          CosmosError.BAD_REQUEST,
          "Invalid Continuation Token");
    }
  }
}
