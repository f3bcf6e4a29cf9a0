package io.cosmolab.gateway.http;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.gateway.wire.ErrorResponses;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.WireResponse;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;

/**
 * {@code Expect: 100-continue}, answered 100 only for a body that will fit: a larger one gets the
 * service's JSON 413 at once (the client then need not send it), and an expectation other than
 * 100-continue a JSON 417 naming it; both close the connection. A request that did not decode, or
 * whose length is not a number, gets no invitation and goes on to its 400. (Netty's own handler
 * sent 100 whatever the declared length, and its 417 had no body.)
 */
final class ExpectContinue extends ChannelInboundHandlerAdapter {
  private final int maxBodyBytes;

  ExpectContinue(int maxBodyBytes) {
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof HttpRequest request && answered(ctx, request)) {
      return;
    }
    ctx.fireChannelRead(msg);
  }

  /** True when the request was answered here (and released); else it goes on, without Expect. */
  private boolean answered(ChannelHandlerContext ctx, HttpRequest request) {
    String expect = request.headers().get("expect");
    if (expect == null) {
      return false;
    }
    if (request.decoderResult().isFailure() || lengthIsNotANumber(request)) {
      request.headers().remove("expect"); // no invitation to send what will be refused
      return false;
    }
    String activityId = Exchanges.activityIdOf(request.headers().get(Headers.ACTIVITY_ID));
    if (!expect.strip().equalsIgnoreCase("100-continue")) {
      if (request.protocolVersion().compareTo(HttpVersion.HTTP_1_1) < 0) {
        return false; // HTTP/1.0 has no expectations to fail
      }
      refuse(
          ctx,
          request,
          ErrorResponses.of(
              CosmosError.EXPECTATION_FAILED,
              "the Expect header '" + expect + "' is not supported; only 100-continue is",
              activityId),
          activityId);
      return true;
    }
    if (!HttpUtil.is100ContinueExpected(request)) {
      return false;
    }
    if (HttpUtil.getContentLength(request, -1L) > maxBodyBytes) {
      refuse(ctx, request, Exchanges.tooLarge(maxBodyBytes, activityId), activityId);
      return true;
    }
    var unused =
        ctx.writeAndFlush(
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE))
            .addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    request.headers().remove("expect");
    return false;
  }

  private static void refuse(
      ChannelHandlerContext ctx, HttpRequest request, WireResponse answer, String activityId) {
    ReferenceCountUtil.release(request);
    GatewayHttpHandler.write(ctx, answer, activityId, false);
  }

  private static boolean lengthIsNotANumber(HttpRequest request) {
    try {
      HttpUtil.getContentLength(request, -1L);
      return false;
    } catch (NumberFormatException e) {
      return true;
    }
  }
}
