package io.cosmolab.gateway;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** One loopback connection driven byte by byte, for tests of what the server does to it. */
final class RawConnection implements AutoCloseable {
  /** An answer: status, headers (names lower case) and body text. */
  record Response(int status, Map<String, String> headers, String body) {}

  /** How a connection ended, as its client saw it. */
  enum Ending {
    /** The server closed it cleanly (end of stream). */
    CLOSED,
    /** The server reset it. */
    RESET,
    /** It was still open when the wait ended. */
    OPEN
  }

  private final Socket socket;
  private final InputStream in;

  RawConnection(int port) throws IOException {
    this(port, 0);
  }

  /**
   * A connection whose receive buffer is about {@code receiveBufferBytes} (0: the system's), set
   * before connecting so the window is small from the start: a client slow to read.
   */
  RawConnection(int port, int receiveBufferBytes) throws IOException {
    socket = new Socket();
    if (receiveBufferBytes > 0) {
      socket.setReceiveBufferSize(receiveBufferBytes);
    }
    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
    socket.setSoTimeout(10_000);
    in = socket.getInputStream();
  }

  static String get(String path) {
    return "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
  }

  /** An unsigned point read of document {@code id} with the partition key {@code ["pk"]}. */
  static String readDocument(String db, String coll, String id, String pk) {
    return "GET /dbs/"
        + db
        + "/colls/"
        + coll
        + "/docs/"
        + id
        + " HTTP/1.1\r\nHost: localhost\r\nx-ms-documentdb-partitionkey: [\""
        + pk
        + "\"]\r\n\r\n";
  }

  void send(String text) throws IOException {
    socket.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
  }

  /** Sends a request and reads its answer. */
  Response exchange(String request) throws IOException {
    send(request);
    return read();
  }

  /** Reads one response (its body by Content-Length). */
  Response read() throws IOException {
    String head = readHead();
    String[] lines = head.split("\r\n", -1);
    String[] statusLine = lines[0].split(" ", 3);
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        headers.put(
            lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
            lines[i].substring(colon + 1).trim());
      }
    }
    int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
    byte[] body = in.readNBytes(length);
    return new Response(
        Integer.parseInt(statusLine[1]), headers, new String(body, StandardCharsets.UTF_8));
  }

  private String readHead() throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the connection closed after " + head.size() + " bytes: " + head);
      }
      head.write(b);
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
      if (head.size() > 64 * 1024) {
        throw new IOException("a response head over 64 KB");
      }
    }
    String text = head.toString(StandardCharsets.ISO_8859_1);
    return text.substring(0, text.length() - 4);
  }

  /** Waits up to {@code millis} for the server to end the connection, discarding what it sends. */
  Ending awaitEnd(long millis) throws IOException {
    socket.setSoTimeout((int) millis);
    try {
      byte[] buf = new byte[4096];
      long deadline = System.nanoTime() + millis * 1_000_000;
      while (System.nanoTime() < deadline) {
        if (in.read(buf) < 0) {
          return Ending.CLOSED;
        }
      }
      return Ending.OPEN;
    } catch (SocketTimeoutException e) {
      return Ending.OPEN;
    } catch (java.net.SocketException e) { // "Connection reset"
      return Ending.RESET;
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }

  /** Ends the connection with a reset (no graceful close), as a killed or timed-out client may. */
  void abort() throws IOException {
    socket.setSoLinger(true, 0);
    socket.close();
  }
}
