package io.cosmolab.gateway.http;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.gateway.wire.ErrorResponses;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;
import java.lang.System.Logger.Level;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The last stage of the pipeline: turns a decoded request into a {@link WireRequest}, hands it to
 * the protocol, and writes the {@link WireResponse}. Every failure becomes a response here —
 * decoder failures as 400, the error family as its status, anything unexpected as a 500 whose
 * details go to the log, never to the wire — and the connection survives unless the client asked to
 * close it or the request could not be framed.
 *
 * <p>Sharable: it holds only the protocol function (thread-safe) and the worker group; per-
 * connection state lives in a channel attribute touched only by the connection's event loop.
 */
@ChannelHandler.Sharable
final class GatewayHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
  private static final System.Logger LOG = System.getLogger("io.cosmolab.gateway");

  private final Function<WireRequest, WireResponse> protocol;
  private final String scheme;
  private final EventExecutorGroup workers;

  GatewayHttpHandler(
      Function<WireRequest, WireResponse> protocol, boolean tls, EventExecutorGroup workers) {
    this.protocol = protocol;
    this.scheme = tls ? "https" : "http";
    this.workers = workers;
  }

  /*
   * Threading. Point operations and metadata take microseconds: they run on the connection's
   * event loop, which saves a hand-off to another thread and back per request (the largest cost
   * in a profile of point reads). Queries, read feeds, change feeds and batches can take long:
   * they run on the connection's worker lane, so one big query never stalls the other
   * connections on its event loop. While anything of a connection's is on its lane, its later
   * requests queue behind it, so responses leave in request order.
   */
  private static final AttributeKey<Lane> LANE = AttributeKey.valueOf("cosmolab.lane");

  /** A connection's worker, and how many of its requests are there (event-loop confined). */
  private static final class Lane {
    final EventExecutor worker;
    int pending;

    Lane(EventExecutor worker) {
      this.worker = worker;
    }
  }

  private Lane lane(ChannelHandlerContext ctx) {
    Lane lane = ctx.channel().attr(LANE).get();
    if (lane == null) {
      lane = new Lane(workers.next());
      ctx.channel().attr(LANE).set(lane);
    }
    return lane;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest msg) {
    Lane lane = lane(ctx);
    if (lane.pending == 0 && !isLong(msg)) {
      process(ctx, msg);
      return;
    }
    lane.pending++;
    msg.retain();
    lane.worker.execute(
        () -> {
          try {
            process(ctx, msg);
          } catch (Throwable e) {
            // process answers every request itself; what still escapes (say, a failed write)
            // ends this connection, never the lane's thread, which other connections share
            LOG.log(Level.ERROR, "a worker task failed; closing its connection", e);
            var unused = ctx.close();
          } finally {
            msg.release();
            ctx.channel().eventLoop().execute(() -> lane.pending--);
          }
        });
  }

  /** Requests that may take long: queries, feeds, batches. */
  private static boolean isLong(FullHttpRequest msg) {
    var h = msg.headers();
    if (msg.method().equals(io.netty.handler.codec.http.HttpMethod.GET)) {
      String path = Exchanges.rawPath(msg.uri());
      return path.endsWith("/docs") || path.endsWith("/docs/");
    }
    if (!msg.method().equals(io.netty.handler.codec.http.HttpMethod.POST)) {
      return false;
    }
    String type = h.get(HttpHeaderNames.CONTENT_TYPE);
    return h.contains(Headers.IS_QUERY)
        || h.contains(Headers.IS_BATCH)
        || h.contains(Headers.IS_QUERY_PLAN)
        || (type != null && !type.startsWith("application/json"));
  }

  private void process(ChannelHandlerContext ctx, FullHttpRequest msg) {
    String activityId = Exchanges.activityIdOf(msg.headers().get(Headers.ACTIVITY_ID));
    WireResponse response;
    boolean keepAlive = HttpUtil.isKeepAlive(msg);
    if (msg.decoderResult().isFailure()) {
      keepAlive = false;
      response =
          ErrorResponses.of(
              CosmosError.BAD_REQUEST,
              "the request is not valid HTTP/1.1: " + msg.decoderResult().cause().getMessage(),
              activityId);
    } else {
      response = handle(msg, activityId);
      keepAlive &= !Exchanges.closesConnection(response);
    }
    if (TRACE) {
      System.err.printf(
          "cosmolab %s %s -> %d %s%n",
          msg.method(), msg.uri(), response.status(), traceHeaders(msg, response));
    }
    write(ctx, response, activityId, keepAlive);
  }

  /** {@code -Dcosmolab.trace=true}: one line per request on stderr, for diagnosing a client. */
  private static final boolean TRACE = Boolean.getBoolean("cosmolab.trace");

  private static String traceHeaders(FullHttpRequest msg, WireResponse response) {
    StringBuilder b = new StringBuilder();
    for (String h :
        new String[] {
          Headers.PARTITION_KEY,
          Headers.PARTITION_KEY_RANGE_ID,
          Headers.IF_NONE_MATCH,
          Headers.A_IM,
          Headers.START_EPK,
          Headers.END_EPK,
          Headers.CONTINUATION,
          Headers.CHANGE_FEED_WIRE_FORMAT
        }) {
      String v = msg.headers().get(h);
      if (v != null) {
        b.append(h).append('=').append(v).append(' ');
      }
    }
    if (response.status() >= 400) {
      b.append(new String(response.body(), java.nio.charset.StandardCharsets.UTF_8));
    }
    return b.toString();
  }

  private WireResponse handle(FullHttpRequest msg, String activityId) {
    Map<String, String> headers = new HashMap<>();
    msg.headers().forEach(e -> headers.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue()));
    return Exchanges.handle(
        protocol,
        msg.method().name(),
        msg.uri(),
        headers,
        ByteBufUtil.getBytes(msg.content()),
        scheme,
        activityId);
  }

  static void write(
      ChannelHandlerContext ctx, WireResponse response, String activityId, boolean keepAlive) {
    FullHttpResponse out =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1,
            HttpResponseStatus.valueOf(response.status()),
            Unpooled.wrappedBuffer(response.body()));
    var h = out.headers();
    Exchanges.responseHeaders(response, activityId).forEach(h::set);
    h.set(HttpHeaderNames.DATE, httpDate());
    HttpUtil.setContentLength(out, response.body().length);
    if (keepAlive) {
      h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
      ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    } else {
      h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      ctx.writeAndFlush(out).addListener(GatewayHttpHandler::closeGently);
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
      Lane lane = lane(ctx);
      Runnable close =
          () -> ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
      if (lane.pending == 0) {
        close.run();
      } else {
        lane.worker.execute(close); // after the responses still being computed
      }
      return;
    }
    super.userEventTriggered(ctx, evt);
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
    String text =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(
            ZonedDateTime.ofInstant(java.time.Instant.ofEpochSecond(second), ZoneOffset.UTC));
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
