package io.cosmolab.gateway.tls;

import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The server's self-signed TLS certificate for {@code localhost}, {@code 127.0.0.1} and {@code ::1}
 * — the hosts the Java SDK's {@code COSMOS.EMULATOR_SERVER_CERTIFICATE_VALIDATION_DISABLED} switch
 * accepts ({@code gateway-protocol.md} §12).
 *
 * <p>Created on first start (an EC P-256 key, valid ten years) and kept as PEM files in the given
 * directory, so a user who imports it into a trust store imports it once. Creation writes a
 * temporary file and moves it into place atomically: two servers starting together both end up with
 * the one certificate that won.
 */
public final class GatewayCertificate {

  /** The certificate's file (PEM) inside the certificate directory. */
  public static final String FILE_NAME = "cosmolab-tls.crt";

  /** The private key's file (unencrypted PKCS#8 PEM, readable by the owner only). */
  public static final String KEY_FILE_NAME = "cosmolab-tls.key";

  private static final String ALIAS = "cosmolab";
  private static final Duration VALIDITY = Duration.ofDays(3650);

  private final X509Certificate certificate;
  private final PrivateKey key;
  private final Path file;

  private GatewayCertificate(X509Certificate certificate, PrivateKey key, Path file) {
    this.certificate = certificate;
    this.key = key;
    this.file = file;
  }

  /**
   * The certificate kept in {@code directory}, created there if it is missing.
   *
   * <p>Kept as two PEM files, the key unencrypted and readable by its owner only: a password-
   * protected PKCS#12 store costs two key derivations of 10,000 rounds at every start (about half a
   * second on a small machine), and protects nothing here — this key secures loopback traffic to an
   * emulator whose master key is public.
   */
  public static GatewayCertificate loadOrCreate(Path directory) {
    Path certFile = directory.resolve(FILE_NAME);
    Path keyFile = directory.resolve(KEY_FILE_NAME);
    try {
      if (!Files.exists(certFile) || !Files.exists(keyFile)) {
        Files.createDirectories(directory);
        Generated g = Generator.generate();
        // key first: a reader that sees the certificate also finds its key
        writeAtomically(directory, keyFile, pem("PRIVATE KEY", g.key().getEncoded()), true);
        writeAtomically(
            directory, certFile, pem("CERTIFICATE", g.certificate().getEncoded()), false);
      }
      X509Certificate cert =
          (X509Certificate)
              CertificateFactory.getInstance("X.509")
                  .generateCertificate(
                      new java.io.ByteArrayInputStream(Files.readAllBytes(certFile)));
      PrivateKey key =
          KeyFactory.getInstance(cert.getPublicKey().getAlgorithm())
              .generatePrivate(new PKCS8EncodedKeySpec(unpem(Files.readString(keyFile))));
      return new GatewayCertificate(cert, key, certFile);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or create the TLS certificate " + certFile, e);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalStateException(
          "the TLS certificate "
              + certFile
              + " or its key cannot be read ("
              + e.getMessage()
              + "); delete both and cosmolab creates new ones",
          e);
    }
  }

  private static void writeAtomically(Path dir, Path target, String text, boolean secret)
      throws IOException {
    Path tmp = Files.createTempFile(dir, "cosmolab-tls", ".tmp");
    try {
      try {
        Files.setPosixFilePermissions(
            tmp, PosixFilePermissions.fromString(secret ? "rw-------" : "rw-r--r--"));
      } catch (UnsupportedOperationException notPosix) {
        // Windows: the user profile directory is private already
      }
      Files.writeString(tmp, text);
      moveIfAbsent(tmp, target);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private static String pem(String type, byte[] der) {
    String b64 =
        Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + b64 + "\n-----END " + type + "-----\n";
  }

  /** The Base64 body of a PEM block: its BEGIN and END lines and all white space removed. */
  private static byte[] unpem(String text) {
    StringBuilder body = new StringBuilder(text.length());
    for (String line : text.split("\n", -1)) {
      String l = line.strip();
      if (l.startsWith("-----")) {
        continue;
      }
      for (int i = 0; i < l.length(); i++) {
        if (!Character.isWhitespace(l.charAt(i))) {
          body.append(l.charAt(i));
        }
      }
    }
    return Base64.getDecoder().decode(body.toString());
  }

  private static void moveIfAbsent(Path tmp, Path file) throws IOException {
    try {
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      try {
        Files.move(tmp, file);
      } catch (FileAlreadyExistsException lost) {
        // another server created it first; use theirs
      }
    } catch (FileAlreadyExistsException lost) {
      // another server created it first; use theirs
    }
  }

  /** A new key and its self-signed certificate. */
  private record Generated(X509Certificate certificate, PrivateKey key) {}

  /**
   * Creating a certificate needs Bouncy Castle; it lives in its own class so that a start with an
   * existing certificate never loads it.
   */
  private static final class Generator {
    private Generator() {}

    @io.cosmolab.engine.internal.SuppressForbidden(
        "a certificate's validity is checked by clients against the wall clock, not the engine's")
    static Generated generate() throws GeneralSecurityException {
      KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
      gen.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
      KeyPair pair = gen.generateKeyPair();
      X500Principal name = new X500Principal("CN=localhost, O=cosmolab emulator");
      Instant now = Instant.now();
      JcaX509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              name,
              new BigInteger(64, new SecureRandom()),
              Date.from(now.minus(Duration.ofDays(1))),
              Date.from(now.plus(VALIDITY)),
              name,
              pair.getPublic());
      try {
        builder.addExtension(
            Extension.subjectAlternativeName,
            false,
            new GeneralNames(
                new GeneralName[] {
                  new GeneralName(GeneralName.dNSName, "localhost"),
                  new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                  new GeneralName(GeneralName.iPAddress, "::1")
                }));
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        X509Certificate cert =
            new JcaX509CertificateConverter()
                .getCertificate(
                    builder.build(
                        new JcaContentSignerBuilder("SHA256withECDSA").build(pair.getPrivate())));
        return new Generated(cert, pair.getPrivate());
      } catch (CertIOException | OperatorCreationException e) {
        throw new GeneralSecurityException("could not build the self-signed certificate", e);
      }
    }
  }

  public X509Certificate certificate() {
    return certificate;
  }

  /** Where the certificate and its key are kept. */
  public Path file() {
    return file;
  }

  /** The certificate in PEM, to import into a trust store or an OS certificate store. */
  public String pem() {
    try {
      return pem("CERTIFICATE", certificate.getEncoded());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the certificate cannot be encoded", e);
    }
  }

  /**
   * Writes a PKCS#12 trust store holding only this certificate, for {@code
   * -Djavax.net.ssl.trustStore=<file>}.
   */
  public void writeTrustStore(Path target, char[] password) {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setCertificateEntry(ALIAS, certificate);
      Path parent = target.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      try (OutputStream out = Files.newOutputStream(target)) {
        store.store(out, password);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the trust store " + target, e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot build the trust store", e);
    }
  }

  /**
   * The Netty server context serving this certificate: a JDK {@link SSLContext} with a key manager
   * that hands out the one key, so no key store is built (Netty's own builder builds and decrypts a
   * PKCS#12 store, which costs most of a second at start-up). For the gateway's own server: Netty
   * has only automatic module names, so its types cannot be part of this module's API.
   */
  @SuppressWarnings("exports")
  public SslContext serverContext() {
    return new JdkSslContext(
        jdkServerContext(),
        false,
        null,
        IdentityCipherSuiteFilter.INSTANCE,
        ApplicationProtocolConfig.DISABLED,
        ClientAuth.NONE,
        null,
        false);
  }

  /** The JDK's server context serving this certificate: what both transports' TLS is built on. */
  public SSLContext jdkServerContext() {
    try {
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(new KeyManager[] {new SingleKeyManager(key, certificate)}, null, null);
      return ctx;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot set up TLS with " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Runs one TLS handshake in memory, a client engine against a server engine with this key, so the
   * JDK loads its handshake classes and runs its key-exchange and signature code once before the
   * first client connects: a cold JVM otherwise pays that on its first connection. Called on a
   * background thread at start; failures only mean no warm-up.
   */
  public void warmUp() {
    try {
      SSLContext server = SSLContext.getInstance("TLS");
      server.init(new KeyManager[] {new SingleKeyManager(key, certificate)}, null, null);
      SSLContext client = SSLContext.getInstance("TLS");
      client.init(null, new javax.net.ssl.TrustManager[] {new TrustThis(certificate)}, null);
      SSLEngine s = server.createSSLEngine();
      s.setUseClientMode(false);
      SSLEngine c = client.createSSLEngine("localhost", 443);
      c.setUseClientMode(true);
      java.nio.ByteBuffer empty = java.nio.ByteBuffer.allocate(0);
      int size = Math.max(s.getSession().getPacketBufferSize(), 32 * 1024);
      java.nio.ByteBuffer toServer = java.nio.ByteBuffer.allocate(size);
      java.nio.ByteBuffer toClient = java.nio.ByteBuffer.allocate(size);
      java.nio.ByteBuffer app = java.nio.ByteBuffer.allocate(size);
      c.beginHandshake();
      s.beginHandshake();
      for (int i = 0; i < 200 && !(done(c) && done(s)); i++) {
        step(c, empty, toServer, toClient, app);
        step(s, empty, toClient, toServer, app);
      }
    } catch (GeneralSecurityException | javax.net.ssl.SSLException | RuntimeException e) {
      // a warm-up only; the real handshakes report their own errors
    }
  }

  private static boolean done(SSLEngine e) {
    javax.net.ssl.SSLEngineResult.HandshakeStatus h = e.getHandshakeStatus();
    return h == javax.net.ssl.SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING
        || h == javax.net.ssl.SSLEngineResult.HandshakeStatus.FINISHED;
  }

  /** Moves one engine forward: wraps into {@code out}, unwraps from {@code in}, runs tasks. */
  private static void step(
      SSLEngine e,
      java.nio.ByteBuffer empty,
      java.nio.ByteBuffer out,
      java.nio.ByteBuffer in,
      java.nio.ByteBuffer app)
      throws javax.net.ssl.SSLException {
    e.wrap(empty, out);
    in.flip();
    if (in.hasRemaining()) {
      e.unwrap(in, app);
    }
    in.compact();
    app.clear();
    Runnable task;
    while ((task = e.getDelegatedTask()) != null) {
      task.run();
    }
  }

  /** Trusts exactly one certificate: the warm-up's client trusts the server it talks to. */
  private static final class TrustThis implements javax.net.ssl.X509TrustManager {
    private final X509Certificate trusted;

    TrustThis(X509Certificate trusted) {
      this.trusted = trusted;
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {
      throw new UnsupportedOperationException("the warm-up client never serves");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType)
        throws java.security.cert.CertificateException {
      if (chain.length == 0 || !chain[0].equals(trusted)) {
        throw new java.security.cert.CertificateException("not the server's own certificate");
      }
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[] {trusted};
    }
  }

  /** A key manager with exactly one key and certificate, for every server handshake. */
  private static final class SingleKeyManager extends X509ExtendedKeyManager {
    private final PrivateKey key;
    private final X509Certificate[] chain;

    SingleKeyManager(PrivateKey key, X509Certificate certificate) {
      this.key = key;
      this.chain = new X509Certificate[] {certificate};
    }

    @Override
    public String chooseEngineServerAlias(
        String keyType, java.security.Principal[] issuers, SSLEngine engine) {
      return ALIAS;
    }

    @Override
    public String chooseServerAlias(
        String keyType, java.security.Principal[] issuers, java.net.Socket socket) {
      return ALIAS;
    }

    @Override
    public String[] getServerAliases(String keyType, java.security.Principal[] issuers) {
      return new String[] {ALIAS};
    }

    @Override
    public String[] getClientAliases(String keyType, java.security.Principal[] issuers) {
      return new String[0];
    }

    @Override
    public String chooseClientAlias(
        String[] keyType, java.security.Principal[] issuers, java.net.Socket socket) {
      return null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
      return chain.clone();
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
      return key;
    }
  }
}
