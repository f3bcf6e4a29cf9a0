package io.cosmolab.gateway.rntbd;

import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.gateway.http.ConnectionCap;
import io.cosmolab.gateway.http.GuardedServerSocketChannel;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The direct-mode (RNTBD) listener: a TLS port whose connections run
 *
 * <pre>
 *   TLS → idle timer → {@link FrameDecoder} → {@link DirectChannelHandler} (→ workers)
 * </pre>
 *
 * with the gateway's certificate, and its requests answered by the gateway's protocol function. It
 * owns its event loops; the workers are the caller's. It serves at most {@code maxConnections}
 * connections at once, counted as the boss loop accepts them ({@link ConnectionCap}, as the Netty
 * HTTP listener does); one more is closed at once, unanswered, since answering would take a TLS
 * handshake; the SDK opens another when it next needs one. [A] The cap is this listener's own, the
 * same number as the HTTP listener's, not a share of one total.
 */
public final class DirectListener implements AutoCloseable {
  private final Channel channel;
  private final ChannelGroup connections;
  private final EventLoopGroup boss;
  private final EventLoopGroup io;

  private DirectListener(
      Channel channel, ChannelGroup connections, EventLoopGroup boss, EventLoopGroup io) {
    this.channel = channel;
    this.connections = connections;
    this.boss = boss;
    this.io = io;
  }

  /**
   * Binds and starts serving.
   *
   * @param tls the server's TLS context (direct mode is TLS only: the SDK always connects with TLS)
   * @param handshakeTimeout how long a TLS handshake may take (the gateway's {@code
   *     tlsHandshakeTimeout})
   * @param maxPayloadBytes the largest request body accepted, as over HTTP
   * @param maxConnections connections served at once, at least 1 (the gateway's {@code
   *     --max-connections})
   * @throws IllegalStateException naming the port when it is taken
   */
  public static DirectListener start(
      InetSocketAddress bindTo,
      CompletableFuture<SslContext> tls,
      Function<WireRequest, WireResponse> protocol,
      CosmosEngine engine,
      Executor workers,
      int maxPayloadBytes,
      int maxConnections,
      Duration idleTimeout,
      Duration handshakeTimeout,
      int eventLoopThreads) {
    ConnectionCap cap = new ConnectionCap(maxConnections, true); // fails fast below 1
    EventLoopGroup boss = new NioEventLoopGroup(1);
    EventLoopGroup io = new NioEventLoopGroup(eventLoopThreads);
    ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    DirectDispatcher dispatcher = new DirectDispatcher(protocol, engine);
    long idleSeconds = Math.max(1, idleTimeout.toSeconds());
    try {
      Channel ch =
          new ServerBootstrap()
              .group(boss, io)
              .channelFactory(() -> new GuardedServerSocketChannel(cap))
              .option(ChannelOption.SO_BACKLOG, 1024)
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel c) {
                      connections.add(c);
                      SslHandler ssl = tls.join().newHandler(c.alloc());
                      ssl.setHandshakeTimeoutMillis(handshakeTimeout.toMillis());
                      c.pipeline()
                          .addLast("tls", ssl)
                          .addLast(
                              "idle", new IdleStateHandler(0, 0, idleSeconds, TimeUnit.SECONDS))
                          .addLast("frames", new FrameDecoder(maxPayloadBytes))
                          .addLast(
                              "direct", new DirectChannelHandler(dispatcher, workers, idleSeconds));
                    }
                  })
              .bind(bindTo)
              .syncUninterruptibly()
              .channel();
      return new DirectListener(ch, connections, boss, io);
    } catch (Exception e) { // Netty rethrows the bind failure, a checked exception, undeclared
      shutdown(boss, io);
      if (e instanceof java.net.BindException) {
        throw new IllegalStateException(
            "the direct-mode port "
                + bindTo.getPort()
                + " on "
                + bindTo.getHostString()
                + " is in use; pick another with --direct-port, or 0 for any free port",
            e);
      }
      if (e instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException("cannot start direct mode: " + e.getMessage(), e);
    }
  }

  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  /** The event-loop threads the connections are read, answered and written on. */
  public int eventLoops() {
    return ((io.netty.channel.MultithreadEventLoopGroup) io).executorCount();
  }

  /** Stops accepting, closes the connections and the event loops, within a few seconds. */
  @Override
  public void close() {
    closeConnections();
    closeLoops();
  }

  /** Stops accepting and closes the open connections: the first half of {@link #close()}. */
  public void closeConnections() {
    channel.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
    connections.close().awaitUninterruptibly(3, TimeUnit.SECONDS);
  }

  /**
   * Stops the event loops: the second half of {@link #close()}, once nothing else (the workers
   * answering requests) will hand them work, since a task handed to a loop that is stopping stays
   * in its queue, unrun, and Netty logs it.
   */
  public void closeLoops() {
    shutdown(boss, io);
  }

  private static void shutdown(EventLoopGroup boss, EventLoopGroup io) {
    var b = boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    var i = io.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    b.awaitUninterruptibly(2, TimeUnit.SECONDS);
    i.awaitUninterruptibly(2, TimeUnit.SECONDS);
  }
}
