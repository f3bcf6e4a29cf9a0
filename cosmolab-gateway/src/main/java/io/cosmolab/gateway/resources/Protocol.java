package io.cosmolab.gateway.resources;

import io.cosmolab.engine.Container;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.Permission;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.script.ScriptKind;
import io.cosmolab.engine.throughput.RequestClass;
import io.cosmolab.gateway.auth.HostCheck;
import io.cosmolab.gateway.auth.MasterKeyAuthenticator;
import io.cosmolab.gateway.auth.ResourceTokens;
import io.cosmolab.gateway.wire.FeedPost;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.ResourcePath;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.util.Locale;
import java.util.function.Function;

/**
 * The Cosmos DB REST protocol over the engine: authenticates each request (a master-key signature,
 * or a resource token and the scope of its permission), then routes it by the resource its path
 * addresses. Failures leave as {@link CosmosException}s, which the HTTP stage turns into the
 * service's error responses in one place.
 *
 * <p>Thread-safe: the handlers hold no per-request state, and the engine is thread-safe.
 */
public final class Protocol implements Function<WireRequest, WireResponse> {
  private final MasterKeyAuthenticator auth;
  private final HostCheck hosts;
  private final Resolver resolver;
  private final AccountResource account;
  private final DatabaseResource databases;
  private final ContainerResource containers;
  private final DocumentResource documents;
  private final PartitionKeyRangeResource ranges = new PartitionKeyRangeResource();
  private final ScriptResource scripts;
  private final OfferResource offers;
  private final Addresses addresses;
  private final CosmosEngine engine;
  private final ResourceTokens tokens;
  private final ResourceTokenAccess access;
  private final UserResource users;

  /**
   * @param engine the account to serve
   * @param auth checks every request's signature; null serves without authentication
   * @param hosts the Host names answered; others get 403 before anything else is read
   * @param fallbackEndpoint the endpoint to advertise when a request has no Host header
   */
  public Protocol(
      CosmosEngine engine,
      MasterKeyAuthenticator auth,
      HostCheck hosts,
      java.util.function.Supplier<String> fallbackEndpoint) {
    this(engine, auth, hosts, fallbackEndpoint, () -> 0);
  }

  /**
   * @param directPort the port of the direct-mode (RNTBD) listener, which {@code /addresses} names;
   *     0 while there is none
   */
  public Protocol(
      CosmosEngine engine,
      MasterKeyAuthenticator auth,
      HostCheck hosts,
      java.util.function.Supplier<String> fallbackEndpoint,
      java.util.function.IntSupplier directPort) {
    this(engine, auth, hosts, fallbackEndpoint, directPort, MasterKeyAuthenticator.EMULATOR_KEY);
  }

  /**
   * @param masterKey the key resource tokens are signed under (see {@link ResourceTokens}); the one
   *     {@code auth} checks, or any when serving without authentication
   */
  public Protocol(
      CosmosEngine engine,
      MasterKeyAuthenticator auth,
      HostCheck hosts,
      java.util.function.Supplier<String> fallbackEndpoint,
      java.util.function.IntSupplier directPort,
      String masterKey) {
    this.engine = engine;
    this.auth = auth;
    this.hosts = hosts;
    this.resolver = new Resolver(engine);
    this.account = new AccountResource(fallbackEndpoint);
    this.databases = new DatabaseResource(engine, resolver);
    this.containers = new ContainerResource(engine, resolver);
    this.documents =
        new DocumentResource(new QueryResource(), new ChangeFeedResource(), new BatchResource());
    this.scripts = new ScriptResource(engine);
    this.offers = new OfferResource(engine);
    this.addresses = new Addresses(directPort, resolver);
    this.tokens = new ResourceTokens(masterKey);
    this.access = new ResourceTokenAccess(resolver);
    this.users = new UserResource(engine, resolver, tokens);
  }

  @Override
  public WireResponse apply(WireRequest request) {
    // the request's priority and throughput bucket hold for everything it admits
    return RequestClass.parse(
            request.header(Headers.PRIORITY_LEVEL), request.header(Headers.THROUGHPUT_BUCKET))
        .during(() -> dispatch(request));
  }

  private WireResponse dispatch(WireRequest request) {
    hosts.check(request.header("host"));
    Permission grant = resourceTokenGrant(request);
    if (isAddressRequest(request.path())) {
      return DirectMode.addresses(request, grant == null ? auth : null, addresses, grant, access);
    }
    if (isPartitionKeyDelete(request.path())) {
      return deleteAllByPartitionKey(request, grant);
    }
    if (grant != null) {
      access.check(request, grant);
    } else if (auth != null) {
      Signatures.check(auth, request, resolver.isRidAddressed(request.path()));
    }
    ResourcePath path = request.path();
    switch (path.kind()) {
      case ACCOUNT -> {
        if (!request.method().equals("GET")) {
          throw methodNotAllowed(request);
        }
        return account.read(request);
      }
      case DATABASES -> {
        return path.isFeed() ? databases.feed(request) : databases.item(request);
      }
      case CONTAINERS -> {
        return path.isFeed() ? containers.feed(request) : containers.item(request);
      }
      case DOCUMENTS -> {
        Container c = resolver.container(path);
        checkIntendedContainer(request, c);
        // documents only: the SDKs read the account's own resources (databases, containers,
        // ranges) with Strong in direct mode, from its master partition, which is always strong
        Requests.checkConsistency(request);
        return path.isFeed() ? documents.feed(request, c) : documents.item(request, c);
      }
      case PARTITION_KEY_RANGES -> {
        if (!path.isFeed() || !request.method().equals("GET")) {
          throw methodNotAllowed(request);
        }
        return ranges.feed(request, resolver.container(path));
      }
      case STORED_PROCEDURES, TRIGGERS, USER_DEFINED_FUNCTIONS -> {
        Container c = resolver.container(path);
        ScriptKind kind = ScriptKind.ofSegment(path.segment(4));
        return path.isFeed() ? scripts.feed(request, c, kind) : scripts.item(request, c, kind);
      }
      case OFFERS -> {
        return path.isFeed() ? offers.feed(request) : offers.item(request);
      }
      case CONFLICTS -> {
        Container c = resolver.container(path);
        if (path.isFeed()
            && (request.method().equals("GET")
                || (request.method().equals("POST") && FeedPost.isQuery(request)))) {
          // A single-region account never has conflicts to report: a read of the feed and any
          // query over it (the SDKs' queryConflicts) get the empty feed, as on the service.
          return Responses.feed(c.rid(), "Conflicts", java.util.List.of(), java.util.Map.of());
        }
        throw CosmosError.NOT_FOUND.exception(
            "conflict '%s' does not exist: a single-region account has none", path.segment(5));
      }
      case USERS -> {
        return users.users(request);
      }
      case PERMISSIONS -> {
        return users.permissions(request);
      }
      case ATTACHMENTS -> {
        throw CosmosError.NOT_SUPPORTED.exception(
            "attachments are not supported by cosmolab (%s %s)", request.method(), path);
      }
      default -> {
        if (path.size() >= 3 && "clientencryptionkeys".equals(path.segment(2))) {
          // Always Encrypted's keys: a 404 here read as a missing database
          throw CosmosError.NOT_SUPPORTED.exception(
              "client encryption keys (Always Encrypted) are not supported by cosmolab yet (%s %s)",
              request.method(), path);
        }
        throw CosmosError.NOT_FOUND.exception(
            "no Cosmos DB resource at %s: paths look like /dbs/{db}/colls/{coll}/docs/{id}", path);
      }
    }
  }

  /**
   * The permission a request's resource token stands for, verified ({@link ResourceTokens}), or
   * null when it carries none (a master-key signature, checked by the caller) or the server runs
   * without authentication.
   */
  private Permission resourceTokenGrant(WireRequest request) {
    if (auth == null) {
      return null;
    }
    String header = request.header(Headers.AUTHORIZATION);
    return ResourceTokens.isResourceToken(header) ? tokens.verify(header, engine) : null;
  }

  /** {@code GET /addresses}: the Java SDK's direct mode asking where a partition's replicas are. */
  private static boolean isAddressRequest(ResourcePath path) {
    return path.size() == 1 && path.segment(0).equals("addresses");
  }

  /** {@code POST /dbs/{db}/colls/{coll}/operations/partitionkeydelete}. */
  private static boolean isPartitionKeyDelete(ResourcePath path) {
    return path.size() == 6
        && path.kind() == ResourcePath.Kind.UNKNOWN
        && "dbs".equals(path.segment(0))
        && "colls".equals(path.segment(2))
        && "operations".equals(path.segment(4))
        && "partitionkeydelete".equalsIgnoreCase(path.segment(5));
  }

  /**
   * The SDKs' {@code deleteAllItemsByPartitionKey}: signed as a container operation ({@code colls}
   * over the container's link, or its lower-cased RID), not over the path it is posted to.
   */
  private WireResponse deleteAllByPartitionKey(WireRequest request, Permission grant) {
    ResourcePath path = request.path();
    ResourcePath container = new ResourcePath(path.segments().subList(0, 4));
    if (grant != null) {
      access.checkPartitionKeyDelete(request, container, grant);
    } else if (auth != null) {
      Signatures.checkSignedAs(auth, request, container, resolver.isRidAddressed(container));
    }
    if (!request.method().equals("POST")) {
      throw methodNotAllowed(request);
    }
    Container c = resolver.container(container);
    io.cosmolab.engine.PartitionKeyDelete.Result r =
        io.cosmolab.engine.PartitionKeyDelete.run(c, Requests.requiredPartitionKey(request));
    return WireResponse.empty(
        200,
        java.util.Map.of(
            Headers.REQUEST_CHARGE, String.format(Locale.ROOT, "%.2f", r.requestCharge())));
  }

  /**
   * The SDKs name the container a document request means by its resource id too ({@code
   * x-ms-cosmos-intended-collection-rid}, from their cache); when the name now names another
   * container (it was deleted and re-created), the service answers 400/1024 and the SDK refreshes
   * its cache and retries, instead of routing by the old container's partitions.
   */
  static void checkIntendedContainer(WireRequest request, Container c) {
    String intended = request.header(Headers.INTENDED_COLLECTION_RID);
    if (intended != null && !intended.isBlank() && !intended.strip().equals(c.rid())) {
      throw CosmosError.INCORRECT_CONTAINER_RID.exception(
          "container '%s' is %s now, not %s: it was deleted and created again; the client's"
              + " cached container is stale (refresh it and retry)",
          c.id(), c.rid(), intended.strip());
    }
  }

  static CosmosException methodNotAllowed(WireRequest request) {
    return CosmosError.METHOD_NOT_ALLOWED.exception(
        "%s is not supported on %s", request.method(), request.path());
  }
}
