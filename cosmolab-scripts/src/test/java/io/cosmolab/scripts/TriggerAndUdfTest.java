package io.cosmolab.scripts;

import static io.cosmolab.scripts.StoredProcedureTest.JSON;
import static io.cosmolab.scripts.StoredProcedureTest.doc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.ItemOptions;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.query.QueryRequest;
import io.cosmolab.engine.script.ScriptKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pre- and post-triggers around writes, and user-defined functions in queries. */
class TriggerAndUdfTest {
  static final PartitionKeyValue A = PartitionKeyValue.of("a");

  static void trigger(Container c, String id, String type, String operation, String body) {
    ObjectNode r =
        JSON.createObjectNode()
            .put("id", id)
            .put("body", body)
            .put("triggerType", type)
            .put("triggerOperation", operation);
    c.scripts().create(ScriptKind.TRIGGER, r);
  }

  static void udf(Container c, String id, String body) {
    c.scripts()
        .create(
            ScriptKind.USER_DEFINED_FUNCTION,
            JSON.createObjectNode().put("id", id).put("body", body));
  }

  static ItemOptions pre(String... ids) {
    return ItemOptions.NONE.withTriggers(List.of(ids), List.of());
  }

  static ItemOptions post(String... ids) {
    return ItemOptions.NONE.withTriggers(List.of(), List.of(ids));
  }

  static final String STAMP =
      "function stamp() { var r = getContext().getRequest(); var d = r.getBody();"
          + " d.stamped = r.getOperationType(); r.setBody(d); }";

  @Test
  void aPreTrigger_changesTheDocumentBeforeItIsWritten() {
    Container c = StoredProcedureTest.container();
    trigger(c, "stamp", "Pre", "All", STAMP);
    c.create(A, doc("x", "a"), pre("stamp"));
    assertThat(c.read(A, "x").document().path("stamped").asText()).isEqualTo("Create");
    c.upsert(A, doc("x", "a"), pre("stamp"));
    assertThat(c.read(A, "x").document().path("stamped").asText()).isEqualTo("Upsert");
    c.replace(A, "x", doc("x", "a"), pre("stamp"));
    assertThat(c.read(A, "x").document().path("stamped").asText()).isEqualTo("Replace");
  }

  @Test
  void aTriggeredWrite_withTheExcludeDirective_staysOutOfIndexServedQueries() {
    Container c = StoredProcedureTest.container();
    trigger(c, "stamp", "Pre", "All", STAMP);
    c.create(A, doc("x", "a"), pre("stamp").excludedFromIndexing());
    c.create(A, doc("y", "a"), pre("stamp"));
    assertThat(
            c.query(QueryRequest.of("SELECT VALUE c.id FROM c WHERE c.stamped = 'Create'")).rows())
        .extracting(JsonNode::asText)
        .containsExactly("y");
    assertThat(c.read(A, "x").document().path("stamped").asText()).isEqualTo("Create");
  }

  @Test
  void aPreTrigger_readsTheRequestsHeaders() {
    Container c = StoredProcedureTest.container();
    trigger(
        c,
        "byClient",
        "Pre",
        "Create",
        "function () { var r = getContext().getRequest(); var d = r.getBody();"
            + " d.client = r.getValue('user-agent'); r.setBody(d); }");
    c.create(
        A,
        doc("h", "a"),
        pre("byClient").withRequestHeaders(java.util.Map.of("User-Agent", "shop-app/1.2")));
    assertThat(c.read(A, "h").document().path("client").asText()).isEqualTo("shop-app/1.2");
  }

  @Test
  void aPreTriggerThatThrows_rejectsTheWrite() {
    Container c = StoredProcedureTest.container();
    trigger(
        c,
        "needsName",
        "Pre",
        "Create",
        "function () { if (!getContext().getRequest().getBody().name)"
            + " throw new Error('Document must include a name'); }");
    assertThatThrownBy(() -> c.create(A, doc("x", "a"), pre("needsName")))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.getMessage()).contains("Document must include a name");
            });
    assertThat(c.documentCount()).isZero();
    c.create(A, doc("y", "a").put("name", "n"), pre("needsName"));
    assertThat(c.documentCount()).isEqualTo(1);
  }

  static final String COUNT_IN_METADATA =
      """
      function updateMetadata() {
        var coll = getContext().getCollection();
        var created = getContext().getResponse().getBody();
        coll.queryDocuments(coll.getSelfLink(), "SELECT * FROM c WHERE c.id = '_meta'", {},
            function (err, found) {
              if (err) throw err;
              var meta = found.length ? found[0] : { id: '_meta', pk: created.pk, count: 0 };
              meta.count += 1;
              meta.last = created.id;
              coll.upsertDocument(coll.getSelfLink(), meta, function (e) { if (e) throw e; });
            });
      }""";

  @Test
  void aPostTrigger_updatesAMetadataDocumentInTheSameTransaction() {
    Container c = StoredProcedureTest.container();
    trigger(c, "meta", "Post", "Create", COUNT_IN_METADATA);
    c.create(A, doc("x", "a"), post("meta"));
    c.create(A, doc("y", "a"), post("meta"));
    JsonNode meta = c.read(A, "_meta").document();
    assertThat(meta.path("count").asInt()).isEqualTo(2);
    assertThat(meta.path("last").asText()).isEqualTo("y");
  }

  @Test
  void aPostTriggerThatThrows_rollsBackTheWrite() {
    Container c = StoredProcedureTest.container();
    trigger(c, "fail", "Post", "All", "function () { throw new Error('no'); }");
    assertThatThrownBy(() -> c.create(A, doc("x", "a"), post("fail")))
        .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.status()).isEqualTo(400));
    assertThat(c.documentCount()).isZero();
    c.create(A, doc("y", "a"));
    assertThatThrownBy(() -> c.delete(A, "y", post("fail"))).isInstanceOf(CosmosException.class);
    assertThat(c.read(A, "y").status()).isEqualTo(200);
  }

  @Test
  void triggers_mustMatchTheirTypeAndOperation_andExist() {
    Container c = StoredProcedureTest.container();
    trigger(c, "onCreate", "Pre", "Create", STAMP);
    trigger(c, "after", "Post", "All", "function () {}");
    c.create(A, doc("x", "a"));
    assertThatThrownBy(() -> c.replace(A, "x", doc("x", "a"), pre("onCreate")))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.getMessage()).contains("Create").contains("Replace");
            });
    assertThatThrownBy(() -> c.create(A, doc("y", "a"), pre("after")))
        .isInstanceOfSatisfying(
            CosmosException.class, e -> assertThat(e.getMessage()).contains("Post"));
    assertThatThrownBy(() -> c.create(A, doc("y", "a"), pre("missing")))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.getMessage()).contains("'missing'").contains("does not exist");
            });
    assertThat(c.documentCount()).isEqualTo(1);
  }

  @Test
  void aPreTrigger_cannotMoveTheDocumentToAnotherPartition() {
    Container c = StoredProcedureTest.container();
    trigger(
        c,
        "move",
        "Pre",
        "All",
        "function () { var r = getContext().getRequest(); var d = r.getBody(); d.pk = 'b';"
            + " r.setBody(d); }");
    assertThatThrownBy(() -> c.create(A, doc("x", "a"), pre("move")))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> assertThat(e.getMessage()).contains("cannot reference partition keys"));
  }

  @Test
  void udfs_runInEveryClause() {
    Container c = StoredProcedureTest.container();
    udf(c, "tax", "function (price) { return price * 1.2; }");
    udf(c, "label", "function (d) { return d.id + ':' + d.n; }");
    for (int i = 0; i < 5; i++) {
      c.create(doc("d" + i, i % 2 == 0 ? "a" : "b").put("n", i * 10));
    }
    List<JsonNode> rows =
        c.query(
                QueryRequest.of(
                    "SELECT VALUE udf.label(c) FROM c WHERE udf.tax(c.n) > 20"
                        + " ORDER BY c.n DESC"))
            .rows();
    assertThat(rows).extracting(JsonNode::asText).containsExactly("d4:40", "d3:30", "d2:20");
    List<JsonNode> grouped =
        c.query(
                QueryRequest.of(
                    "SELECT VALUE COUNT(1) FROM c WHERE udf.tax(c.n) >= 0 AND c.pk = 'a'"))
            .rows();
    assertThat(grouped.get(0).asInt()).isEqualTo(3);
  }

  @Test
  void udfGlobals_belongToOneQueryPage_neverToAnotherQueryOrContainer() {
    Container writer = StoredProcedureTest.container();
    Container reader =
        StoredProcedureTest.ENGINE
            .createDatabase("udf-isolation")
            .createContainer(
                io.cosmolab.engine.ContainerSettings.of(
                    "c", io.cosmolab.engine.partitioning.PartitionKeyDefinition.hash("/pk")));
    udf(
        writer,
        "rec",
        "function (x) { globalThis.seen = globalThis.seen || []; globalThis.seen.push(x);"
            + " return globalThis.seen.length; }");
    udf(writer, "poison", "function () { Math.max = function () { return -1; }; return 0; }");
    udf(
        reader,
        "steal",
        "function () { return globalThis.seen === undefined ? 'nothing' : globalThis.seen; }");
    udf(reader, "max", "function () { return Math.max(1, 2); }");
    writer.create(doc("s1", "a").put("secret", "TOPSECRET"));
    writer.create(doc("s2", "a").put("secret", "TOPSECRET"));
    reader.create(doc("r1", "a"));

    // one page's calls share globals, the next query starts afresh
    for (int query = 0; query < 2; query++) {
      assertThat(writer.query(QueryRequest.of("SELECT VALUE udf.rec(c.secret) FROM c")).rows())
          .extracting(JsonNode::asInt)
          .containsExactly(1, 2);
    }
    writer.query(QueryRequest.of("SELECT VALUE udf.poison() FROM c"));
    assertThat(reader.query(QueryRequest.of("SELECT VALUE udf.steal() FROM c")).rows())
        .extracting(JsonNode::asText)
        .containsExactly("nothing");
    assertThat(reader.query(QueryRequest.of("SELECT VALUE udf.max() FROM c")).rows())
        .extracting(JsonNode::asInt)
        .containsExactly(2);
  }

  @Test
  void aUdfAllocatingPastItsBound_isStopped() {
    withUdfMemoryOf32Mb(
        c -> {
          udf(
              c,
              "hog",
              "function () { var keep = [];"
                  + " while (true) { keep.push('x'.repeat(1000) + keep.length); } }");
          c.create(doc("h", "a"));
          assertThatThrownBy(() -> c.query(QueryRequest.of("SELECT VALUE udf.hog() FROM c")))
              .isInstanceOfSatisfying(
                  CosmosException.class,
                  e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).contains("allocated more than its bound of 32 MB");
                  });
        });
  }

  @Test
  void aUdfHoardingInItsGlobals_acrossCalls_keepsNoMoreThanItsBound_andTheQueryAnswers() {
    withUdfMemoryOf32Mb(
        c -> {
          // each call keeps 8 MB more (under the 32 MB a call may allocate): 60 calls would keep
          // 480
          udf(
              c,
              "hoard",
              "function () { globalThis.h = globalThis.h || [];"
                  + " globalThis.h.push(new Float64Array(1 << 20)); return globalThis.h.length; }");
          for (int i = 0; i < 60; i++) {
            c.create(doc("h" + i, "a"));
          }
          List<JsonNode> kept =
              c.query(QueryRequest.of("SELECT VALUE udf.hoard() FROM c").withMaxItemCount(100))
                  .rows();
          assertThat(kept).hasSize(60);
          // the context is let go once its calls allocated more than 32 MB: at most 5 arrays pile
          // up
          assertThat(kept)
              .extracting(JsonNode::asInt)
              .allSatisfy(n -> assertThat(n).isBetween(1, 5));
          assertThat(kept).extracting(JsonNode::asInt).contains(1, 4);
        });
  }

  /** Runs {@code test} on a container of an engine whose UDF calls may allocate 32 MB each. */
  private static void withUdfMemoryOf32Mb(java.util.function.Consumer<Container> test) {
    GraalJsRuntime runtime =
        new GraalJsRuntime(
            io.cosmolab.engine.script.ScriptLimits.DEFAULT.withMemoryBytes(32L << 20));
    try (io.cosmolab.engine.CosmosEngine engine =
        io.cosmolab.engine.CosmosEngine.builder().scriptRuntime(runtime).build()) {
      test.accept(
          engine
              .createDatabase("db")
              .createContainer(
                  io.cosmolab.engine.ContainerSettings.of(
                      "c", io.cosmolab.engine.partitioning.PartitionKeyDefinition.hash("/pk"))));
    }
  }

  @Test
  void udfErrors_andUnknownUdfs_answer400() {
    Container c = StoredProcedureTest.container();
    udf(c, "boom", "function (x) { throw new Error('bad input ' + x); }");
    c.create(doc("x", "a"));
    assertThatThrownBy(() -> c.query(QueryRequest.of("SELECT VALUE udf.boom(c.id) FROM c")))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.getMessage()).contains("bad input x");
            });
    assertThatThrownBy(() -> c.query(QueryRequest.of("SELECT VALUE udf.nope(c.id) FROM c")))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.getMessage()).contains("udf.nope");
            });
  }

  @Test
  void aUdfReturningUndefined_dropsTheValue() {
    Container c = StoredProcedureTest.container();
    udf(c, "nothing", "function (x) { return undefined; }");
    c.create(doc("x", "a"));
    assertThat(c.query(QueryRequest.of("SELECT VALUE udf.nothing(c.id) FROM c")).rows()).isEmpty();
  }

  @Test
  void aStoredProcedureQuery_canCallAUdf() {
    Container c = StoredProcedureTest.container();
    udf(c, "twice", "function (x) { return 2 * x; }");
    c.create(doc("x", "a").put("n", 21));
    StoredProcedureTest.sproc(
        c,
        "q",
        "function () { var coll = getContext().getCollection();"
            + " coll.queryDocuments(coll.getSelfLink(), 'SELECT VALUE udf.twice(c.n) FROM c',"
            + " function (e, r) { if (e) throw e; getContext().getResponse().setBody(r[0]); }); }");
    assertThat(StoredProcedureTest.run(c, "q", "a", "[]").body().asInt()).isEqualTo(42);
  }
}
