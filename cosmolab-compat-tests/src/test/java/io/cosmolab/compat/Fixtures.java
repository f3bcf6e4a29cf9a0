package io.cosmolab.compat;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.CompositePath;
import com.azure.cosmos.models.CompositePathSortOrder;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.PartitionKeyDefinition;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.cosmos.models.PartitionKind;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/** Shared data and container shapes for the compatibility tests. */
final class Fixtures {
  private Fixtures() {}

  static final String[] GROUPS = {"alpha", "beta", "gamma", "delta"};

  /**
   * A container with the given key paths and a physical-partition count fixed by throughput (6,000
   * RU/s per partition at creation), with the composite indexes multi-key ORDER BY needs.
   */
  static CosmosContainer container(CosmosDatabase db, String id, int partitions, String... paths) {
    PartitionKeyDefinition key = new PartitionKeyDefinition();
    key.setPaths(Arrays.asList(paths));
    key.setKind(paths.length == 1 ? PartitionKind.HASH : PartitionKind.MULTI_HASH);
    key.setVersion(PartitionKeyDefinitionVersion.V2);
    CosmosContainerProperties props = new CosmosContainerProperties(id, key);
    IndexingPolicy policy = new IndexingPolicy();
    policy.setCompositeIndexes(
        List.of(
            List.of(
                composite("/n", CompositePathSortOrder.ASCENDING),
                composite("/id", CompositePathSortOrder.ASCENDING)),
            List.of(
                composite("/grp", CompositePathSortOrder.ASCENDING),
                composite("/n", CompositePathSortOrder.DESCENDING),
                composite("/id", CompositePathSortOrder.ASCENDING))));
    props.setIndexingPolicy(policy);
    db.createContainer(props, ThroughputProperties.createManualThroughput(partitions * 6000));
    return db.getContainer(id);
  }

  private static CompositePath composite(String path, CompositePathSortOrder order) {
    CompositePath p = new CompositePath();
    p.setPath(path);
    p.setOrder(order);
    return p;
  }

  /**
   * Creates the documents in bulk, each under the key {@code key} gives it; all must answer 201.
   */
  static void createAll(
      CosmosContainer c,
      List<ObjectNode> docs,
      java.util.function.Function<ObjectNode, com.azure.cosmos.models.PartitionKey> key) {
    List<com.azure.cosmos.models.CosmosItemOperation> ops = new java.util.ArrayList<>();
    for (ObjectNode d : docs) {
      ops.add(com.azure.cosmos.models.CosmosBulkOperations.getCreateItemOperation(d, key.apply(d)));
    }
    c.executeBulkOperations(ops)
        .forEach(
            r ->
                org.assertj.core.api.Assertions.assertThat(r.getResponse().getStatusCode())
                    .isEqualTo(201));
  }

  /** Creates the documents in bulk under their {@code pk} property. */
  static void createAll(CosmosContainer c, List<ObjectNode> docs) {
    createAll(c, docs, d -> new com.azure.cosmos.models.PartitionKey(d.get("pk").asText()));
  }

  /** {@code count} documents with tenant/user/session keys, numbers, groups and tags. */
  static List<ObjectNode> documents(int count, long seed) {
    Random random = new Random(seed);
    List<ObjectNode> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ObjectNode d = JsonNodeFactory.instance.objectNode();
      d.put("id", String.format("doc-%04d", i));
      d.put("pk", "p" + (i % 13));
      d.put("tenant", "t" + (i % 3));
      d.put("user", "u" + (i % 7));
      d.put("session", "s" + (i % 5));
      d.put("n", random.nextInt(50));
      d.put("grp", GROUPS[random.nextInt(GROUPS.length)]);
      // Distinct for i < 10007, so ORDER BY price has no ties to break.
      d.put("price", (i * 7919L % 10007) / 100.0);
      var tags = d.putArray("tags");
      for (int t = 0; t < random.nextInt(3); t++) {
        tags.add(random.nextBoolean() ? "x" : "y" + random.nextInt(3));
      }
      out.add(d);
    }
    return out;
  }

  /** The documents' ids, in order. */
  static List<String> ids(List<ObjectNode> docs) {
    return docs.stream().map(d -> d.get("id").asText()).toList();
  }

  /** Splits every physical partition of the container (engine side) at its midpoint. */
  static void splitAll(io.cosmolab.engine.Container engine) {
    for (var r : engine.routing().ranges()) {
      engine.splitPartition(r.id());
    }
  }

  /**
   * Merges the physical partitions at positions {@code first} and {@code first + 1} (engine side).
   */
  static void mergeAt(io.cosmolab.engine.Container engine, int first) {
    var ranges = engine.routing().ranges();
    engine.mergePartitions(ranges.get(first).id(), ranges.get(first + 1).id());
  }

  /** Rows with system properties removed, sorted by their JSON text: for order-free comparison. */
  static List<String> multiset(List<JsonNode> rows) {
    return rows.stream().map(Fixtures::withoutSystem).map(JsonNode::toString).sorted().toList();
  }

  /** Rows with system properties removed, in order. */
  static List<String> sequence(List<JsonNode> rows) {
    return rows.stream().map(Fixtures::withoutSystem).map(JsonNode::toString).toList();
  }

  static JsonNode withoutSystem(JsonNode row) {
    if (!row.isObject()) {
      return row;
    }
    ObjectNode copy = ((ObjectNode) row).deepCopy();
    copy.remove(List.of("_rid", "_self", "_etag", "_ts", "_attachments", "_lsn"));
    return copy;
  }

  static final Comparator<JsonNode> BY_ID = Comparator.comparing(n -> n.path("id").asText());
}
