package io.cosmolab.gateway.rntbd;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.testing.StallingStore;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Which direct-mode requests are answered on the event loop and which wait for a worker: the
 * workers here are a queue the test runs by hand, so "answered before the workers ran" is exact.
 */
class DirectChannelHandlerTest {
  private final Queue<Runnable> workerTasks = new ArrayDeque<>();
  private final Executor workers = workerTasks::add;
  private final List<String> served = new ArrayList<>();

  private final List<Boolean> abandoned = new ArrayList<>();

  private WireResponse protocol(WireRequest r) {
    served.add(r.method() + " " + r.path());
    abandoned.add(r.abandoned().getAsBoolean());
    return WireResponse.empty(200, Map.of());
  }

  private final List<CosmosEngine> engines = new ArrayList<>();

  @AfterEach
  void close() {
    engines.forEach(CosmosEngine::close);
  }

  private EmbeddedChannel channel(CosmosEngine engine) {
    engines.add(engine);
    return new EmbeddedChannel(
        new DirectChannelHandler(new DirectDispatcher(this::protocol, engine), workers, 60));
  }

  private static Inbound.Request request(int operation, long transportId, String authorization) {
    Map<Integer, Object> tokens = new HashMap<>();
    tokens.put(Tokens.Request.DATABASE_NAME, "db");
    tokens.put(Tokens.Request.COLLECTION_NAME, "c");
    if (operation != Tokens.Operation.CREATE) {
      tokens.put(Tokens.Request.DOCUMENT_NAME, "a");
    }
    tokens.put(Tokens.Request.TRANSPORT_REQUEST_ID, transportId);
    if (authorization != null) {
      tokens.put(Tokens.Request.AUTHORIZATION, authorization);
    }
    return new Inbound.Request(
        UUID.randomUUID(),
        Tokens.ResourceType.DOCUMENT,
        operation,
        tokens,
        operation == Tokens.Operation.CREATE
            ? "{\"id\":\"a\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8)
            : new byte[0],
        System.nanoTime());
  }

  private static final String MASTER = "type%3Dmaster%26ver%3D1.0%26sig%3Dabc";

  private static int answers(EmbeddedChannel ch) {
    int n = 0;
    for (ByteBuf b; (b = ch.readOutbound()) != null; n++) {
      b.release();
    }
    return n;
  }

  @Test
  void aPointRead_isAnsweredOnTheLoop_withoutAWorker() {
    EmbeddedChannel ch = channel(CosmosEngine.builder().build());
    ch.writeInbound(request(Tokens.Operation.READ, 1, MASTER));
    assertThat(served).containsExactly("GET /dbs/db/colls/c/docs/a");
    assertThat(workerTasks).isEmpty();
    assertThat(answers(ch)).isEqualTo(1);
  }

  /** Counts the frames each flush carries, as the TLS handler below it would see them. */
  private static final class FramesPerFlush extends io.netty.channel.ChannelOutboundHandlerAdapter {
    final List<Integer> flushes = new ArrayList<>();
    private int written;

    @Override
    public void write(
        io.netty.channel.ChannelHandlerContext ctx, Object msg, io.netty.channel.ChannelPromise p) {
      written++;
      var unused = ctx.write(msg, p);
    }

    @Override
    public void flush(io.netty.channel.ChannelHandlerContext ctx) {
      flushes.add(written);
      written = 0;
      ctx.flush();
    }
  }

  @Test
  void pointReadsSentTogether_leaveOneFramePerFlush_becauseTheSdkCannotReadTwoInOneRead() {
    FramesPerFlush tls = new FramesPerFlush();
    EmbeddedChannel ch = channel(CosmosEngine.builder().build());
    ch.pipeline().addFirst(tls);
    ch.pipeline().fireChannelRead(request(Tokens.Operation.READ, 1, MASTER));
    ch.pipeline().fireChannelRead(request(Tokens.Operation.READ, 2, MASTER));
    ch.pipeline().fireChannelRead(request(Tokens.Operation.CREATE, 3, MASTER)); // on a worker
    ch.pipeline().fireChannelRead(request(Tokens.Operation.READ, 4, MASTER));
    ch.pipeline().fireChannelReadComplete();
    workerTasks.poll().run();
    ch.runPendingTasks();
    assertThat(served).hasSize(4);
    assertThat(answers(ch)).isEqualTo(4);
    assertThat(tls.flushes).containsOnly(1).hasSize(4);
  }

  @Test
  void aRequestWhoseConnectionClosedWhileItWaited_isToldItsClientHasGone() {
    EmbeddedChannel ch = channel(CosmosEngine.builder().build());
    ch.writeInbound(request(Tokens.Operation.CREATE, 1, MASTER));
    ch.writeInbound(request(Tokens.Operation.CREATE, 2, MASTER));
    workerTasks.poll().run(); // served while the connection is open
    ch.close().syncUninterruptibly(); // the client goes (reset, failure): the second still waits
    workerTasks.poll().run();
    assertThat(abandoned).containsExactly(false, true);
  }

  @Test
  void aWrite_waitsForAWorker() {
    EmbeddedChannel ch = channel(CosmosEngine.builder().build());
    ch.writeInbound(request(Tokens.Operation.CREATE, 1, MASTER));
    assertThat(served).isEmpty();
    assertThat(answers(ch)).isZero();
    assertThat(workerTasks).hasSize(1);
    workerTasks.poll().run();
    ch.runPendingTasks();
    assertThat(served).containsExactly("POST /dbs/db/colls/c/docs");
    assertThat(answers(ch)).isEqualTo(1);
  }

  @Test
  void aMalformedFrame_closesTheConnection_afterAnsweringTheRequestsBeforeIt() {
    EmbeddedChannel ch = channel(CosmosEngine.builder().build());
    ch.pipeline().fireChannelRead(request(Tokens.Operation.READ, 1, MASTER)); // on the loop
    ch.pipeline().fireChannelRead(request(Tokens.Operation.CREATE, 2, MASTER)); // on a worker
    ch.pipeline().fireChannelRead(new Inbound.Malformed("a token's length is past the frame"));
    assertThat(answers(ch)).isEqualTo(1); // the loop's answer, flushed before anything closes
    assertThat(ch.isOpen()).isTrue(); // the create is still being served
    assertThat(ch.config().isAutoRead()).isFalse(); // and nothing more is read

    workerTasks.poll().run();
    ch.runPendingTasks();
    assertThat(answers(ch)).isEqualTo(1);
    assertThat(ch.isOpen()).isFalse();
  }

  @Test
  void aMalformedFrame_withNothingInFlight_closesTheConnection() {
    EmbeddedChannel ch = channel(CosmosEngine.builder().build());
    ch.pipeline().fireChannelRead(new Inbound.Malformed("the frame does not parse"));
    ch.runPendingTasks(); // the close is queued behind any writes handed to the loop
    assertThat(ch.isOpen()).isFalse();
  }

  @Test
  void aPointRead_waitsForAWorker_whenTheStoreMayWait_orTheTokenIsAResourceToken() {
    EmbeddedChannel onDisk = channel(CosmosEngine.builder().store(new StallingStore()).build());
    onDisk.writeInbound(request(Tokens.Operation.READ, 1, MASTER));
    EmbeddedChannel resourceToken = channel(CosmosEngine.builder().build());
    resourceToken.writeInbound(
        request(Tokens.Operation.READ, 2, "type%3Dresource%26ver%3D1.0%26sig%3Dabc"));
    assertThat(served).isEmpty();
    assertThat(workerTasks).hasSize(2);
  }
}
