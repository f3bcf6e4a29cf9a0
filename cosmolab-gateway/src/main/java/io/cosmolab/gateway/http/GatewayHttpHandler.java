package io.cosmolab.gateway.http;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.gateway.resources.LoopPolicy;
import io.cosmolab.gateway.wire.ErrorResponses;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.lang.System.Logger.Level;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The last stage of a connection's pipeline: turns a decoded request into a {@link WireRequest},
 * hands it to the protocol off the event loop (a point read that never waits runs on it), and
 * writes the {@link WireResponse}. Every failure becomes a response here — decoder failures as 400,
 * the error family as its status, anything unexpected as a 500 whose details go to the log, never
 * to the wire — and the connection survives unless the client asked to close it or the request
 * could not be framed.
 *
 * <p>Concurrency: one instance per connection. Its channel callbacks are confined to the
 * connection's event loop; the requests are handled one at a time, in order, on the connection's
 * {@link ConnectionLane} over the shared worker pool, and cross to it as immutable copies; or on
 * the loop itself when the policy allows it and nothing of the connection is on the lane.
 */
final class GatewayHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
  private static final System.Logger LOG = System.getLogger("io.cosmolab.gateway");

  /*
   * Threading. Nothing that can block runs on the event loop. A loop serves many connections,
   * and the engine takes locks and touches storage: one request stalled there would freeze every
   * connection on the loop. So the loop only decodes a request and copies what the protocol reads
   * (method, target, headers, body: copies the protocol made before, now made earlier) and
   * releases Netty's buffer; the connection's lane runs the protocol on a worker thread and hands
   * the response back to the loop to encode and send.
   *
   * The exception is the one request that never waits: a document point read on an engine that
   * promises it (LoopPolicy states the rule and why it holds). It runs on the loop, without the
   * two hand-offs, but only when nothing of its connection is on the lane or on its way back from
   * it: `pending` (the lane's count) is read first, then `handedBack` (responses the lane computed
   * and handed to the loop, not yet written). The lane raises handedBack before it lowers pending,
   * and the loop lowers it in the task that writes, so when both read 0 every earlier response of
   * the connection is already written, and the point read's answer leaves after them.
   *
   * The lane runs one request of its connection at a time, so a pipelining client's answers leave
   * in request order; a request that blocks holds up its own connection and one worker thread,
   * not the others.
   *
   * Flow control. A client that pipelines requests and reads the answers slowly, or never, would
   * have the server queue answers without end: 64 pipelined reads of a 2 MB document on each of 25
   * such connections held a gigabyte of buffers. So a request is dispatched (to the loop or the
   * lane) only while the connection's output is writable (Netty's high-water mark of bytes not yet
   * taken by the socket) and fewer than IN_FLIGHT of its requests are on the lane or on their way
   * back; otherwise it waits in `held`, decoded, and the connection stops reading until the held
   * requests have gone. They go, in order, when the output drains (channelWritabilityChanged) or
   * an answer from the lane has been written. What a connection holds is then about one answer
   * beyond the mark, or IN_FLIGHT answers of the lane, and the requests already read.
   *
   * The cost is a hand-off to a worker and back per request; docs/benchmarks.md measures it.
   */
  private static final int IN_FLIGHT = 8;

  private final Function<WireRequest, WireResponse> protocol;
  private final String scheme;
  private final ConnectionLane lane;
  private final LoopPolicy onLoop;
  private final AtomicInteger handedBack = new AtomicInteger();

  // event-loop confined: requests read and not yet dispatched, the lane's requests not yet
  // written back, and whether the client ended its input behind held requests
  private final java.util.ArrayDeque<Exchange> held = new java.util.ArrayDeque<>();
  private int inFlight;
  private boolean closeAfterHeld;

  GatewayHttpHandler(
      Function<WireRequest, WireResponse> protocol,
      boolean tls,
      Executor workers,
      LoopPolicy onLoop) {
    this.protocol = protocol;
    this.scheme = tls ? "https" : "http";
    this.lane = new ConnectionLane(workers);
    this.onLoop = onLoop;
  }

  /**
   * What the protocol needs of a request, copied off Netty's buffers on the event loop; the body is
   * handed on, never changed.
   */
  @SuppressWarnings("ArrayRecordComponent")
  private record Exchange(
      String method,
      String uri,
      Map<String, String> headers,
      byte[] body,
      boolean keepAlive,
      String malformed,
      long receivedNanos) {

    static Exchange of(FullHttpRequest msg) {
      Map<String, String> headers = new HashMap<>(32); // the SDKs send 10 to 20
      msg.headers().forEach(e -> headers.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue()));
      var decoded = msg.decoderResult();
      return new Exchange(
          msg.method().name(),
          msg.uri(),
          headers,
          ByteBufUtil.getBytes(msg.content()),
          HttpUtil.isKeepAlive(msg),
          decoded.isFailure() ? String.valueOf(decoded.cause().getMessage()) : null,
          System.nanoTime()); // a duration's start, for the latency histogram
    }
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest msg) {
    Exchange exchange = Exchange.of(msg); // the buffer is released when this returns
    if (!held.isEmpty() || mustHold(ctx)) {
      held.add(exchange); // behind those already held: answers leave in request order
      ctx.channel().config().setAutoRead(false); // nothing more is read until the held have gone
      return;
    }
    dispatch(ctx, exchange);
  }

  /** On the event loop: whether a request must wait for the connection's answers to drain. */
  private boolean mustHold(ChannelHandlerContext ctx) {
    return !ctx.channel().isWritable() || inFlight >= IN_FLIGHT;
  }

  /** On the event loop. */
  private void dispatch(ChannelHandlerContext ctx, Exchange exchange) {
    if (lane.pending() == 0 && handedBack.get() == 0 && servesOnLoop(exchange)) {
      process(ctx, exchange); // in order: nothing of this connection is before it (see above)
      return;
    }
    inFlight++; // until its answer is written back on the loop, or the connection closes
    lane.execute(() -> serve(ctx, exchange));
  }

  /** On the event loop: dispatches the held requests while the connection can take answers. */
  private void drainHeld(ChannelHandlerContext ctx) {
    while (!held.isEmpty() && !mustHold(ctx) && ctx.channel().isActive()) {
      dispatch(ctx, held.poll());
    }
    if (held.isEmpty()) {
      if (closeAfterHeld) {
        closeAfterHeld = false;
        closeAfterAnswers(ctx);
      } else {
        ctx.channel().config().setAutoRead(true);
      }
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
    if (ctx.channel().isWritable() && !held.isEmpty()) {
      drainHeld(ctx);
    }
    super.channelWritabilityChanged(ctx);
  }

  /** On the lane. */
  private void serve(ChannelHandlerContext ctx, Exchange exchange) {
    try {
      process(ctx, exchange);
    } catch (Throwable e) {
      // process answers every request itself; what still escapes (say, a failed write) ends this
      // connection, never the worker thread, which serves other connections too
      OffLoopLog.GATEWAY.error("a request's task failed; closing its connection", e);
      var unused = ctx.close();
    }
  }

  private boolean servesOnLoop(Exchange exchange) {
    return exchange.malformed() == null
        && onLoop.servesOnLoop(
            exchange.method().equals("GET") && LoopPolicy.isDocumentPath(exchange.uri()),
            exchange.headers().get(Headers.AUTHORIZATION));
  }

  private void process(ChannelHandlerContext ctx, Exchange msg) {
    String activityId = Exchanges.activityIdOf(msg.headers().get(Headers.ACTIVITY_ID));
    WireResponse response;
    boolean keepAlive = msg.keepAlive();
    if (msg.malformed() != null) {
      keepAlive = false;
      response =
          ErrorResponses.of(
              CosmosError.BAD_REQUEST,
              "the request is not valid HTTP/1.1: " + msg.malformed(),
              activityId);
    } else {
      response =
          Exchanges.handle(
              protocol,
              msg.method(),
              msg.uri(),
              msg.headers(),
              msg.body(),
              scheme,
              activityId,
              msg.receivedNanos(),
              ctx.channel().remoteAddress(),
              () -> !ctx.channel().isActive());
      keepAlive &= !Exchanges.closesConnection(response);
    }
    if (ctx.executor().inEventLoop()) {
      write(ctx, response, activityId, keepAlive);
      return;
    }
    boolean keepOpen = keepAlive; // the lambda needs it final
    handedBack.incrementAndGet(); // before the lane lowers its count: see the class comment
    ctx.executor()
        .execute(
            () -> {
              handedBack.decrementAndGet();
              inFlight--;
              try {
                write(ctx, response, activityId, keepOpen);
              } catch (RuntimeException | Error e) {
                // as on the lane: a response that cannot be written ends its connection, so a
                // pipelining client never pairs a later answer with this request
                OffLoopLog.GATEWAY.error(
                    "a response could not be written; closing its connection", e);
                var unused = ctx.close();
                return;
              }
              if (!held.isEmpty()) {
                drainHeld(ctx);
              }
            });
  }

  /**
   * Response headers whose names are not checked: they are the gateway's own constants. Values are
   * still checked, so nothing a client sent can split a response.
   */
  private static final HttpHeadersFactory RESPONSE_HEADERS =
      DefaultHttpHeadersFactory.headersFactory().withNameValidation(false);

  private static final HttpHeadersFactory RESPONSE_TRAILERS =
      DefaultHttpHeadersFactory.trailersFactory().withNameValidation(false);

  static void write(
      ChannelHandlerContext ctx, WireResponse response, String activityId, boolean keepAlive) {
    FullHttpResponse out =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1,
            HttpResponseStatus.valueOf(response.status()),
            Unpooled.wrappedBuffer(response.body()),
            RESPONSE_HEADERS,
            RESPONSE_TRAILERS);
    var h = out.headers();
    Exchanges.responseHeaders(response, activityId, h::add); // each name once: no set needed
    h.add(HttpHeaderNames.DATE, httpDate());
    HttpUtil.setContentLength(out, response.body().length);
    if (keepAlive) {
      h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
      onLoop(ctx, () -> ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE_ON_FAILURE));
    } else {
      h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      onLoop(ctx, () -> ctx.writeAndFlush(out).addListener(GatewayHttpHandler::closeGently));
    }
  }

  /**
   * Ends a connection after its last response without losing that response: a client still sending
   * (say, a body over the limit) would get a reset that discards the answer if the socket closed
   * with its data unread. So the server shuts down its output — the client reads the answer and the
   * end of stream — keeps reading and discarding until the client closes, and closes itself after
   * ten seconds at the latest.
   */
  // Closing has no outcome to act on; the futures are dropped on purpose.
  @SuppressWarnings("FutureReturnValueIgnored")
  private static void closeGently(io.netty.util.concurrent.Future<? super Void> written) {
    io.netty.channel.Channel ch = ((io.netty.channel.ChannelFuture) written).channel();
    if (ch instanceof io.netty.channel.socket.SocketChannel socket && socket.isActive()) {
      socket.shutdownOutput();
      ch.eventLoop().schedule(() -> ch.close(), 10, java.util.concurrent.TimeUnit.SECONDS);
    } else {
      ch.close();
    }
  }

  /**
   * A client that half-closes (sends its request, then shuts down its output) still gets its
   * answers: the connection closes once the responses already queued are written.
   */
  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof io.netty.channel.socket.ChannelInputShutdownEvent) {
      if (held.isEmpty()) {
        closeAfterAnswers(ctx);
      } else {
        closeAfterHeld = true; // drainHeld closes once the held requests have gone
      }
      return;
    }
    super.userEventTriggered(ctx, evt);
  }

  /** Closes the connection once the answers of the requests already dispatched are written. */
  private void closeAfterAnswers(ChannelHandlerContext ctx) {
    // after the responses still being computed: the lane runs this after them
    lane.execute(
        () ->
            onLoop(
                ctx,
                () ->
                    ctx.writeAndFlush(Unpooled.EMPTY_BUFFER)
                        .addListener(ChannelFutureListener.CLOSE)));
  }

  /**
   * Runs {@code write} on the connection's event loop: at once when called there, else queued to
   * it, so the write's listener is added, and later notified, on the loop itself. A worker's write
   * queued by Netty to a loop that the server's stop ended meanwhile failed, and Netty logged each
   * as a failure to notify its listener; queued here, the loop refuses the whole write instead, and
   * the connection has closed with the server. (A loop that is stopping still runs what was queued
   * before it stopped.)
   */
  private static void onLoop(ChannelHandlerContext ctx, Runnable write) {
    if (ctx.executor().inEventLoop()) {
      write.run();
      return;
    }
    try {
      ctx.executor().execute(write);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // the server has stopped: nobody can read the answer now
    }
  }

  private static volatile String[] dateCache = {"", ""};

  /** The Date header, formatted once per second. */
  @io.cosmolab.engine.internal.SuppressForbidden(
      "the HTTP Date header is the origin's wall clock, as the JDK transport's server sets it;"
          + " virtual time shows in _ts and the change feed, which read the engine's clock")
  private static String httpDate() {
    long second = System.currentTimeMillis() / 1000;
    String[] cached = dateCache;
    if (cached[0].equals(Long.toString(second))) {
      return cached[1];
    }
    String text = io.cosmolab.gateway.auth.Rfc1123.format(second);
    dateCache = new String[] {Long.toString(second), text};
    return text;
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // A reset connection or a TLS handshake a client abandoned: nothing to answer, nothing to keep.
    LOG.log(Level.DEBUG, "connection closed after: " + cause);
    var unused = ctx.close(); // nothing to act on if closing itself fails
  }
}
