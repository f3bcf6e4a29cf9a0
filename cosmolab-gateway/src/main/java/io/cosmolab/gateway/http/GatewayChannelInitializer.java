package io.cosmolab.gateway.http;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.gateway.wire.ErrorResponses;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.EventExecutorGroup;
import java.util.UUID;
import java.util.function.Function;

/**
 * The pipeline of one connection, in the order bytes travel:
 *
 * <pre>
 *   [TLS] → HTTP/1.1 codec → 100-continue → aggregator (body ≤ maxBody, else 413) → gateway handler
 * </pre>
 *
 * The gateway handler runs on a separate executor group, so a long query never stalls the event
 * loop that reads other connections; each connection's requests stay in order on one executor.
 */
public final class GatewayChannelInitializer extends ChannelInitializer<SocketChannel> {

  /** Request line and header limits: generous for the SDKs' long headers, bounded for safety. */
  private static final int MAX_INITIAL_LINE = 16 * 1024;

  private static final int MAX_HEADER_BYTES = 64 * 1024;

  private final SslContext tls;
  private final int maxBodyBytes;
  private final EventExecutorGroup workers;
  private final GatewayHttpHandler handler;

  public GatewayChannelInitializer(
      SslContext tls,
      int maxBodyBytes,
      EventExecutorGroup workers,
      Function<WireRequest, WireResponse> protocol) {
    this.tls = tls;
    this.maxBodyBytes = maxBodyBytes;
    this.workers = workers;
    this.handler = new GatewayHttpHandler(protocol, tls != null);
  }

  @Override
  protected void initChannel(SocketChannel ch) {
    ChannelPipeline p = ch.pipeline();
    if (tls != null) {
      p.addLast("tls", tls.newHandler(ch.alloc()));
    }
    p.addLast("http", new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADER_BYTES, 64 * 1024));
    p.addLast("continue", new HttpServerExpectContinueHandler());
    p.addLast("aggregate", new JsonAwareAggregator(maxBodyBytes));
    p.addLast(workers, "gateway", handler);
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
      String activityId = oversized.headers().get(Headers.ACTIVITY_ID);
      if (activityId == null) {
        activityId = UUID.randomUUID().toString();
      }
      GatewayHttpHandler.write(
          ctx,
          ErrorResponses.of(
              CosmosError.REQUEST_ENTITY_TOO_LARGE,
              "Request size is too large: the body exceeds " + max + " bytes",
              activityId),
          activityId,
          false);
    }
  }
}
