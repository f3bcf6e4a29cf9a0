package io.cosmolab.gateway.http;

import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Netty's server channel with an accept loop that survives running out of file descriptors.
 *
 * <p>When {@code accept()} fails (EMFILE: the process's descriptor limit reached), Netty's own
 * channel fires the failure down the server pipeline, whose tail logs a warning. Logging can itself
 * need a descriptor — {@code java.util.logging}'s first formatted date loads the time-zone file —
 * and the {@link Error} that follows ends the boss event loop: the port stays bound and is never
 * served again. Here a failed accept is counted, not logged, and accepting pauses for {@value
 * #PAUSE_MILLIS} ms (the selector would otherwise report the pending connection again at once, a
 * busy loop); once accepting resumes, one warning says what happened, at most once a minute. The
 * connection cap ({@link ConnectionCap}) keeps a server from getting here; this is the guard for
 * when something else holds the descriptors.
 *
 * <p>Confined to the boss event loop, as a server channel's reads are.
 */
public final class GuardedServerSocketChannel extends NioServerSocketChannel {
  private static final System.Logger LOG = System.getLogger("io.cosmolab.gateway");

  static final long PAUSE_MILLIS = 100;
  private static final long REPORT_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final ConnectionCap cap;
  private boolean paused;
  private long failures;
  private String lastFailure = "";
  private long reportedAt = System.nanoTime() - REPORT_EVERY_NANOS;
  private final Runnable resume = this::resume; // made now: a failed accept allocates no class

  public GuardedServerSocketChannel(ConnectionCap cap) {
    this.cap = cap;
  }

  @Override
  protected int doReadMessages(List<Object> buf) {
    SocketChannel accepted;
    try {
      accepted = javaChannel().accept();
    } catch (IOException e) {
      failures++;
      lastFailure = e.getMessage();
      pause();
      return 0;
    }
    if (accepted == null) {
      return 0;
    }
    ConnectionCap.Admission admission = cap.admit();
    if (admission == ConnectionCap.Admission.DROP) {
      closeQuietly(accepted); // over the cap and the refusals under way: no answer possible
      return 0;
    }
    NioSocketChannel child;
    try {
      child = new NioSocketChannel(this, accepted);
    } catch (RuntimeException e) { // it could not be made non-blocking: drop this one
      cap.cancel(admission);
      closeQuietly(accepted);
      return 0;
    }
    cap.track(child, admission);
    buf.add(child);
    return 1;
  }

  private static void closeQuietly(SocketChannel accepted) {
    try {
      accepted.close();
    } catch (IOException ignored) {
      // nothing more to release
    }
  }

  private void pause() {
    if (paused) {
      return;
    }
    paused = true;
    config().setAutoRead(false);
    var unused = eventLoop().schedule(resume, PAUSE_MILLIS, TimeUnit.MILLISECONDS);
  }

  private void resume() {
    paused = false;
    if (!isOpen()) {
      return;
    }
    config().setAutoRead(true);
    long now = System.nanoTime();
    if (failures > 0 && now - reportedAt >= REPORT_EVERY_NANOS) {
      reportedAt = now;
      long n = failures;
      failures = 0;
      try {
        LOG.log(
            Level.WARNING,
            "accepting a connection failed "
                + n
                + " times ("
                + lastFailure
                + "); accepting paused "
                + PAUSE_MILLIS
                + " ms each time. Raise the descriptor limit (ulimit -n) or lower"
                + " --max-connections");
      } catch (RuntimeException | LinkageError e) {
        // logging itself failed (it may need a descriptor): the next report tries again
      }
    }
  }

  /**
   * Closes the listening socket without the event loop, for when the loop is no longer running (a
   * server being shut down after its boss thread ended): the port is then released all the same.
   */
  public void closeSocketNow() {
    try {
      javaChannel().close();
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "closing the listening socket: " + e);
    }
  }
}
