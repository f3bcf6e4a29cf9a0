package io.cosmolab.benchmarks.gateway;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The direct-mode listener's point-read rate with the SDK taken out: {@code connections} RNTBD
 * connections over TLS, multiplexed over {@code threads} Netty event loops, one request outstanding
 * per connection as pgbench does (the SDK would pipeline several). Every request frame is built
 * before the run, signature included, as the Java SDK encodes a point read ({@code RntbdRequest} in
 * azure-cosmos): the driver only writes bytes, cuts response frames and reads their status.
 *
 * <p>What a frame carries: the tokens the server needs for a read by name (authorization, date,
 * database, container and document names, partition key, transport request id). It leaves out what
 * the SDK adds for its own bookkeeping and the server only checks: the replica path (so the server
 * skips its "is that range still there" lookup, one map read) and the consistency level.
 *
 * <p>The frame layouts are the server's ({@code io.cosmolab.gateway.rntbd.FrameDecoder} and {@code
 * FrameEncoder} draw them byte by byte); this class writes requests and reads responses to match.
 */
final class DirectReads {
  private DirectReads() {}

  // token ids and types, as in io.cosmolab.gateway.rntbd.Tokens and TokenType
  private static final int AUTHORIZATION = 0x0001;
  private static final int PAYLOAD_PRESENT = 0x0002;
  private static final int DATE = 0x0003;
  private static final int DATABASE_NAME = 0x0015;
  private static final int COLLECTION_NAME = 0x0016;
  private static final int DOCUMENT_NAME = 0x0017;
  private static final int PARTITION_KEY = 0x002B;
  private static final int TRANSPORT_REQUEST_ID = 0x004D;
  private static final int CONTEXT_PROTOCOL_VERSION = 0x0000;
  private static final int CONTEXT_CLIENT_VERSION = 0x0001;
  private static final int CONTEXT_USER_AGENT = 0x0002;
  private static final int TYPE_BYTE = 0x00;
  private static final int TYPE_ULONG = 0x02;
  private static final int TYPE_SMALL_STRING = 0x07;
  private static final int TYPE_STRING = 0x08;
  private static final int RESOURCE_DOCUMENT = 0x0003;
  private static final int OPERATION_READ = 0x0003;

  /** The context request every connection opens with: resource and operation type 0. */
  static byte[] contextFrame() {
    ByteBuf out = head(0, 0);
    token(out, CONTEXT_PROTOCOL_VERSION, TYPE_ULONG).writeIntLE(1);
    string(token(out, CONTEXT_CLIENT_VERSION, TYPE_SMALL_STRING), "bench", true);
    string(token(out, CONTEXT_USER_AGENT, TYPE_SMALL_STRING), "cosmolab-direct-reads", true);
    return finish(out);
  }

  /**
   * A signed read of document {@code d{i}} (partition key {@code p{i % 1000}}) in container {@code
   * items} of database {@code bench}, as {@code GatewayBench populate} made them.
   */
  static byte[] pointRead(int i) {
    String date = RawClient.now();
    String link = "dbs/bench/colls/items/docs/d" + i;
    ByteBuf out = head(RESOURCE_DOCUMENT, OPERATION_READ);
    token(out, PAYLOAD_PRESENT, TYPE_BYTE).writeByte(0);
    string(
        token(out, AUTHORIZATION, TYPE_STRING),
        RawClient.SIGNER.sign("GET", "docs", link, date),
        false);
    string(token(out, DATE, TYPE_SMALL_STRING), date, true);
    string(token(out, DATABASE_NAME, TYPE_STRING), "bench", false);
    string(token(out, COLLECTION_NAME, TYPE_STRING), "items", false);
    string(token(out, DOCUMENT_NAME, TYPE_STRING), "d" + i, false);
    string(token(out, PARTITION_KEY, TYPE_STRING), "[\"p" + (i % 1000) + "\"]", false);
    // one request in flight per connection: one id serves every frame
    token(out, TRANSPORT_REQUEST_ID, TYPE_ULONG).writeIntLE(1);
    return finish(out);
  }

  /**
   * A request frame's head: length (set by {@link #finish}), resource type, operation type and
   * activity id; all numbers little-endian.
   */
  private static ByteBuf head(int resourceType, int operationType) {
    ByteBuf out = Unpooled.buffer(256);
    out.writeIntLE(0);
    out.writeShortLE(resourceType);
    out.writeShortLE(operationType);
    out.writeZero(16); // activity id: the server echoes it; nothing here reads it
    return out;
  }

  private static ByteBuf token(ByteBuf out, int id, int type) {
    out.writeShortLE(id);
    out.writeByte(type);
    return out;
  }

  private static void string(ByteBuf out, String value, boolean small) {
    byte[] b = value.getBytes(StandardCharsets.UTF_8);
    if (small) {
      out.writeByte(b.length);
    } else {
      out.writeShortLE(b.length);
    }
    out.writeBytes(b);
  }

  private static byte[] finish(ByteBuf out) {
    out.setIntLE(0, out.writerIndex());
    byte[] b = new byte[out.readableBytes()];
    out.readBytes(b);
    return b;
  }

  /**
   * Runs a warm-up of 3 s, then {@code seconds} measured; {@code atStart} and {@code atEnd} are
   * called when the measured window opens and closes. A response status of 300 or more fails the
   * run.
   */
  static MultiplexedReads.Result run(
      int port,
      int connections,
      int threads,
      int seconds,
      byte[][] requests,
      Runnable atStart,
      Runnable atEnd)
      throws Exception {
    long warmEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    long end = warmEnd + TimeUnit.SECONDS.toNanos(seconds);
    SslContext tls =
        SslContextBuilder.forClient()
            .trustManager(InsecureTrustManagerFactory.INSTANCE)
            // as pgbench, whose TLS is OpenSSL's: the driver's own TLS cost is not the server's
            .sslProvider(boringSsl() ? SslProvider.OPENSSL : SslProvider.JDK)
            .build();
    boolean epoll = epoll();
    EventLoopGroup loops =
        epoll ? new EpollEventLoopGroup(threads) : new NioEventLoopGroup(threads);
    CountDownLatch finished = new CountDownLatch(connections);
    List<Driver> drivers = new ArrayList<>();
    try {
      byte[] context = contextFrame();
      for (int c = 0; c < connections; c++) {
        Driver d = new Driver(context, requests, c * 7919, warmEnd, end, finished);
        drivers.add(d);
        new Bootstrap()
            .group(loops)
            .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(tls.newHandler(ch.alloc(), "localhost", port))
                        .addLast(new ResponseFrames(), d);
                  }
                })
            .connect(InetAddress.getLoopbackAddress(), port)
            .sync();
      }
      TimeUnit.NANOSECONDS.sleep(Math.max(0, warmEnd - System.nanoTime()));
      atStart.run();
      TimeUnit.NANOSECONDS.sleep(Math.max(0, end - System.nanoTime()));
      atEnd.run();
      if (!finished.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("a connection did not finish within 10 s of the end");
      }
    } finally {
      loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
    Histogram all = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
    for (Driver d : drivers) {
      if (d.failure != null) {
        throw new IllegalStateException("a direct-mode connection failed", d.failure);
      }
      all.add(d.histogram);
    }
    return new MultiplexedReads.Result(all, seconds);
  }

  /** BoringSSL for the driver's TLS, where it loads (Netty asks once per process). */
  private static boolean boringSsl() {
    return OpenSsl.isAvailable();
  }

  /** Linux's epoll for the driver's sockets, where it loads (Netty asks once per process). */
  private static boolean epoll() {
    return Epoll.isAvailable();
  }

  /** What the driver runs on, for the run's output: {@code driver TLS: …, sockets: …}. */
  static String stack() {
    return "driver TLS: "
        + (boringSsl() ? "BoringSSL" : "the JDK's SSLEngine")
        + ", sockets: "
        + (epoll() ? "epoll" : "the JDK's selector");
  }

  /**
   * Cuts response frames and passes on each one's status. A response frame: L (4, the head's
   * length), status (4), activity id (16), tokens to L; then, when the token PayloadPresent
   * (0x0000, a Byte) is 1, the payload's length (4) and the payload.
   */
  private static final class ResponseFrames extends ByteToMessageDecoder {
    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
      while (in.readableBytes() >= 4) {
        int start = in.readerIndex();
        int length = in.getIntLE(start);
        if (length < 24 || length > 1 << 20) {
          throw new IllegalStateException("a response frame's length is " + length);
        }
        if (in.readableBytes() < length) {
          return;
        }
        int end = start + length;
        if (hasPayload(in, start + 24, end)) {
          if (in.readableBytes() < length + 4) {
            return;
          }
          end += 4 + in.getIntLE(end);
          if (in.writerIndex() < end) {
            return;
          }
        }
        out.add(in.getIntLE(start + 4));
        in.readerIndex(end);
      }
    }

    /** Walks the tokens in [from, to) for PayloadPresent. */
    private static boolean hasPayload(ByteBuf in, int from, int to) {
      int p = from;
      while (p + 3 <= to) {
        int id = in.getUnsignedShortLE(p);
        int type = in.getUnsignedByte(p + 2);
        p += 3;
        if (id == 0x0000 && type == TYPE_BYTE) {
          return in.getByte(p) != 0;
        }
        p += valueBytes(in, type, p);
      }
      return false;
    }

    /**
     * The bytes a value of this token type takes at {@code p} ({@code TokenType} in the server).
     */
    private static int valueBytes(ByteBuf in, int type, int p) {
      return switch (type) {
        case 0x00 -> 1;
        case 0x01 -> 2;
        case 0x02, 0x03, 0x0D -> 4;
        case 0x04, 0x05, 0x0E -> 8;
        case 0x06 -> 16;
        case 0x07, 0x0A -> 1 + in.getUnsignedByte(p);
        case 0x08, 0x0B -> 2 + in.getUnsignedShortLE(p);
        case 0x09, 0x0C -> 4 + in.getIntLE(p);
        default -> throw new IllegalStateException("unknown token type " + type);
      };
    }
  }

  /** One connection: the context exchange, then read after read until the run ends. */
  private static final class Driver extends ChannelInboundHandlerAdapter {
    private final byte[] context;
    private final byte[][] requests;
    private final long warmEnd;
    private final long end;
    private final CountDownLatch finished;
    final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
    private int next;
    private boolean negotiated;
    private long sentAt;
    volatile Throwable failure;

    Driver(
        byte[] context,
        byte[][] requests,
        int first,
        long warmEnd,
        long end,
        CountDownLatch finished) {
      this.context = context;
      this.requests = requests;
      this.next = first;
      this.warmEnd = warmEnd;
      this.end = end;
      this.finished = finished;
    }

    @Override
    public boolean isSharable() {
      return false;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      var unused = ctx.writeAndFlush(Unpooled.wrappedBuffer(context));
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      int status = (Integer) msg;
      long now = System.nanoTime();
      if (status >= 300) {
        fail(ctx, new IllegalStateException("status " + status));
        return;
      }
      if (negotiated && sentAt >= warmEnd && now <= end) {
        histogram.recordValue(now - sentAt);
      }
      negotiated = true;
      if (now >= end) {
        finished.countDown();
        var unused = ctx.close();
        return;
      }
      sentAt = System.nanoTime();
      var unused =
          ctx.writeAndFlush(
              Unpooled.wrappedBuffer(requests[Math.floorMod(next++, requests.length)]));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      fail(ctx, cause);
    }

    private void fail(ChannelHandlerContext ctx, Throwable cause) {
      if (failure == null) {
        failure = cause;
        finished.countDown();
      }
      var unused = ctx.close();
    }
  }
}
