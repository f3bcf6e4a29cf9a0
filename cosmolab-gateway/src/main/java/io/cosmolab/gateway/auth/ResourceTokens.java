package io.cosmolab.gateway.auth;

import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.Permission;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.resource.ResourceIds;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Resource tokens: what a permission's {@code _token} holds and what a client built from it sends
 * as its {@code authorization} header ({@code type=resource&ver=1.0&sig=...}, URL-encoded by the
 * SDKs). The SDKs treat the text after {@code type=resource} as opaque: the Java SDK only checks
 * the type ({@code ResourceTokenAuthorizationHelper.isResourceToken}), the JavaScript SDK sends it
 * as it is. So the format is cosmolab's own.
 *
 * <pre>
 * type=resource&amp;ver=1.0&amp;sig=&lt;body&gt;;&lt;mac&gt;;
 *
 * body, Base64 of 41 bytes:
 *   0        1                   17              25                   33                   41
 *   | ver 1  | permission RID 16  | revision 8 BE | issued, epoch s 8 BE | expiry, epoch s 8 BE |
 *
 * mac  = Base64( HMAC-SHA256( k, body bytes || '\n' || permission.scopeText() ) )
 * k    = HMAC-SHA256( Base64-decoded master key, "cosmolab resource token key v1" )
 * </pre>
 *
 * <p>Why this shape. The MAC is keyed by a key derived from the master key, so whoever can forge a
 * token already holds the master key, which reaches everything anyway: that is the service's trust
 * model too, and it needs no secret of its own to keep across restarts (tokens survive a restart on
 * a durable store; another master key revokes every token). The MAC covers the permission's
 * identity (its RID), its revision, its mode and scope (container RID, child, partition key) and
 * the validity window, so no part can be changed. Mode and scope are not in the body: they are read
 * from the permission, which every check looks up by RID anyway, so a deleted permission (or its
 * user, or its database) revokes its tokens, and a replaced one (its revision moves on) revokes the
 * tokens issued before.
 *
 * <p>Checks, in order: the header parses (else 401); the permission exists (else 401); the MAC
 * matches (else 401); the revision is the permission's (else 401); the engine's clock is within
 * [issued, expiry] (else 403, "The authorization token is not valid at the current time", as the
 * service words it for any token outside its window).
 *
 * <p>Thread-safe: immutable, with one initialized {@link Mac} per thread.
 */
public final class ResourceTokens {
  private static final String PREFIX = "type=resource&ver=1.0&sig=";
  private static final byte VERSION = 1;
  private static final int BODY_BYTES = 41;

  private final ThreadLocal<Mac> macs;

  /**
   * @param masterKey the account's master key (Base64), from which the signing key is derived
   */
  public ResourceTokens(String masterKey) {
    byte[] master;
    try {
      master = Base64.getDecoder().decode(masterKey);
    } catch (IllegalArgumentException e) {
      // only a server without authentication gets here (the authenticator refuses such a key);
      // its tokens are never checked, so any key will do
      master = masterKey.getBytes(StandardCharsets.UTF_8);
    }
    SecretKeySpec derived = new SecretKeySpec(derive(master), "HmacSHA256");
    this.macs = ThreadLocal.withInitial(() -> mac(derived));
  }

  private static byte[] derive(byte[] master) {
    Mac m = mac(new SecretKeySpec(master, "HmacSHA256"));
    return m.doFinal("cosmolab resource token key v1".getBytes(StandardCharsets.UTF_8));
  }

  private static Mac mac(SecretKeySpec key) {
    try {
      Mac m = Mac.getInstance("HmacSHA256");
      m.init(key);
      return m;
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  /** True when an {@code authorization} header (URL-encoded or not) carries a resource token. */
  public static boolean isResourceToken(String header) {
    if (header == null) {
      return false;
    }
    String h = header.strip();
    if (h.regionMatches(true, 0, "type%3Dresource", 0, 15)) {
      return true;
    }
    return h.regionMatches(true, 0, "type=resource", 0, 13);
  }

  /** A new token for the permission, valid from {@code now} for {@code validitySeconds}. */
  public String issue(Permission p, Instant now, long validitySeconds) {
    byte[] rid = ResourceIds.decode(p.rid());
    long issued = now.getEpochSecond();
    ByteBuffer body = ByteBuffer.allocate(BODY_BYTES);
    body.put(VERSION).put(rid).putLong(p.revision()).putLong(issued);
    body.putLong(issued + validitySeconds);
    byte[] bytes = body.array();
    Base64.Encoder b64 = Base64.getEncoder();
    return PREFIX + b64.encodeToString(bytes) + ";" + b64.encodeToString(mac(bytes, p)) + ";";
  }

  /**
   * The permission a request's resource token stands for, once every check above has passed.
   *
   * @throws io.cosmolab.engine.error.CosmosException 401 for a token this account did not issue or
   *     has revoked, 403 for one outside its validity
   */
  public Permission verify(String header, CosmosEngine engine) {
    String sig = sigOf(header);
    int semi = sig.indexOf(';');
    int end = semi < 0 ? -1 : sig.indexOf(';', semi + 1);
    byte[] body;
    byte[] mac;
    try {
      body = Base64.getDecoder().decode(semi < 0 ? sig : sig.substring(0, semi));
      mac =
          Base64.getDecoder()
              .decode(semi < 0 ? "" : sig.substring(semi + 1, end < 0 ? sig.length() : end));
    } catch (IllegalArgumentException e) {
      throw malformed("its signature is not Base64");
    }
    if (body.length != BODY_BYTES || body[0] != VERSION || mac.length == 0) {
      throw malformed("it does not have the layout of a cosmolab resource token");
    }
    ByteBuffer b = ByteBuffer.wrap(body);
    b.get();
    byte[] rid = new byte[16];
    b.get(rid);
    long revision = b.getLong();
    long issued = b.getLong();
    long expiry = b.getLong();
    Optional<Permission> found = engine.findPermissionByRid(ResourceIds.encode(rid));
    if (found.isEmpty()) {
      throw CosmosError.UNAUTHORIZED.exception(
          "The resource token's permission (RID %s) no longer exists: it, its user or its database"
              + " was deleted, or the token is not from this account. Read a permission for a new"
              + " token.",
          ResourceIds.encode(rid));
    }
    Permission p = found.get();
    if (!MessageDigest.isEqual(mac, mac(body, p))) {
      throw CosmosError.UNAUTHORIZED.exception(
          "The resource token's signature does not verify: it was not issued by this account (or"
              + " under another master key), or it was altered");
    }
    if (revision != p.revision()) {
      throw CosmosError.UNAUTHORIZED.exception(
          "The resource token was issued for an earlier version of permission '%s' of user '%s',"
              + " which has since been replaced; read the permission again for a new token",
          p.id(), p.user().id());
    }
    long now = engine.clock().instant().getEpochSecond();
    if (now < issued || now > expiry) {
      throw CosmosError.FORBIDDEN_DATE.exception(
          "The authorization token is not valid at the current time. Please create another token"
              + " and retry (token start time: %s, token expiry time: %s, current server time:"
              + " %s).",
          date(issued), date(expiry), date(now));
    }
    return p;
  }

  private static String date(long epochSecond) {
    return Rfc1123.format(epochSecond);
  }

  /** The {@code sig} of a header, URL-decoded, {@code +} restored where decoding made spaces. */
  private static String sigOf(String header) {
    String decoded;
    try {
      decoded = URLDecoder.decode(header.strip(), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw malformed("the authorization header is not URL-encoded text");
    }
    for (String part : decoded.split("&", -1)) {
      int eq = part.indexOf('=');
      if (eq > 0 && part.substring(0, eq).strip().toLowerCase(Locale.ROOT).equals("sig")) {
        return part.substring(eq + 1).strip().replace(' ', '+');
      }
    }
    throw malformed("it has no sig");
  }

  private static io.cosmolab.engine.error.CosmosException malformed(String why) {
    return CosmosError.UNAUTHORIZED.exception(
        "The authorization header holds a resource token (type=resource) that cannot be read: %s."
            + " Pass the permission's _token unchanged.",
        why);
  }

  private byte[] mac(byte[] body, Permission p) {
    Mac m = macs.get();
    m.update(body);
    m.update((byte) '\n');
    return m.doFinal(p.scopeText().getBytes(StandardCharsets.UTF_8));
  }
}
