package io.cosmolab.gateway.tls;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import javax.net.ssl.SSLException;
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
 * <p>Created on first start (an EC P-256 key, valid ten years) and kept as a PKCS#12 file in the
 * given directory, so a user who imports it into a trust store imports it once. Creation writes a
 * temporary file and moves it into place atomically: two servers starting together both end up with
 * the one certificate that won.
 */
public final class GatewayCertificate {

  /** The file name inside the certificate directory. */
  public static final String FILE_NAME = "cosmolab-tls.p12";

  private static final String ALIAS = "cosmolab";
  private static final char[] STORE_PASSWORD = "cosmolab".toCharArray();
  private static final Duration VALIDITY = Duration.ofDays(3650);

  private final X509Certificate certificate;
  private final PrivateKey key;
  private final Path file;

  private GatewayCertificate(X509Certificate certificate, PrivateKey key, Path file) {
    this.certificate = certificate;
    this.key = key;
    this.file = file;
  }

  /** The certificate kept in {@code directory}, created there if it is missing. */
  public static GatewayCertificate loadOrCreate(Path directory) {
    Path file = directory.resolve(FILE_NAME);
    try {
      if (!Files.exists(file)) {
        Files.createDirectories(directory);
        Path tmp = Files.createTempFile(directory, "cosmolab-tls", ".tmp");
        try {
          try (OutputStream out = Files.newOutputStream(tmp)) {
            generate().store(out, STORE_PASSWORD);
          }
          moveIfAbsent(tmp, file);
        } finally {
          Files.deleteIfExists(tmp);
        }
      }
      KeyStore store = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(file)) {
        store.load(in, STORE_PASSWORD);
      }
      return new GatewayCertificate(
          (X509Certificate) store.getCertificate(ALIAS),
          (PrivateKey) store.getKey(ALIAS, STORE_PASSWORD),
          file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or create the TLS certificate " + file, e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "the TLS certificate "
              + file
              + " cannot be read ("
              + e.getMessage()
              + "); delete it and cosmolab creates a new one",
          e);
    }
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

  private static KeyStore generate() throws IOException, GeneralSecurityException {
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
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry(ALIAS, pair.getPrivate(), STORE_PASSWORD, new X509Certificate[] {cert});
      return store;
    } catch (CertIOException | OperatorCreationException e) {
      throw new GeneralSecurityException("could not build the self-signed certificate", e);
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
      String b64 =
          Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
              .encodeToString(certificate.getEncoded());
      return "-----BEGIN CERTIFICATE-----\n" + b64 + "\n-----END CERTIFICATE-----\n";
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

  /** The Netty server context serving this certificate. */
  public SslContext serverContext() {
    try {
      return SslContextBuilder.forServer(key, certificate).build();
    } catch (SSLException e) {
      throw new IllegalStateException("cannot set up TLS with " + file + ": " + e.getMessage(), e);
    }
  }
}
