package io.cosmolab.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.gateway.resources.LoopPolicy;
import io.cosmolab.gateway.wire.WireResponse;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Which HTTP requests the handler answers on the event loop, and that a connection's answers keep
 * their order when some run on the loop and some on its lane: the worker pool here is a queue the
 * test runs by hand.
 */
class GatewayHttpHandlerLoopTest {
  private static CosmosEngine engine;
  private final Queue<Runnable> workerTasks = new ArrayDeque<>();
  private final List<String> served = new ArrayList<>();

  @BeforeAll
  static void start() {
    engine = CosmosEngine.builder().build();
  }

  @AfterAll
  static void stop() {
    engine.close();
  }

  private EmbeddedChannel channel(LoopPolicy policy) {
    return new EmbeddedChannel(
        new GatewayHttpHandler(
            r -> {
              served.add(r.method() + " " + r.path());
              return WireResponse.empty(200, Map.of("x-served", r.method() + " " + r.path()));
            },
            false,
            workerTasks::add,
            policy));
  }

  private static FullHttpRequest request(HttpMethod method, String uri) {
    var r =
        new DefaultFullHttpRequest(
            HttpVersion.HTTP_1_1,
            method,
            uri,
            Unpooled.copiedBuffer(
                method.equals(HttpMethod.GET) ? "" : "{}", StandardCharsets.UTF_8));
    r.headers().set("host", "localhost");
    return r;
  }

  private static List<String> answers(EmbeddedChannel ch) {
    List<String> out = new ArrayList<>();
    for (FullHttpResponse r; (r = ch.readOutbound()) != null; ) {
      out.add(r.headers().get("x-served"));
      r.release();
    }
    return out;
  }

  private void runWorkers(EmbeddedChannel ch) {
    for (Runnable t; (t = workerTasks.poll()) != null; ) {
      t.run();
    }
    ch.runPendingTasks();
  }

  @Test
  void aPointRead_onAnIdleConnection_isAnsweredOnTheLoop() {
    EmbeddedChannel ch = channel(LoopPolicy.of(engine));
    ch.writeInbound(request(HttpMethod.GET, "/dbs/db/colls/c/docs/a"));
    assertThat(workerTasks).isEmpty();
    assertThat(answers(ch)).containsExactly("GET /dbs/db/colls/c/docs/a");
  }

  @Test
  void aPointReadBehindAWriteOfItsConnection_waitsForIt_andTheAnswersKeepTheirOrder() {
    EmbeddedChannel ch = channel(LoopPolicy.of(engine));
    ch.writeInbound(request(HttpMethod.POST, "/dbs/db/colls/c/docs"));
    ch.writeInbound(request(HttpMethod.GET, "/dbs/db/colls/c/docs/a"));
    assertThat(served).isEmpty(); // the read did not overtake the write on the lane
    assertThat(answers(ch)).isEmpty();
    runWorkers(ch);
    assertThat(served).containsExactly("POST /dbs/db/colls/c/docs", "GET /dbs/db/colls/c/docs/a");
    assertThat(answers(ch))
        .containsExactly("POST /dbs/db/colls/c/docs", "GET /dbs/db/colls/c/docs/a");
    // the connection is idle again: the next read is the loop's
    ch.writeInbound(request(HttpMethod.GET, "/dbs/db/colls/c/docs/b"));
    assertThat(workerTasks).isEmpty();
    assertThat(answers(ch)).containsExactly("GET /dbs/db/colls/c/docs/b");
  }

  @Test
  void everythingElse_andEveryRequestUnderThePolicyNever_goesToTheLane() {
    EmbeddedChannel loop = channel(LoopPolicy.of(engine));
    loop.writeInbound(request(HttpMethod.GET, "/dbs/db/colls/c/docs"));
    loop.writeInbound(request(HttpMethod.DELETE, "/dbs/db/colls/c/docs/a"));
    loop.writeInbound(request(HttpMethod.GET, "/dbs/db/colls/c"));
    EmbeddedChannel never = channel(LoopPolicy.NEVER);
    never.writeInbound(request(HttpMethod.GET, "/dbs/db/colls/c/docs/a"));
    assertThat(served).isEmpty();
    assertThat(workerTasks).hasSize(2); // one drain per connection's lane
  }
}
