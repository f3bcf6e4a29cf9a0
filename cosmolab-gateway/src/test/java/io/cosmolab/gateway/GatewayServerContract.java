package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The gateway over real loopback HTTP: authentication, errors, limits and robustness, for each
 * transport (the subclasses name it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class GatewayServerContract {
  private CosmosEngine engine;
  private GatewayServer server;
  private SignedClient client;

  abstract GatewayServer.Transport transport();

  /**
   * Whether a request that is not HTTP at all gets the service's JSON error body. The JDK's server
   * answers such a request itself, before any handler, with its own 400 page.
   */
  boolean framingErrorsHaveJsonBodies() {
    return true;
  }

  @BeforeAll
  void start() {
    engine = CosmosEngine.builder().throttling(ThrottlingMode.ENFORCE).build();
    engine
        .createDatabase("db")
        .createContainer(
            ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk"))
                .withThroughput(Throughput.manual(400))
                .withPhysicalPartitions(2));
    server = GatewayServer.builder(engine).port(0).plainHttp().transport(transport()).start();
    client = new SignedClient(server.endpoint());
  }

  @AfterAll
  void stop() {
    server.close();
    engine.close();
  }

  private SignedClient.Response create(String id, String pk) {
    return postToDocs(
        "{\"id\":\"" + id + "\",\"pk\":\"" + pk + "\"}",
        Map.of("x-ms-documentdb-partitionkey", "[\"" + pk + "\"]"));
  }

  /** A signed POST to the container's documents: a create, or a query with its headers. */
  private SignedClient.Response postToDocs(String body, Map<String, String> headers) {
    return client.send("POST", "/dbs/db/colls/c/docs", "docs", "dbs/db/colls/c", body, headers);
  }

  @Test
  void account_echoesTheHostTheClientUsed() {
    SignedClient.Response r = client.send("GET", "/", "", "", null, Map.of());
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.body().get("writableLocations").get(0).get("databaseAccountEndpoint").asText())
        .isEqualTo(server.endpoint().toString());
    assertThat(r.body().get("queryEngineConfiguration").isTextual()).isTrue();
    assertThat(r.body().get("enableNRegionSynchronousCommit").asBoolean()).isFalse();
  }

  @Test
  void
      aContainerWithoutAKey_underAnApiVersionBefore2018_12_31_getsTheSystemKey_andLaterOnesAre400() {
    SignedClient.Response legacy =
        client.send(
            "POST",
            "/dbs/db/colls",
            "colls",
            "dbs/db",
            "{\"id\": \"legacy\"}",
            Map.of("x-ms-version", "2018-06-18"));
    assertThat(legacy.status()).isEqualTo(201);
    assertThat(legacy.body().get("partitionKey"))
        .hasToString(
            "{\"paths\":[\"/_partitionKey\"],\"kind\":\"Hash\",\"version\":1,"
                + "\"systemKey\":true}");
    // a document without _partitionKey is addressed by the empty key, as PartitionKey.NONE sends it
    SignedClient.Response created =
        client.send(
            "POST",
            "/dbs/db/colls/legacy/docs",
            "docs",
            "dbs/db/colls/legacy",
            "{\"id\": \"a\", \"n\": 1}",
            Map.of("x-ms-documentdb-partitionkey", "[]"));
    assertThat(created.status()).isEqualTo(201);
    SignedClient.Response read =
        client.send(
            "GET",
            "/dbs/db/colls/legacy/docs/a",
            "docs",
            "dbs/db/colls/legacy/docs/a",
            null,
            Map.of("x-ms-documentdb-partitionkey", "[]"));
    assertThat(read.status()).isEqualTo(200);
    assertThat(read.body().get("n").asInt()).isEqualTo(1);
    SignedClient.Response modern =
        client.send("POST", "/dbs/db/colls", "colls", "dbs/db", "{\"id\": \"nokey\"}", Map.of());
    assertThat(modern.status()).isEqualTo(400);
    assertThat(modern.body().get("message").asText())
        .contains("a container needs a partitionKey")
        .contains("only versions before 2018-12-31");
  }

  @Test
  void missingAuthorization_returns401WithJsonBody() {
    SignedClient.Response r =
        client.send(HttpRequest.newBuilder(server.endpoint().resolve("/dbs")).GET().build());
    assertThat(r.status()).isEqualTo(401);
    assertThat(r.body().get("code").asText()).isEqualTo("Unauthorized");
  }

  @Test
  void signatureOverAnotherLink_returns401() {
    SignedClient.Response r = client.send("GET", "/dbs/db", "dbs", "dbs/other", null, Map.of());
    assertThat(r.status()).isEqualTo(401);
    assertThat(r.body().get("message").asText()).contains("payload");
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "{0} minutes off: {1}")
  @org.junit.jupiter.params.provider.CsvSource({"-20, 403", "-10, 200", "10, 200", "20, 403"})
  void aDateOutsideTheSkewWindow_behindOrAhead_returns403_andOneInsideIsServed(
      int minutes, int status) {
    SignedClient.Response r =
        client.send(
            "GET",
            "/dbs/db",
            "dbs",
            "dbs/db",
            null,
            Map.of(),
            ZonedDateTime.now(ZoneOffset.UTC).plusMinutes(minutes));
    assertThat(r.status()).isEqualTo(status);
    if (status == 403) {
      assertThat(r.body().get("message").asText())
          .contains("window")
          // 1,200 s, give or take the date's truncation to whole seconds and the request's own
          // time (a loaded CI runner saw 1198)
          .containsPattern("(119[5-9]|120[0-5]) s from");
    }
  }

  @Test
  void ridAddressedPartitionKeyRanges_signedWithTheLowerCasedRid_areServed() {
    String collRid = engine.database("db").container("c").rid();
    String dbRid = engine.database("db").rid();
    SignedClient.Response r =
        client.send(
            "GET",
            "/dbs/" + dbRid + "/colls/" + collRid + "/pkranges",
            "pkranges",
            collRid.toLowerCase(java.util.Locale.ROOT),
            null,
            Map.of());
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.body().get("PartitionKeyRanges")).hasSize(2);
    SignedClient.Response again =
        client.send(
            "GET",
            "/dbs/db/colls/c/pkranges",
            "pkranges",
            "dbs/db/colls/c",
            null,
            Map.of("if-none-match", r.headers().get("etag")));
    assertThat(again.status()).isEqualTo(304);
  }

  @Test
  void allVersionsAndDeletesFromTheBeginningOrAPointInTime_is400_butFromNowIsServed() {
    SignedClient.Response pointInTime =
        allVersionsFeed(Map.of("if-modified-since", "Thu, 01 Jan 2026 00:00:00 GMT"));
    assertThat(pointInTime.status()).isEqualTo(400);
    assertThat(pointInTime.body().get("message").asText())
        .contains("cannot start from a point in time")
        .contains("from now (If-None-Match: *) or from a continuation");
    SignedClient.Response beginning = allVersionsFeed(Map.of());
    assertThat(beginning.status()).isEqualTo(400);
    assertThat(beginning.body().get("message").asText())
        .contains("cannot start from the beginning");
    assertThat(allVersionsFeed(Map.of("if-none-match", "*")).status()).isIn(200, 304);
  }

  /** A signed all-versions-and-deletes change feed read of the container, with {@code start}. */
  private SignedClient.Response allVersionsFeed(Map<String, String> start) {
    Map<String, String> headers = new java.util.HashMap<>(start);
    headers.put("a-im", "Full-Fidelity Feed");
    return client.send("GET", "/dbs/db/colls/c/docs", "docs", "dbs/db/colls/c", null, headers);
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "continue on error: {0}")
  @org.junit.jupiter.params.provider.CsvSource({"True, 201", "False, 424"})
  void bulk_stopsAtTheFirstFailureOnlyWhenToldNotToContinue(String continueOnError, int third) {
    String id = "bulk-" + continueOnError;
    String ops =
        "[{\"operationType\":\"Create\",\"partitionKey\":\"[\\\"b\\\"]\",\"resourceBody\":"
            + "{\"id\":\""
            + id
            + "\",\"pk\":\"b\"}},"
            + "{\"operationType\":\"Create\",\"partitionKey\":\"[\\\"b\\\"]\",\"resourceBody\":"
            + "{\"id\":\""
            + id
            + "\",\"pk\":\"b\"}},"
            + "{\"operationType\":\"Create\",\"partitionKey\":\"[\\\"b\\\"]\",\"resourceBody\":"
            + "{\"id\":\""
            + id
            + "-2\",\"pk\":\"b\"}}]";
    SignedClient.Response r =
        postToDocs(
            ops,
            Map.of(
                "x-ms-cosmos-is-batch-request", "True",
                "x-ms-cosmos-batch-atomic", "False",
                "x-ms-cosmos-batch-continue-on-error", continueOnError,
                "prefer", "return=minimal"));
    assertThat(r.status()).isEqualTo(207);
    assertThat(r.body().get(0).get("statusCode").asInt()).isEqualTo(201);
    assertThat(r.body().get(1).get("statusCode").asInt()).isEqualTo(409);
    assertThat(r.body().get(2).get("statusCode").asInt()).isEqualTo(third);
    // return=minimal: no bodies
    assertThat(r.body().get(0).has("resourceBody")).isFalse();
  }

  /** A signed create of container {@code id} (key /pk) in database db, with {@code headers}. */
  private SignedClient.Response createContainer(String id, Map<String, String> headers) {
    return client.send(
        "POST",
        "/dbs/db/colls",
        "colls",
        "dbs/db",
        "{\"id\":\"" + id + "\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\"}}",
        headers);
  }

  /** Reads container {@code id}'s offer over the wire and puts it back with {@code ru} RU/s. */
  private SignedClient.Response replaceManualThroughput(String id, int ru) {
    return replaceOffer(id, content -> content.put("offerThroughput", ru), Map.of());
  }

  /**
   * Reads container {@code id}'s offer over the wire, edits its content and puts it back with
   * {@code headers}.
   */
  private SignedClient.Response replaceOffer(
      String id,
      java.util.function.Consumer<com.fasterxml.jackson.databind.node.ObjectNode> edit,
      Map<String, String> headers) {
    String rid = engine.database("db").container(id).rid();
    JsonNode offer = null;
    for (JsonNode o :
        client.send("GET", "/offers", "offers", "", null, Map.of()).body().get("Offers")) {
      if (o.get("offerResourceId").textValue().equals(rid)) {
        offer = o;
      }
    }
    assertThat(offer).isNotNull();
    String offerId = offer.get("id").textValue();
    edit.accept((com.fasterxml.jackson.databind.node.ObjectNode) offer.get("content"));
    return client.send(
        "PUT",
        "/offers/" + offerId,
        "offers",
        offerId.toLowerCase(java.util.Locale.ROOT),
        offer.toString(),
        headers);
  }

  @Test
  void autoscaleAutoUpgrade_isRefusedNamingIt_onCreateAndOnOfferReplace() {
    // the .NET SDK's CreateAutoscaleThroughput(max, autoUpgradeMaxThroughputIncrementPercentage)
    String upgrade =
        "{\"maxThroughput\":4000,\"autoUpgradePolicy\":{\"throughputPolicy\":"
            + "{\"incrementPercent\":10}}}";
    SignedClient.Response created =
        createContainer("upgrade", Map.of("x-ms-cosmos-offer-autopilot-settings", upgrade));
    assertThat(created.status()).isEqualTo(501);
    assertThat(created.body().get("message").asText()).contains("autoUpgradePolicy");
    // an increment of 0 is no upgrade: what the Java SDK sends with every autoscale setting
    SignedClient.Response none =
        createContainer(
            "upgrade",
            Map.of(
                "x-ms-cosmos-offer-autopilot-settings",
                "{\"maxThroughput\":4000,\"autoUpgradePolicy\":{\"throughputPolicy\":"
                    + "{\"incrementPercent\":0}}}"));
    assertThat(none.status()).isEqualTo(201);
    SignedClient.Response replaced =
        replaceOffer(
            "upgrade",
            content ->
                content
                    .withObject("/offerAutopilotSettings")
                    .putObject("autoUpgradePolicy")
                    .putObject("throughputPolicy")
                    .put("incrementPercent", 20),
            Map.of());
    assertThat(replaced.status()).isEqualTo(501);
  }

  @Test
  void manualAndAutoscale_switchOnlyByTheMigrationRequest_asOnTheService() {
    engine
        .database("db")
        .createContainer(
            ContainerSettings.of("kind", PartitionKeyDefinition.hash("/pk"))
                .withThroughput(Throughput.manual(2500)));
    java.util.function.Supplier<Throughput> current =
        () -> engine.database("db").container("kind").throughput().orElseThrow();
    java.util.function.Consumer<com.fasterxml.jackson.databind.node.ObjectNode> toAutoscale =
        content -> {
          content.remove("offerThroughput");
          content.putObject("offerAutopilotSettings").put("maxThroughput", 4000);
        };
    String toAutoscaleMessage =
        "x-ms-cosmos-migrate-offer-to-autopilot must be supplied and offercontent must not"
            + " contain autopilotSettings for migration from manual throughput to autoscale.";

    // a plain replace to the other kind, and a migration whose content names the maximum: 400
    for (Map<String, String> headers :
        List.of(
            Map.<String, String>of(), Map.of("x-ms-cosmos-migrate-offer-to-autopilot", "true"))) {
      SignedClient.Response refused = replaceOffer("kind", toAutoscale, headers);
      assertThat(refused.status()).as("%s", headers).isEqualTo(400);
      assertThat(refused.body().get("message").asText()).contains(toAutoscaleMessage);
    }
    assertThat(current.get()).isEqualTo(Throughput.manual(2500));

    // the migration: the service picks the maximum (2,500 rounded up to the autoscale step)
    SignedClient.Response migrated =
        replaceOffer(
            "kind", content -> {}, Map.of("x-ms-cosmos-migrate-offer-to-autopilot", "true"));
    assertThat(migrated.status()).isEqualTo(200);
    assertThat(current.get()).isEqualTo(Throughput.autoscale(3000));
    assertThat(migrated.body().path("content").path("offerAutopilotSettings").path("maxThroughput"))
        .hasToString("3000");
    // again, as a retry would (its content as the first sent it): done already
    SignedClient.Response again =
        replaceOffer(
            "kind",
            content -> content.remove("offerAutopilotSettings"),
            Map.of("x-ms-cosmos-migrate-offer-to-autopilot", "true"));
    assertThat(again.status()).isEqualTo(400);
    assertThat(again.body().get("message").asText())
        .contains("the throughput of container 'kind' is autoscale already");

    // back to manual: a plain replace is refused, the migration keeps the maximum
    SignedClient.Response plain =
        replaceOffer(
            "kind",
            content -> {
              content.remove("offerAutopilotSettings");
              content.put("offerThroughput", 3000);
            },
            Map.of());
    assertThat(plain.status()).isEqualTo(400);
    assertThat(plain.body().get("message").asText())
        .contains("x-ms-cosmos-migrate-offer-to-manual-throughput must be supplied");
    assertThat(
            replaceOffer(
                    "kind",
                    content -> {},
                    Map.of("x-ms-cosmos-migrate-offer-to-manual-throughput", "true"))
                .status())
        .isEqualTo(200);
    assertThat(current.get()).isEqualTo(Throughput.manual(3000));
  }

  @Test
  void offer_reportsTheHighestThroughputEverProvisioned_notTheCurrent() {
    engine
        .database("db")
        .createContainer(
            ContainerSettings.of("peak", PartitionKeyDefinition.hash("/pk"))
                .withThroughput(Throughput.manual(4000)));
    SignedClient.Response lowered = replaceManualThroughput("peak", 1000);
    assertThat(lowered.status()).isEqualTo(200);
    JsonNode content = lowered.body().get("content");
    assertThat(content.get("offerThroughput").intValue()).isEqualTo(1000);
    assertThat(
            content
                .path("offerMinimumThroughputParameters")
                .path("maxThroughputEverProvisioned")
                .intValue())
        .isEqualTo(4000);
  }

  @Test
  void throughputOutOfTheServicesIncrements_is400_onCreateAndOnOfferReplace() {
    for (Map<String, String> headers :
        List.of(
            Map.of("x-ms-offer-throughput", "450"),
            Map.of("x-ms-cosmos-offer-autopilot-settings", "{\"maxThroughput\":4500}"))) {
      SignedClient.Response r = createContainer("steps", headers);
      assertThat(r.status()).as("%s", headers).isEqualTo(400);
      assertThat(r.body().get("message").asText())
          .contains("The offer should have valid throughput values between")
          .contains(
              headers.containsKey("x-ms-offer-throughput")
                  ? "increments of 100."
                  : "increments of 1000.");
    }
    assertThat(createContainer("steps", Map.of("x-ms-offer-throughput", "500")).status())
        .isEqualTo(201);
    assertThat(replaceManualThroughput("steps", 550).status()).isEqualTo(400);
    assertThat(engine.database("db").container("steps").throughput().orElseThrow().maxRuPerSecond())
        .isEqualTo(500);
  }

  @Test
  void aConsistencyStrongerThanTheAccounts_is400_weakerOnesAreServed() {
    create("cons", "k");
    for (String level : List.of("Strong", "BoundedStaleness")) {
      SignedClient.Response r = readAt("cons", "k", level);
      assertThat(r.status()).as(level).isEqualTo(400);
      assertThat(r.body().get("message").asText())
          .contains(
              "ConsistencyLevel "
                  + level
                  + " specified in the request is invalid when service is configured with"
                  + " consistency level Session");
    }
    for (String level : List.of("Session", "ConsistentPrefix", "Eventual")) {
      assertThat(readAt("cons", "k", level).status()).as(level).isEqualTo(200);
    }
  }

  /** A signed point read of document {@code id} asking consistency {@code level}. */
  private SignedClient.Response readAt(String id, String pk, String level) {
    return client.send(
        "GET",
        "/dbs/db/colls/c/docs/" + id,
        "docs",
        "dbs/db/colls/c/docs/" + id,
        null,
        Map.of(
            "x-ms-documentdb-partitionkey", "[\"" + pk + "\"]", "x-ms-consistency-level", level));
  }

  @Test
  void unknownRoute_returns404WithJsonBody() {
    SignedClient.Response r =
        client.send("GET", "/nothing/here", "nothing", "nothing/here", null, Map.of());
    assertThat(r.status()).isEqualTo(404);
    assertThat(r.body().get("message").asText()).contains("/dbs/{db}");
  }

  @Test
  void clientEncryptionKeys_are501NamingTheFeature_notAMissingDatabase() {
    SignedClient.Response r =
        client.send(
            "POST",
            "/dbs/db/clientencryptionkeys",
            "clientencryptionkeys",
            "dbs/db",
            "{\"id\": \"cek\"}",
            Map.of());
    assertThat(r.status()).isEqualTo(501);
    assertThat(r.body().get("message").asText()).contains("Always Encrypted");
  }

  @Test
  void malformedJson_returns400NamingWhereItBroke() {
    SignedClient.Response r =
        postToDocs("{\"id\": \"x\", ", Map.of("x-ms-documentdb-partitionkey", "[\"a\"]"));
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.body().get("message").asText()).contains("payload is invalid").contains("line");
  }

  @Test
  void writes_carryTheHeadersTheSdksParse() {
    SignedClient.Response r = create("headers", "h");
    assertThat(r.status()).isEqualTo(201);
    assertThat(r.headers().get("x-ms-session-token")).matches("\\d+:-1#\\d+");
    assertThat(r.headers().get("x-ms-content-path"))
        .isEqualTo(engine.database("db").container("c").rid());
    assertThat(r.headers().get("etag")).isEqualTo(r.body().get("_etag").asText());
    assertThat(Double.parseDouble(r.headers().get("x-ms-request-charge"))).isPositive();
    // the physical partition that owns the key, as the session token names it
    assertThat(r.headers().get("x-ms-documentdb-partitionkeyrangeid"))
        .isEqualTo(
            r.headers()
                .get("x-ms-session-token")
                .substring(0, r.headers().get("x-ms-session-token").indexOf(':')))
        .isEqualTo(
            engine
                .database("db")
                .container("c")
                .routing()
                .rangeFor(
                    io.cosmolab.engine.partitioning.EffectivePartitionKey.of(
                        engine.database("db").container("c").partitionKey(),
                        io.cosmolab.engine.partitioning.PartitionKeyValue.of("h")))
                .id());
  }

  @Test
  void aPipelineQueryOverPartitions_withoutScope_isRefusedAsTheHostedGatewayDoes()
      throws Exception {
    Map<String, String> query =
        Map.of("content-type", "application/query+json", "x-ms-documentdb-isquery", "true");
    // over both partitions of c, needing the client's pipeline: 400/1004 with the plan
    for (String text :
        List.of(
            "SELECT VALUE COUNT(1) FROM c",
            "SELECT * FROM c ORDER BY c.id",
            "SELECT TOP 1 * FROM c",
            "SELECT DISTINCT c.pk FROM c")) {
      SignedClient.Response r = postToDocs("{\"query\":\"" + text + "\"}", query);
      assertThat(r.status()).as(text).isEqualTo(400);
      assertThat(r.headers().get("x-ms-substatus")).as(text).isEqualTo("1004");
      assertThat(r.body().get("message").asText())
          .contains("can not be directly served by the gateway");
      JsonNode plan =
          new com.fasterxml.jackson.databind.ObjectMapper()
              .readTree(r.body().get("additionalErrorInfo").asText());
      assertThat(plan.path("queryInfo").path("rewrittenQuery").isTextual()).as(text).isTrue();
    }
    // an aggregate without VALUE, or a GROUP BY: the message the JavaScript SDK looks for
    for (String text :
        List.of("SELECT COUNT(1) AS n FROM c", "SELECT c.pk, COUNT(1) AS n FROM c GROUP BY c.pk")) {
      SignedClient.Response r = postToDocs("{\"query\":\"" + text + "\"}", query);
      assertThat(r.status()).as(text).isEqualTo(400);
      assertThat(r.body().get("message").asText())
          .as(text)
          .contains("Cross partition query only supports 'VALUE <AggregateFunc>' for aggregates.");
    }
    // served: no pipeline needed, one partition by the filter, or a scope named
    assertThat(postToDocs("{\"query\":\"SELECT * FROM c\"}", query).status()).isEqualTo(200);
    assertThat(
            postToDocs("{\"query\":\"SELECT VALUE COUNT(1) FROM c WHERE c.pk = 'h'\"}", query)
                .status())
        .isEqualTo(200);
    Map<String, String> scoped = new java.util.HashMap<>(query);
    scoped.put("x-ms-documentdb-partitionkeyrangeid", "0");
    assertThat(postToDocs("{\"query\":\"SELECT VALUE COUNT(1) FROM c\"}", scoped).status())
        .isEqualTo(200);
  }

  @Test
  void goneRange_returns410With1002() {
    SignedClient.Response r =
        postToDocs(
            "{\"query\":\"SELECT * FROM c\"}",
            Map.of(
                "content-type", "application/query+json",
                "x-ms-documentdb-isquery", "true",
                "x-ms-documentdb-partitionkeyrangeid", "97"));
    assertThat(r.status()).isEqualTo(410);
    assertThat(r.headers().get("x-ms-substatus")).isEqualTo("1002");
  }

  @Test
  void executingAStoredProcedure_withoutAScriptRuntime_answers501NamingWhatToAdd() {
    SignedClient.Response created =
        client.send(
            "POST",
            "/dbs/db/colls/c/sprocs",
            "sprocs",
            "dbs/db/colls/c",
            "{\"id\":\"sp\",\"body\":\"function () {}\"}",
            Map.of());
    assertThat(created.status()).isEqualTo(201);
    assertThat(created.body().get("_rid").asText()).hasSize(24);
    SignedClient.Response run =
        client.send(
            "POST",
            "/dbs/db/colls/c/sprocs/sp",
            "sprocs",
            "dbs/db/colls/c/sprocs/sp",
            "[]",
            Map.of("x-ms-documentdb-partitionkey", "[\"a\"]"));
    assertThat(run.status()).isEqualTo(501);
    assertThat(run.body().get("message").asText())
        .contains("needs a JavaScript runtime")
        .contains("cosmolab-scripts");
  }

  @Test
  void aWriteNamingATrigger_withoutAScriptRuntime_isRefused_notWrittenSilently() {
    SignedClient.Response created =
        client.send(
            "POST",
            "/dbs/db/colls/c/triggers",
            "triggers",
            "dbs/db/colls/c",
            "{\"id\":\"t\",\"body\":\"function () {}\",\"triggerType\":\"Pre\","
                + "\"triggerOperation\":\"All\"}",
            Map.of());
    assertThat(created.status()).isEqualTo(201);
    SignedClient.Response write =
        client.send(
            "POST",
            "/dbs/db/colls/c/docs",
            "docs",
            "dbs/db/colls/c",
            "{\"id\":\"trig\",\"pk\":\"a\"}",
            Map.of(
                "x-ms-documentdb-partitionkey", "[\"a\"]",
                "x-ms-documentdb-pre-trigger-include", "t"));
    assertThat(write.status()).isEqualTo(501);
    SignedClient.Response unknown =
        client.send(
            "POST",
            "/dbs/db/colls/c/docs",
            "docs",
            "dbs/db/colls/c",
            "{\"id\":\"trig\",\"pk\":\"a\"}",
            Map.of(
                "x-ms-documentdb-partitionkey", "[\"a\"]",
                "x-ms-documentdb-post-trigger-include", "nope"));
    assertThat(unknown.status()).isEqualTo(400);
    assertThat(unknown.body().get("message").asText()).contains("'nope'");
  }

  @Test
  void hotPartitionInEnforceMode_answers429WithRetryAfter() {
    SignedClient.Response last = null;
    for (int i = 0; i < 200; i++) {
      last = create("hot-" + i, "hot");
      if (last.status() == 429) {
        break;
      }
    }
    assertThat(last.status()).isEqualTo(429);
    assertThat(last.headers().get("x-ms-substatus")).isEqualTo("3200");
    assertThat(Long.parseLong(last.headers().get("x-ms-retry-after-ms"))).isPositive();
    assertThat(last.body().get("code").asText()).isEqualTo("TooManyRequests");
  }

  @Test
  void oversizedBody_returns413AndTheServerStaysUp() throws Exception {
    String big = "{\"id\":\"big\",\"pk\":\"b\",\"s\":\"" + "x".repeat(5 * 1024 * 1024) + "\"}";
    SignedClient.Response r = postToDocs(big, Map.of("x-ms-documentdb-partitionkey", "[\"b\"]"));
    assertThat(r.status()).isEqualTo(413);
    assertThat(r.body().get("code").asText()).isEqualTo("RequestEntityTooLarge");
    assertThat(client.send("GET", "/", "", "", null, Map.of()).status()).isEqualTo(200);
  }

  @Test
  void malformedHttp_returns400AndTheServerStaysUp() throws Exception {
    try (Socket s = new Socket(java.net.InetAddress.getLoopbackAddress(), server.port())) {
      OutputStream out = s.getOutputStream();
      out.write("THIS IS NOT HTTP\r\nfoo\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      String response = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
      assertThat(response).startsWith("HTTP/1.1 400");
      if (framingErrorsHaveJsonBodies()) {
        assertThat(response).contains("\"code\":\"BadRequest\"");
      }
      assertThat(response).doesNotContain("Exception").doesNotContain("\tat ");
    }
    assertThat(client.send("GET", "/", "", "", null, Map.of()).status()).isEqualTo(200);
  }

  @Test
  void manyConcurrentClients_getNoServerErrors() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < 16; t++) {
        int thread = t;
        results.add(
            pool.submit(
                () -> {
                  SignedClient own = new SignedClient(server.endpoint());
                  int errors = 0;
                  for (int i = 0; i < 50; i++) {
                    int status =
                        own.send(
                                "GET", "/dbs/db/colls/c", "colls", "dbs/db/colls/c", null, Map.of())
                            .status();
                    if (status >= 500) {
                      errors++;
                    }
                  }
                  return errors + thread * 0;
                }));
      }
      for (Future<Integer> f : results) {
        assertThat(f.get()).isZero();
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
