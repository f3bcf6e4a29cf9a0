package io.cosmolab.gateway.resources;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.Container;
import io.cosmolab.engine.Database;
import java.util.zip.CRC32;

/**
 * The wire form of databases and containers, with the system properties the SDKs read ({@code
 * gateway-protocol.md} §3.2). The {@code _self} links are RID-based: the Java SDK builds its
 * partition-key-range URL from the container's.
 */
final class ResourceJson {
  private ResourceJson() {}

  static ObjectNode database(Database db) {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("id", db.id());
    n.put("_rid", db.rid());
    n.put("_self", "dbs/" + db.rid() + "/");
    n.put("_ts", db.createdMillis() / 1000);
    n.put("_colls", "colls/");
    n.put("_users", "users/");
    n.put("_etag", etagOf(n));
    return n;
  }

  static ObjectNode container(Container c) {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("id", c.id());
    ObjectNode stored = c.storedProperties();
    ObjectNode indexing = c.indexingPolicy().toJson();
    if (stored.get("indexingPolicy") instanceof ObjectNode keptIndexing) {
      indexing.setAll(keptIndexing);
    }
    n.set("indexingPolicy", indexing);
    ObjectNode key = c.partitionKey().toJson();
    if (stored.get("partitionKey") instanceof ObjectNode keptKey) {
      key.setAll(keptKey);
    }
    n.set("partitionKey", key);
    Integer ttl = c.defaultTimeToLive();
    if (ttl != null) {
      n.put("defaultTtl", ttl);
    }
    if (c.changeFeedRetentionMinutes() != null) {
      n.putObject("changeFeedPolicy").put("retentionDuration", c.changeFeedRetentionMinutes());
    }
    com.fasterxml.jackson.databind.node.ArrayNode unique =
        n.putObject("uniqueKeyPolicy").putArray("uniqueKeys");
    for (java.util.List<String> k : c.uniqueKeys()) {
      k.forEach(unique.addObject().putArray("paths")::add);
    }
    if (stored.has("conflictResolutionPolicy")) {
      n.set("conflictResolutionPolicy", stored.get("conflictResolutionPolicy"));
    } else {
      ObjectNode conflicts = n.putObject("conflictResolutionPolicy");
      conflicts.put("mode", "LastWriterWins");
      conflicts.put("conflictResolutionPath", "/_ts");
      conflicts.put("conflictResolutionProcedure", "");
    }
    if (stored.has("geospatialConfig")) {
      n.set("geospatialConfig", stored.get("geospatialConfig"));
    } else {
      n.putObject("geospatialConfig").put("type", "Geography");
    }
    for (String name :
        java.util.List.of(
            "computedProperties",
            "analyticalStorageTtl",
            "vectorEmbeddingPolicy",
            "fullTextPolicy")) {
      if (stored.has(name)) {
        n.set(name, stored.get(name));
      }
    }
    n.put("_rid", c.rid());
    n.put("_ts", c.createdMillis() / 1000);
    n.put("_self", c.selfLink());
    n.put("_docs", "docs/");
    n.put("_sprocs", "sprocs/");
    n.put("_triggers", "triggers/");
    n.put("_udfs", "udfs/");
    n.put("_conflicts", "conflicts/");
    n.put("_etag", etagOf(n));
    return n;
  }

  static ObjectNode user(io.cosmolab.engine.User u) {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("id", u.id());
    n.put("_rid", u.rid());
    n.put("_ts", u.modifiedMillis() / 1000);
    n.put("_self", u.selfLink());
    n.put("_etag", u.etag());
    n.put("_permissions", "permissions/");
    return n;
  }

  /** A permission, with a resource token just issued for it. */
  static ObjectNode permission(io.cosmolab.engine.Permission p, String token) {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("id", p.id());
    n.put("permissionMode", p.modeText());
    n.put("resource", p.resource());
    p.partitionKey().ifPresent(k -> n.set("resourcePartitionKey", k.toJson()));
    n.put("_rid", p.rid());
    n.put("_ts", p.modifiedMillis() / 1000);
    n.put("_self", p.selfLink());
    n.put("_etag", p.etag());
    n.put("_token", token);
    return n;
  }

  /** A quoted etag that changes whenever the resource's properties do. */
  static String etagOf(ObjectNode resource) {
    CRC32 crc = new CRC32();
    crc.update(io.cosmolab.engine.document.JsonTrees.write(resource)); // not toString(): no mapper
    return "\"00000000-0000-0000-0000-" + String.format("%012x", crc.getValue()) + "\"";
  }
}
