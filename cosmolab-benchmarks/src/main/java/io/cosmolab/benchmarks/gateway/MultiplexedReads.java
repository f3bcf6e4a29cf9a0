package io.cosmolab.benchmarks.gateway;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * A load driver as cheap as pgbench: {@code connections} keep-alive HTTP/1.1 connections
 * multiplexed over {@code threads} threads, each thread one selector over its share of the
 * connections, one request outstanding per connection (no pipelining: pgbench waits for each answer
 * too). Requests are prebuilt bytes, signatures included; a response is parsed only as far as its
 * status and {@code Content-Length}.
 *
 * <p>Why: the blocking driver (a thread per connection, headers read byte by byte into strings)
 * spent about 35 µs of CPU per request against pgbench's 11 µs, so on two cores it measured the
 * client as much as the server. Plain HTTP only: pgbench's connections are not encrypted either.
 */
final class MultiplexedReads {
  private MultiplexedReads() {}

  /** What a run measured: every request's latency, counted from its send to its last byte. */
  record Result(Histogram latencies, int seconds) {
    double perSecond() {
      return latencies.getTotalCount() / (double) seconds;
    }

    /** Prints the line {@code scripts/bench-gateway-vs-postgres} reads: {@code what} first. */
    void print(String what, int connections, int threads) {
      System.out.printf(
          java.util.Locale.ROOT,
          "%s %2d connections: %,9.0f ops/s   p50 %7.3f ms   p99 %7.3f ms   (%d driver threads)%n",
          what,
          connections,
          perSecond(),
          latencies.getValueAtPercentile(50) / 1e6,
          latencies.getValueAtPercentile(99) / 1e6,
          threads);
    }
  }

  /**
   * Runs a warm-up of 3 s, then {@code seconds} measured; {@code atStart} and {@code atEnd} are
   * called when the measured window opens and closes. Any status of 300 or more fails the run.
   */
  static Result run(
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
    List<Loop> loops = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int mine = connections / threads + (t < connections % threads ? 1 : 0);
      loops.add(new Loop(port, mine, t * 7919, requests, warmEnd, end));
    }
    List<Thread> running = new ArrayList<>();
    for (Loop l : loops) {
      running.add(Thread.ofPlatform().name("driver-" + running.size()).start(l));
    }
    TimeUnit.NANOSECONDS.sleep(Math.max(0, warmEnd - System.nanoTime()));
    atStart.run();
    TimeUnit.NANOSECONDS.sleep(Math.max(0, end - System.nanoTime()));
    atEnd.run();
    Histogram all = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
    for (int i = 0; i < loops.size(); i++) {
      running.get(i).join();
      Loop l = loops.get(i);
      if (l.failure != null) {
        throw new IllegalStateException("driver thread failed", l.failure);
      }
      all.add(l.histogram);
    }
    return new Result(all, seconds);
  }

  /** One thread's selector and its connections. */
  private static final class Loop implements Runnable {
    private final Selector selector;
    private final byte[][] requests;
    private final long warmEnd;
    private final long end;
    private final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
    private int next;
    private volatile Throwable failure;

    Loop(int port, int connections, int first, byte[][] requests, long warmEnd, long end)
        throws IOException {
      this.selector = Selector.open();
      this.requests = requests;
      this.warmEnd = warmEnd;
      this.end = end;
      this.next = first;
      for (int i = 0; i < connections; i++) {
        SocketChannel ch =
            SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ch.configureBlocking(false);
        ch.register(selector, 0, new Connection(ch));
      }
    }

    @Override
    public void run() {
      try (selector) {
        for (SelectionKey k : selector.keys()) {
          send(k, (Connection) k.attachment());
        }
        while (true) {
          selector.select(100);
          for (var it = selector.selectedKeys().iterator(); it.hasNext(); ) {
            SelectionKey k = it.next();
            it.remove();
            Connection c = (Connection) k.attachment();
            if (k.isWritable()) {
              write(k, c);
            } else if (k.isReadable() && c.read()) {
              long now = System.nanoTime();
              if (c.sentAt >= warmEnd && now <= end) {
                histogram.recordValue(now - c.sentAt);
              }
              if (now >= end) {
                k.cancel();
                k.channel().close();
              } else {
                send(k, c);
              }
            }
          }
          if (selector.keys().isEmpty() || System.nanoTime() > end + TimeUnit.SECONDS.toNanos(5)) {
            break;
          }
          selector.selectNow(); // processes the cancelled keys, so keys() shrinks
        }
      } catch (Throwable e) {
        failure = e;
      }
    }

    private void send(SelectionKey k, Connection c) throws IOException {
      c.out = ByteBuffer.wrap(requests[Math.floorMod(next++, requests.length)]);
      c.sentAt = System.nanoTime();
      write(k, c);
    }

    private static void write(SelectionKey k, Connection c) throws IOException {
      c.channel.write(c.out);
      k.interestOps(c.out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
    }
  }

  /** One connection's buffers and the response it is reading. */
  private static final class Connection {
    final SocketChannel channel;
    final ByteBuffer in = ByteBuffer.allocate(256 * 1024);
    ByteBuffer out;
    long sentAt;

    Connection(SocketChannel channel) {
      this.channel = channel;
    }

    /** Reads what arrived; true once the whole response is in (and the buffer is cleared). */
    boolean read() throws IOException {
      if (channel.read(in) < 0) {
        throw new IOException("connection closed by the server");
      }
      byte[] a = in.array();
      int n = in.position();
      int headEnd = indexOfBlankLine(a, n);
      if (headEnd < 0) {
        return false;
      }
      int status = (a[9] - '0') * 100 + (a[10] - '0') * 10 + (a[11] - '0');
      if (status >= 300) {
        throw new IllegalStateException("status " + status);
      }
      if (n < headEnd + contentLength(a, headEnd)) {
        return false;
      }
      in.clear(); // one request in flight: nothing follows the response
      return true;
    }

    /** The index just past the head's {@code \r\n\r\n}, or -1. */
    private static int indexOfBlankLine(byte[] a, int n) {
      for (int i = 3; i < n; i++) {
        if (a[i] == '\n' && a[i - 1] == '\r' && a[i - 2] == '\n' && a[i - 3] == '\r') {
          return i + 1;
        }
      }
      return -1;
    }

    private static final byte[] CONTENT_LENGTH =
        "content-length:".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private static int contentLength(byte[] a, int headEnd) {
      outer:
      for (int i = 0; i + CONTENT_LENGTH.length < headEnd; i++) {
        if (a[i] != '\n') {
          continue;
        }
        for (int j = 0; j < CONTENT_LENGTH.length; j++) {
          if (Character.toLowerCase(a[i + 1 + j]) != CONTENT_LENGTH[j]) {
            continue outer;
          }
        }
        int v = 0;
        for (int p = i + 1 + CONTENT_LENGTH.length; a[p] != '\r'; p++) {
          if (a[p] >= '0' && a[p] <= '9') {
            v = v * 10 + (a[p] - '0');
          }
        }
        return v;
      }
      return 0;
    }
  }
}
