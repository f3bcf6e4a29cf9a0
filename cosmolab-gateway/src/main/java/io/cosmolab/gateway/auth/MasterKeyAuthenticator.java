package io.cosmolab.gateway.auth;

import io.cosmolab.engine.error.CosmosError;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checks the master-key signature every SDK request carries ({@code gateway-protocol.md} §2).
 *
 * <p>The client signs five lines — verb, resource type, resource link, {@code x-ms-date} and {@code
 * date}, the verb and dates lower case — with HMAC-SHA256 keyed by the Base64-decoded master key,
 * and sends {@code type=master&ver=1.0&sig=<base64>}, URL-encoded. The link is the parent for a
 * feed and the item otherwise. The service's rule, which this check follows exactly: a name-based
 * link is signed as it is, case and all; a RID-addressed one is signed with the lower-cased RID of
 * the last resource it names (the Java SDK signs {@code /dbs/{rid}/colls/{rid}/pkranges} with the
 * container's RID alone), and offers, which only have RIDs, with their lower-cased id. The RID form
 * is accepted only when the caller has resolved the path by RID ({@code ridAddressed}); otherwise a
 * signature over a bare name or a lower-cased link would open every resource of that name.
 *
 * <p>The date must lie within {@link #DEFAULT_SKEW} of this server's clock, as on the service, so a
 * captured request cannot be replayed later. A bad or missing signature is 401; a date outside the
 * window is 403 with a message saying by how much.
 *
 * <p>An Entra ID token ({@code type=aad&ver=1.0&sig=<JWT>}) is accepted in the one form the Cosmos
 * DB emulator accepts: the JWT whose signature part is the base64url of the account key's text,
 * which the SDKs' own emulator tests and the Java samples' {@code AadSimpleEmulatorTokenCredential}
 * make, within its {@code nbf}..{@code exp} (with the same skew). It grants what the key grants. A
 * token from Entra ID itself is signed by Microsoft's keys, which a local emulator cannot check:
 * 401 saying so.
 *
 * <p>Thread-safe: immutable but for one keyed {@link Mac} per thread.
 */
public final class MasterKeyAuthenticator {

  /** The clock skew the service tolerates. [S] REST docs: 15 minutes. */
  public static final Duration DEFAULT_SKEW = Duration.ofMinutes(15);

  /** The public key of every Cosmos DB emulator and the SDKs' tests (gateway-protocol §2). */
  public static final String EMULATOR_KEY =
      "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";

  private final SecretKeySpec key;
  // what the emulator's Entra ID tokens carry as their signature: base64url of the key's text
  private final byte[] emulatorTokenSignature;
  private final InstantSource clock;
  private final Duration skew;

  public MasterKeyAuthenticator(String masterKey, InstantSource clock, Duration skew) {
    byte[] raw;
    try {
      raw = Base64.getDecoder().decode(masterKey);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "the master key must be Base64 (like the emulator key "
              + EMULATOR_KEY.substring(0, 8)
              + "...), was not: "
              + e.getMessage(),
          e);
    }
    if (raw.length < 16) {
      throw new IllegalArgumentException(
          "the master key must decode to at least 16 bytes, was " + raw.length);
    }
    this.key = new SecretKeySpec(raw, "HmacSHA256");
    this.emulatorTokenSignature =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(masterKey.getBytes(StandardCharsets.UTF_8))
            .getBytes(StandardCharsets.US_ASCII);
    SecretKeySpec k = this.key;
    this.macs =
        ThreadLocal.withInitial(
            () -> {
              try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(k);
                return mac;
              } catch (NoSuchAlgorithmException | InvalidKeyException e) {
                throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
              }
            });
    this.clock = clock;
    this.skew = skew;
  }

  /**
   * What a signature covers, as the request carried it: its verb, its {@code authorization} header,
   * and its {@code x-ms-date} and {@code date} headers (null when absent).
   */
  public record SignedHeaders(String method, String authorization, String xmsDate, String date) {}

  /**
   * Passes when the request is signed, with the key and within the window, over {@code type} and
   * one of {@code links}: for the few requests whose signature does not follow their path, such as
   * the Java SDK's {@code GET /addresses} (signed as the documents of the collection it resolves).
   * Which link a path is signed over (the RID rule above) is the caller's to say.
   *
   * @throws io.cosmolab.engine.error.CosmosException 401 for a missing or wrong signature, 403 for
   *     a date outside the window
   */
  public void checkSignedOver(SignedHeaders request, String type, java.util.List<String> links) {
    String header = request.authorization();
    if (header == null || header.isBlank()) {
      throw CosmosError.UNAUTHORIZED.exception(
          "Required Header authorization is missing. Sign each request with the master key"
              + " (type=master&ver=1.0&sig=...)");
    }
    Authorization auth = Authorization.of(header);
    if ("aad".equalsIgnoreCase(auth.type()) && auth.sig() != null) {
      checkEmulatorToken(auth.sig());
      return;
    }
    byte[] expected = signatureOf(auth);
    String xmsDate = request.xmsDate();
    String date = request.date();
    String signedDate = xmsDate != null ? xmsDate : date;
    if (signedDate == null) {
      throw CosmosError.UNAUTHORIZED.exception(
          "the request has neither an x-ms-date nor a date header; the signature covers one");
    }
    checkDate(signedDate);
    String verb = request.method().toLowerCase(Locale.ROOT);
    String xms = xmsDate == null ? "" : xmsDate.toLowerCase(Locale.ROOT);
    String plainDate = date == null ? "" : date.toLowerCase(Locale.ROOT);
    for (String link : links) {
      String payload = verb + "\n" + type + "\n" + link + "\n" + xms + "\n" + plainDate + "\n";
      if (MessageDigest.isEqual(expected, hmac(payload))) {
        return;
      }
    }
    throw CosmosError.UNAUTHORIZED.exception(
        "The input authorization token can't serve the request. The wrong key is being used or"
            + " the expected payload is not built as per the protocol. Server used the following"
            + " payload to sign: '%s\\n%s\\n%s\\n%s\\n\\n'",
        verb, type, links.get(0), xms);
  }

  /**
   * Passes an Entra ID token in the emulator's form (see the class comment): a JWT signed with the
   * key's text, valid now.
   */
  private void checkEmulatorToken(String jwt) {
    String[] parts = jwt.split("\\.", -1);
    if (parts.length != 3) {
      throw CosmosError.UNAUTHORIZED.exception(
          "the Entra ID token in the authorization header is not a JWT (header.claims.signature)");
    }
    if (!MessageDigest.isEqual(
        parts[2].getBytes(StandardCharsets.US_ASCII), emulatorTokenSignature)) {
      throw CosmosError.UNAUTHORIZED.exception(
          "cosmolab accepts an Entra ID token only in the Cosmos DB emulator's form, a JWT signed"
              + " with the account key (the SDKs' AadSimpleEmulatorTokenCredential); a token from"
              + " Entra ID itself is signed by keys a local emulator cannot check. Use the key, or"
              + " that credential with it");
    }
    com.fasterxml.jackson.databind.JsonNode claims;
    try {
      claims = io.cosmolab.engine.document.JsonTrees.read(Base64.getUrlDecoder().decode(parts[1]));
    } catch (IllegalArgumentException | java.io.IOException e) {
      throw CosmosError.UNAUTHORIZED.exception(
          "the claims of the Entra ID token are not base64url JSON");
    }
    long now = clock.instant().getEpochSecond();
    long slack = skew.toSeconds();
    if (!claims.path("exp").canConvertToLong() || claims.path("exp").asLong() + slack < now) {
      throw CosmosError.UNAUTHORIZED.exception(
          "the Entra ID token has expired (exp %s; the server's time is %d)",
          claims.path("exp"), now);
    }
    if (claims.path("nbf").canConvertToLong() && claims.path("nbf").asLong() - slack > now) {
      throw CosmosError.UNAUTHORIZED.exception(
          "the Entra ID token is not valid yet (nbf %s; the server's time is %d)",
          claims.path("nbf"), now);
    }
  }

  /** The header's {@code type} and {@code sig}, URL-decoded (either may be null). */
  private record Authorization(String type, String sig) {
    static Authorization of(String header) {
      String decoded;
      try {
        decoded = URLDecoder.decode(header, StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        throw CosmosError.UNAUTHORIZED.exception(
            "the authorization header is not URL-encoded text");
      }
      String type = null;
      String sig = null;
      for (String part : decoded.split("&", -1)) {
        int eq = part.indexOf('=');
        if (eq < 0) {
          continue;
        }
        String name = part.substring(0, eq).strip().toLowerCase(Locale.ROOT);
        String value = part.substring(eq + 1).strip();
        if (name.equals("type")) {
          type = value;
        } else if (name.equals("sig")) {
          // URL decoding turned '+' into ' '; the signature is Base64, which has no spaces.
          sig = value.replace(' ', '+');
        }
      }
      return new Authorization(type, sig);
    }
  }

  /** The master-key signature the header carries, decoded. */
  private static byte[] signatureOf(Authorization auth) {
    String type = auth.type();
    String sig = auth.sig();
    if (!"master".equalsIgnoreCase(type) || sig == null || sig.isEmpty()) {
      throw CosmosError.UNAUTHORIZED.exception(
          "the authorization header must be type=master&ver=1.0&sig=<signature> (or a resource"
              + " token a permission issued, or an Entra ID token in the emulator's form)");
    }
    try {
      return Base64.getDecoder().decode(sig);
    } catch (IllegalArgumentException e) {
      throw CosmosError.UNAUTHORIZED.exception(
          "the signature in the authorization header is not Base64");
    }
  }

  private void checkDate(String text) {
    Instant signed;
    try {
      signed = Rfc1123.parse(text.strip());
    } catch (DateTimeParseException e) {
      throw CosmosError.UNAUTHORIZED.exception(
          "the x-ms-date header '%s' is not an RFC 1123 date (like 'Tue, 01 Nov 1994 08:12:31 GMT')",
          text);
    }
    // Not Duration.abs(): it negates through BigDecimal, whose classes cost a cold start ~20 ms.
    java.time.Instant now = clock.instant();
    Duration off =
        signed.isBefore(now) ? Duration.between(signed, now) : Duration.between(now, signed);
    if (off.compareTo(skew) > 0) {
      throw CosmosError.FORBIDDEN_DATE.exception(
          "The authorization token is not valid at the current time: the request is dated %s, %d"
              + " s from the server's clock; the window is %d s. Check the client's clock.",
          text, off.toSeconds(), skew.toSeconds());
    }
  }

  private byte[] hmac(String payload) {
    return macs.get().doFinal(payload.getBytes(StandardCharsets.UTF_8));
  }

  /** One initialized Mac per thread: looking one up and keying it costs more than the HMAC. */
  private final ThreadLocal<Mac> macs;

  /** Signs a request the way the SDKs do; for tests and load drivers. */
  public String sign(String verb, String resourceType, String resourceLink, String xmsDate) {
    String payload =
        verb.toLowerCase(Locale.ROOT)
            + "\n"
            + resourceType.toLowerCase(Locale.ROOT)
            + "\n"
            + resourceLink
            + "\n"
            + xmsDate.toLowerCase(Locale.ROOT)
            + "\n\n";
    String sig = Base64.getEncoder().encodeToString(hmac(payload));
    return java.net.URLEncoder.encode("type=master&ver=1.0&sig=" + sig, StandardCharsets.UTF_8);
  }
}
