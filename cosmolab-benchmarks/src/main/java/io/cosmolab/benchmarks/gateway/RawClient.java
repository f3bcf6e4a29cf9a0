package io.cosmolab.benchmarks.gateway;

import io.cosmolab.gateway.auth.MasterKeyAuthenticator;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * One keep-alive HTTP/1.1 connection with requests prebuilt as bytes, signatures included: the load
 * driver measures the server, not the client's signing or header building. Signatures are valid for
 * the server's 15-minute window, far longer than a run.
 */
public final class RawClient implements AutoCloseable {
  /** Signs every prebuilt request of the drivers, HTTP and RNTBD alike. */
  static final MasterKeyAuthenticator SIGNER =
      new MasterKeyAuthenticator(
          MasterKeyAuthenticator.EMULATOR_KEY, Clock.systemUTC(), Duration.ofMinutes(15));

  /** Now, as {@code x-ms-date} (and the RNTBD date token) carries it. */
  static String now() {
    return DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
  }

  private static final javax.net.ssl.SSLContext TRUST_ALL = trustAll();

  private static javax.net.ssl.SSLContext trustAll() {
    try {
      javax.net.ssl.SSLContext ctx = javax.net.ssl.SSLContext.getInstance("TLS");
      ctx.init(
          null,
          new javax.net.ssl.TrustManager[] {
            new javax.net.ssl.X509TrustManager() {
              @Override
              public void checkClientTrusted(
                  java.security.cert.X509Certificate[] chain, String authType) {}

              @Override
              public void checkServerTrusted(
                  java.security.cert.X509Certificate[] chain, String authType) {}

              @Override
              public java.security.cert.X509Certificate[] getAcceptedIssuers() {
                return new java.security.cert.X509Certificate[0];
              }
            }
          },
          null);
      return ctx;
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private final Socket socket;
  private final OutputStream out;
  private final InputStream in;

  /** A plain-HTTP connection to the server on loopback {@code port}. */
  public RawClient(int port) throws IOException {
    this(port, false);
  }

  /** With {@code tls}, over TLS accepting any certificate (the emulator's is self-signed). */
  RawClient(int port, boolean tls) throws IOException {
    socket =
        tls
            ? TRUST_ALL.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(), port)
            : new Socket(InetAddress.getLoopbackAddress(), port);
    socket.setTcpNoDelay(true);
    out = socket.getOutputStream();
    in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
  }

  /**
   * A request signed now with the emulator key, ready to send many times (within the signature's
   * window): {@code headers} are extra header lines, each ending in CRLF; {@code body} may be null.
   */
  public static byte[] request(
      String method, String path, String type, String link, String headers, String body) {
    String date = now();
    byte[] payload = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    String head =
        method
            + " "
            + path
            + " HTTP/1.1\r\nHost: localhost\r\nx-ms-date: "
            + date
            + "\r\nx-ms-version: 2020-07-15\r\nauthorization: "
            + SIGNER.sign(method, type, link, date)
            + "\r\n"
            + headers
            + "Content-Length: "
            + payload.length
            + "\r\n\r\n";
    byte[] h = head.getBytes(StandardCharsets.UTF_8);
    byte[] all = new byte[h.length + payload.length];
    System.arraycopy(h, 0, all, 0, h.length);
    System.arraycopy(payload, 0, all, h.length, payload.length);
    return all;
  }

  /** Sends a prebuilt request and reads the whole response; returns the status. */
  public int exchange(byte[] request) throws IOException {
    out.write(request);
    out.flush();
    String statusLine = line();
    int status = Integer.parseInt(statusLine.substring(9, 12));
    int length = 0;
    for (String h = line(); !h.isEmpty(); h = line()) {
      if (h.regionMatches(true, 0, "content-length:", 0, 15)) {
        length = Integer.parseInt(h.substring(15).strip());
      }
    }
    in.skipNBytes(length);
    return status;
  }

  private String line() throws IOException {
    StringBuilder b = new StringBuilder(64);
    int c;
    while ((c = in.read()) != -1) {
      if (c == '\r') {
        continue;
      }
      if (c == '\n') {
        return b.toString();
      }
      b.append((char) c);
    }
    throw new IOException("connection closed by the server");
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
