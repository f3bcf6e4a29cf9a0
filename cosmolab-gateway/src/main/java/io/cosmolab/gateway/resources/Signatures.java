package io.cosmolab.gateway.resources;

import io.cosmolab.gateway.auth.MasterKeyAuthenticator;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.ResourcePath;
import io.cosmolab.gateway.wire.WireRequest;
import java.util.List;
import java.util.Locale;

/**
 * Which link a request is signed over, by the service's rule (see {@link MasterKeyAuthenticator}):
 * a name-based path as it is; a RID-addressed one, and an offer, by the lower-cased RID or id of
 * the last resource it names.
 */
final class Signatures {
  private Signatures() {}

  /**
   * Passes when the request is signed with the key, dated within the window, over its own path.
   *
   * @param ridAddressed true when the path names its resources by RID, and the last id segment is
   *     the RID of the resource the request addresses (or of a feed's owner); then the lower-cased
   *     RID is the link to sign, as the SDKs do
   */
  static void check(MasterKeyAuthenticator auth, WireRequest request, boolean ridAddressed) {
    checkSignedAs(auth, request, request.path(), ridAddressed);
  }

  /**
   * As {@link #check}, for a request signed as if it addressed {@code signedPath} rather than its
   * own path: the SDKs' delete by partition key posts to {@code …/operations/partitionkeydelete}
   * and signs it as the container.
   */
  static void checkSignedAs(
      MasterKeyAuthenticator auth,
      WireRequest request,
      ResourcePath signedPath,
      boolean ridAddressed) {
    checkSignedOver(
        auth, request, signedPath.resourceType(), List.of(signedLink(signedPath, ridAddressed)));
  }

  /** Passes when the request is signed over {@code type} and one of {@code links}. */
  static void checkSignedOver(
      MasterKeyAuthenticator auth, WireRequest request, String type, List<String> links) {
    auth.checkSignedOver(
        new MasterKeyAuthenticator.SignedHeaders(
            request.method(),
            request.header(Headers.AUTHORIZATION),
            request.header(Headers.X_MS_DATE),
            request.header(Headers.DATE)),
        type,
        links);
  }

  /** The one link a request for this path must be signed over. */
  private static String signedLink(ResourcePath path, boolean ridAddressed) {
    boolean offer = path.kind() == ResourcePath.Kind.OFFERS && !path.isFeed();
    if (offer || ridAddressed) {
      return path.lastIdSegment().toLowerCase(Locale.ROOT);
    }
    return path.resourceLink();
  }
}
