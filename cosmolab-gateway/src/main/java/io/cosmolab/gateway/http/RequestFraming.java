package io.cosmolab.gateway.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.util.ReferenceCountUtil;
import java.util.List;
import java.util.Locale;

/**
 * The framing rules of HTTP/1.1 that Netty's decoder leaves to the server, checked on each request
 * head before anything reads its body: a request that breaks one is passed on as a decoding failure
 * (answered 400, the connection closed: {@link GatewayHttpHandler}), and every byte after it on the
 * connection is dropped, never decoded as a request.
 *
 * <ul>
 *   <li>A {@code Transfer-Encoding} whose last coding is not {@code chunked} (RFC 9112 §6.3: the
 *       body's length cannot be known; 400 and close). Netty reads such a request as having no
 *       body, so its body would otherwise run as the next request on the connection: a client, or a
 *       proxy that framed the request differently, could smuggle one past what it meant to send.
 *   <li>More than one {@code Host} (RFC 9112 §3.2: 400). The DNS-rebinding guard reads one.
 * </ul>
 */
final class RequestFraming extends ChannelInboundHandlerAdapter {
  private boolean refused; // a request broke the rules: the rest of the connection is dropped

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (refused) {
      ReferenceCountUtil.release(msg);
      return;
    }
    if (msg instanceof HttpRequest request && request.decoderResult().isSuccess()) {
      String broken = broken(request);
      if (broken != null) {
        refused = true;
        request.setDecoderResult(DecoderResult.failure(new IllegalArgumentException(broken)));
        ctx.channel().config().setAutoRead(false); // nothing after it is read or decoded
      }
    }
    ctx.fireChannelRead(msg);
  }

  /** Why a request with {@code hosts} Host headers is refused (both transports say it so). */
  static String tooManyHosts(int hosts) {
    return "the request has " + hosts + " Host headers; it must have one";
  }

  /** What in {@code request}'s head breaks the framing rules, or null. */
  static String broken(HttpRequest request) {
    List<String> hosts = request.headers().getAll(HttpHeaderNames.HOST);
    if (hosts.size() > 1) {
      return tooManyHosts(hosts.size());
    }
    List<String> encodings = request.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING);
    if (!encodings.isEmpty()) {
      String last = encodings.get(encodings.size() - 1);
      int comma = last.lastIndexOf(',');
      String coding = (comma < 0 ? last : last.substring(comma + 1)).strip();
      if (!coding.toLowerCase(Locale.ROOT).equals("chunked")) {
        return "Transfer-Encoding '"
            + String.join(", ", encodings)
            + "' does not end in chunked, so the body's length cannot be known";
      }
    }
    return null;
  }
}
