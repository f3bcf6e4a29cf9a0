package io.cosmolab.gateway.http;

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
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.EventExecutorGroup;
import java.util.function.Function;

/**
 * The pipeline of one connection, in the order bytes travel:
 *
 * <pre>
 *   [TLS] → HTTP/1.1 codec → 100-continue → aggregator (body ≤ maxBody, else 413) → gateway handler
 * </pre>
 *
 * The gateway handler answers point operations on the event loop and sends long requests (queries,
 * feeds, batches) to a worker, keeping each connection's responses in order.
 */
public final class GatewayChannelInitializer extends ChannelInitializer<SocketChannel> {

  /** Request line and header limits: generous for the SDKs' long headers, bounded for safety. */
  private static final int MAX_INITIAL_LINE = 16 * 1024;

  private static final int MAX_HEADER_BYTES = 64 * 1024;

  private final java.util.concurrent.CompletableFuture<SslContext> tls;
  private final int maxBodyBytes;
  private final GatewayHttpHandler handler;
  private final ChannelGroup connections;

  public GatewayChannelInitializer(
      boolean tlsOn,
      java.util.concurrent.CompletableFuture<SslContext> tls,
      int maxBodyBytes,
      EventExecutorGroup workers,
      ChannelGroup connections,
      Function<WireRequest, WireResponse> protocol) {
    this.connections = connections;
    this.tls = tls;
    this.maxBodyBytes = maxBodyBytes;
    this.handler = new GatewayHttpHandler(protocol, tlsOn, workers);
  }

  @Override
  protected void initChannel(SocketChannel ch) {
    connections.add(ch); // removed by the group when it closes
    ChannelPipeline p = ch.pipeline();
    SslContext ssl = tls.join(); // waits only for the first connections of a cold start
    if (ssl != null) {
      p.addLast("tls", ssl.newHandler(ch.alloc()));
    }
    p.addLast("http", new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADER_BYTES, 64 * 1024));
    p.addLast("continue", new HttpServerExpectContinueHandler());
    p.addLast("aggregate", new JsonAwareAggregator(maxBodyBytes));
    p.addLast("gateway", handler);
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
