package io.cosmolab.gateway.tls;

import io.netty.handler.ssl.OpenSsl;
import java.util.Locale;

/**
 * Which TLS implementation serves the gateway's HTTPS and the direct-mode (RNTBD) listener.
 *
 * <p>BoringSSL (through Netty's {@code netty-tcnative}, native libraries for Linux, macOS and
 * Windows on x86-64 and ARM64 packed in the server's jar) costs less CPU per TLS record than the
 * JDK's {@code SSLEngine}; on the small records of point operations that is a large share of a
 * request's cost (docs/benchmarks.md, "TLS in BoringSSL"). The JDK's engine works on every
 * platform. Both serve the same certificate with the JDK's default protocols (TLS 1.2 and 1.3).
 */
public enum TlsEngine {
  /** BoringSSL when its native library loads on this platform, else the JDK's (the default). */
  AUTO,
  /** The JDK's {@code SSLEngine}. */
  JDK,
  /** BoringSSL; starting fails, naming why, when its native library cannot load here. */
  OPENSSL;

  /**
   * The engine this choice runs on this machine: {@link #JDK} or {@link #OPENSSL}.
   *
   * @throws IllegalStateException for {@link #OPENSSL} when BoringSSL cannot load here, with the
   *     loader's reason
   */
  public TlsEngine resolved() {
    return switch (this) {
      case JDK -> JDK;
      case AUTO -> nativeAvailable() ? OPENSSL : JDK;
      case OPENSSL -> {
        if (!nativeAvailable()) {
          Throwable why = OpenSsl.unavailabilityCause();
          throw new IllegalStateException(
              "TLS engine openssl: BoringSSL (netty-tcnative) cannot load on this platform ("
                  + System.getProperty("os.name")
                  + " "
                  + System.getProperty("os.arch")
                  + "): "
                  + (why == null ? "unknown reason" : why.getMessage())
                  + "; use the JDK's (--tls-engine jdk)",
              why);
        }
        yield OPENSSL;
      }
    };
  }

  /** Whether BoringSSL's native library loads in this process (loaded once, on first ask). */
  public static boolean nativeAvailable() {
    try {
      return OpenSsl.isAvailable();
    } catch (LinkageError e) {
      return false; // the tcnative classes are not on the class or module path
    }
  }

  /**
   * Parses a user's choice: {@code auto}, {@code jdk} or {@code openssl} (any case).
   *
   * @throws IllegalArgumentException naming the accepted values
   */
  public static TlsEngine parse(String text) {
    if (text != null) {
      for (TlsEngine e : values()) {
        if (e.name().equals(text.trim().toUpperCase(Locale.ROOT))) {
          return e;
        }
      }
    }
    throw new IllegalArgumentException(
        "TLS engine must be auto, jdk or openssl, was '" + text + "'");
  }

  /** How the start-up banner names the engine. */
  public String describe() {
    return switch (this) {
      case OPENSSL -> "BoringSSL (netty-tcnative)";
      case JDK -> "the JDK's SSLEngine";
      case AUTO -> "BoringSSL if it loads, else the JDK's";
    };
  }
}
