package io.cosmolab.gateway.rntbd;

import io.cosmolab.gateway.http.OffLoopLog;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.timeout.IdleStateEvent;
import java.lang.System.Logger.Level;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The last stage of a direct-mode connection: answers the context negotiation on the event loop,
 * serves point reads there too when they cannot wait ({@link DirectDispatcher#servesOnLoop}), runs
 * every other request on the worker pool, and closes the connection after a malformed frame or when
 * it has been idle, with nothing in flight, for the idle timeout.
 *
 * <p>Unlike HTTP/1.1, RNTBD multiplexes: a client sends many requests on one connection without
 * waiting, and each response carries the request's transport id, so responses may leave in any
 * order. Requests therefore run independently: a point read answered on the loop may overtake a
 * write still on a worker, as it may on the service's replicas. Past {@value #MAX_IN_FLIGHT} in
 * flight the connection stops reading until it is down to {@value #RESUME_AT}.
 *
 * <p>Each answer is flushed on its own, never two in one flush: the Java SDK cannot read two frames
 * that arrive together. Its decoder ({@code RntbdResponseDecoder.decode}, azure-cosmos 4.81.0)
 * keeps a frame's tokens and payload as slices of its input buffer and then compacts that buffer
 * ({@code discardReadBytes}) before handing the frame on, so bytes of a following frame in the same
 * read overwrite the one just decoded: a {@code CorruptedFrameException} or "Unable to parse JSON",
 * after which the SDK closes the connection and retries what was on it as 410s, a second or more
 * later. Over TLS one flush is one record here, and Netty's client hands on one record per read, so
 * a frame per flush keeps each frame alone in its read. (Answers of the reads a client sent
 * together were once flushed together, once per socket read: with 4 threads sharing connections, 6
 * to 12 reads in 10 s took over 500 ms, one of them 5 s.)
 *
 * <p>Concurrency: one instance per connection. Channel callbacks are confined to the event loop;
 * the in-flight count is an atomic shared with the workers, which only write responses (Netty hands
 * those writes to the event loop).
 */
final class DirectChannelHandler extends SimpleChannelInboundHandler<Inbound> {
  private static final System.Logger LOG = System.getLogger("io.cosmolab.gateway");
  static final int MAX_IN_FLIGHT = 256;
  static final int RESUME_AT = 64;

  private final DirectDispatcher dispatcher;
  private final Executor workers;
  private final long idleTimeoutSeconds;
  private final AtomicInteger inFlight = new AtomicInteger();
  private volatile boolean paused;
  // a frame did not parse: the connection closes once the requests before it are answered
  private volatile boolean closing;

  DirectChannelHandler(DirectDispatcher dispatcher, Executor workers, long idleTimeoutSeconds) {
    this.dispatcher = dispatcher;
    this.workers = workers;
    this.idleTimeoutSeconds = idleTimeoutSeconds;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, Inbound msg) {
    if (msg instanceof Inbound.ContextRequest c) {
      var unused = ctx.writeAndFlush(FrameEncoder.encode(context(c), ctx.alloc(), true));
    } else if (msg instanceof Inbound.Request r) {
      inFlight.incrementAndGet();
      if (dispatcher.servesOnLoop(r)) {
        serve(ctx, r);
        return;
      }
      workers.execute(() -> serve(ctx, r));
      if (inFlight.get() > MAX_IN_FLIGHT && !paused) {
        paused = true;
        ctx.channel().config().setAutoRead(false);
      }
    } else if (msg instanceof Inbound.Malformed m) {
      // After a frame that does not parse nothing later can be framed: this connection ends, the
      // others are untouched. The requests framed before it are answered first (those answered
      // here already are); whoever sees none left in flight (this loop, or the worker that
      // answers last) closes the connection (closeAfterQueuedWrites).
      LOG.log(Level.DEBUG, "closing a direct-mode connection: " + m.reason());
      closing = true;
      ctx.channel().config().setAutoRead(false);
      if (inFlight.get() == 0) {
        closeAfterQueuedWrites(ctx);
      }
    }
  }

  /** On a worker or on the loop; the answer is flushed by itself (see the class comment). */
  private void serve(ChannelHandlerContext ctx, Inbound.Request r) {
    try {
      Outbound out = dispatcher.serve(r, () -> !ctx.channel().isActive());
      ctx.writeAndFlush(FrameEncoder.encode(out, ctx.alloc(), false))
          .addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    } catch (RuntimeException | Error e) {
      // serve answers every request itself; what still escapes (an encoding bug, a failed write)
      // ends this connection, never the worker
      OffLoopLog.GATEWAY.error("a direct-mode request's task failed; closing its connection", e);
      var unused = ctx.close();
    } finally {
      int left = inFlight.decrementAndGet();
      if (left == 0 && closing) { // the last answer before a malformed frame: see channelRead0
        closeAfterQueuedWrites(ctx);
      }
      if (left <= RESUME_AT && paused) {
        ctx.channel()
            .eventLoop()
            .execute(
                () -> {
                  if (paused && !closing) {
                    paused = false;
                    ctx.channel().config().setAutoRead(true);
                  }
                });
      }
    }
  }

  /**
   * Closes the connection behind every answer already handed to it. A worker's write is a task on
   * the connection's event loop, queued before the worker lowers {@code inFlight}; so once the
   * count is 0, a close queued on the same loop runs after all of them, and TLS's close_notify
   * follows their bytes. (A close called directly could overtake writes still queued.) The flag and
   * the count are both sequentially consistent, so whichever of the loop and the last worker acts
   * second sees the other's step: at least one of them closes, a second close is harmless.
   */
  private static void closeAfterQueuedWrites(ChannelHandlerContext ctx) {
    ctx.channel()
        .eventLoop()
        .execute(
            () -> {
              var unused = ctx.close();
            });
  }

  private Outbound context(Inbound.ContextRequest c) {
    Object clientVersion = c.tokens().get(Tokens.Context.CLIENT_VERSION);
    return new Outbound.Builder()
        .add(Tokens.Context.PROTOCOL_VERSION, TokenType.ULONG, 1L)
        .add(
            Tokens.Context.CLIENT_VERSION,
            TokenType.SMALL_STRING,
            clientVersion instanceof String s ? s : "")
        .add(Tokens.Context.SERVER_AGENT, TokenType.SMALL_STRING, "cosmolab")
        .add(Tokens.Context.SERVER_VERSION, TokenType.SMALL_STRING, "2.14.0")
        .add(Tokens.Context.IDLE_TIMEOUT_SECONDS, TokenType.ULONG, idleTimeoutSeconds)
        .add(Tokens.Context.UNAUTHENTICATED_TIMEOUT_SECONDS, TokenType.ULONG, 0L)
        .build(c.activityId(), 200, new byte[0]);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof IdleStateEvent) {
      if (inFlight.get() == 0) {
        var unused = ctx.close(); // the SDK opens a new connection when it next needs one
      }
      return;
    }
    super.userEventTriggered(ctx, evt);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.log(Level.DEBUG, "direct-mode connection closed after: " + cause);
    var unused = ctx.close();
  }
}
