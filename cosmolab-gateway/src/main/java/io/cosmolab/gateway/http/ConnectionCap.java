package io.cosmolab.gateway.http;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.gateway.wire.ErrorResponses;
import io.cosmolab.gateway.wire.WireResponse;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Netty transport's connection cap: at most {@code max} connections are served at once, and one
 * more is refused by the server itself instead of exhausting the process's file descriptors (after
 * which even accepting fails).
 *
 * <p>A refused plain-HTTP connection gets, without waiting for its request, the service's 503
 * {@code ServiceUnavailable} with {@code Retry-After: 1} and {@code Connection: close}; the server
 * then shuts its output, discards what the client still sends, and closes within a second — closing
 * at once on a client whose request is unread would reset the connection and lose the answer. A
 * refused TLS connection is closed at once: answering it would need a handshake, which is what the
 * cap saves. So is any connection while {@value #MAX_REFUSING} refusals are already in progress,
 * which bounds the descriptors refusals hold.
 *
 * <p>The count is taken when the boss loop accepts ({@link GuardedServerSocketChannel}), not when a
 * connection's pipeline is built: the boss accepts far faster than the I/O loops set connections
 * up, and under a flood it would otherwise have opened hundreds of descriptors before the first was
 * counted.
 *
 * <p>Thread-safe: two counters, updated by compare-and-set from the boss loop and lowered from the
 * I/O loops when a connection's channel closes, however it closes.
 */
public final class ConnectionCap {
  /** Refusals answering at once, at most; past this a connection is closed unanswered. */
  static final int MAX_REFUSING = 64;

  /** How long a refused connection may keep sending before it is closed. */
  private static final long REFUSAL_DRAIN_MILLIS = 1000;

  /** What becomes of a connection just accepted. */
  enum Admission {
    /** Served: there is room under the cap. */
    SERVE,
    /** Answered with a 503, then closed. */
    REFUSE,
    /** Closed at once, unanswered. */
    DROP
  }

  private static final io.netty.util.AttributeKey<Boolean> REFUSED =
      io.netty.util.AttributeKey.valueOf("cosmolab.refused");

  private final int max;
  private final boolean tls;
  private final AtomicInteger served = new AtomicInteger();
  private final AtomicInteger refusing = new AtomicInteger();
  private final Refusal refusal = new Refusal();
  private final ChannelFutureListener releaseServed = f -> served.decrementAndGet();
  private final ChannelFutureListener releaseRefusing = f -> refusing.decrementAndGet();

  /**
   * @param max connections served at once, at least 1
   * @param tls whether the listener speaks TLS: then a connection over the cap is closed unanswered
   *     (the direct-mode listener's case too)
   */
  public ConnectionCap(int max, boolean tls) {
    if (max < 1) {
      throw new IllegalArgumentException("the connection cap must be at least 1, was " + max);
    }
    this.max = max;
    this.tls = tls;
    // builds one answer now, so the classes it needs are loaded while descriptors are plenty
    ReferenceCountUtil.release(refusal.response());
  }

  int max() {
    return max;
  }

  /** Connections being served now. */
  int served() {
    return served.get();
  }

  /**
   * Decides, on the boss loop, what becomes of a connection just accepted, and counts it: a
   * connection to serve or to refuse holds its place until its channel closes ({@link #track}).
   */
  Admission admit() {
    if (reserve(served, max)) {
      return Admission.SERVE;
    }
    if (!tls && reserve(refusing, MAX_REFUSING)) {
      return Admission.REFUSE;
    }
    return Admission.DROP;
  }

  /** Gives back the place {@link #admit} took, for a connection that could not be made. */
  void cancel(Admission admission) {
    if (admission == Admission.SERVE) {
      served.decrementAndGet();
    } else if (admission == Admission.REFUSE) {
      refusing.decrementAndGet();
    }
  }

  /** Marks the channel of an admitted connection; its place is given back when it closes. */
  void track(Channel ch, Admission admission) {
    if (admission == Admission.SERVE) {
      ch.closeFuture().addListener(releaseServed);
    } else {
      ch.attr(REFUSED).set(Boolean.TRUE);
      ch.closeFuture().addListener(releaseRefusing);
    }
  }

  /** True when the channel was accepted only to be refused. */
  static boolean isRefused(Channel ch) {
    return Boolean.TRUE.equals(ch.attr(REFUSED).get());
  }

  /** Sets up a refused connection's pipeline: the 503, written as soon as it is active. */
  void refuse(SocketChannel ch) {
    ch.pipeline().addLast("encode", new HttpResponseEncoder()).addLast("refuse", refusal);
  }

  private static boolean reserve(AtomicInteger count, int limit) {
    for (int n = count.get(); n < limit; n = count.get()) {
      if (count.compareAndSet(n, n + 1)) {
        return true;
      }
    }
    return false;
  }

  /** Writes the 503 as soon as the connection is active, then drains and closes. */
  @ChannelHandler.Sharable
  private final class Refusal extends ChannelInboundHandlerAdapter {
    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      ctx.writeAndFlush(response()).addListener(Refusal::shutDownAndClose);
      ctx.fireChannelActive();
    }

    FullHttpResponse response() {
      String activityId = Exchanges.activityId();
      WireResponse answer =
          ErrorResponses.of(
              CosmosError.SERVICE_UNAVAILABLE,
              "cosmolab is serving its maximum of "
                  + max
                  + " connections; retry in a moment, close idle connections, or start the"
                  + " server with a higher --max-connections",
              activityId);
      FullHttpResponse out =
          new DefaultFullHttpResponse(
              HttpVersion.HTTP_1_1,
              HttpResponseStatus.SERVICE_UNAVAILABLE,
              Unpooled.wrappedBuffer(answer.body()));
      var h = out.headers();
      Exchanges.responseHeaders(answer, activityId, h::set);
      h.set(HttpHeaderNames.RETRY_AFTER, "1");
      h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      HttpUtil.setContentLength(out, answer.body().length);
      return out;
    }

    // Closing has no outcome to act on; the futures are dropped on purpose.
    @SuppressWarnings("FutureReturnValueIgnored")
    private static void shutDownAndClose(io.netty.util.concurrent.Future<? super Void> written) {
      Channel ch = ((io.netty.channel.ChannelFuture) written).channel();
      if (ch instanceof SocketChannel socket && socket.isActive() && written.isSuccess()) {
        socket.shutdownOutput();
        ch.eventLoop().schedule(() -> ch.close(), REFUSAL_DRAIN_MILLIS, TimeUnit.MILLISECONDS);
      } else {
        ch.close();
      }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ReferenceCountUtil.release(msg); // the request of a refused connection is not read
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof io.netty.channel.socket.ChannelInputShutdownEvent) {
        var unused = ctx.close(); // the client has read the answer and closed its side
      }
      ReferenceCountUtil.release(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      var unused = ctx.close(); // a reset from a refused client: nothing to answer
    }
  }
}
