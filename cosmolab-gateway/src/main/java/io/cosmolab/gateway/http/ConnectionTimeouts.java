package io.cosmolab.gateway.http;

import io.cosmolab.gateway.ConnectionLimits;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The request-read and idle timeouts of one Netty connection: a connection that does not finish
 * sending a request within the request read timeout, or waits longer than the idle timeout between
 * a response and its next request, is closed.
 *
 * <pre>
 *            first byte                 whole request read
 *   idle ───────────────▶ reading ──────────────────────────▶ answering
 *    ▲   (idle timeout)      (request read timeout)     (no timeout: a query may take long)
 *    └────────────────────────────────────────────────────────────┘
 *                    the last response written
 * </pre>
 *
 * A new connection starts reading: its first request must arrive within the request read timeout of
 * the connect. The two faces sit either side of the HTTP codec: {@link #bytes} after TLS sees the
 * first byte of a request, which the codec would hold back until the headers are complete, and
 * {@link #messages} after the aggregator sees whole requests and the responses to them.
 *
 * <p>One scheduled check per connection, not one per request: it is set for the deadline or for the
 * shorter of the two timeouts, whichever comes first, and when it runs early it sets itself again.
 * So moving the deadline later never cancels a task, and no deadline is ever more than the shorter
 * timeout past the check that will see it.
 *
 * <p>Confined to the connection's event loop: every method runs there.
 */
final class ConnectionTimeouts {
  private final long requestNanos;
  private final long idleNanos;
  private final long checkNanos;

  private ChannelHandlerContext ctx;
  private boolean reading = true;
  private int answering; // requests read whose responses are not yet written
  private long deadline; // System.nanoTime() at which the connection closes; 0: none
  private ScheduledFuture<?> check;

  private final ChannelFutureListener responseWritten = f -> responseWritten();

  /** After TLS, before the codec: notes the first byte of each request. */
  final ChannelInboundHandlerAdapter bytes =
      new ChannelInboundHandlerAdapter() {
        @Override
        public void channelActive(ChannelHandlerContext c) {
          ctx = c;
          arm(requestNanos);
          c.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext c, Object msg) {
          if (!reading) {
            reading = true;
            if (answering == 0) {
              arm(requestNanos);
            }
          }
          c.fireChannelRead(msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext c) {
          deadline = 0;
          if (check != null) {
            check.cancel(false);
            check = null;
          }
          c.fireChannelInactive();
        }
      };

  /** After the aggregator, before the gateway: notes whole requests and their responses. */
  final ChannelDuplexHandler messages =
      new ChannelDuplexHandler() {
        @Override
        public void channelRead(ChannelHandlerContext c, Object msg) {
          if (msg instanceof FullHttpRequest) {
            reading = false;
            answering++;
            deadline = 0; // the check that runs next finds nothing to do
          }
          c.fireChannelRead(msg);
        }

        @Override
        // the outcome of a write reaches its writer through the promise passed on
        @SuppressWarnings("FutureReturnValueIgnored")
        public void write(ChannelHandlerContext c, Object msg, ChannelPromise promise) {
          if (msg instanceof LastHttpContent) { // a FullHttpResponse is one too
            ChannelPromise p = promise.unvoid();
            p.addListener(responseWritten);
            c.write(msg, p);
            return;
          }
          c.write(msg, promise);
        }
      };

  ConnectionTimeouts(ConnectionLimits limits) {
    this.requestNanos = limits.requestReadTimeout().toNanos();
    this.idleNanos = limits.idleTimeout().toNanos();
    this.checkNanos = Math.min(requestNanos, idleNanos);
  }

  private void responseWritten() {
    if (answering > 0) {
      answering--;
    }
    if (answering == 0) {
      arm(reading ? requestNanos : idleNanos);
    }
  }

  private void arm(long timeoutNanos) {
    if (ctx == null) {
      return; // not active yet: channelActive arms it
    }
    long now = System.nanoTime();
    deadline = now + timeoutNanos;
    if (deadline == 0) {
      deadline = 1; // 0 means "none"
    }
    if (check == null) {
      schedule(Math.min(timeoutNanos, checkNanos));
    }
  }

  private void schedule(long delayNanos) {
    check = ctx.executor().schedule(this::check, Math.max(1, delayNanos), TimeUnit.NANOSECONDS);
  }

  private void check() {
    check = null;
    if (deadline == 0 || !ctx.channel().isActive()) {
      return;
    }
    long left = deadline - System.nanoTime();
    if (left > 0) {
      schedule(Math.min(left, checkNanos));
      return;
    }
    deadline = 0;
    var unused = ctx.close(); // idle or too slow: nothing to answer; a FIN, not a reset
  }
}
