package io.cosmolab.gateway.resources;

import com.fasterxml.jackson.databind.JsonNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.Permission;
import io.cosmolab.engine.PermissionMode;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.gateway.wire.FeedPost;
import io.cosmolab.gateway.wire.ResourcePath;
import io.cosmolab.gateway.wire.WireRequest;
import java.util.Optional;

/**
 * What a request made with a resource token may do: the scope rules of permissions, checked after
 * {@link io.cosmolab.gateway.auth.ResourceTokens} has verified the token and found its permission.
 *
 * <pre>
 *   GET /                                   any valid token (the SDKs read the account first)
 *   GET  container, GET its pkranges,       any token on that container or on a resource in it:
 *   its /addresses (direct mode)            what an SDK reads to route requests
 *   docs, sprocs, triggers, udfs, conflicts the permission's container only;
 *                                           Read: GET, HEAD and queries (a POST to a feed
 *                                           that FeedPost calls a query or a query plan);
 *                                           All: also writes (create, upsert, replace, patch,
 *                                           delete, batch, stored procedure runs)
 *   a permission on one child               that child's own path only (no feed, no query)
 *   a permission with resourcePartitionKey  requests whose x-ms-documentdb-partitionkey is that
 *                                           key, and bulk batches whose every operation is for it:
 *                                           another key, or none (a cross-partition query, a
 *                                           read feed, a bulk batch without the header), is 403
 *   everything else                         403: databases, creating or changing containers,
 *                                           offers, users and permissions need the master key
 * </pre>
 *
 * The service's refusals are 403 with "Insufficient permissions provided in the authorization
 * header for the corresponding request" [S] (azure-cosmos-dotnet-v3#3657); cosmolab's message adds
 * what the permission grants and what the request wanted. Which reads an SDK's bootstrap may make
 * with a child's token follows the Java SDK ("Get or Head for collection can be done with any child
 * token", {@code ResourceTokenAuthorizationHelper}) and the JavaScript SDK (the account "will
 * accept any token", {@code auth.ts}); the rest of the table is [A].
 */
final class ResourceTokenAccess {
  private final Resolver resolver;

  ResourceTokenAccess(Resolver resolver) {
    this.resolver = resolver;
  }

  /** Passes when the permission grants the request; 403 saying why otherwise. */
  void check(WireRequest request, Permission p) {
    ResourcePath path = request.path();
    String method = request.method();
    boolean read = method.equals("GET") || method.equals("HEAD");
    switch (path.kind()) {
      case ACCOUNT -> {
        if (read) {
          return;
        }
      }
      case CONTAINERS -> {
        if (!path.isFeed() && read) {
          sameContainer(p, path, request);
          return;
        }
      }
      case PARTITION_KEY_RANGES -> {
        if (read) {
          sameContainer(p, path, request);
          return;
        }
      }
      case DOCUMENTS, STORED_PROCEDURES, TRIGGERS, USER_DEFINED_FUNCTIONS, CONFLICTS -> {
        boolean query = method.equals("POST") && path.isFeed() && FeedPost.of(request).readsOnly();
        checkData(request, p, path, !read && !query);
        return;
      }
      default -> {}
    }
    throw denied(
        p,
        request,
        "this request needs the master key: resource tokens reach the documents and scripts of"
            + " their container, never databases, container settings, offers, users or"
            + " permissions");
  }

  /** The SDKs' delete of a logical partition's documents: a write in the container. */
  void checkPartitionKeyDelete(WireRequest request, ResourcePath container, Permission p) {
    checkData(request, p, container, true);
  }

  /** {@code GET /addresses} of a container's partitions, or (target null) the account's master. */
  void checkAddresses(WireRequest request, ResourcePath target, Permission p) {
    if (target == null) {
      throw denied(p, request, "the account's master partition addresses need the master key");
    }
    sameContainer(p, target, request);
  }

  private void checkData(WireRequest request, Permission p, ResourcePath path, boolean write) {
    sameContainer(p, path, request);
    if (write && p.mode() == PermissionMode.READ) {
      throw denied(p, request, "the permission's mode is Read, and this request writes");
    }
    if (p.childType().isPresent()) {
      boolean own =
          path.size() == 6
              && p.childType().get().equals(path.segment(4))
              && p.childId().get().equals(path.segment(5));
      if (!own) {
        throw denied(
            p,
            request,
            "the permission is on %s/%s alone, and this request addresses %s",
            p.childType().get(),
            p.childId().get(),
            path);
      }
    }
    if (p.partitionKey().isPresent()) {
      PartitionKeyValue granted = p.partitionKey().get();
      PartitionKeyValue asked = Requests.partitionKey(request);
      if (asked == null) {
        throw denied(
            p,
            request,
            "the permission is limited to partition key %s, and this request names no partition"
                + " key (a cross-partition query, read feed or bulk batch); send"
                + " x-ms-documentdb-partitionkey %s",
            granted.toJson(),
            granted.toJson());
      }
      if (!asked.equals(granted)) {
        throw denied(
            p,
            request,
            "the permission is limited to partition key %s, and this request is for %s",
            granted.toJson(),
            asked.toJson());
      }
      if (request.method().equals("POST")
          && path.isFeed()
          && FeedPost.of(request) == FeedPost.BATCH) {
        // a bulk request's operations name their own keys, over the header's: each must be this one
        JsonNode operations = Requests.json(request);
        for (int i = 0; i < operations.size(); i++) {
          PartitionKeyValue key = BatchResource.operationKey(operations.get(i), asked);
          if (!granted.equals(key)) {
            throw denied(
                p,
                request,
                "the permission is limited to partition key %s, and operation %d of this batch is"
                    + " for %s",
                granted.toJson(),
                i,
                key == null ? "no partition key" : key.toJson());
          }
        }
      }
    }
  }

  private void sameContainer(Permission p, ResourcePath path, WireRequest request) {
    Optional<Container> c =
        resolver
            .findDatabase(path.segment(1))
            .flatMap(db -> resolver.findContainer(db, path.segment(3)));
    if (c.isEmpty() || !c.get().rid().equals(p.containerRid())) {
      throw denied(
          p,
          request,
          "the permission reaches %s only (container RID %s)",
          p.resource(),
          p.containerRid());
    }
  }

  @com.google.errorprone.annotations.FormatMethod
  private static CosmosException denied(
      Permission p, WireRequest request, String why, Object... args) {
    return CosmosError.FORBIDDEN_BY_PERMISSION.exception(
        "Insufficient permissions provided in the authorization header for the corresponding"
            + " request. Please retry with another authorization header. (%s %s with the resource"
            + " token of permission '%s' of user '%s', %s on %s: %s)",
        request.method(),
        request.path(),
        p.id(),
        p.user().id(),
        p.mode() == PermissionMode.READ ? "Read" : "All",
        p.resource(),
        String.format(java.util.Locale.ROOT, why, args));
  }
}
