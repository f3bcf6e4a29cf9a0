package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.time.ManualClock;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Users, permissions and resource tokens over REST: the resources' CRUD, feeds and queries, and
 * what a request signed with a permission's {@code _token} may and may not do. The engine runs on a
 * manual clock, so token expiry is tested without waiting.
 */
class ResourceTokenContractTest {
  private final ManualClock clock = ManualClock.startingAtEpoch2026();
  private CosmosEngine engine;
  private GatewayServer server;
  private SignedClient master;

  @BeforeEach
  void start() {
    engine = CosmosEngine.builder().clock(clock).build();
    var db = engine.createDatabase("db");
    db.createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    db.createContainer(ContainerSettings.of("other", PartitionKeyDefinition.hash("/pk")));
    server = GatewayServer.builder(engine).port(0).plainHttp().start();
    master = new SignedClient(server.endpoint());
  }

  @AfterEach
  void stop() {
    server.close();
    engine.close();
  }

  private SignedClient.Response createUser(String id) {
    return master.send(
        "POST", "/dbs/db/users", "users", "dbs/db", "{\"id\":\"" + id + "\"}", Map.of());
  }

  private SignedClient.Response createPermission(
      String user, String id, String mode, String resource, String key, Map<String, String> h) {
    String body =
        "{\"id\":\""
            + id
            + "\",\"permissionMode\":\""
            + mode
            + "\",\"resource\":\""
            + resource
            + "\""
            + (key == null ? "" : ",\"resourcePartitionKey\":" + key)
            + "}";
    return master.send(
        "POST",
        "/dbs/db/users/" + user + "/permissions",
        "permissions",
        "dbs/db/users/" + user,
        body,
        h);
  }

  /** A token for a new user's permission. */
  private String token(String mode, String resource, String key) {
    String user = "u-" + mode + (key == null ? "" : key.replaceAll("[^A-Za-z0-9]", ""));
    createUser(user);
    SignedClient.Response p = createPermission(user, "p", mode, resource, key, Map.of());
    assertThat(p.status()).as("%s", p.body()).isEqualTo(201);
    return p.body().get("_token").asText();
  }

  /** A request with a resource token as its authorization, as the SDKs send it. */
  private SignedClient.Response withToken(
      String token, String method, String path, String body, Map<String, String> headers) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(server.endpoint().resolve(path))
            .header("x-ms-date", "Thu, 01 Jan 2026 00:00:00 GMT")
            .header("x-ms-version", "2020-07-15")
            .header("authorization", URLEncoder.encode(token, StandardCharsets.UTF_8))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(b::header);
    return master.send(b.build());
  }

  private SignedClient.Response createDoc(String token, String container, String id, String pk) {
    return withToken(
        token,
        "POST",
        "/dbs/db/colls/" + container + "/docs",
        "{\"id\":\"" + id + "\",\"pk\":\"" + pk + "\"}",
        Map.of("x-ms-documentdb-partitionkey", "[\"" + pk + "\"]"));
  }

  private SignedClient.Response query(String token, Map<String, String> headers) {
    Map<String, String> h = new HashMap<>(headers);
    h.put("x-ms-documentdb-isquery", "True");
    h.put("content-type", "application/query+json");
    return withToken(token, "POST", "/dbs/db/colls/c/docs", "{\"query\":\"SELECT * FROM c\"}", h);
  }

  @Test
  void users_createReadListQueryRenameDelete_withTheServiceProperties() {
    SignedClient.Response created = createUser("alice");
    assertThat(created.status()).isEqualTo(201);
    JsonNode u = created.body();
    String dbRid = engine.database("db").rid();
    assertThat(u.get("_self").asText())
        .isEqualTo("dbs/" + dbRid + "/users/" + u.get("_rid").asText() + "/");
    assertThat(u.get("_permissions").asText()).isEqualTo("permissions/");
    assertThat(u.get("_etag").asText()).startsWith("\"").endsWith("\"");
    assertThat(u.get("_ts").asLong()).isEqualTo(clock.millis() / 1000);
    assertThat(created.headers().get("etag")).isEqualTo(u.get("_etag").asText());
    assertThat(createUser("alice").status()).isEqualTo(409);
    assertThat(createUser("bad/id").status()).isEqualTo(400);

    createUser("bob");
    SignedClient.Response list =
        master.send("GET", "/dbs/db/users", "users", "dbs/db", null, Map.of());
    assertThat(list.body().get("_rid").asText()).isEqualTo(dbRid);
    assertThat(list.body().get("_count").asInt()).isEqualTo(2);
    SignedClient.Response q =
        master.send(
            "POST",
            "/dbs/db/users",
            "users",
            "dbs/db",
            "{\"query\":\"SELECT * FROM u WHERE u.id = 'bob'\"}",
            Map.of("x-ms-documentdb-isquery", "True", "content-type", "application/query+json"));
    assertThat(q.body().get("Users")).hasSize(1);

    SignedClient.Response stale =
        master.send(
            "PUT",
            "/dbs/db/users/alice",
            "users",
            "dbs/db/users/alice",
            "{\"id\":\"alicia\"}",
            Map.of("if-match", "\"nope\""));
    assertThat(stale.status()).isEqualTo(412);
    SignedClient.Response renamed =
        master.send(
            "PUT",
            "/dbs/db/users/alice",
            "users",
            "dbs/db/users/alice",
            "{\"id\":\"alicia\"}",
            Map.of("if-match", u.get("_etag").asText()));
    assertThat(renamed.status()).isEqualTo(200);
    assertThat(renamed.body().get("_rid")).isEqualTo(u.get("_rid"));
    assertThat(
            master
                .send("GET", "/dbs/db/users/alice", "users", "dbs/db/users/alice", null, Map.of())
                .status())
        .isEqualTo(404);
    assertThat(
            master
                .send(
                    "DELETE",
                    "/dbs/db/users/alicia",
                    "users",
                    "dbs/db/users/alicia",
                    null,
                    Map.of())
                .status())
        .isEqualTo(204);
    assertThat(
            master
                .send("GET", "/dbs/db/users/alicia", "users", "dbs/db/users/alicia", null, Map.of())
                .status())
        .isEqualTo(404);
  }

  @Test
  void permissions_createListQueryReplaceDelete_eachAnswerCarryingAFreshToken() {
    createUser("alice");
    SignedClient.Response p =
        createPermission("alice", "read-c", "Read", "dbs/db/colls/c", "[\"t1\"]", Map.of());
    assertThat(p.status()).isEqualTo(201);
    assertThat(p.body().get("permissionMode").asText()).isEqualTo("Read");
    assertThat(p.body().get("resource").asText()).isEqualTo("dbs/db/colls/c");
    assertThat(p.body().get("resourcePartitionKey").toString()).isEqualTo("[\"t1\"]");
    assertThat(p.body().get("_token").asText()).startsWith("type=resource&ver=1.0&sig=");
    assertThat(p.body().get("_self").asText())
        .endsWith("/permissions/" + p.body().get("_rid").asText() + "/");
    assertThat(
            createPermission("alice", "read-c", "All", "dbs/db/colls/other", null, Map.of())
                .status())
        .isEqualTo(409);
    assertThat(
            createPermission("alice", "again", "All", "dbs/db/colls/c", "[\"t1\"]", Map.of())
                .status())
        .isEqualTo(409);
    assertThat(createPermission("alice", "x", "Write", "dbs/db/colls/c", null, Map.of()).status())
        .isEqualTo(400);
    assertThat(
            createPermission("alice", "x", "All", "dbs/db/colls/missing", null, Map.of()).status())
        .isEqualTo(404);
    SignedClient.Response noUser =
        createPermission("nobody", "x", "All", "dbs/db/colls/c", null, Map.of());
    assertThat(noUser.status()).isEqualTo(404);
    assertThat(noUser.headers().get("x-ms-substatus")).isEqualTo("1003");

    clock.advance(Duration.ofSeconds(1)); // tokens issued later differ
    SignedClient.Response list =
        master.send(
            "GET",
            "/dbs/db/users/alice/permissions",
            "permissions",
            "dbs/db/users/alice",
            null,
            Map.of());
    assertThat(list.body().get("Permissions")).hasSize(1);
    String listed = list.body().get("Permissions").get(0).get("_token").asText();
    assertThat(listed).isNotEqualTo(p.body().get("_token").asText());
    SignedClient.Response q =
        master.send(
            "POST",
            "/dbs/db/users/alice/permissions",
            "permissions",
            "dbs/db/users/alice",
            "{\"query\":\"SELECT * FROM p WHERE p.permissionMode = 'Read'\"}",
            Map.of("x-ms-documentdb-isquery", "True", "content-type", "application/query+json"));
    assertThat(q.body().get("Permissions").get(0).get("_token").asText())
        .startsWith("type=resource");

    SignedClient.Response replaced =
        master.send(
            "PUT",
            "/dbs/db/users/alice/permissions/read-c",
            "permissions",
            "dbs/db/users/alice/permissions/read-c",
            "{\"id\":\"read-c\",\"permissionMode\":\"All\",\"resource\":\"dbs/db/colls/c\"}",
            Map.of("if-match", p.body().get("_etag").asText()));
    assertThat(replaced.status()).isEqualTo(200);
    assertThat(replaced.body().get("_etag")).isNotEqualTo(p.body().get("_etag"));
    assertThat(replaced.body().has("resourcePartitionKey")).isFalse();
    assertThat(
            master
                .send(
                    "DELETE",
                    "/dbs/db/users/alice/permissions/read-c",
                    "permissions",
                    "dbs/db/users/alice/permissions/read-c",
                    null,
                    Map.of("if-match", p.body().get("_etag").asText()))
                .status())
        .isEqualTo(412);
    assertThat(
            master
                .send(
                    "DELETE",
                    "/dbs/db/users/alice/permissions/read-c",
                    "permissions",
                    "dbs/db/users/alice/permissions/read-c",
                    null,
                    Map.of())
                .status())
        .isEqualTo(204);
  }

  @Test
  void expirySeconds_outside600To86400_is400() {
    createUser("alice");
    SignedClient.Response tooShort =
        createPermission(
            "alice",
            "p",
            "All",
            "dbs/db/colls/c",
            null,
            Map.of("x-ms-documentdb-expiry-seconds", "599"));
    assertThat(tooShort.status()).isEqualTo(400);
    assertThat(tooShort.body().get("message").asText()).contains("x-ms-documentdb-expiry-seconds");
    assertThat(
            createPermission(
                    "alice",
                    "p",
                    "All",
                    "dbs/db/colls/c",
                    null,
                    Map.of("x-ms-documentdb-expiry-seconds", "86401"))
                .status())
        .isEqualTo(400);
    assertThat(
            createPermission(
                    "alice",
                    "p",
                    "All",
                    "dbs/db/colls/c",
                    null,
                    Map.of("x-ms-documentdb-expiry-seconds", "ten"))
                .status())
        .isEqualTo(400);
  }

  @Test
  void readToken_readsQueriesAndBootstraps_butAWriteIs403() {
    master.send(
        "POST",
        "/dbs/db/colls/c/docs",
        "docs",
        "dbs/db/colls/c",
        "{\"id\":\"d1\",\"pk\":\"t1\"}",
        Map.of("x-ms-documentdb-partitionkey", "[\"t1\"]"));
    String token = token("Read", "dbs/db/colls/c", null);

    assertThat(withToken(token, "GET", "/", null, Map.of()).status()).isEqualTo(200);
    assertThat(withToken(token, "GET", "/dbs/db/colls/c", null, Map.of()).status()).isEqualTo(200);
    assertThat(withToken(token, "GET", "/dbs/db/colls/c/pkranges", null, Map.of()).status())
        .isEqualTo(200);
    assertThat(
            withToken(
                    token,
                    "GET",
                    "/dbs/db/colls/c/docs/d1",
                    null,
                    Map.of("x-ms-documentdb-partitionkey", "[\"t1\"]"))
                .status())
        .isEqualTo(200);
    assertThat(query(token, Map.of()).body().get("Documents")).hasSize(1);

    SignedClient.Response write = createDoc(token, "c", "d2", "t1");
    assertThat(write.status()).isEqualTo(403);
    assertThat(write.body().get("message").asText())
        .contains("Insufficient permissions provided in the authorization header")
        .contains("mode is Read");
    assertThat(
            withToken(
                    token,
                    "DELETE",
                    "/dbs/db/colls/c/docs/d1",
                    null,
                    Map.of("x-ms-documentdb-partitionkey", "[\"t1\"]"))
                .status())
        .isEqualTo(403);
  }

  @Test
  void readToken_cannotWriteByCallingItsWriteAQuery() {
    String token = token("Read", "dbs/db/colls/c", null);
    Map<String, String> h = new HashMap<>();
    h.put("x-ms-documentdb-isquery", "True");
    h.put("content-type", "application/query+json");
    h.put("x-ms-documentdb-partitionkey", "[\"t1\"]");
    h.put("x-ms-cosmos-is-batch-request", "True");
    SignedClient.Response batch =
        withToken(
            token,
            "POST",
            "/dbs/db/colls/c/docs",
            "[{\"operationType\":\"Create\",\"resourceBody\":{\"id\":\"evil\",\"pk\":\"t1\"}}]",
            h);
    assertThat(batch.status()).as("%s", batch.body()).isEqualTo(403);
    assertThat(batch.body().get("message").asText()).contains("mode is Read");
    h.remove("x-ms-cosmos-is-batch-request");
    // a stored procedure's run is a write whatever its headers say
    assertThat(withToken(token, "POST", "/dbs/db/colls/c/sprocs/sp", "[]", h).status())
        .isEqualTo(403);
    // nor can a query-plan header make a script's creation a read
    h.remove("x-ms-documentdb-isquery");
    h.remove("content-type");
    h.put("x-ms-cosmos-is-query-plan-request", "True");
    for (String feed : new String[] {"sprocs", "triggers", "udfs"}) {
      SignedClient.Response create =
          withToken(
              token,
              "POST",
              "/dbs/db/colls/c/" + feed,
              "{\"id\":\"planted\",\"body\":\"function () {}\",\"triggerType\":\"Pre\","
                  + "\"triggerOperation\":\"All\"}",
              h);
      assertThat(create.status()).as("%s %s", feed, create.body()).isEqualTo(400);
    }
    assertThat(
            master
                .send(
                    "GET", "/dbs/db/colls/c/triggers", "triggers", "dbs/db/colls/c", null, Map.of())
                .body()
                .get("Triggers"))
        .isEmpty();
    assertThat(
            master
                .send(
                    "GET",
                    "/dbs/db/colls/c/docs/evil",
                    "docs",
                    "dbs/db/colls/c/docs/evil",
                    null,
                    Map.of("x-ms-documentdb-partitionkey", "[\"t1\"]"))
                .status())
        .isEqualTo(404);
  }

  @Test
  void allToken_writesInItsContainer_andIsRefusedEverywhereElse() {
    String token = token("All", "dbs/db/colls/c", null);
    assertThat(createDoc(token, "c", "d1", "t1").status()).isEqualTo(201);
    assertThat(
            withToken(
                    token,
                    "DELETE",
                    "/dbs/db/colls/c/docs/d1",
                    null,
                    Map.of("x-ms-documentdb-partitionkey", "[\"t1\"]"))
                .status())
        .isEqualTo(204);

    assertThat(createDoc(token, "other", "d1", "t1").status()).isEqualTo(403);
    assertThat(withToken(token, "GET", "/dbs/db/colls/other", null, Map.of()).status())
        .isEqualTo(403);
    assertThat(withToken(token, "GET", "/dbs/db", null, Map.of()).status()).isEqualTo(403);
    assertThat(withToken(token, "GET", "/dbs", null, Map.of()).status()).isEqualTo(403);
    assertThat(withToken(token, "POST", "/dbs", "{\"id\":\"x\"}", Map.of()).status())
        .isEqualTo(403);
    assertThat(
            withToken(
                    token,
                    "POST",
                    "/dbs/db/colls",
                    "{\"id\":\"x\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\"}}",
                    Map.of())
                .status())
        .isEqualTo(403);
    assertThat(withToken(token, "DELETE", "/dbs/db/colls/c", null, Map.of()).status())
        .isEqualTo(403);
    assertThat(withToken(token, "GET", "/offers", null, Map.of()).status()).isEqualTo(403);
    assertThat(withToken(token, "POST", "/dbs/db/users", "{\"id\":\"x\"}", Map.of()).status())
        .isEqualTo(403);
    assertThat(withToken(token, "GET", "/dbs/db/users/u-All/permissions", null, Map.of()).status())
        .isEqualTo(403);
  }

  @Test
  void partitionKeyToken_reachesItsLogicalPartitionOnly() {
    String token = token("All", "dbs/db/colls/c", "[\"t1\"]");
    assertThat(createDoc(token, "c", "d1", "t1").status()).isEqualTo(201);
    SignedClient.Response other = createDoc(token, "c", "d2", "t2");
    assertThat(other.status()).isEqualTo(403);
    assertThat(other.body().get("message").asText())
        .contains("limited to partition key [\\\"t1\\\"]");

    assertThat(query(token, Map.of("x-ms-documentdb-partitionkey", "[\"t1\"]")).status())
        .isEqualTo(200);
    SignedClient.Response crossPartition = query(token, Map.of());
    assertThat(crossPartition.status()).isEqualTo(403);
    assertThat(crossPartition.body().get("message").asText()).contains("names no partition key");
    assertThat(withToken(token, "GET", "/dbs/db/colls/c/docs", null, Map.of()).status())
        .isEqualTo(403);
    // the metadata an SDK needs to route stays readable
    assertThat(withToken(token, "GET", "/dbs/db/colls/c", null, Map.of()).status()).isEqualTo(200);
    assertThat(withToken(token, "GET", "/dbs/db/colls/c/pkranges", null, Map.of()).status())
        .isEqualTo(200);
  }

  @Test
  void partitionKeyToken_bulkOperationsForAnotherKey_are403AndNothingIsWritten() {
    String token = token("All", "dbs/db/colls/c", "[\"t1\"]");
    Map<String, String> bulk =
        Map.of(
            "x-ms-documentdb-partitionkey", "[\"t1\"]",
            "x-ms-cosmos-is-batch-request", "True",
            "x-ms-cosmos-batch-atomic", "False");
    SignedClient.Response elsewhere =
        withToken(
            token,
            "POST",
            "/dbs/db/colls/c/docs",
            "[{\"operationType\":\"Create\",\"resourceBody\":{\"id\":\"a\",\"pk\":\"t1\"}},"
                + "{\"operationType\":\"Upsert\",\"partitionKey\":\"[\\\"t2\\\"]\","
                + "\"resourceBody\":{\"id\":\"b\",\"pk\":\"t2\"}}]",
            bulk);
    assertThat(elsewhere.status()).as("%s", elsewhere.body()).isEqualTo(403);
    assertThat(elsewhere.body().get("message").asText())
        .contains("operation 1 of this batch is for [\\\"t2\\\"]");
    for (String[] doc : new String[][] {{"a", "t1"}, {"b", "t2"}}) {
      assertThat(
              master
                  .send(
                      "GET",
                      "/dbs/db/colls/c/docs/" + doc[0],
                      "docs",
                      "dbs/db/colls/c/docs/" + doc[0],
                      null,
                      Map.of("x-ms-documentdb-partitionkey", "[\"" + doc[1] + "\"]"))
                  .status())
          .isEqualTo(404);
    }

    SignedClient.Response own =
        withToken(
            token,
            "POST",
            "/dbs/db/colls/c/docs",
            "[{\"operationType\":\"Create\",\"partitionKey\":\"[\\\"t1\\\"]\","
                + "\"resourceBody\":{\"id\":\"a\",\"pk\":\"t1\"}}]",
            bulk);
    assertThat(own.status()).as("%s", own.body()).isEqualTo(200);
    assertThat(own.body().get(0).get("statusCode").asInt()).isEqualTo(201);
  }

  @Test
  void documentToken_reachesThatDocumentAlone() {
    master.send(
        "POST",
        "/dbs/db/colls/c/docs",
        "docs",
        "dbs/db/colls/c",
        "{\"id\":\"d1\",\"pk\":\"t1\"}",
        Map.of("x-ms-documentdb-partitionkey", "[\"t1\"]"));
    String token = token("All", "dbs/db/colls/c/docs/d1", null);
    Map<String, String> pk = Map.of("x-ms-documentdb-partitionkey", "[\"t1\"]");
    assertThat(withToken(token, "GET", "/dbs/db/colls/c/docs/d1", null, pk).status())
        .isEqualTo(200);
    assertThat(
            withToken(
                    token,
                    "PUT",
                    "/dbs/db/colls/c/docs/d1",
                    "{\"id\":\"d1\",\"pk\":\"t1\",\"n\":1}",
                    pk)
                .status())
        .isEqualTo(200);
    assertThat(withToken(token, "GET", "/dbs/db/colls/c/docs/d2", null, pk).status())
        .isEqualTo(403);
    assertThat(createDoc(token, "c", "d3", "t1").status()).isEqualTo(403);
    assertThat(query(token, pk).status()).isEqualTo(403);
    assertThat(withToken(token, "GET", "/dbs/db/colls/c", null, Map.of()).status()).isEqualTo(200);
  }

  @Test
  void token_expiresOnTheEnginesClock_with403() {
    createUser("alice");
    String token =
        createPermission(
                "alice",
                "p",
                "All",
                "dbs/db/colls/c",
                null,
                Map.of("x-ms-documentdb-expiry-seconds", "600"))
            .body()
            .get("_token")
            .asText();
    clock.advance(Duration.ofMinutes(10));
    assertThat(createDoc(token, "c", "d1", "t1").status()).isEqualTo(201);
    clock.advance(Duration.ofSeconds(1));
    SignedClient.Response late = createDoc(token, "c", "d2", "t1");
    assertThat(late.status()).isEqualTo(403);
    assertThat(late.body().get("message").asText())
        .contains("The authorization token is not valid at the current time")
        .contains("token expiry time: Thu, 01 Jan 2026 00:10:00 GMT");
  }

  @Test
  void defaultValidity_isOneHour() {
    String token = token("All", "dbs/db/colls/c", null);
    clock.advance(Duration.ofHours(1));
    assertThat(createDoc(token, "c", "d1", "t1").status()).isEqualTo(201);
    clock.advance(Duration.ofSeconds(1));
    assertThat(createDoc(token, "c", "d2", "t1").status()).isEqualTo(403);
  }

  @Test
  void replacingOrDeletingThePermissionOrItsUser_revokesTokensIssuedBefore() {
    createUser("alice");
    String first =
        createPermission("alice", "p", "All", "dbs/db/colls/c", null, Map.of())
            .body()
            .get("_token")
            .asText();
    SignedClient.Response replaced =
        master.send(
            "PUT",
            "/dbs/db/users/alice/permissions/p",
            "permissions",
            "dbs/db/users/alice/permissions/p",
            "{\"id\":\"p\",\"permissionMode\":\"All\",\"resource\":\"dbs/db/colls/c\"}",
            Map.of());
    String second = replaced.body().get("_token").asText();

    SignedClient.Response old = createDoc(first, "c", "d1", "t1");
    assertThat(old.status()).isEqualTo(401);
    assertThat(old.body().get("message").asText()).contains("has since been replaced");
    assertThat(createDoc(second, "c", "d1", "t1").status()).isEqualTo(201);

    master.send(
        "DELETE",
        "/dbs/db/users/alice/permissions/p",
        "permissions",
        "dbs/db/users/alice/permissions/p",
        null,
        Map.of());
    assertThat(createDoc(second, "c", "d2", "t1").status()).isEqualTo(401);

    String third =
        createPermission("alice", "p", "All", "dbs/db/colls/c", null, Map.of())
            .body()
            .get("_token")
            .asText();
    assertThat(createDoc(third, "c", "d3", "t1").status()).isEqualTo(201);
    master.send("DELETE", "/dbs/db/users/alice", "users", "dbs/db/users/alice", null, Map.of());
    SignedClient.Response orphan = createDoc(third, "c", "d4", "t1");
    assertThat(orphan.status()).isEqualTo(401);
    assertThat(orphan.body().get("message").asText()).contains("no longer exists");
  }

  @Test
  void anAlteredOrForeignToken_is401() {
    String token = token("Read", "dbs/db/colls/c", null);
    // a Read token whose body claims nothing else, but whose MAC is changed
    int macStart = token.indexOf(';') + 1;
    char flipped = token.charAt(macStart) == 'A' ? 'B' : 'A';
    String altered = token.substring(0, macStart) + flipped + token.substring(macStart + 1);
    assertThat(withToken(altered, "GET", "/dbs/db/colls/c", null, Map.of()).status())
        .isEqualTo(401);
    assertThat(withToken("type=resource&ver=1.0&sig=garbage", "GET", "/", null, Map.of()).status())
        .isEqualTo(401);

    // the same permission on a server with another master key: its token does not verify here
    GatewayServer otherKey =
        GatewayServer.builder(engine)
            .port(0)
            .plainHttp()
            .masterKey(java.util.Base64.getEncoder().encodeToString(new byte[32]))
            .start();
    try {
      SignedClient.Response fromHere = withToken(token, "GET", "/dbs/db/colls/c", null, Map.of());
      assertThat(fromHere.status()).isEqualTo(200);
      HttpRequest foreign =
          HttpRequest.newBuilder(otherKey.endpoint().resolve("/dbs/db/colls/c"))
              .header("x-ms-date", "Thu, 01 Jan 2026 00:00:00 GMT")
              .header("authorization", URLEncoder.encode(token, StandardCharsets.UTF_8))
              .GET()
              .build();
      SignedClient.Response there = master.send(foreign);
      assertThat(there.status()).isEqualTo(401);
      assertThat(there.body().get("message").asText()).contains("signature does not verify");
    } finally {
      otherKey.close();
    }
  }

  @Test
  void deletingTheDatabase_deletesItsUsers() {
    createUser("alice");
    String token =
        createPermission("alice", "p", "All", "dbs/db/colls/c", null, Map.of())
            .body()
            .get("_token")
            .asText();
    master.send("DELETE", "/dbs/db", "dbs", "dbs/db", null, Map.of());
    master.send("POST", "/dbs", "dbs", "", "{\"id\":\"db\"}", Map.of());
    assertThat(
            master
                .send("GET", "/dbs/db/users", "users", "dbs/db", null, Map.of())
                .body()
                .get("_count")
                .asInt())
        .isZero();
    assertThat(withToken(token, "GET", "/", null, Map.of()).status()).isEqualTo(401);
  }
}
