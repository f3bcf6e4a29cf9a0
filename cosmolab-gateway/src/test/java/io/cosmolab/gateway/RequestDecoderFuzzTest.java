package io.cosmolab.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.ContainerSettings;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Fuzzes the request decoder: valid requests with random bytes replaced, inserted or cut, and
 * random garbage. Whatever arrives, the server answers with a status below 500 and a JSON body (or
 * closes the connection), never writes a stack trace, and keeps serving. Tagged heavy: run with
 * {@code ./mvnw -P heavy verify -pl cosmolab-gateway}.
 */
@Tag("heavy")
class RequestDecoderFuzzTest {
  private static CosmosEngine engine;
  private static GatewayServer server;

  @BeforeContainer
  static void start() {
    engine = CosmosEngine.builder().build();
    engine
        .createDatabase("db")
        .createContainer(ContainerSettings.of("c", PartitionKeyDefinition.hash("/pk")));
    server = GatewayServer.builder(engine).port(0).plainHttp().withoutAuthentication().start();
  }

  @AfterContainer
  static void stop() {
    server.close();
    engine.close();
  }

  // HTTP needs CRLF line ends, which text blocks would hide.
  @SuppressWarnings("StringConcatToTextBlock")
  private static final String[] SEEDS = {
    "POST /dbs/db/colls/c/docs HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        + "x-ms-documentdb-partitionkey: [\"a\"]\r\nContent-Length: 22\r\n\r\n"
        + "{\"id\":\"1\",\"pk\":\"a\"}  ",
    "POST /dbs/db/colls/c/docs HTTP/1.1\r\nHost: localhost\r\n"
        + "Content-Type: application/query+json\r\nx-ms-documentdb-isquery: true\r\n"
        + "Content-Length: 33\r\n\r\n{\"query\":\"SELECT * FROM c\"}     ",
    "GET /dbs/db/colls/c/docs/1 HTTP/1.1\r\nHost: localhost\r\n"
        + "x-ms-documentdb-partitionkey: [\"a\"]\r\n\r\n",
    "POST /dbs/db/colls/c/docs HTTP/1.1\r\nHost: localhost\r\nx-ms-cosmos-is-batch-request: True\r\n"
        + "x-ms-documentdb-partitionkey: [\"a\"]\r\nContent-Length: 41\r\n\r\n"
        + "[{\"operationType\":\"Read\",\"id\":\"1\"}]     ",
    "PATCH /dbs/db/colls/c/docs/1 HTTP/1.1\r\nHost: localhost\r\n"
        + "x-ms-documentdb-partitionkey: [\"a\"]\r\nContent-Length: 56\r\n\r\n"
        + "{\"operations\":[{\"op\":\"set\",\"path\":\"/x\",\"value\":1}]}    ",
    "GET /dbs/db/colls/c/pkranges HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: \"0\"\r\n\r\n"
  };

  @Provide
  Arbitrary<byte[]> requests() {
    Arbitrary<byte[]> mutated =
        Arbitraries.of(SEEDS)
            .flatMap(
                seed ->
                    Arbitraries.integers()
                        .between(0, seed.length() - 1)
                        .list()
                        .ofMinSize(1)
                        .ofMaxSize(6)
                        .flatMap(
                            positions ->
                                Arbitraries.bytes()
                                    .list()
                                    .ofSize(positions.size())
                                    .map(bytes -> mutate(seed, positions, bytes))));
    Arbitrary<byte[]> garbage = Arbitraries.bytes().array(byte[].class).ofMaxSize(400);
    return Arbitraries.oneOf(mutated, garbage);
  }

  private static byte[] mutate(String seed, java.util.List<Integer> at, java.util.List<Byte> by) {
    byte[] b = seed.getBytes(StandardCharsets.ISO_8859_1);
    for (int i = 0; i < at.size(); i++) {
      b[at.get(i)] = by.get(i);
    }
    return b;
  }

  @Property(tries = 2000)
  void anyBytes_getANon500JsonAnswerOrAClose_andTheServerStaysUp(@ForAll("requests") byte[] request)
      throws IOException {
    String answer = exchange(request);
    if (!answer.isEmpty()) {
      assertThat(answer).startsWith("HTTP/1.1 ");
      int status = Integer.parseInt(answer.substring(9, 12));
      assertThat(status).as(answer).isLessThan(500);
      assertThat(answer).doesNotContain("\tat ").doesNotContain("Exception:");
    }
    String ok =
        exchange(
            "GET /dbs/db HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
    assertThat(ok).startsWith("HTTP/1.1 200");
  }

  private static String exchange(byte[] request) throws IOException {
    return HostileInputSuite.exchange(server.port(), request);
  }
}
