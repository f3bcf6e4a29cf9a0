package io.cosmolab.gateway.http;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.gateway.wire.ErrorResponses;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.ResourcePath;
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
import io.netty.handler.codec.http.QueryStringDecoder;
import java.lang.System.Logger.Level;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/**
 * The last stage of the pipeline: turns a decoded request into a {@link WireRequest}, hands it to
 * the protocol, and writes the {@link WireResponse}. Every failure becomes a response here —
 * decoder failures as 400, the error family as its status, anything unexpected as a 500 whose
 * details go to the log, never to the wire — and the connection survives unless the client asked to
 * close it or the request could not be framed.
 *
 * <p>Sharable: it holds only the protocol function, which is thread-safe.
 */
@ChannelHandler.Sharable
final class GatewayHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
  private static final System.Logger LOG = System.getLogger("io.cosmolab.gateway");

  private final Function<WireRequest, WireResponse> protocol;
  private final String scheme;

  GatewayHttpHandler(Function<WireRequest, WireResponse> protocol, boolean tls) {
    this.protocol = protocol;
    this.scheme = tls ? "https" : "http";
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest msg) {
    String activityId = msg.headers().get(Headers.ACTIVITY_ID);
    if (activityId == null || activityId.isBlank()) {
      activityId = UUID.randomUUID().toString();
    }
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
    try {
      Map<String, String> headers = new HashMap<>();
      msg.headers().forEach(e -> headers.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue()));
      String host = msg.headers().get(HttpHeaderNames.HOST);
      String path = new QueryStringDecoder(msg.uri()).rawPath();
      WireRequest request =
          new WireRequest(
              msg.method().name().toUpperCase(Locale.ROOT),
              ResourcePath.parse(path),
              headers,
              ByteBufUtil.getBytes(msg.content()),
              host == null ? null : scheme + "://" + host + "/");
      return protocol.apply(request);
    } catch (CosmosException e) {
      return ErrorResponses.of(e, activityId);
    } catch (RuntimeException e) {
      LOG.log(Level.ERROR, "activity " + activityId + ": " + msg.method() + " " + msg.uri(), e);
      return ErrorResponses.internal(activityId);
    }
  }

  static void write(
      ChannelHandlerContext ctx, WireResponse response, String activityId, boolean keepAlive) {
    FullHttpResponse out =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1,
            HttpResponseStatus.valueOf(response.status()),
            Unpooled.wrappedBuffer(response.body()));
    var h = out.headers();
    response.headers().forEach(h::set);
    h.set(Headers.ACTIVITY_ID, activityId);
    if (!h.contains(Headers.REQUEST_CHARGE)) {
      h.set(Headers.REQUEST_CHARGE, "0.00");
    }
    if (response.body().length > 0 && !h.contains(HttpHeaderNames.CONTENT_TYPE)) {
      h.set(HttpHeaderNames.CONTENT_TYPE, "application/json");
    }
    h.set("x-ms-gatewayversion", "version=2.14.0");
    h.set(
        HttpHeaderNames.DATE,
        DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC)));
    HttpUtil.setContentLength(out, response.body().length);
    if (keepAlive) {
      h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
      ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    } else {
      h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
    }
  }

  /**
   * A client that half-closes (sends its request, then shuts down its output) still gets its
   * answers: the connection closes once the responses already queued are written.
   */
  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof io.netty.channel.socket.ChannelInputShutdownEvent) {
      ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
      return;
    }
    super.userEventTriggered(ctx, evt);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // A reset connection or a TLS handshake a client abandoned: nothing to answer, nothing to keep.
    LOG.log(Level.DEBUG, "connection closed after: " + cause);
    var unused = ctx.close(); // nothing to act on if closing itself fails
  }
}
