package io.cosmolab.gateway.http;

import io.cosmolab.gateway.ConnectionLimits;
import io.cosmolab.gateway.resources.LoopPolicy;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * The pipeline of one connection, in the order bytes travel:
 *
 * <pre>
 *   [TLS] → timeouts (bytes) → HTTP/1.1 codec → 100-continue → aggregator (body ≤ maxBody, else
 *   413) → timeouts (messages) → gateway handler
 * </pre>
 *
 * The gateway handler runs every request off the event loop, on the connection's lane over the
 * shared worker pool, keeping each connection's responses in order; a point read that never waits
 * ({@link LoopPolicy}) runs on the loop when nothing of its connection is on the lane. {@link
 * ConnectionTimeouts} closes connections that send too slowly or sit idle too long, and a
 * connection over the cap gets only {@link ConnectionCap}'s refusal instead of this pipeline.
 */
public final class GatewayChannelInitializer extends ChannelInitializer<SocketChannel> {

  /** Request line and header limits: generous for the SDKs' long headers, bounded for safety. */
  private static final int MAX_INITIAL_LINE = 16 * 1024;

  private static final int MAX_HEADER_BYTES = 64 * 1024;

  private final java.util.concurrent.CompletableFuture<SslContext> tls;
  private final int maxBodyBytes;
  private final Function<WireRequest, WireResponse> protocol;
  private final boolean tlsOn;
  private final Executor workers;
  private final ChannelGroup connections;
  private final ConnectionLimits limits;
  private final ConnectionCap cap;
  private final LoopPolicy onLoop;

  /**
   * @param limits the connection limits, {@linkplain ConnectionLimits#resolved() resolved}
   * @param onLoop which requests may run on the event loop, without the hand-off to a worker
   */
  public GatewayChannelInitializer(
      boolean tlsOn,
      java.util.concurrent.CompletableFuture<SslContext> tls,
      int maxBodyBytes,
      Executor workers,
      ChannelGroup connections,
      Function<WireRequest, WireResponse> protocol,
      ConnectionLimits limits,
      LoopPolicy onLoop) {
    this.connections = connections;
    this.onLoop = onLoop;
    this.tls = tls;
    this.maxBodyBytes = maxBodyBytes;
    this.protocol = protocol;
    this.tlsOn = tlsOn;
    this.workers = workers;
    this.limits = limits;
    this.cap = new ConnectionCap(limits.maxConnections(), tlsOn);
    var unused = new ConnectionTimeouts(limits); // loads its classes while descriptors are plenty
  }

  /** Makes the server channel, which counts connections against the cap as it accepts them. */
  public io.netty.channel.ChannelFactory<GuardedServerSocketChannel> serverChannels() {
    return () -> new GuardedServerSocketChannel(cap);
  }

  @Override
  protected void initChannel(SocketChannel ch) {
    connections.add(ch); // removed by the group when it closes
    if (ConnectionCap.isRefused(ch)) { // over the cap, as decided when it was accepted
      cap.refuse(ch);
      return;
    }
    ChannelPipeline p = ch.pipeline();
    SslContext ssl = tls.join(); // waits only for the first connections of a cold start
    if (ssl != null) {
      SslHandler tlsHandler = ssl.newHandler(ch.alloc());
      tlsHandler.setHandshakeTimeoutMillis(limits.tlsHandshakeTimeout().toMillis());
      p.addLast("tls", tlsHandler);
    }
    ConnectionTimeouts timeouts = new ConnectionTimeouts(limits);
    p.addLast("timeouts-bytes", timeouts.bytes);
    p.addLast("http", new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADER_BYTES, 64 * 1024));
    p.addLast("framing", new RequestFraming());
    p.addLast("continue", new ExpectContinue(maxBodyBytes));
    p.addLast("aggregate", new JsonAwareAggregator(maxBodyBytes));
    p.addLast("timeouts-messages", timeouts.messages);
    p.addLast("gateway", new GatewayHttpHandler(protocol, tlsOn, workers, onLoop));
  }

  /** The aggregator, answering an oversized body with the service's JSON 413 and closing. */
  private static final class JsonAwareAggregator extends HttpObjectAggregator {
    private final int max;

    JsonAwareAggregator(int max) {
      super(max);
      this.max = max;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
      String activityId = Exchanges.activityIdOf(oversized.headers().get(Headers.ACTIVITY_ID));
      GatewayHttpHandler.write(ctx, Exchanges.tooLarge(max, activityId), activityId, false);
    }
  }
}
