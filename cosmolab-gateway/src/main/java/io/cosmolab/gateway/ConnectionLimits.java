package io.cosmolab.gateway;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * How long a connection may take and how many may be open: what keeps idle or slow clients from
 * holding the server's threads and file descriptors.
 *
 * @param maxConnections connections served at once; 0 for the default ({@link #resolved()})
 * @param requestReadTimeout time to send a whole request — line, headers and body — counted from
 *     the connection's start for its first request and from the first byte of each later one
 * @param idleTimeout time a kept-alive connection may wait between a response and the next request
 * @param tlsHandshakeTimeout time a TLS handshake may take (Netty; the JDK's server counts the
 *     handshake in the request read timeout)
 */
public record ConnectionLimits(
    int maxConnections,
    Duration requestReadTimeout,
    Duration idleTimeout,
    Duration tlsHandshakeTimeout) {

  /** The cap when the descriptor limit leaves room for it. */
  public static final int DEFAULT_MAX_CONNECTIONS = 1000;

  /**
   * Descriptors kept free below the process's limit when the default cap is worked out: for the
   * store's files, the refusals in progress ({@link ConnectionCap#MAX_REFUSING}) and the JVM.
   */
  static final int DESCRIPTOR_RESERVE = 128;

  /** The fewest connections the default cap allows, however tight the descriptor limit. */
  static final int MIN_DEFAULT_CONNECTIONS = 16;

  public static final ConnectionLimits DEFAULTS =
      new ConnectionLimits(
          0, Duration.ofSeconds(30), Duration.ofSeconds(120), Duration.ofSeconds(10));

  public ConnectionLimits {
    if (maxConnections < 0) {
      throw new IllegalArgumentException(
          "maxConnections must be at least 1 (or 0 for the default), was " + maxConnections);
    }
    positive("requestReadTimeout", requestReadTimeout);
    positive("idleTimeout", idleTimeout);
    positive("tlsHandshakeTimeout", tlsHandshakeTimeout);
  }

  private static void positive(String name, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be a positive duration, was " + d);
    }
  }

  public ConnectionLimits withMaxConnections(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("maxConnections must be at least 1, was " + n);
    }
    return new ConnectionLimits(n, requestReadTimeout, idleTimeout, tlsHandshakeTimeout);
  }

  public ConnectionLimits withRequestReadTimeout(Duration d) {
    return new ConnectionLimits(maxConnections, d, idleTimeout, tlsHandshakeTimeout);
  }

  public ConnectionLimits withIdleTimeout(Duration d) {
    return new ConnectionLimits(maxConnections, requestReadTimeout, d, tlsHandshakeTimeout);
  }

  public ConnectionLimits withTlsHandshakeTimeout(Duration d) {
    return new ConnectionLimits(maxConnections, requestReadTimeout, idleTimeout, d);
  }

  /**
   * These limits with the cap decided: as given, or by default {@value #DEFAULT_MAX_CONNECTIONS} —
   * fewer when the process's descriptor limit ({@code ulimit -n}) leaves less room: the limit less
   * the descriptors open now less {@value #DESCRIPTOR_RESERVE}. Over the cap a connection is
   * refused by the server itself, so the acceptor never runs out of descriptors.
   */
  public ConnectionLimits resolved() {
    if (maxConnections > 0) {
      return this;
    }
    return withMaxConnections(defaultCap(DescriptorRoom.read()));
  }

  /** The default cap when {@code room} descriptors are left (negative: unknown). */
  static int defaultCap(long room) {
    if (room < 0) {
      return DEFAULT_MAX_CONNECTIONS;
    }
    long fits = room - DESCRIPTOR_RESERVE;
    return (int) Math.max(MIN_DEFAULT_CONNECTIONS, Math.min(DEFAULT_MAX_CONNECTIONS, fits));
  }

  /**
   * The descriptors this process may still open, from Linux's {@code /proc/self}: read there rather
   * than through {@code com.sun.management}, whose beans cost a cold start tens of milliseconds of
   * class loading.
   */
  static final class DescriptorRoom {
    private DescriptorRoom() {}

    /** The soft limit less the descriptors open, or -1 where {@code /proc} does not tell. */
    static long read() {
      try {
        long limit = -1;
        for (String line :
            Files.readAllLines(Path.of("/proc/self/limits"), StandardCharsets.US_ASCII)) {
          if (line.startsWith("Max open files")) {
            String rest = line.substring("Max open files".length()).trim();
            int end = rest.indexOf(' ');
            String soft = end < 0 ? rest : rest.substring(0, end);
            limit = "unlimited".equals(soft) ? Long.MAX_VALUE : Long.parseLong(soft);
          }
        }
        if (limit < 0) {
          return -1;
        }
        long open;
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
          open = fds.count();
        }
        return Math.max(0, limit - open);
      } catch (IOException | RuntimeException e) { // not Linux, or /proc not mounted
        return -1;
      }
    }
  }
}
