package io.cosmolab.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.index.IndexingPolicy;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.routing.RoutingMap;
import io.cosmolab.engine.script.ScriptKind;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.throughput.ThroughputBuckets;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine's metadata as one JSON document, which a durable store keeps beside the documents:
 * what a restart needs to rebuild every database and container with the same RIDs, settings,
 * throughput and partition layout. Documents, LSNs and usage are not in it; they are rebuilt from
 * the store's documents and change log.
 *
 * <pre>
 * {"format": 1,
 *  "databases": [{"id", "ordinal", "createdMillis", "sharedThroughput": T|null,
 *    "containers": [{"id", "ordinal", "createdMillis", "partitionKey", "indexingPolicy",
 *      "defaultTtl", "changeFeedRetentionMinutes", "throughput": T|null, "maxEverProvisioned",
 *      "throughputBuckets": [{"id", "maxThroughputPercentage", "isDefaultBucket"}] (when any),
 *      "uniqueKeys": [["/path", ...], ...], "storedProperties": {...},
 *      "routing": {"version", "nextId", "ranges": [{"id", "min", "max", "parents"}]},
 *      "scripts": {"sprocs": [...], "triggers": [...], "udfs": [...]}}],
 *    "users": [{"id", "ordinal", "revision", "modifiedMillis",
 *      "permissions": [{"id", "ordinal", "mode", "resource", "containerRid", "childType",
 *        "childId", "partitionKey": [...]|null, "revision", "modifiedMillis"}]}]}]}
 * T = {"kind": "manual", "ru": n} | {"kind": "autoscale", "max": n}
 * </pre>
 *
 * Written whole after every metadata change (creating or deleting a database or container, changing
 * throughput or time to live, a split or merge, a script change, a user or permission change):
 * these are rare next to document writes, and a whole document can never be half-applied.
 */
final class Catalog {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int FORMAT = 1;

  private Catalog() {}

  static String write(CosmosEngine engine) {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    root.put("format", FORMAT);
    ArrayNode dbs = root.putArray("databases");
    for (Database db : engine.databases()) {
      ObjectNode d = dbs.addObject();
      d.put("id", db.id());
      d.put("ordinal", db.ordinal());
      d.put("createdMillis", db.createdMillis());
      d.set("sharedThroughput", throughput(db.sharedThroughput().orElse(null)));
      ArrayNode cs = d.putArray("containers");
      for (Container c : db.containers()) {
        ObjectNode o = cs.addObject();
        o.put("id", c.id());
        o.put("ordinal", c.ordinal());
        o.put("createdMillis", c.createdMillis());
        o.set("partitionKey", c.partitionKey().toJson());
        o.set("indexingPolicy", c.indexingPolicy().toJson());
        ArrayNode unique = o.putArray("uniqueKeys");
        for (List<String> key : c.uniqueKeys()) {
          key.forEach(unique.addArray()::add);
        }
        o.set("storedProperties", c.storedProperties());
        if (c.defaultTimeToLive() != null) {
          o.put("defaultTtl", c.defaultTimeToLive());
        }
        if (c.changeFeedRetentionMinutes() != null) {
          o.put("changeFeedRetentionMinutes", c.changeFeedRetentionMinutes());
        }
        o.set("throughput", throughput(c.throughput().orElse(null)));
        o.put("maxEverProvisioned", c.maxEverProvisioned());
        if (!c.throughputBuckets().isEmpty()) {
          o.set("throughputBuckets", c.throughputBuckets().toJson());
        }
        RoutingMap map = c.routing();
        ObjectNode r = o.putObject("routing");
        r.put("version", map.version());
        r.put("nextId", map.nextId());
        ArrayNode ranges = r.putArray("ranges");
        for (PartitionKeyRange pk : map.ranges()) {
          ObjectNode x = ranges.addObject();
          x.put("id", pk.id());
          x.put("min", pk.range().min());
          x.put("max", pk.range().max());
          pk.parents().forEach(x.putArray("parents")::add);
        }
        ObjectNode scripts = o.putObject("scripts");
        for (ScriptKind k : ScriptKind.values()) {
          c.scripts().list(k).forEach(scripts.putArray(k.segment())::add);
        }
      }
      ArrayNode us = d.putArray("users");
      for (User u : db.users()) {
        ObjectNode o = us.addObject();
        o.put("id", u.id());
        o.put("ordinal", u.ordinal());
        o.put("revision", u.revision());
        o.put("modifiedMillis", u.modifiedMillis());
        ArrayNode ps = o.putArray("permissions");
        for (Permission p : u.permissions()) {
          ObjectNode x = ps.addObject();
          x.put("id", p.id());
          x.put("ordinal", p.ordinal());
          x.put("mode", p.modeText());
          x.put("resource", p.resource());
          x.put("containerRid", p.containerRid());
          x.put("childType", p.childType().orElse(null));
          x.put("childId", p.childId().orElse(null));
          x.set("partitionKey", p.partitionKey().map(k -> (JsonNode) k.toJson()).orElse(null));
          x.put("revision", p.revision());
          x.put("modifiedMillis", p.modifiedMillis());
        }
      }
    }
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the catalog could not be serialized", e);
    }
  }

  static void restore(CosmosEngine engine, String text) {
    JsonNode root;
    try {
      root = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(
          "the stored catalog is not JSON ("
              + e.getOriginalMessage()
              + "); the data directory"
              + " is damaged",
          e);
    }
    if (root.path("format").asInt() != FORMAT) {
      throw new IllegalStateException(
          "the stored catalog has format "
              + root.path("format")
              + "; this cosmolab reads format "
              + FORMAT);
    }
    for (JsonNode d : root.path("databases")) {
      Database db =
          engine.restoreDatabase(
              d.get("id").textValue(),
              d.get("ordinal").intValue(),
              throughput(d.get("sharedThroughput")),
              d.get("createdMillis").longValue());
      for (JsonNode c : d.path("containers")) {
        ContainerSettings settings =
            ContainerSettings.of(
                    c.get("id").textValue(), PartitionKeyDefinition.fromJson(c.get("partitionKey")))
                .withIndexingPolicy(IndexingPolicy.fromJson(c.get("indexingPolicy")))
                .withUniqueKeys(uniqueKeys(c.get("uniqueKeys")))
                .withStoredProperties(
                    c.get("storedProperties") instanceof ObjectNode props ? props : null)
                .withDefaultTimeToLive(
                    c.hasNonNull("defaultTtl") ? c.get("defaultTtl").intValue() : null)
                .withChangeFeedRetentionMinutes(
                    c.hasNonNull("changeFeedRetentionMinutes")
                        ? c.get("changeFeedRetentionMinutes").intValue()
                        : null);
        List<PartitionKeyRange> ranges = new ArrayList<>();
        for (JsonNode x : c.path("routing").path("ranges")) {
          List<String> parents = new ArrayList<>();
          x.path("parents").forEach(p -> parents.add(p.textValue()));
          ranges.add(
              new PartitionKeyRange(
                  x.get("id").textValue(),
                  new EpkRange(x.get("min").textValue(), x.get("max").textValue()),
                  parents));
        }
        RoutingMap map =
            new RoutingMap(
                ranges,
                c.path("routing").path("version").longValue(),
                c.path("routing").path("nextId").intValue());
        int ordinal = c.get("ordinal").intValue();
        engine.reserveOrdinal(ordinal);
        Container container =
            db.restoreContainer(
                settings,
                throughput(c.get("throughput")),
                ordinal,
                new Container.Restored(
                    c.get("createdMillis").longValue(),
                    map,
                    c.path("maxEverProvisioned").asDouble(),
                    ThroughputBuckets.fromJson(c.get("throughputBuckets"))));
        for (ScriptKind k : ScriptKind.values()) {
          for (JsonNode script : c.path("scripts").path(k.segment())) {
            container.scripts().restore(k, (ObjectNode) script);
          }
        }
      }
      for (JsonNode u : d.path("users")) {
        int ordinal = u.get("ordinal").intValue();
        engine.reserveOrdinal(ordinal);
        User user =
            db.restoreUser(
                u.get("id").textValue(),
                ordinal,
                u.path("revision").asLong(1),
                u.path("modifiedMillis").asLong());
        for (JsonNode p : u.path("permissions")) {
          int permissionOrdinal = p.get("ordinal").intValue();
          engine.reserveOrdinal(permissionOrdinal);
          JsonNode key = p.get("partitionKey");
          user.restore(
              p.get("id").textValue(),
              permissionOrdinal,
              p.get("mode").textValue(),
              p.get("resource").textValue(),
              new Permission.Scope(
                  p.get("containerRid").textValue(),
                  p.path("childType").textValue(),
                  p.path("childId").textValue(),
                  key == null || key.isNull() ? null : PartitionKeyValue.fromJson(key)),
              p.path("revision").asLong(1),
              p.path("modifiedMillis").asLong());
        }
      }
    }
  }

  private static JsonNode throughput(Throughput t) {
    if (t == null) {
      return JsonNodeFactory.instance.nullNode();
    }
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    if (t instanceof Throughput.Autoscale a) {
      n.put("kind", "autoscale");
      n.put("max", a.maxRu());
    } else {
      n.put("kind", "manual");
      n.put("ru", t.maxRuPerSecond());
    }
    return n;
  }

  private static Throughput throughput(JsonNode n) {
    if (n == null || n.isNull()) {
      return null;
    }
    return n.path("kind").asText().equals("autoscale")
        ? new Throughput.Autoscale(n.get("max").asDouble())
        : new Throughput.Manual(n.get("ru").asDouble());
  }

  private static List<List<String>> uniqueKeys(JsonNode keys) {
    List<List<String>> out = new ArrayList<>();
    if (keys != null) {
      for (JsonNode key : keys) {
        List<String> paths = new ArrayList<>();
        key.forEach(p -> paths.add(p.textValue()));
        out.add(paths);
      }
    }
    return out;
  }
}
