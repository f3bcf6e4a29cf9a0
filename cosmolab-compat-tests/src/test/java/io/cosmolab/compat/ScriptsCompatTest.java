package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.CosmosStoredProcedureProperties;
import com.azure.cosmos.models.CosmosStoredProcedureRequestOptions;
import com.azure.cosmos.models.CosmosStoredProcedureResponse;
import com.azure.cosmos.models.CosmosTriggerProperties;
import com.azure.cosmos.models.CosmosUserDefinedFunctionProperties;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.azure.cosmos.models.TriggerOperation;
import com.azure.cosmos.models.TriggerType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.script.ScriptLimits;
import io.cosmolab.testkit.CosmosLab;
import io.cosmolab.testkit.CosmosLabExtension;
import io.cosmolab.testkit.LabContainer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Stored procedures, triggers and UDFs through the Java SDK's scripts API, run by cosmolab-scripts
 * (on this module's test class path): the resources, procedures executed with parameters and a
 * partition key, triggers through {@link CosmosItemRequestOptions}, UDFs in queries.
 */
@ExtendWith(CosmosLabExtension.class)
class ScriptsCompatTest {
  static final ObjectMapper JSON = new ObjectMapper();

  static final String BULK_IMPORT =
      """
      function bulkImport(docs) {
        var collection = getContext().getCollection();
        var count = 0;
        if (!docs.length) { getContext().getResponse().setBody(0); return; }
        tryCreate(docs[count], callback);
        function tryCreate(doc, cb) {
          if (!collection.createDocument(collection.getSelfLink(), doc, cb)) {
            getContext().getResponse().setBody(count);
          }
        }
        function callback(err) {
          if (err) throw err;
          count++;
          if (count >= docs.length) getContext().getResponse().setBody(count);
          else tryCreate(docs[count], callback);
        }
      }""";

  static ObjectNode doc(String id, String pk) {
    return JSON.createObjectNode().put("id", id).put("pk", pk);
  }

  static CosmosStoredProcedureRequestOptions in(String pk) {
    return new CosmosStoredProcedureRequestOptions().setPartitionKey(new PartitionKey(pk));
  }

  static JsonNode json(String s) throws Exception {
    return JSON.readTree(s);
  }

  @Test
  void scripts_canBeCreatedReadListedReplacedAndDeleted(
      @LabContainer(partitionKey = "/pk") CosmosContainer c) {
    var scripts = c.getScripts();
    scripts.createStoredProcedure(
        new CosmosStoredProcedureProperties("sp1", "function () { getContext(); }"));
    scripts.createTrigger(
        new CosmosTriggerProperties("tr1", "function () {}")
            .setTriggerType(TriggerType.PRE)
            .setTriggerOperation(TriggerOperation.CREATE));
    scripts.createUserDefinedFunction(
        new CosmosUserDefinedFunctionProperties("udf1", "function (x) { return x; }"));

    assertThat(scripts.getStoredProcedure("sp1").read().getProperties().getBody())
        .isEqualTo("function () { getContext(); }");
    assertThat(scripts.getTrigger("tr1").read().getProperties().getTriggerType())
        .isEqualTo(TriggerType.PRE);
    assertThat(scripts.readAllStoredProcedures().stream().map(p -> p.getId()).toList())
        .containsExactly("sp1");
    assertThat(scripts.readAllUserDefinedFunctions().stream().map(p -> p.getId()).toList())
        .containsExactly("udf1");

    // as with the service, replace sends the properties read back (the SDK uses their _self link)
    CosmosStoredProcedureProperties props =
        scripts.getStoredProcedure("sp1").read().getProperties();
    props.setBody("function () { return 2; }");
    scripts.getStoredProcedure("sp1").replace(props);
    assertThat(scripts.getStoredProcedure("sp1").read().getProperties().getBody())
        .isEqualTo("function () { return 2; }");

    scripts.getTrigger("tr1").delete();
    assertThat(scripts.readAllTriggers().stream().toList()).isEmpty();
    assertThatThrownBy(() -> scripts.getTrigger("tr1").read())
        .isInstanceOfSatisfying(
            CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(404));
  }

  @Test
  void execute_withParametersAndAPartitionKey_returnsTheBodyAndTheLog(
      @LabContainer(partitionKey = "/pk") CosmosContainer c) throws Exception {
    c.getScripts()
        .createStoredProcedure(
            new CosmosStoredProcedureProperties(
                "greet",
                "function (name, n) { console.log('greeting ' + name);"
                    + " getContext().getResponse().setBody({ hello: name, times: n }); }"));
    CosmosStoredProcedureResponse r =
        c.getScripts()
            .getStoredProcedure("greet")
            .execute(List.of("ada", 3), in("a").setScriptLoggingEnabled(true));
    assertThat(r.getStatusCode()).isEqualTo(200);
    assertThat(json(r.getResponseAsString())).isEqualTo(json("{\"hello\":\"ada\",\"times\":3}"));
    assertThat(r.getRequestCharge()).isGreaterThan(0);
    assertThat(r.getScriptLog()).contains("greeting ada");
  }

  @Test
  void aProcedure_readsTheHeadersTheSdkSent_butNotTheSignature(
      @LabContainer(partitionKey = "/pk") CosmosContainer c) throws Exception {
    c.getScripts()
        .createStoredProcedure(
            new CosmosStoredProcedureProperties(
                "headers",
                "function () { var r = getContext().getRequest();"
                    + " getContext().getResponse().setBody({ key: r.getValue('x-ms-documentdb-partitionkey'),"
                    + " version: r.getValue('X-MS-VERSION'), signature: r.getValue('authorization') }); }"));
    CosmosStoredProcedureResponse r =
        c.getScripts().getStoredProcedure("headers").execute(List.of(), in("a"));
    JsonNode body = json(r.getResponseAsString());
    assertThat(body.path("key").asText()).isEqualTo("[\"a\"]");
    assertThat(body.path("version").asText()).isNotEmpty();
    assertThat(body.path("signature").isNull()).isTrue();
  }

  @Test
  void bulkImport_withTheContinuationPattern_writesEverything() throws Exception {
    try (CosmosLab lab =
            CosmosLab.builder()
                .scriptLimits(ScriptLimits.DEFAULT.withAcceptedOperations(40))
                .start();
        CosmosClient client = lab.clientBuilder().buildClient()) {
      client.createDatabaseIfNotExists("bulk");
      client
          .getDatabase("bulk")
          .createContainerIfNotExists(
              new com.azure.cosmos.models.CosmosContainerProperties("c", "/pk"),
              ThroughputProperties.createManualThroughput(10_000));
      CosmosContainer c = client.getDatabase("bulk").getContainer("c");
      c.getScripts()
          .createStoredProcedure(new CosmosStoredProcedureProperties("bulk", BULK_IMPORT));
      List<ObjectNode> docs = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        docs.add(doc("d" + i, "tenant"));
      }
      int done = 0;
      int calls = 0;
      while (done < docs.size()) {
        ArrayNode rest = JSON.createArrayNode().addAll(docs.subList(done, docs.size()));
        CosmosStoredProcedureResponse r =
            c.getScripts().getStoredProcedure("bulk").execute(List.of(rest), in("tenant"));
        done += Integer.parseInt(r.getResponseAsString());
        calls++;
      }
      // 40 + 40 + 20, each call saying how far it got (more calls where time ran short first)
      assertThat(calls).isGreaterThanOrEqualTo(3);
      assertThat(
              c
                  .queryItems(
                      "SELECT VALUE COUNT(1) FROM c",
                      new CosmosQueryRequestOptions(),
                      Integer.class)
                  .stream()
                  .findFirst())
          .contains(100);
    }
  }

  @Test
  void aProcedure_readsUpdatesAndDeletesAtomically_andOneThatThrowsWritesNothing(
      @LabContainer(partitionKey = "/pk") CosmosContainer c) {
    c.createItem(doc("account", "a").put("balance", 10));
    c.createItem(doc("pending", "a"));
    c.getScripts()
        .createStoredProcedure(
            new CosmosStoredProcedureProperties(
                "settle",
                """
                function settle(amount, fail) {
                  var coll = getContext().getCollection();
                  coll.readDocument(coll.getAltLink() + '/docs/account', function (err, acct) {
                    if (err) throw err;
                    acct.balance += amount;
                    coll.replaceDocument(acct._self, acct, function (err2) {
                      if (err2) throw err2;
                      coll.deleteDocument(coll.getAltLink() + '/docs/pending', function (err3) {
                        if (err3) throw err3;
                        if (fail) throw new Error('refused after the writes');
                        getContext().getResponse().setBody(acct.balance);
                      });
                    });
                  });
                }"""));
    var settle = c.getScripts().getStoredProcedure("settle");
    assertThatThrownBy(() -> settle.execute(List.of(5, true), in("a")))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.getStatusCode()).isEqualTo(400);
              assertThat(e.getMessage()).contains("refused after the writes");
            });
    assertThat(
            c.readItem("account", new PartitionKey("a"), JsonNode.class)
                .getItem()
                .get("balance")
                .asInt())
        .isEqualTo(10);
    assertThat(c.readItem("pending", new PartitionKey("a"), JsonNode.class).getStatusCode())
        .isEqualTo(200);

    assertThat(settle.execute(List.of(5, false), in("a")).getResponseAsString()).isEqualTo("15");
    assertThat(
            c.readItem("account", new PartitionKey("a"), JsonNode.class)
                .getItem()
                .get("balance")
                .asInt())
        .isEqualTo(15);
    assertThatThrownBy(() -> c.readItem("pending", new PartitionKey("a"), JsonNode.class))
        .isInstanceOfSatisfying(
            CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(404));
  }

  @Test
  void preTriggers_stampOrReject_andAPostTriggerUpdatesAMetadataDocument(
      @LabContainer(partitionKey = "/pk") CosmosContainer c) {
    var scripts = c.getScripts();
    scripts.createTrigger(
        new CosmosTriggerProperties(
                "stamp",
                "function () { var r = getContext().getRequest(); var d = r.getBody();"
                    + " d.stamped = true; r.setBody(d); }")
            .setTriggerType(TriggerType.PRE)
            .setTriggerOperation(TriggerOperation.CREATE));
    scripts.createTrigger(
        new CosmosTriggerProperties(
                "needsName",
                "function () { if (!getContext().getRequest().getBody().name)"
                    + " throw new Error('Document must include a name'); }")
            .setTriggerType(TriggerType.PRE)
            .setTriggerOperation(TriggerOperation.ALL));
    scripts.createTrigger(
        new CosmosTriggerProperties(
                "count",
                """
                function count() {
                  var coll = getContext().getCollection();
                  var created = getContext().getResponse().getBody();
                  coll.queryDocuments(coll.getSelfLink(), "SELECT * FROM c WHERE c.id = '_meta'",
                      function (err, found) {
                        if (err) throw err;
                        var meta = found.length ? found[0] : { id: '_meta', pk: created.pk, n: 0 };
                        meta.n += 1;
                        coll.upsertDocument(coll.getSelfLink(), meta);
                      });
                }""")
            .setTriggerType(TriggerType.POST)
            .setTriggerOperation(TriggerOperation.CREATE));

    c.createItem(
        doc("x", "a"),
        new PartitionKey("a"),
        new CosmosItemRequestOptions().setPreTriggerInclude(List.of("stamp")));
    assertThat(
            c.readItem("x", new PartitionKey("a"), JsonNode.class)
                .getItem()
                .get("stamped")
                .asBoolean())
        .isTrue();

    assertThatThrownBy(
            () ->
                c.createItem(
                    doc("y", "a"),
                    new PartitionKey("a"),
                    new CosmosItemRequestOptions().setPreTriggerInclude(List.of("needsName"))))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.getStatusCode()).isEqualTo(400);
              assertThat(e.getMessage()).contains("Document must include a name");
            });

    for (String id : List.of("p1", "p2")) {
      c.createItem(
          doc(id, "a"),
          new PartitionKey("a"),
          new CosmosItemRequestOptions().setPostTriggerInclude(List.of("count")));
    }
    assertThat(
            c.readItem("_meta", new PartitionKey("a"), JsonNode.class).getItem().get("n").asInt())
        .isEqualTo(2);

    assertThatThrownBy(
            () ->
                c.createItem(
                    doc("z", "a"),
                    new PartitionKey("a"),
                    new CosmosItemRequestOptions().setPreTriggerInclude(List.of("unknown"))))
        .isInstanceOfSatisfying(
            CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(400));
  }

  @Test
  void udfs_inWhereAndSelect_acrossPartitions(
      @LabContainer(partitionKey = "/pk", partitions = 4) CosmosContainer c) {
    c.getScripts()
        .createUserDefinedFunction(
            new CosmosUserDefinedFunctionProperties(
                "tax", "function (price) { return Math.round(price * 1.2); }"));
    for (int i = 0; i < 20; i++) {
      c.createItem(doc("i" + i, "p" + (i % 7)).put("price", i * 10));
    }
    List<JsonNode> rows =
        c
            .queryItems(
                "SELECT c.id, udf.tax(c.price) AS gross FROM c WHERE udf.tax(c.price) > 200"
                    + " ORDER BY c.price",
                new CosmosQueryRequestOptions(),
                JsonNode.class)
            .stream()
            .toList();
    assertThat(rows).extracting(r -> r.get("id").asText()).containsExactly("i17", "i18", "i19");
    assertThat(rows.get(0).get("gross").asInt()).isEqualTo(204);
  }

  @Test
  void udfs_insideAggregatesAndGroupBy_acrossPartitions_mergeAsTheServicesPlans(
      @LabContainer(partitionKey = "/pk", partitions = 4) CosmosContainer c) {
    c.getScripts()
        .createUserDefinedFunction(
            new CosmosUserDefinedFunctionProperties(
                "tax", "function (price) { return Math.round(price * 1.2); }"));
    c.getScripts()
        .createUserDefinedFunction(
            new CosmosUserDefinedFunctionProperties(
                "band", "function (price) { return price < 100 ? 'low' : 'high'; }"));
    long expectedSum = 0;
    int expectedMax = 0;
    for (int i = 0; i < 20; i++) {
      c.createItem(doc("i" + i, "p" + (i % 7)).put("price", i * 10));
      expectedSum += Math.round(i * 10 * 1.2);
      expectedMax = Math.max(expectedMax, (int) Math.round(i * 10 * 1.2));
    }
    // each partition aggregates its UDF values; the SDK merges the partials (a SUM as a double)
    assertThat(
            c
                .queryItems(
                    "SELECT VALUE SUM(udf.tax(c.price)) FROM c",
                    new CosmosQueryRequestOptions(),
                    Double.class)
                .stream()
                .toList())
        .containsExactly((double) expectedSum);
    assertThat(
            c
                .queryItems(
                    "SELECT VALUE MAX(udf.tax(c.price)) FROM c",
                    new CosmosQueryRequestOptions(),
                    Integer.class)
                .stream()
                .toList())
        .containsExactly(expectedMax);
    List<JsonNode> groups =
        c
            .queryItems(
                "SELECT udf.band(c.price) AS band, COUNT(1) AS n FROM c GROUP BY udf.band(c.price)",
                new CosmosQueryRequestOptions(),
                JsonNode.class)
            .stream()
            .toList();
    assertThat(groups)
        .extracting(g -> g.get("band").asText() + "=" + g.get("n").asInt())
        .containsExactlyInAnyOrder("low=10", "high=10");
  }
}
