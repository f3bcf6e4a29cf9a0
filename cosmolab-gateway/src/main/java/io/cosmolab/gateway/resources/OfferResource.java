package io.cosmolab.gateway.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.Database;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.throughput.ThroughputBuckets;
import io.cosmolab.gateway.wire.FeedPost;
import io.cosmolab.gateway.wire.Headers;
import io.cosmolab.gateway.wire.WireRequest;
import io.cosmolab.gateway.wire.WireResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code /offers[/{id}]}: throughput as the SDKs read and change it. Every database with shared
 * throughput and every container with dedicated throughput has one offer. {@code readThroughput}
 * queries the feed by {@code offerResourceId}; {@code replaceThroughput} PUTs the offer with new
 * content, and raising a container past P × 10,000 RU/s splits its partitions at once, by the
 * engine's rules.
 *
 * <p>An offer's id is a short RID derived from its resource's RID (the first three bytes of a
 * SHA-256, Base64), so it is stable across restarts without being stored; the rare collision is
 * resolved by probing in RID order.
 */
final class OfferResource {
  private final CosmosEngine engine;

  OfferResource(CosmosEngine engine) {
    this.engine = engine;
  }

  /** One offer and what it governs. */
  private record Offer(String id, Database database, Container container) {
    Throughput throughput() {
      return container != null
          ? container.throughput().orElseThrow()
          : database.sharedThroughput().orElseThrow();
    }

    String resourceRid() {
      return container != null ? container.rid() : database.rid();
    }

    String resourceSelf() {
      return container != null ? container.selfLink() : "dbs/" + database.rid() + "/";
    }

    double minimum() {
      return (container != null
              ? container.minimumThroughput()
              : database.minimumSharedThroughput())
          .orElse(0.0);
    }
  }

  WireResponse feed(WireRequest request) {
    List<ObjectNode> all = new ArrayList<>();
    for (Offer o : offers()) {
      all.add(json(o));
    }
    all.sort(Responses.BY_ID);
    switch (request.method()) {
      case "GET" -> {
        return Responses.pagedFeed(request, "", "Offers", all);
      }
      case "POST" -> {
        if (!FeedPost.isQuery(request)) {
          throw CosmosError.BAD_REQUEST.exception(
              "offers are created with their database or container; POST /offers only queries");
        }
        List<JsonNode> rows =
            MetadataQuery.run(Requests.queryText(request), all, engine.clock().instant());
        return Responses.pagedFeed(request, "", "Offers", rows);
      }
      default -> {
        throw Protocol.methodNotAllowed(request);
      }
    }
  }

  WireResponse item(WireRequest request) {
    String id = request.path().segment(1);
    Offer offer =
        find(id)
            .orElseThrow(
                () ->
                    CosmosError.NOT_FOUND.exception(
                        "Entity with the specified id does not exist in the system: offer '%s'",
                        id));
    switch (request.method()) {
      case "GET" -> {
        return respond(offer);
      }
      case "PUT" -> {
        ObjectNode body = Requests.object(request);
        Boolean toAutoscale = migration(request, body);
        if (toAutoscale != null) {
          if (offer.container() != null) {
            offer.container().migrateThroughput(toAutoscale);
          } else {
            offer.database().migrateSharedThroughput(toAutoscale);
          }
          return respond(offer);
        }
        Throughput t = Requests.inIncrements(throughputOf(body), engine.limits());
        if (!t.kind().equals(offer.throughput().kind())) {
          throw CosmosError.BAD_REQUEST.exception(
              t instanceof Throughput.Autoscale
                  ? TO_AUTOSCALE_BY_MIGRATION
                  : TO_MANUAL_BY_MIGRATION);
        }
        JsonNode buckets = body.path("content").get("throughputBuckets");
        if (offer.container() != null) {
          // absent: the buckets stay as they are (a client that read the offer sends them back)
          offer
              .container()
              .replaceThroughput(t, buckets == null ? null : ThroughputBuckets.fromJson(buckets));
        } else if (buckets != null && !buckets.isEmpty()) {
          throw CosmosError.BAD_REQUEST.exception(
              "throughput buckets divide a container's own throughput; database '%s' shares its"
                  + " throughput, and cosmolab does not divide a database's",
              offer.database().id());
        } else {
          offer.database().replaceSharedThroughput(t);
        }
        return respond(offer);
      }
      default -> {
        throw Protocol.methodNotAllowed(request);
      }
    }
  }

  // the service's answers to a plain replace that changes the kind, or a malformed migration
  // (azure-cosmos-dotnet-v3#1856 and #3147, azure-cosmos-throughput-scheduler#14)
  private static final String TO_AUTOSCALE_BY_MIGRATION =
      "x-ms-cosmos-migrate-offer-to-autopilot must be supplied and offercontent must not contain"
          + " autopilotSettings for migration from manual throughput to autoscale.";
  private static final String TO_MANUAL_BY_MIGRATION =
      "x-ms-cosmos-migrate-offer-to-manual-throughput must be supplied and offercontent must"
          + " contain autopilotSettings for migration of autoscale collection to manual throughput";

  /**
   * The migration the PUT asks for, or null for a plain replace. The service's migration request
   * switches the offer between manual and autoscale at a value the service chooses: {@code
   * x-ms-cosmos-migrate-offer-to-autopilot: true} with content without autoscale settings (true),
   * or {@code x-ms-cosmos-migrate-offer-to-manual-throughput: true} with content that has them, as
   * read (false). Other content is the service's 400; so is a migration to the kind the offer is
   * already (the engine checks that, one migration at a time).
   */
  private static Boolean migration(WireRequest request, ObjectNode body) {
    boolean toAutoscale = "true".equalsIgnoreCase(request.header(Headers.MIGRATE_TO_AUTOSCALE));
    boolean toManual = "true".equalsIgnoreCase(request.header(Headers.MIGRATE_TO_MANUAL));
    if (!toAutoscale && !toManual) {
      return null;
    }
    if (toAutoscale && toManual) {
      throw CosmosError.BAD_REQUEST.exception(
          "%s and %s ask for opposite migrations; send one",
          Headers.MIGRATE_TO_AUTOSCALE, Headers.MIGRATE_TO_MANUAL);
    }
    boolean hasAutoscaleSettings =
        body.path("content").path("offerAutopilotSettings").path("maxThroughput").isNumber();
    if (toAutoscale && hasAutoscaleSettings) {
      throw CosmosError.BAD_REQUEST.exception(TO_AUTOSCALE_BY_MIGRATION);
    }
    if (toManual && !hasAutoscaleSettings) {
      throw CosmosError.BAD_REQUEST.exception(TO_MANUAL_BY_MIGRATION);
    }
    return toAutoscale;
  }

  private static WireResponse respond(Offer offer) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put(Headers.MIN_THROUGHPUT, Long.toString((long) Math.ceil(offer.minimum())));
    h.put(Headers.OFFER_REPLACE_PENDING, "false");
    return Responses.resource(200, json(offer), h);
  }

  private static Throughput throughputOf(ObjectNode offer) {
    JsonNode content = offer.path("content");
    Requests.refuseAutoUpgrade(content.path("offerAutopilotSettings"));
    JsonNode auto = content.path("offerAutopilotSettings").path("maxThroughput");
    if (auto.isNumber() && auto.asDouble() > 0) {
      return new Throughput.Autoscale(auto.asDouble());
    }
    JsonNode manual = content.path("offerThroughput");
    if (manual.isNumber()) {
      return new Throughput.Manual(manual.asDouble());
    }
    throw CosmosError.BAD_REQUEST.exception(
        "an offer needs content.offerThroughput (manual RU/s) or"
            + " content.offerAutopilotSettings.maxThroughput (autoscale)");
  }

  private static ObjectNode json(Offer o) {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("id", o.id());
    n.put("_rid", o.id());
    n.put("_self", "offers/" + o.id() + "/");
    n.put("offerVersion", "V2");
    n.put("offerType", "Invalid");
    n.put("resource", o.resourceSelf());
    n.put("offerResourceId", o.resourceRid());
    ObjectNode content = n.putObject("content");
    Throughput t = o.throughput();
    if (t instanceof Throughput.Autoscale a) {
      content.put("offerThroughput", (long) a.floor());
      content.putObject("offerAutopilotSettings").put("maxThroughput", (long) a.maxRu());
    } else {
      content.put("offerThroughput", (long) t.maxRuPerSecond());
    }
    content.put("offerIsRUPerMinuteThroughputEnabled", false);
    if (o.container() != null && !o.container().throughputBuckets().isEmpty()) {
      content.set("throughputBuckets", o.container().throughputBuckets().toJson());
    }
    content
        .putObject("offerMinimumThroughputParameters")
        .put(
            "maxThroughputEverProvisioned",
            (long)
                Math.max(
                    t.maxRuPerSecond(),
                    o.container() != null
                        ? o.container().maxThroughputEverProvisioned()
                        : o.database().maxSharedThroughputEverProvisioned()));
    n.put(
        "_ts",
        (o.container() != null ? o.container().createdMillis() : o.database().createdMillis())
            / 1000);
    n.put("_etag", ResourceJson.etagOf(n));
    return n;
  }

  private Optional<Offer> find(String id) {
    return offers().stream().filter(o -> o.id().equals(id)).findFirst();
  }

  private List<Offer> offers() {
    List<Offer> out = new ArrayList<>();
    Set<String> taken = new HashSet<>();
    for (Database d : engine.databases()) {
      if (d.sharedThroughput().isPresent()) {
        out.add(new Offer(idFor(d.rid(), taken), d, null));
      }
      for (Container c : d.containers()) {
        if (c.throughput().isPresent()) {
          out.add(new Offer(idFor(c.rid(), taken), d, c));
        }
      }
    }
    return out;
  }

  private static String idFor(String resourceRid, Set<String> taken) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      byte[] digest = sha.digest(resourceRid.getBytes(StandardCharsets.UTF_8));
      for (int i = 0; i + 3 <= digest.length; i++) {
        String id =
            Base64.getEncoder()
                .encodeToString(new byte[] {digest[i], digest[i + 1], digest[i + 2]})
                .replace('/', '-');
        if (taken.add(id)) {
          return id;
        }
      }
      throw new IllegalStateException("no free offer id for " + resourceRid);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
