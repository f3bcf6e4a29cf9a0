package io.cosmolab.gateway;

import java.io.IOException;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/** TLS connections to a loopback server with the self-signed certificate, for the tests. */
public final class TlsSockets {
  private TlsSockets() {}

  /**
   * A socket connected to {@code port} on loopback, its handshake done (trusting any certificate),
   * reads timing out after 10 s.
   */
  public static SSLSocket connect(int port) throws IOException {
    SSLContext tls;
    try {
      tls = SSLContext.getInstance("TLS");
      tls.init(null, new TrustManager[] {new TrustAll()}, null);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
    SSLSocket s =
        (SSLSocket) tls.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(), port);
    s.setSoTimeout(10_000);
    try {
      s.startHandshake();
    } catch (IOException e) {
      s.close();
      throw e;
    }
    return s;
  }

  private static final class TrustAll implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
