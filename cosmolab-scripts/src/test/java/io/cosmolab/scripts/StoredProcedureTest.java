package io.cosmolab.scripts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.ScriptResponse;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.script.ScriptKind;
import io.cosmolab.engine.script.ScriptLimits;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Stored procedures on GraalJS through the engine: the server-side API, atomicity, scope. */
class StoredProcedureTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final GraalJsRuntime RUNTIME = new GraalJsRuntime();
  static final CosmosEngine ENGINE =
      CosmosEngine.builder()
          .scriptRuntime(RUNTIME)
          .scriptLimits(ScriptLimits.DEFAULT.withTimeout(Duration.ofSeconds(3)))
          .build();
  static int containers;

  @AfterAll
  static void close() {
    ENGINE.close();
  }

  static Container container() {
    return ENGINE
        .findDatabase("db")
        .orElseGet(() -> ENGINE.createDatabase("db"))
        .createContainer(
            ContainerSettings.of("c" + containers++, PartitionKeyDefinition.hash("/pk")));
  }

  static JsonNode json(String s) {
    try {
      return JSON.readTree(s.replace('\'', '"'));
    } catch (Exception e) {
      throw new IllegalArgumentException(s, e);
    }
  }

  static ObjectNode doc(String id, String pk) {
    return (ObjectNode) json("{'id':'" + id + "','pk':'" + pk + "'}");
  }

  static void sproc(Container c, String id, String body) {
    ObjectNode r = JSON.createObjectNode().put("id", id).put("body", body);
    c.scripts().create(ScriptKind.STORED_PROCEDURE, r);
  }

  static ScriptResponse run(Container c, String id, String pk, String params) {
    return c.executeStoredProcedure(PartitionKeyValue.of(pk), id, json(params), false);
  }

  static final String BULK_IMPORT =
      """
      function bulkImport(docs) {
        var collection = getContext().getCollection();
        var count = 0;
        if (!docs.length) { getContext().getResponse().setBody(0); return; }
        tryCreate(docs[count], callback);
        function tryCreate(doc, cb) {
          var accepted = collection.createDocument(collection.getSelfLink(), doc, cb);
          if (!accepted) getContext().getResponse().setBody(count);
        }
        function callback(err, doc, options) {
          if (err) throw err;
          count++;
          if (count >= docs.length) getContext().getResponse().setBody(count);
          else tryCreate(docs[count], callback);
        }
      }""";

  @Test
  void setBody_returnsTheParametersTransformed() {
    Container c = container();
    sproc(
        c, "hello", "function (name, n) { getContext().getResponse().setBody('hi ' + name + n); }");
    ScriptResponse r = run(c, "hello", "a", "['bob', 2]");
    assertThat(r.body().asText()).isEqualTo("hi bob2");
    assertThat(r.requestCharge()).isGreaterThan(0);
  }

  @Test
  void getRequestGetValue_readsTheRequestsHeaders_andSetValueChangesOnlyOnesThatExist() {
    Container c = container();
    sproc(
        c,
        "headers",
        """
        function () {
          var r = getContext().getRequest();
          var before = r.getValue('X-Custom');
          r.setValue('x-custom', 'changed');
          var failed;
          try { r.setValue('x-new', 'v'); } catch (e) { failed = e.number + ' ' + e.message; }
          getContext().getResponse().setBody({
            before: before, after: r.getValue('x-custom'), missing: r.getValue('x-absent'),
            response: getContext().getResponse().getValue('x-custom'), failed: failed });
        }""");
    ScriptResponse r =
        c.executeStoredProcedure(
            PartitionKeyValue.of("a"),
            "headers",
            json("[]"),
            false,
            java.util.Map.of("x-custom", "original", "x-ms-version", "2020-07-15"));
    assertThat(r.body().path("before").asText()).isEqualTo("original"); // case-insensitive
    assertThat(r.body().path("after").asText()).isEqualTo("changed");
    assertThat(r.body().path("missing").isNull()).isTrue();
    assertThat(r.body().path("response").isNull()).isTrue();
    assertThat(r.body().path("failed").asText())
        .startsWith("400")
        .contains("no such header")
        .contains("x-new");
  }

  @Test
  void bulkImport_createsEveryDocumentInOneTransaction() {
    Container c = container();
    sproc(c, "bulk", BULK_IMPORT);
    StringBuilder docs = new StringBuilder("[[");
    for (int i = 0; i < 50; i++) {
      docs.append(i == 0 ? "" : ",").append("{'id':'d").append(i).append("','pk':'a'}");
    }
    ScriptResponse r = run(c, "bulk", "a", docs.append("]]").toString());
    assertThat(r.body().asInt()).isEqualTo(50);
    assertThat(c.documentCount()).isEqualTo(50);
    assertThat(r.requestCharge()).isGreaterThan(50 * 5.0); // 50 creates at ~5+ RU each
  }

  @Test
  void bulkImport_stopsWhereIsAcceptedTurnsFalse_andContinues() {
    CosmosEngine engine =
        CosmosEngine.builder()
            .scriptRuntime(RUNTIME)
            .scriptLimits(ScriptLimits.DEFAULT.withAcceptedOperations(7))
            .build();
    Container c =
        engine
            .createDatabase("db")
            .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    sproc(c, "bulk", BULK_IMPORT);
    com.fasterxml.jackson.databind.node.ArrayNode all = JSON.createArrayNode();
    for (int i = 0; i < 20; i++) {
      all.add(doc("d" + i, "a"));
    }
    int done = 0;
    int calls = 0;
    while (done < 20) {
      com.fasterxml.jackson.databind.node.ArrayNode rest = JSON.createArrayNode();
      for (int i = done; i < 20; i++) {
        rest.add(all.get(i));
      }
      ScriptResponse r =
          c.executeStoredProcedure(
              PartitionKeyValue.of("a"), "bulk", JSON.createArrayNode().add(rest), false);
      done += r.body().asInt();
      calls++;
    }
    assertThat(calls).isGreaterThanOrEqualTo(3); // 7 + 7 + 6, more if time ran short first
    assertThat(c.documentCount()).isEqualTo(20);
    engine.close();
  }

  @Test
  void readReplaceDelete_inOneProcedure_commitTogether() {
    Container c = container();
    c.create(doc("x", "a"));
    c.create(doc("y", "a"));
    sproc(
        c,
        "move",
        """
        function move() {
          var coll = getContext().getCollection();
          coll.readDocument(coll.getAltLink() + '/docs/x', function (err, x) {
            if (err) throw err;
            x.moved = true;
            coll.replaceDocument(x._self, x, { etag: x._etag }, function (err2) {
              if (err2) throw err2;
              coll.deleteDocument(coll.getAltLink() + '/docs/y', function (err3) {
                if (err3) throw err3;
                getContext().getResponse().setBody('ok');
              });
            });
          });
        }""");
    assertThat(run(c, "move", "a", "[]").body().asText()).isEqualTo("ok");
    assertThat(c.read(PartitionKeyValue.of("a"), "x").document().path("moved").asBoolean())
        .isTrue();
    assertThatThrownBy(() -> c.read(PartitionKeyValue.of("a"), "y"))
        .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.status()).isEqualTo(404));
  }

  @Test
  void aThrowMidway_rollsBackEveryWrite_andAnswers400WithTheMessage() {
    Container c = container();
    c.create(doc("keep", "a"));
    sproc(
        c,
        "half",
        """
        function half() {
          var coll = getContext().getCollection();
          coll.createDocument(coll.getSelfLink(), { id: 'n1', pk: 'a' }, function (err) {
            if (err) throw err;
            coll.deleteDocument(coll.getAltLink() + '/docs/keep', function () {
              throw new Error(404, 'nothing here');
            });
          });
        }""");
    assertThatThrownBy(() -> run(c, "half", "a", "[]"))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.subStatus()).isEqualTo(404);
              assertThat(e.getMessage())
                  .contains("Encountered exception while executing function")
                  .contains("nothing here");
            });
    assertThat(c.documentCount()).isEqualTo(1);
    assertThat(c.read(PartitionKeyValue.of("a"), "keep").status()).isEqualTo(200);
  }

  @Test
  void aResponseBodyPastTheResponseLimit_isRefusedBySetBody_413_andRollsBackIfUncaught() {
    Container c = container();
    sproc(
        c,
        "big",
        """
        function big(bytes, catchIt) {
          var coll = getContext().getCollection();
          var response = getContext().getResponse();
          coll.createDocument(coll.getSelfLink(), { id: 'w', pk: 'a' }, function (err) {
            if (err) throw err;
            var body = 'x'.repeat(bytes - 2); // a JSON string: two quotes around it
            if (!catchIt) { response.setBody(body); return; }
            try { response.setBody(body); } catch (e) {
              response.setBody(e.number + ' of max ' + response.getMaxResponseBodySize());
            }
          });
        }""");
    int limit = 4 * 1024 * 1024;
    // at the limit: served whole
    assertThat(run(c, "big", "a", "[" + limit + ", false]").body().asText()).hasSize(limit - 2);
    c.delete(PartitionKeyValue.of("a"), "w");
    // one byte over, uncaught: the procedure fails and its write is rolled back
    assertThatThrownBy(() -> run(c, "big", "a", "[" + (limit + 1) + ", false]"))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.subStatus()).isEqualTo(413);
              assertThat(e.getMessage())
                  .contains("getResponse().setBody")
                  .contains((limit + 1) + " bytes")
                  .contains(Integer.toString(limit));
            });
    assertThat(c.documentCount()).isZero();
    // caught: the script answers with what it chose
    assertThat(run(c, "big", "a", "[" + (limit + 1) + ", true]").body().asText())
        .isEqualTo("413 of max " + limit);
    assertThat(c.documentCount()).isEqualTo(1);
  }

  @Test
  void anUnhandledOperationError_failsTheProcedure_withTheOperationsStatusAsSubStatus() {
    Container c = container();
    c.create(doc("dup", "a"));
    sproc(
        c,
        "dup",
        "function () { var c = getContext().getCollection();"
            + " c.createDocument(c.getSelfLink(), {id: 'new', pk: 'a'});"
            + " c.createDocument(c.getSelfLink(), {id: 'dup', pk: 'a'}); }");
    assertThatThrownBy(() -> run(c, "dup", "a", "[]"))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.subStatus()).isEqualTo(409);
            });
    assertThat(c.documentCount()).isEqualTo(1);
  }

  @Test
  void aTimeout_stopsTheScript_rollsBack_andAnswers408() {
    CosmosEngine engine =
        CosmosEngine.builder()
            .scriptRuntime(RUNTIME)
            .scriptLimits(ScriptLimits.DEFAULT.withTimeout(Duration.ofMillis(500)))
            .build();
    Container c =
        engine
            .createDatabase("db")
            .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    sproc(
        c,
        "spin",
        "function () { var c = getContext().getCollection();"
            + " c.createDocument(c.getSelfLink(), {id: 'w', pk: 'a'}); while (true) {} }");
    long start = System.nanoTime();
    assertThatThrownBy(() -> run(c, "spin", "a", "[]"))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.status()).isEqualTo(408);
              assertThat(e.getMessage()).contains("500 ms");
            });
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    assertThat(c.documentCount()).isZero();
    engine.close();
  }

  @Test
  void aScriptAllocatingPastItsBound_isStopped_andRolledBack() {
    assertAHogIsStoppedAndRolledBack(
        CosmosEngine.builder()
            .scriptRuntime(RUNTIME)
            .scriptLimits(ScriptLimits.DEFAULT.withMemoryBytes(32L << 20))
            .build(),
        "allocated more than its bound of 32 MB");
  }

  @Test
  void scriptsPastTheBoundTheyShare_areStopped_eachUnderItsOwn() {
    GraalJsRuntime shared = new GraalJsRuntime(ScriptLimits.DEFAULT, 32L << 20);
    assertAHogIsStoppedAndRolledBack(
        CosmosEngine.builder().scriptRuntime(shared).build(), // 512 MB each
        "stored procedure 'hog' was stopped",
        "more than the 32 MB they share");
  }

  /**
   * Runs a procedure that writes, then keeps allocating, on {@code engine} (closed after): it must
   * be stopped with a 400 whose message has {@code message}, and its write rolled back.
   */
  private static void assertAHogIsStoppedAndRolledBack(CosmosEngine engine, String... message) {
    Container c =
        engine
            .createDatabase("db")
            .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    sproc(
        c,
        "hog",
        "function () { var c = getContext().getCollection();"
            + " c.createDocument(c.getSelfLink(), {id: 'w', pk: 'a'});"
            + " var keep = []; while (true) { keep.push('x'.repeat(1000) + keep.length); } }");
    assertThatThrownBy(() -> run(c, "hog", "a", "[]"))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.getMessage()).contains(message);
            });
    assertThat(c.documentCount()).isZero();
    engine.close();
  }

  @Test
  void anotherLogicalPartition_cannotBeWritten() {
    Container c = container();
    sproc(
        c,
        "other",
        "function () { var c = getContext().getCollection();"
            + " c.createDocument(c.getSelfLink(), {id: 'o', pk: 'b'}, function (err) {"
            + "   getContext().getResponse().setBody(err.number + ' ' + err.body); }); }");
    ScriptResponse r = run(c, "other", "a", "[]");
    assertThat(r.body().asText())
        .startsWith("400 ")
        .contains("cannot reference partition keys other than the one");
    assertThat(c.documentCount()).isZero();
  }

  @Test
  void anotherLogicalPartition_isInvisibleToReadsAndQueries() {
    Container c = container();
    c.create(doc("mine", "a"));
    c.create(doc("theirs", "b"));
    sproc(
        c,
        "look",
        """
        function look() {
          var coll = getContext().getCollection();
          coll.queryDocuments(coll.getSelfLink(), 'SELECT VALUE c.id FROM c', {}, function (e, ids) {
            coll.readDocument(coll.getAltLink() + '/docs/theirs', function (err) {
              getContext().getResponse().setBody({ ids: ids, read: err.number });
            });
          });
        }""");
    JsonNode body = run(c, "look", "a", "[]").body();
    assertThat(body.path("ids").toString()).isEqualTo("[\"mine\"]");
    assertThat(body.path("read").asInt()).isEqualTo(404);
  }

  @Test
  void queryDocuments_withParametersPagesAndContinuation_seesItsOwnWrites() {
    Container c = container();
    for (int i = 0; i < 5; i++) {
      c.create(doc("q" + i, "a").put("n", i));
    }
    sproc(
        c,
        "pages",
        """
        function pages() {
          var coll = getContext().getCollection();
          coll.createDocument(coll.getSelfLink(), { id: 'q9', pk: 'a', n: 9 });
          var seen = [];
          next(undefined);
          function next(token) {
            coll.queryDocuments(coll.getSelfLink(),
                { query: 'SELECT VALUE c.n FROM c WHERE c.n >= @min ORDER BY c.n',
                  parameters: [{ name: '@min', value: 2 }] },
                { pageSize: 2, continuation: token },
                function (err, rows, options) {
                  if (err) throw err;
                  seen = seen.concat(rows);
                  if (options.continuation) next(options.continuation);
                  else getContext().getResponse().setBody(seen);
                });
          }
        }""");
    assertThat(run(c, "pages", "a", "[]").body().toString()).isEqualTo("[2,3,4,9]");
  }

  @Test
  void pagingAQuery_chargesEachDocumentOnce_notTheWholePartitionPerPage() {
    Container c = container();
    String pad = "x".repeat(50_000);
    for (int i = 0; i < 60; i++) {
      c.create(doc("big" + i, "a").put("pad", pad).put("n", i));
    }
    sproc(
        c,
        "pages",
        """
        function pages(sql) {
          var c = getContext().getCollection(), seen = 0, pages = 0;
          function next(token) {
            c.queryDocuments(c.getSelfLink(), sql, { pageSize: 10, continuation: token },
              function (err, docs, opts) {
                if (err) throw err;
                seen += docs.length; pages++;
                if (opts.continuation) next(opts.continuation);
                else getContext().getResponse().setBody({ seen: seen, pages: pages });
              });
          }
          next();
        }""");
    ScriptResponse r = run(c, "pages", "a", "['SELECT c.id FROM c WHERE c.n >= 0']");
    assertThat(r.body().path("seen").asInt()).isEqualTo(60);
    assertThat(r.body().path("pages").asInt()).isEqualTo(6);
    // 3 MB read once: about 30 RU, 6 x 2.5 RU per page, 60 rows; each page reading the whole
    // partition again, as before, came to about 250 RU
    assertThat(r.requestCharge()).isLessThan(160);
    // a TOP or OFFSET ... LIMIT stops reading at its last row, and pays for what it read: 5 and
    // 15 documents of 50 KB, not the partition's 60
    ScriptResponse top = run(c, "pages", "a", "['SELECT TOP 5 c.id FROM c']");
    assertThat(top.body().path("seen").asInt()).isEqualTo(5);
    assertThat(top.requestCharge()).isLessThan(r.requestCharge() / 4);
    ScriptResponse window = run(c, "pages", "a", "['SELECT c.id FROM c OFFSET 10 LIMIT 5']");
    assertThat(window.body().path("seen").asInt()).isEqualTo(5);
    assertThat(window.requestCharge())
        .isGreaterThan(top.requestCharge())
        .isLessThan(r.requestCharge() / 2);
    // a LIMIT 0 reads nothing, not even the rows its OFFSET would skip
    ScriptResponse none = run(c, "pages", "a", "['SELECT c.id FROM c OFFSET 50 LIMIT 0']");
    assertThat(none.body().path("seen").asInt()).isZero();
    assertThat(none.requestCharge()).isLessThan(top.requestCharge());
    // a shape that reads everything for its first page (ORDER BY) pages the same rows
    assertThat(
            run(c, "pages", "a", "['SELECT c.id FROM c ORDER BY c.n DESC']")
                .body()
                .path("seen")
                .asInt())
        .isEqualTo(60);
  }

  @Test
  void aContinuationNotGivenByThePage_isA400NamingIt() {
    Container c = container();
    c.create(doc("one", "a"));
    sproc(
        c,
        "bad",
        "function (t) { var c = getContext().getCollection();"
            + " c.queryDocuments(c.getSelfLink(), 'SELECT * FROM c', { continuation: t },"
            + " function (err) { getContext().getResponse().setBody(err ? err.number + ' ' + err.body : 'ok'); }); }");
    assertThat(run(c, "bad", "a", "['-5']").body().asText()).startsWith("400").contains("'-5'");
    assertThat(run(c, "bad", "a", "['abc']").body().asText()).startsWith("400").contains("'abc'");
  }

  @Test
  void upsertPatchReadDocumentsAndAutomaticIds() {
    Container c = container();
    sproc(
        c,
        "misc",
        """
        function misc() {
          var coll = getContext().getCollection();
          coll.createDocument(coll.getSelfLink(), { pk: 'a', n: 1 }, function (e, created) {
            if (e) throw e;
            coll.upsertDocument(coll.getSelfLink(), { id: 'u', pk: 'a', n: 1 });
            coll.patchDocument(coll.getAltLink() + '/docs/u',
                [{ op: 'incr', path: '/n', value: 5 }], function (e2, patched) {
              if (e2) throw e2;
              coll.readDocuments(coll.getSelfLink(), function (e3, all) {
                coll.createDocument(coll.getSelfLink(), { pk: 'a' },
                    { disableAutomaticIdGeneration: true }, function (e4) {
                  getContext().getResponse().setBody({
                    generatedId: typeof created.id === 'string' && created.id.length > 10,
                    patched: patched.n, count: all.length, noId: e4.number });
                });
              });
            });
          });
        }""");
    JsonNode body = run(c, "misc", "a", "[]").body();
    assertThat(body.path("generatedId").asBoolean()).isTrue();
    assertThat(body.path("patched").asInt()).isEqualTo(6);
    assertThat(body.path("count").asInt()).isEqualTo(2);
    assertThat(body.path("noId").asInt()).isEqualTo(400);
  }

  @Test
  void theFluentApi_pastTheScriptsBudget_answersIsAcceptedFalse_andRunsNoCallback() {
    try (CosmosEngine engine =
        CosmosEngine.builder()
            .scriptRuntime(RUNTIME)
            .scriptLimits(ScriptLimits.DEFAULT.withAcceptedOperations(3)) // a read, two creates
            .build()) {
      Container c =
          engine
              .createDatabase("db")
              .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
      sproc(
          c,
          "late",
          """
          function late() {
            var out = { called: false };
            var c = getContext().getCollection();
            out.first = __.filter(function () { return true; }).isAccepted;
            c.createDocument(c.getSelfLink(), { id: 'x1', pk: 'a' });
            c.createDocument(c.getSelfLink(), { id: 'x2', pk: 'a' });
            var r = __.filter(function () { return true; }, function () { out.called = true; });
            out.later = r.isAccepted;
            out.chained = __.chain().pluck('id').value(function () { out.called = true; }).isAccepted;
            getContext().getResponse().setBody(out);
          }""");
      JsonNode body = run(c, "late", "a", "[]").body();
      assertThat(body.path("first").asBoolean()).isTrue();
      assertThat(body.path("later").asBoolean()).isFalse();
      assertThat(body.path("chained").asBoolean()).isFalse();
      assertThat(body.path("called").asBoolean()).isFalse();
      assertThat(c.documentCount()).as("the accepted writes commit").isEqualTo(2);
    }
  }

  @Test
  void theFluentApi_filtersMapsPlucksSortsAndChains() {
    Container c = container();
    for (int i = 0; i < 4; i++) {
      c.create((ObjectNode) doc("f" + i, "a").put("n", i).set("tags", json("['t" + i + "']")));
    }
    sproc(
        c,
        "fluent",
        """
        function fluent() {
          var out = {};
          var r = __.filter(function (d) { return d.n >= 2; }, function (e, docs) { out.f = docs.length; });
          __.pluck('n', function (e, ns) { out.p = ns; });
          __.chain().filter(function (d) { return d.n % 2 === 1; })
              .sortByDescending(function (d) { return d.n; })
              .map(function (d) { return d.id; })
              .value(function (e, ids) { out.c = ids; });
          __.chain().pluck('tags').flatten().value(function (e, tags) {
            out.t = tags.length;
            out.accepted = r.isAccepted;
            getContext().getResponse().setBody(out);
          });
        }""");
    JsonNode body = run(c, "fluent", "a", "[]").body();
    assertThat(body.path("f").asInt()).isEqualTo(2);
    assertThat(body.path("p").toString()).isEqualTo("[0,1,2,3]");
    assertThat(body.path("c").toString()).isEqualTo("[\"f3\",\"f1\"]");
    assertThat(body.path("t").asInt()).isEqualTo(4);
    assertThat(body.path("accepted").asBoolean()).isTrue();
  }

  @Test
  void consoleLog_isReturnedWhenLoggingIsAsked() {
    Container c = container();
    sproc(c, "logs", "function () { console.log('a', 1, {b: 2}); console.log('second'); }");
    assertThat(c.executeStoredProcedure(PartitionKeyValue.of("a"), "logs", null, true).log())
        .isEqualTo("a 1 {\"b\":2}\nsecond\n");
    assertThat(c.executeStoredProcedure(PartitionKeyValue.of("a"), "logs", null, false).log())
        .isNull();
  }

  @Test
  void consoleLog_formatsAsNodeDoes_aFirstStringsPercentSTakesTheNextArgument() {
    Container c = container();
    sproc(
        c,
        "format",
        "function () { console.log('The value of %s is %s.', 'x', 1);"
            + " console.log('%d%% of %s', 50, {a: 1}, 'more'); console.log('%s left', 'one'); }");
    assertThat(c.executeStoredProcedure(PartitionKeyValue.of("a"), "format", null, true).log())
        .isEqualTo("The value of x is 1.\n50% of {\"a\":1} more\none left\n");
  }

  @Test
  void appendValue_ofTheBody_concatenates_asTheSdksTestsUseIt() {
    Container c = container();
    sproc(
        c,
        "append",
        "function () { for (var i = 0; i < 10; i++) getContext().getResponse().appendValue('Body',"
            + " i); }");
    assertThat(run(c, "append", "a", "[]").body().asText()).isEqualTo("0123456789");
  }

  @Test
  void theSandbox_deniesHostAccessIoAndThreads() {
    Container c = container();
    sproc(
        c,
        "escape",
        """
        function escape() {
          var tried = [];
          try { Java.type('java.lang.System').exit(1); tried.push('java'); } catch (e) { }
          try { Polyglot.eval('js', '1'); tried.push('polyglot'); } catch (e) { }
          try { load('/etc/passwd'); tried.push('load'); } catch (e) { }
          try { print('x'); tried.push('print'); } catch (e) { }
          getContext().getResponse().setBody(tried);
        }""");
    assertThat(run(c, "escape", "a", "[]").body().toString()).isEqualTo("[]");
  }

  @Test
  void aSyntaxError_answers400() {
    Container c = container();
    sproc(c, "bad", "function ( { nope");
    assertThatThrownBy(() -> run(c, "bad", "a", "[]"))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.getMessage()).contains("SyntaxError");
            });
  }

  @Test
  void aReplacedProcedure_runsItsNewBody() {
    Container c = container();
    sproc(c, "v", "function () { getContext().getResponse().setBody(1); }");
    assertThat(run(c, "v", "a", "[]").body().asInt()).isEqualTo(1);
    ObjectNode r = c.scripts().read(ScriptKind.STORED_PROCEDURE, "v");
    r.put("body", "function () { getContext().getResponse().setBody(2); }");
    c.scripts().replace(ScriptKind.STORED_PROCEDURE, "v", r);
    assertThat(run(c, "v", "a", "[]").body().asInt()).isEqualTo(2);
  }

  @Test
  void severalTopLevelFunctions_runTheFirst() {
    Container c = container();
    sproc(
        c,
        "two",
        "function main(x) { getContext().getResponse().setBody(helper(x)); }\n"
            + "function helper(x) { return x * 2; }");
    assertThat(run(c, "two", "a", "[21]").body().asInt()).isEqualTo(42);
  }

  @Test
  void anExhaustedBudget_answers429BeforeTheScriptRuns() {
    CosmosEngine engine =
        CosmosEngine.builder().scriptRuntime(RUNTIME).throttling(ThrottlingMode.ENFORCE).build();
    Container c =
        engine
            .createDatabase("db")
            .createContainer(
                ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                    .withThroughput(Throughput.manual(400)));
    sproc(c, "bulk", BULK_IMPORT);
    // a procedure's charge goes to its partition's 400 RU/s: within a few calls one is refused
    CosmosException refused = null;
    double charged = 0;
    for (int call = 0; call < 10 && refused == null; call++) {
      try {
        charged +=
            c.executeStoredProcedure(
                    PartitionKeyValue.of("a" + call),
                    "bulk",
                    JSON.createArrayNode().add(docsFor("a" + call, 100)),
                    false)
                .requestCharge();
      } catch (CosmosException e) {
        refused = e;
      }
    }
    assertThat(refused).isNotNull();
    assertThat(refused.status()).isEqualTo(429);
    assertThat(charged).isGreaterThanOrEqualTo(400);
    engine.close();
  }

  static com.fasterxml.jackson.databind.node.ArrayNode docsFor(String pk, int n) {
    com.fasterxml.jackson.databind.node.ArrayNode docs = JSON.createArrayNode();
    for (int i = 0; i < n; i++) {
      docs.add(doc("d" + i, pk));
    }
    return docs;
  }

  @Test
  void unknownProcedure_is404() {
    Container c = container();
    assertThatThrownBy(() -> run(c, "nope", "a", "[]"))
        .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.status()).isEqualTo(404));
  }
}
