package io.cosmolab.gateway.tls.internal;

import io.cosmolab.gateway.tls.GatewayCertificate;
import io.cosmolab.gateway.tls.TlsEngine;
import io.netty.handler.ssl.SslContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The TLS context each new connection is served with, on both transports (HTTPS and direct mode).
 *
 * <p>Loading BoringSSL's native library and building its context costs a cold JVM about a second,
 * more than the rest of a start. With {@link TlsEngine#AUTO} the server therefore opens on the
 * JDK's engine and {@linkplain #upgradeInBackground() moves to BoringSSL} on a background thread
 * once it is up: connections accepted before the move keep the JDK's engine, later ones get
 * BoringSSL. Both serve the same certificate, so a client cannot tell but by its CPU. With {@link
 * TlsEngine#OPENSSL} the first connections wait for BoringSSL (the user asked for it); with {@link
 * TlsEngine#JDK} there is no move.
 */
public final class ServerTls {
  private final CompletableFuture<SslContext> first;
  private final CompletableFuture<GatewayCertificate> certificate;
  private final TlsEngine requested;
  private final CompletableFuture<TlsEngine> settled = new CompletableFuture<>();
  private volatile SslContext upgraded;
  private volatile TlsEngine serving;

  private ServerTls(
      CompletableFuture<GatewayCertificate> certificate,
      TlsEngine requested,
      TlsEngine firstEngine) {
    this.certificate = certificate;
    this.requested = requested;
    this.serving = firstEngine;
    this.first = certificate.thenApply(c -> c.serverContext(firstEngine));
    if (requested != TlsEngine.AUTO) {
      var unused =
          first.whenComplete(
              (ctx, failure) -> {
                if (failure == null) {
                  settled.complete(firstEngine);
                } else {
                  settled.completeExceptionally(failure);
                }
              });
    }
  }

  /**
   * The contexts for a certificate still being loaded, on the engine asked for.
   *
   * @param requested {@link TlsEngine#JDK}, {@link TlsEngine#OPENSSL} or {@link TlsEngine#AUTO}
   */
  public static ServerTls of(
      CompletableFuture<GatewayCertificate> certificate, TlsEngine requested) {
    TlsEngine firstEngine = requested == TlsEngine.OPENSSL ? TlsEngine.OPENSSL : TlsEngine.JDK;
    return new ServerTls(certificate, requested, firstEngine);
  }

  /**
   * The context for a connection accepted now. Waits only while the first context is being built
   * (the first connections of a cold start).
   *
   * @throws CompletionException when the certificate or the first context could not be set up
   */
  public SslContext current() {
    SslContext u = upgraded;
    return u != null ? u : first.join();
  }

  /** The engine serving connections accepted now. */
  public TlsEngine serving() {
    return serving;
  }

  /**
   * The engine new connections get once start-up's background work is done: completes at once for
   * {@link TlsEngine#JDK} and {@link TlsEngine#OPENSSL}, after the move (or the decision not to)
   * for {@link TlsEngine#AUTO}.
   */
  public CompletableFuture<TlsEngine> settled() {
    return settled;
  }

  /**
   * For {@link TlsEngine#AUTO}: loads BoringSSL on a daemon thread and, if it loads, serves new
   * connections with it; otherwise the JDK's engine stays. Call once the server is up, so the load
   * does not compete with the start for the cores. Does nothing for the other choices.
   */
  public void upgradeInBackground() {
    if (requested != TlsEngine.AUTO || settled.isDone()) {
      return;
    }
    Thread t =
        new Thread(
            () -> {
              try {
                GatewayCertificate c = certificate.join();
                if (TlsEngine.nativeAvailable()) {
                  upgraded = c.serverContext(TlsEngine.OPENSSL);
                  serving = TlsEngine.OPENSSL;
                }
              } catch (RuntimeException | LinkageError e) {
                // AUTO means "BoringSSL where it works": the JDK's engine keeps serving
              } finally {
                settled.complete(serving);
              }
            },
            "cosmolab-tls-boringssl");
    t.setDaemon(true);
    t.start();
  }
}
