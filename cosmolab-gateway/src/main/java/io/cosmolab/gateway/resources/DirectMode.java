package io.cosmolab.gateway.resources;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.gateway.auth.MasterKeyAuthenticator;
import io.cosmolab.gateway.wire.ResourcePath;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The gateway's part of direct mode, the Java SDK's default: {@code /addresses}, answered by {@link
 * Addresses} while the direct-mode listener runs, and otherwise with a clear 501 that says to build
 * the client in gateway mode — never a 401 that blames the key.
 *
 * <p>In direct mode the SDK first asks the gateway for a partition's replica addresses, {@code GET
 * /addresses/?$resolveFor=dbs/{db}/colls/{coll}/docs&$filter=protocol eq rntbd
 * &$partitionKeyRangeIds=...}. It signs that request not over its path but as a read of the
 * collection's documents, with the collection's lower-cased RID, or its name link when it has no
 * RID; and a read of the account's master addresses as {@code dbs} over an empty link ({@code
 * GatewayAddressCache} in azure-cosmos). The signature is checked by those rules first, so a wrong
 * key still gets its 401.
 */
final class DirectMode {
  private DirectMode() {}

  /**
   * @param auth checks the master-key signature; null when the request carries a resource token
   *     ({@code grant}) or the server runs without authentication
   * @param grant the permission of the request's resource token, or null
   */
  static WireResponse addresses(
      WireRequest request,
      MasterKeyAuthenticator auth,
      Addresses addresses,
      io.cosmolab.engine.Permission grant,
      ResourceTokenAccess access) {
    String resolveFor = request.queryParameter("$resolveFor");
    ResourcePath target = resolveFor == null ? new ResourcePath(List.of()) : parse(resolveFor);
    boolean collection =
        target.size() >= 4 && "dbs".equals(target.segment(0)) && "colls".equals(target.segment(2));
    if (grant != null) {
      access.checkAddresses(request, collection ? target : null, grant);
    } else if (auth != null) {
      if (collection) {
        Signatures.checkSignedOver(auth, request, "docs", signedLinks(target));
      } else {
        Signatures.checkSignedOver(auth, request, "dbs", List.of(""));
      }
    }
    if (!addresses.serving()) {
      throw notServed(resolveFor, false);
    }
    return collection ? addresses.read(request, target) : addresses.master(request);
  }

  private static ResourcePath parse(String resolveFor) {
    return ResourcePath.parse(resolveFor.startsWith("/") ? resolveFor : "/" + resolveFor);
  }

  /** The links the SDK signs a collection's address request with: its RID, or its name link. */
  private static List<String> signedLinks(ResourcePath docs) {
    List<String> links = new ArrayList<>();
    String collection = docs.segment(3);
    if (collection != null) {
      links.add(collection.toLowerCase(Locale.ROOT));
      links.add(String.join("/", docs.segments().subList(0, 4)));
    }
    if (links.isEmpty()) {
      links.add(docs.resourceLink());
    }
    return links;
  }

  private static CosmosException notServed(String resolveFor, boolean serving) {
    return CosmosError.NOT_SUPPORTED.exception(
        "%s the client asked for the replica addresses of %s. Use gateway mode: new"
            + " CosmosClientBuilder()...gatewayMode(), or in Spring Data Cosmos,"
            + " CosmosClientBuilder#gatewayMode() in your AbstractCosmosConfiguration"
            + " (spring.cloud.azure.cosmos.connection-mode=gateway)",
        serving
            ? "cosmolab serves direct mode (RNTBD) for containers only:"
            : "this cosmolab server runs without direct mode (RNTBD; off with plain HTTP):",
        resolveFor == null || resolveFor.isBlank() ? "the account" : resolveFor);
  }
}
