package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.Database;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What an attacker or a careless client sends: forged signatures, foreign Host headers, queries
 * built to exhaust the stack. Every request gets an answer, the answer is the service's error, and
 * the server keeps serving. Runs over each transport (the subclasses name it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class HostileRequestsContract {
  private CosmosEngine engine;
  private GatewayServer server;
  private SignedClient client;

  abstract GatewayServer.Transport transport();

  @BeforeAll
  void start() {
    engine = CosmosEngine.builder().build();
    Database a = engine.createDatabase("a");
    a.createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    a.createContainer(ContainerSettings.of("C", PartitionKeyDefinition.hash("/pk")));
    engine
        .createDatabase("b")
        .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    engine.createDatabase("Mixed");
    server =
        GatewayServer.builder(engine)
            .port(0)
            .plainHttp()
            .transport(transport())
            .allowHosts(List.of("cosmos.test"))
            .start();
    client = new SignedClient(server.endpoint());
    for (String coll : List.of("dbs/a/colls/c", "dbs/a/colls/C", "dbs/b/colls/c")) {
      SignedClient.Response r =
          client.send(
              "POST",
              "/" + coll + "/docs",
              "docs",
              coll,
              "{\"id\":\"pt\",\"pk\":\"p\"}",
              Map.of("x-ms-documentdb-partitionkey", "[\"p\"]"));
      assertThat(r.status()).isEqualTo(201);
    }
  }

  @AfterAll
  void stop() {
    server.close();
    engine.close();
  }

  /** Each: what is asked, and the link a forger signed instead of the one the service requires. */
  static Stream<Arguments> forgeries() {
    return Stream.of(
        Arguments.of("GET", "/dbs/a/colls/C/docs/pt", "docs", "dbs/a/colls/c/docs/pt"),
        Arguments.of("GET", "/dbs/a/colls/c/docs/pt", "docs", "dbs/a/colls/C/docs/pt"),
        Arguments.of("GET", "/dbs/a/colls/c/docs/pt", "docs", "pt"),
        Arguments.of("GET", "/dbs/b/colls/c/docs/pt", "docs", "pt"),
        Arguments.of("PUT", "/dbs/a/colls/c/docs/pt", "docs", "pt"),
        Arguments.of("DELETE", "/dbs/a/colls/c/docs/pt", "docs", "pt"),
        Arguments.of("POST", "/dbs/a/colls/c/docs", "docs", "c"),
        Arguments.of("GET", "/dbs/a/colls/c/docs", "docs", "c"),
        Arguments.of("DELETE", "/dbs/a/colls/c", "colls", "c"),
        Arguments.of("DELETE", "/dbs/b/colls/c", "colls", "c"),
        Arguments.of("GET", "/dbs/a/colls/c", "colls", "dbs/a/colls/c/docs/pt"),
        Arguments.of("DELETE", "/dbs/a", "dbs", "a"),
        Arguments.of("DELETE", "/dbs/Mixed", "dbs", "dbs/mixed"),
        Arguments.of("DELETE", "/dbs/Mixed", "dbs", "mixed"),
        Arguments.of("GET", "/dbs/a/colls/c/pkranges", "pkranges", "c"));
  }

  @ParameterizedTest(name = "{0} {1} signed over ''{3}''")
  @MethodSource("forgeries")
  void aSignatureOverAnyOtherLinkIsRefused(String method, String path, String type, String link) {
    String body =
        method.equals("POST") || method.equals("PUT") ? "{\"id\":\"pt\",\"pk\":\"p\"}" : null;
    SignedClient.Response r =
        client.send(
            method, path, type, link, body, Map.of("x-ms-documentdb-partitionkey", "[\"p\"]"));
    assertThat(r.status()).isEqualTo(401);
    assertThat(r.body().get("code").asText()).isEqualTo("Unauthorized");
    // nothing happened: every database, container and document is still there
    assertThat(engine.findDatabase("a")).isPresent();
    assertThat(engine.findDatabase("Mixed")).isPresent();
    assertThat(engine.database("a").findContainer("c")).isPresent();
    assertThat(engine.database("b").findContainer("c")).isPresent();
  }

  @Test
  void theRidFormIsTheRidOfTheAddressedResourceAndNoOther() {
    String dbRid = engine.database("a").rid();
    String cRid = engine.database("a").container("c").rid();
    String bigCRid = engine.database("a").container("C").rid();
    String lower = cRid.toLowerCase(java.util.Locale.ROOT);
    String path = "/dbs/" + dbRid + "/colls/" + cRid + "/pkranges";
    assertThat(client.send("GET", path, "pkranges", lower, null, Map.of()).status()).isEqualTo(200);
    String other = "/dbs/" + dbRid + "/colls/" + bigCRid + "/pkranges";
    assertThat(client.send("GET", other, "pkranges", lower, null, Map.of()).status())
        .isEqualTo(401);
    // a name-addressed request is never signed with a RID
    assertThat(
            client
                .send("GET", "/dbs/a/colls/c/pkranges", "pkranges", lower, null, Map.of())
                .status())
        .isEqualTo(401);
    assertThat(
            client.send("GET", "/dbs/a/colls/c", "colls", "dbs/a/colls/c", null, Map.of()).status())
        .isEqualTo(200);
  }

  @Test
  void anAddressRequestSignedAsTheSdkSignsItIsA501SayingUseGatewayModeNotA401() {
    String dbRid = engine.database("a").rid();
    String collRid = engine.database("a").container("c").rid();
    String path =
        "/addresses/?$resolveFor="
            + java.net.URLEncoder.encode(
                "dbs/" + dbRid + "/colls/" + collRid + "/docs", StandardCharsets.UTF_8)
            + "&$filter=protocol%20eq%20rntbd&$partitionKeyRangeIds=0";
    String lowerRid = collRid.toLowerCase(java.util.Locale.ROOT);
    SignedClient.Response r = client.send("GET", path, "docs", lowerRid, null, Map.of());
    assertThat(r.status()).isEqualTo(501);
    assertThat(r.body().get("message").asText()).contains("gatewayMode()");
    SignedClient.Response master =
        client.send("GET", "/addresses/?$filter=protocol%20eq%20rntbd", "dbs", "", null, Map.of());
    assertThat(master.status()).isEqualTo(501);
    // a signature over anything else is still the key's problem
    assertThat(client.send("GET", path, "docs", "dbs/a/colls/C", null, Map.of()).status())
        .isEqualTo(401);
    assertThat(client.send("GET", path, "addresses", "", null, Map.of()).status()).isEqualTo(401);
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {
        "attacker.example",
        "attacker.example:8081",
        "localhost.attacker.example",
        "127.0.0.1.nip.io"
      })
  void aHostThatNamesAnotherSiteIsRefused(String host) throws Exception {
    String response = raw("GET / HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
    assertThat(response).startsWith("HTTP/1.1 403");
    assertThat(response).contains("does not name this emulator").doesNotContain(host + "/\"");
  }

  @Test
  @SuppressWarnings("StringConcatToTextBlock") // HTTP needs CRLF line ends, which text blocks hide
  void anAbsoluteFormTarget_isServedAsItsPath_andItsAuthorityIsTheHostChecked() throws Exception {
    // RFC 9112 3.2.2: accepted, and its authority stands for Host (which is then ignored)
    String port = String.valueOf(server.port());
    String served =
        raw(
            "GET http://localhost:"
                + port
                + "/dbs HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n");
    assertThat(served).startsWith("HTTP/1.1 401"); // unsigned, past the Host check: the path /dbs
    String refused =
        raw(
            "GET http://attacker.example/dbs HTTP/1.1\r\nHost: localhost\r\n"
                + "Connection: close\r\n\r\n");
    assertThat(refused).startsWith("HTTP/1.1 403").contains("does not name this emulator");
  }

  @Test
  void twoHostHeaders_are400_whicheverComesFirst() throws Exception {
    for (String[] hosts :
        new String[][] {{"attacker.example", "localhost"}, {"localhost", "attacker.example"}}) {
      String response =
          raw(
              "GET / HTTP/1.1\r\nHost: "
                  + hosts[0]
                  + "\r\nHost: "
                  + hosts[1]
                  + "\r\nConnection: close\r\n\r\n");
      assertThat(response).startsWith("HTTP/1.1 400").contains("2 Host headers");
    }
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {
        "localhost",
        "localhost:8081",
        "127.0.0.1",
        "127.0.0.1:1",
        "[::1]:8081",
        "cosmos.test",
        "LOCALHOST"
      })
  void loopbackNamesAndAllowedHostsAreServed(String host) throws Exception {
    String response = raw("GET / HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
    // unsigned, so 401: but past the Host check
    assertThat(response).startsWith("HTTP/1.1 401");
  }

  static Stream<Arguments> bombs() {
    int n = 10_000;
    return Stream.of(
        Arguments.of("SELECT * FROM c WHERE " + "(".repeat(n) + "true" + ")".repeat(n)),
        Arguments.of("SELECT * FROM c WHERE " + "NOT ".repeat(n) + "true"),
        Arguments.of("SELECT * FROM c WHERE true" + " OR true".repeat(20_000)),
        Arguments.of("SELECT VALUE c" + ".a".repeat(50_000) + " FROM c"),
        Arguments.of("SELECT VALUE " + "ABS(".repeat(n) + "1" + ")".repeat(n) + " FROM c"),
        Arguments.of("SELECT VALUE " + "(SELECT VALUE ".repeat(n) + "1" + ")".repeat(n)));
  }

  @ParameterizedTest
  @MethodSource("bombs")
  void aQueryBombGets400AndTheServerKeepsAnsweringQueries(String text) {
    String body = "{\"query\":" + com.fasterxml.jackson.databind.node.TextNode.valueOf(text) + "}";
    Map<String, String> query =
        Map.of(
            "x-ms-documentdb-isquery", "True",
            "content-type", "application/query+json",
            "x-ms-documentdb-query-enablecrosspartition", "True");
    for (int i = 0; i < 5; i++) { // more than the server has lanes
      SignedClient.Response r =
          client.send("POST", "/dbs/a/colls/c/docs", "docs", "dbs/a/colls/c", body, query);
      assertThat(r.status()).isEqualTo(400);
      assertThat(r.body().get("message").asText()).containsAnyOf("too complex", "maximum number");
      SignedClient.Response plan =
          client.send(
              "POST",
              "/dbs/a/colls/c/docs",
              "docs",
              "dbs/a/colls/c",
              body,
              Map.of(
                  "x-ms-cosmos-is-query-plan-request", "True",
                  "content-type", "application/query+json",
                  "x-ms-cosmos-supported-query-features",
                      "Aggregate, CompositeAggregate, Distinct, GroupBy, MultipleAggregates, MultipleOrderBy, OffsetAndLimit, OrderBy, Top, NonValueAggregate, DCount, NonStreamingOrderBy"));
      assertThat(plan.status()).isEqualTo(400);
      SignedClient.Response metadata =
          client.send("POST", "/dbs/a/colls", "colls", "dbs/a", body, query);
      assertThat(metadata.status()).isEqualTo(400);
    }
    for (int i = 0; i < 8; i++) { // new connections each
      SignedClient fresh = new SignedClient(server.endpoint());
      SignedClient.Response r =
          fresh.send(
              "POST",
              "/dbs/a/colls/c/docs",
              "docs",
              "dbs/a/colls/c",
              "{\"query\":\"SELECT VALUE COUNT(1) FROM c\"}",
              query);
      assertThat(r.status()).isEqualTo(200);
    }
  }

  @Test
  void aBacktrackingRegexOverTwentyKilobytesAnswersOnAServerThread() {
    SignedClient.Response created =
        client.send(
            "POST",
            "/dbs/a/colls/c/docs",
            "docs",
            "dbs/a/colls/c",
            "{\"id\":\"big\",\"pk\":\"r\",\"big\":\"" + "a".repeat(20_000) + "\"}",
            Map.of("x-ms-documentdb-partitionkey", "[\"r\"]"));
    assertThat(created.status()).isEqualTo(201);
    SignedClient.Response r =
        client.send(
            "POST",
            "/dbs/a/colls/c/docs",
            "docs",
            "dbs/a/colls/c",
            "{\"query\":\"SELECT VALUE REGEXMATCH(c.big, '(a|aa)*c') FROM c WHERE c.id = 'big'\"}",
            Map.of(
                "x-ms-documentdb-isquery", "True",
                "content-type", "application/query+json",
                "x-ms-documentdb-partitionkey", "[\"r\"]"));
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.body().get("Documents").get(0).asBoolean()).isFalse();
  }

  @Test
  void aCartesianJoinAnswers400WithinSecondsAndTheServerStaysUp() {
    SignedClient.Response created =
        client.send(
            "POST",
            "/dbs/a/colls/c/docs",
            "docs",
            "dbs/a/colls/c",
            "{\"id\":\"arr\",\"pk\":\"q\",\"arr\":"
                + java.util.stream.IntStream.range(0, 100).boxed().toList()
                + "}",
            Map.of("x-ms-documentdb-partitionkey", "[\"q\"]"));
    assertThat(created.status()).isEqualTo(201);
    long start = System.nanoTime();
    SignedClient.Response r =
        client.send(
            "POST",
            "/dbs/a/colls/c/docs",
            "docs",
            "dbs/a/colls/c",
            "{\"query\":\"SELECT VALUE COUNT(1) FROM c JOIN a IN c.arr JOIN b IN c.arr JOIN x IN"
                + " c.arr JOIN y IN c.arr\"}",
            Map.of(
                "x-ms-documentdb-isquery", "True",
                "content-type", "application/query+json",
                "x-ms-documentdb-partitionkey", "[\"q\"]"));
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.body().get("message").asText()).contains("JOIN");
    // generous: shared CI machines run slow; unbounded, this query ran for minutes
    assertThat(System.nanoTime() - start).isLessThan(30_000_000_000L);
    assertThat(client.send("GET", "/dbs/a", "dbs", "dbs/a", null, Map.of()).status())
        .isEqualTo(200);
  }

  /** Bodies the service refuses, each with what the message must name. */
  static Stream<Arguments> refusedBodies() {
    return Stream.of(
        Arguments.of("{\"id\":\"n1\",\"pk\":\"p\",\"n\":1e400}", "out of range"),
        Arguments.of("{\"id\":\"n2\",\"pk\":\"p\",\"n\":-1e400}", "out of range"),
        Arguments.of("{\"id\":\"n3\",\"pk\":\"p\",\"n\":" + "9".repeat(400) + "}", "out of range"),
        Arguments.of("{\"id\":\"g\",\"pk\":\"p\"} GARBAGE", "Unrecognized token 'GARBAGE'"),
        Arguments.of("{\"id\":\"g3\",\"pk\":\"p\"} 7", "after the JSON value"),
        Arguments.of("{\"id\":\"g2\",\"pk\":\"p\"}{}", "after the JSON value"),
        Arguments.of("\uFEFF{\"id\":\"bom\",\"pk\":\"p\"}", "byte order mark"),
        Arguments.of("{\"id\":\"d\",\"pk\":\"p\",\"a\":1,\"a\":2}", "appears twice"),
        // '?' and '#' are allowed, as on the service (DirectModeCompatTest); '/' and '\' are not
        Arguments.of("{\"id\":\"a/b\",\"pk\":\"p\"}", "cannot contain"),
        Arguments.of("{\"id\":\"a\\\\b\",\"pk\":\"p\"}", "cannot contain"),
        Arguments.of("{\"id\":\"a\\u0000b\",\"pk\":\"p\"}", "NUL"),
        Arguments.of("{\"id\":\"a\\ud800b\",\"pk\":\"p\"}", "surrogate"),
        Arguments.of(
            "{\"id\":\"deep\",\"pk\":\"p\",\"x\":" + "[".repeat(2000) + "]".repeat(2000) + "}",
            "nesting"),
        Arguments.of("{\"id\":", "end-of-input"),
        Arguments.of("[1,2", "end-of-input"),
        Arguments.of("{'id':'x'}", "Unexpected character"));
  }

  @ParameterizedTest(name = "{1}: {0}")
  @MethodSource("refusedBodies")
  void aBodyTheServiceRefusesGets400InTheUsersTerms(String body, String named) {
    SignedClient.Response r =
        client.send(
            "POST",
            "/dbs/a/colls/c/docs",
            "docs",
            "dbs/a/colls/c",
            body,
            Map.of("x-ms-documentdb-partitionkey", "[\"p\"]"));
    assertThat(r.status()).isEqualTo(400);
    String message = r.body().get("message").asText();
    assertThat(message).contains(named);
    assertNoJavaNames(message);
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {"[\"p\"]xyz", "[\"p\"] []", "[1e400]", "[\"p\",]"})
  void aPartitionKeyHeaderWithMoreThanOneValueOrOutOfRangeIsRefused(String header) {
    SignedClient.Response r =
        client.send(
            "GET",
            "/dbs/a/colls/c/docs/pt",
            "docs",
            "dbs/a/colls/c/docs/pt",
            null,
            Map.of("x-ms-documentdb-partitionkey", header));
    assertThat(r.status()).isEqualTo(400);
    assertNoJavaNames(r.body().get("message").asText());
  }

  @Test
  void aContinuationOfAnotherQueryIs400NotARestart() {
    Map<String, String> query =
        Map.of(
            "x-ms-documentdb-isquery", "True",
            "content-type", "application/query+json",
            "x-ms-max-item-count", "1",
            "x-ms-documentdb-query-enablecrosspartition", "True",
            "x-ms-documentdb-partitionkey", "[\"p\"]");
    for (String text : List.of("SELECT * FROM c", "SELECT * FROM c ORDER BY c.id")) {
      for (int i = 0; i < 3; i++) {
        client.send(
            "POST",
            "/dbs/a/colls/c/docs",
            "docs",
            "dbs/a/colls/c",
            "{\"id\":\"k" + i + "\",\"pk\":\"p\"}",
            Map.of("x-ms-documentdb-partitionkey", "[\"p\"]"));
      }
      SignedClient.Response first =
          client.send(
              "POST",
              "/dbs/a/colls/c/docs",
              "docs",
              "dbs/a/colls/c",
              "{\"query\":\"" + text + "\"}",
              query);
      assertThat(first.status()).isEqualTo(200);
      String token = first.headers().get("x-ms-continuation");
      assertThat(token).as(text).isNotNull();
      Map<String, String> resumed = new java.util.HashMap<>(query);
      resumed.put("x-ms-continuation", token);
      SignedClient.Response other =
          client.send(
              "POST",
              "/dbs/a/colls/c/docs",
              "docs",
              "dbs/a/colls/c",
              "{\"query\":\"SELECT c.id FROM c\"}",
              resumed);
      assertThat(other.status()).as(text).isEqualTo(400);
      assertThat(other.body().get("message").asText()).contains("different query");
      SignedClient.Response same =
          client.send(
              "POST",
              "/dbs/a/colls/c/docs",
              "docs",
              "dbs/a/colls/c",
              "{\"query\":\"" + text + "\"}",
              resumed);
      assertThat(same.status()).as(text).isEqualTo(200);
    }
  }

  @Test
  void aHugeMaxItemCountStillGetsPagesOfAboutFourMegabytes() {
    String filler = "x".repeat(100_000);
    for (int i = 0; i < 60; i++) {
      SignedClient.Response r =
          client.send(
              "POST",
              "/dbs/b/colls/c/docs",
              "docs",
              "dbs/b/colls/c",
              "{\"id\":\"big" + i + "\",\"pk\":\"big\",\"s\":\"" + filler + "\"}",
              Map.of("x-ms-documentdb-partitionkey", "[\"big\"]"));
      assertThat(r.status()).isEqualTo(201);
    }
    Map<String, String> query =
        Map.of(
            "x-ms-documentdb-isquery", "True",
            "content-type", "application/query+json",
            "x-ms-max-item-count", "1000000",
            "x-ms-documentdb-partitionkey", "[\"big\"]");
    SignedClient.Response page =
        client.send(
            "POST",
            "/dbs/b/colls/c/docs",
            "docs",
            "dbs/b/colls/c",
            "{\"query\":\"SELECT * FROM c WHERE c.pk = 'big'\"}",
            query);
    assertThat(page.status()).isEqualTo(200);
    int count = page.body().get("_count").asInt();
    assertThat(count).isBetween(30, 45);
    assertThat(page.headers().get("x-ms-continuation")).isNotNull();
  }

  @Test
  void aBodyNotValidUtf8_is400_andNothingIsStored() {
    // {"id":"ov","pk":"<C1 A1>"}: an overlong 'a', which a lenient decoder stores as "a"
    byte[] body = "{\"id\":\"ov\",\"pk\":\"??\"}".getBytes(StandardCharsets.US_ASCII);
    body[17] = (byte) 0xC1;
    body[18] = (byte) 0xA1;
    SignedClient.Response r =
        client.sendBytes(
            "POST",
            "/dbs/a/colls/c/docs",
            "docs",
            "dbs/a/colls/c",
            body,
            Map.of("x-ms-documentdb-partitionkey", "[\"a\"]", "content-type", "application/json"));
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.body().get("message").asText()).contains("not valid UTF-8 at byte offset 17");
    assertThat(
            client
                .send(
                    "GET",
                    "/dbs/a/colls/c/docs/ov",
                    "docs",
                    "dbs/a/colls/c/docs/ov",
                    null,
                    Map.of("x-ms-documentdb-partitionkey", "[\"a\"]"))
                .status())
        .isEqualTo(404);
  }

  @Test
  void aBatchOverTwoMegabytesIs413() {
    StringBuilder ops = new StringBuilder("[");
    for (int i = 0; i < 40; i++) {
      ops.append(i == 0 ? "" : ",")
          .append("{\"operationType\":\"Create\",\"resourceBody\":{\"id\":\"b")
          .append(i)
          .append("\",\"pk\":\"p\",\"s\":\"")
          .append("x".repeat(100_000))
          .append("\"}}");
    }
    ops.append("]");
    SignedClient.Response r =
        client.send(
            "POST",
            "/dbs/a/colls/c/docs",
            "docs",
            "dbs/a/colls/c",
            ops.toString(),
            Map.of(
                "x-ms-cosmos-is-batch-request", "True",
                "x-ms-cosmos-batch-atomic", "True",
                "x-ms-documentdb-partitionkey", "[\"p\"]"));
    assertThat(r.status()).isEqualTo(413);
    assertThat(r.body().get("message").asText()).contains("Request size is too large");
  }

  static void assertNoJavaNames(String message) {
    assertThat(message)
        .doesNotContain("com.fasterxml")
        .doesNotContain("Jackson")
        .doesNotContain("StreamReadConstraints")
        .doesNotContain("`")
        .doesNotContain("java.")
        .doesNotContain("Exception")
        .doesNotContain("line 0, column 0");
  }

  /** Sends raw bytes on a new connection; the whole answer, as text. */
  String raw(String request) throws Exception {
    try (Socket s = new Socket(java.net.InetAddress.getLoopbackAddress(), server.port())) {
      s.setSoTimeout(15_000);
      OutputStream out = s.getOutputStream();
      out.write(request.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = s.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
