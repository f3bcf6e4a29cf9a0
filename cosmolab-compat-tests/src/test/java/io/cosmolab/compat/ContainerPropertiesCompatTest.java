package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.ComputedProperty;
import com.azure.cosmos.models.ConflictResolutionPolicy;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosContainerResponse;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.ExcludedPath;
import com.azure.cosmos.models.IncludedPath;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.SpatialSpec;
import com.azure.cosmos.models.SpatialType;
import com.azure.cosmos.models.ThroughputProperties;
import com.azure.cosmos.models.UniqueKey;
import com.azure.cosmos.models.UniqueKeyPolicy;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.testkit.CosmosLabExtension;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Container properties through the Java SDK, on 1 and 8 physical partitions: each is applied, kept
 * and echoed as sent, or refused naming it, never silently dropped.
 */
@ExtendWith(CosmosLabExtension.class)
class ContainerPropertiesCompatTest {

  private static CosmosContainer create(
      CosmosClient client, String id, int partitions, CosmosContainerProperties props) {
    client.createDatabaseIfNotExists("props");
    CosmosDatabase db = client.getDatabase("props");
    db.createContainer(props, ThroughputProperties.createManualThroughput(partitions * 6000));
    return db.getContainer(id);
  }

  private static ObjectNode doc(String id, String pk, String email) {
    ObjectNode d = JsonNodeFactory.instance.objectNode().put("id", id).put("pk", pk);
    return email == null ? d : d.put("email", email);
  }

  @org.junit.jupiter.api.Test
  void quotaInfo_onAContainerRead_saysHowFullItIs_inTheServicesPairedFormat() {
    CosmosContainer c = create(client, "quota", 2, new CosmosContainerProperties("quota", "/pk"));
    for (int i = 0; i < 12; i++) {
      c.createItem(doc("q" + i, "p" + (i % 3), null));
    }
    c.getScripts()
        .createStoredProcedure(
            new com.azure.cosmos.models.CosmosStoredProcedureProperties(
                "noop", "function () { getContext().getResponse().setBody(1); }"));
    var response =
        c.read(
            new com.azure.cosmos.models.CosmosContainerRequestOptions().setQuotaInfoEnabled(true));
    // 2 physical partitions of 50 GB each, in KB; no limit on the count
    assertThat(response.getMaxResourceQuota())
        .isEqualTo(
            "functions=25;storedProcedures=100;triggers=25;documentSize=102400;"
                + "documentsSize=104857600;documentsCount=-1;collectionSize=104857600;");
    assertThat(response.getCurrentResourceQuotaUsage())
        .startsWith("functions=0;storedProcedures=1;triggers=0;documentSize=0;documentsSize=")
        .contains(";documentsCount=12;collectionSize=");
    // without the option, none
    assertThat(c.read().getMaxResourceQuota()).isNullOrEmpty();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 8})
  void uniqueKeys_areEnforcedPerLogicalPartition_echoed_andImmutable(int partitions) {
    CosmosContainerProperties props = new CosmosContainerProperties("unique" + partitions, "/pk");
    props.setUniqueKeyPolicy(
        new UniqueKeyPolicy().setUniqueKeys(List.of(new UniqueKey(List.of("/email")))));
    CosmosContainer c = create(client, "unique" + partitions, partitions, props);

    c.createItem(doc("a", "p1", "x@example.com"));
    assertThatThrownBy(() -> c.createItem(doc("b", "p1", "x@example.com")))
        .isInstanceOfSatisfying(
            CosmosException.class,
            e -> {
              assertThat(e.getStatusCode()).isEqualTo(409);
              assertThat(e.getSubStatusCode()).isZero();
            })
        .hasMessageContaining("Unique index constraint violation.");
    // another logical partition may hold the same value
    c.createItem(doc("b", "p2", "x@example.com"));
    // a document may keep its own value; upsert into another's is a conflict too
    c.upsertItem(doc("a", "p1", "x@example.com"));
    c.createItem(doc("c", "p1", "y@example.com"));
    assertThatThrownBy(() -> c.upsertItem(doc("c", "p1", "x@example.com")))
        .isInstanceOfSatisfying(
            CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(409));
    // a missing value counts as null: one document may lack it
    c.createItem(doc("d", "p1", null));
    assertThatThrownBy(() -> c.createItem(doc("e", "p1", null)))
        .isInstanceOfSatisfying(
            CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(409));
    // the value is free again once its document is gone
    c.deleteItem("a", new PartitionKey("p1"), null);
    c.createItem(doc("f", "p1", "x@example.com"));

    CosmosContainerProperties read = c.read().getProperties();
    assertThat(read.getUniqueKeyPolicy().getUniqueKeys()).hasSize(1);
    assertThat(read.getUniqueKeyPolicy().getUniqueKeys().get(0).getPaths())
        .containsExactly("/email");
    read.setUniqueKeyPolicy(
        new UniqueKeyPolicy().setUniqueKeys(List.of(new UniqueKey(List.of("/other")))));
    assertThatThrownBy(() -> c.replace(read))
        .isInstanceOfSatisfying(
            CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(400))
        .hasMessageContaining("unique key policy");
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 8})
  void propertiesWithoutEffectHere_areKeptAndEchoedAsSent(int partitions) {
    String id = "kept" + partitions;
    CosmosContainerProperties props = new CosmosContainerProperties(id, "/pk");
    props.setConflictResolutionPolicy(
        ConflictResolutionPolicy.createLastWriterWinsPolicy("/updatedAt"));
    props.setAnalyticalStoreTimeToLiveInSeconds(-1);
    IndexingPolicy policy = new IndexingPolicy();
    policy.setAutomatic(false);
    policy.setIncludedPaths(List.of(new IncludedPath("/*")));
    SpatialSpec spatial = new SpatialSpec();
    spatial.setPath("/location/*");
    spatial.setSpatialTypes(List.of(SpatialType.POINT, SpatialType.POLYGON));
    policy.setSpatialIndexes(List.of(spatial));
    props.setIndexingPolicy(policy);
    CosmosContainer c = create(client, id, partitions, props);

    CosmosContainerProperties read = c.read().getProperties();
    assertThat(read.getConflictResolutionPolicy().getConflictResolutionPath())
        .isEqualTo("/updatedAt");
    assertThat(read.getAnalyticalStoreTimeToLiveInSeconds()).isEqualTo(-1);
    assertThat(read.getIndexingPolicy().isAutomatic()).isFalse();
    assertThat(read.getIndexingPolicy().getSpatialIndexes()).hasSize(1);
    assertThat(read.getIndexingPolicy().getSpatialIndexes().get(0).getPath())
        .isEqualTo("/location/*");
    // every spatial type comes back, whichever the index was made with, as the service answers
    // (the .NET SDK's ContainerContractTest: "All SpatialTypes are returned")
    assertThat(read.getIndexingPolicy().getSpatialIndexes().get(0).getSpatialTypes())
        .containsExactly(
            SpatialType.POINT,
            SpatialType.LINE_STRING,
            SpatialType.POLYGON,
            SpatialType.MULTI_POLYGON);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 8})
  void replacingTheIndexingPolicy_appliesIt_andReportsTheTransformationDone(int partitions) {
    String id = "reindexed" + partitions;
    CosmosContainer c = create(client, id, partitions, new CosmosContainerProperties(id, "/pk"));
    for (int i = 0; i < 10; i++) {
      c.createItem(doc("d" + i, "p" + i, null).put("n", i));
    }
    String query = "SELECT VALUE c.id FROM c ORDER BY c.n";
    assertThat(c.queryItems(query, new CosmosQueryRequestOptions(), String.class).stream())
        .hasSize(10);

    CosmosContainerProperties props = c.read().getProperties();
    IndexingPolicy policy = props.getIndexingPolicy();
    policy.setExcludedPaths(List.of(new ExcludedPath("/n/?"), new ExcludedPath("/\"_etag\"/?")));
    props.setIndexingPolicy(policy);
    CosmosContainerResponse replaced = c.replace(props);
    assertThat(replaced.getStatusCode()).isEqualTo(200);
    assertThat(replaced.getIndexTransformationProgress()).isEqualTo(100);
    assertThat(c.read().getProperties().getIndexingPolicy().getExcludedPaths())
        .extracting(ExcludedPath::getPath)
        .contains("/n/?");
    // the new policy serves queries at once: ORDER BY on an excluded path is refused, as there
    // (on 8 partitions the SDK gathers each range's 400 into one composite exception)
    assertThatThrownBy(
            () ->
                c.queryItems(query, new CosmosQueryRequestOptions(), String.class).stream().count())
        .hasStackTraceContaining("requires a range index");
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 8})
  void computedProperties_areEchoed_readByQueriesInEveryClause_andLeftOutOfSelectStar(
      int partitions) {
    String id = "computed" + partitions;
    CosmosContainerProperties props = new CosmosContainerProperties(id, "/pk");
    props.setComputedProperties(
        List.of(
            new ComputedProperty("cp_lower", "SELECT VALUE LOWER(c.name) FROM c"),
            new ComputedProperty("cp_total", "SELECT VALUE r.price * r.quantity FROM root r")));
    // ORDER BY a computed property needs it in the indexing policy: the wildcard does not cover it
    IndexingPolicy indexing = new IndexingPolicy();
    indexing.setIncludedPaths(List.of(new IncludedPath("/*"), new IncludedPath("/cp_total/?")));
    props.setIndexingPolicy(indexing);
    CosmosContainer c = create(client, id, partitions, props);
    String[] names = {"Alpha", "BETA", "gamma", "Delta"};
    for (int i = 0; i < 40; i++) {
      ObjectNode d = doc("d" + i, "p" + (i % 10), null);
      d.put("name", names[i % 4]).put("price", i).put("quantity", 2);
      c.createItem(d);
    }
    assertThat(c.read().getProperties().getComputedProperties())
        .extracting(ComputedProperty::getName)
        .containsExactly("cp_lower", "cp_total");

    List<ObjectNode> rows =
        c
            .queryItems(
                "SELECT c.id, c.cp_lower, c.cp_total FROM c WHERE c.cp_lower = 'beta'"
                    + " ORDER BY c.cp_total DESC",
                new CosmosQueryRequestOptions(),
                ObjectNode.class)
            .stream()
            .toList();
    assertThat(rows).hasSize(10);
    assertThat(rows.get(0).get("cp_lower").asText()).isEqualTo("beta");
    assertThat(rows.get(0).get("cp_total").asInt()).isEqualTo(37 * 2);
    assertThat(rows)
        .extracting(r -> r.get("cp_total").asInt())
        .isSortedAccordingTo((a, b) -> b - a);

    // Without ORDER BY the query runs as sent, and the row still names the property after itself
    // (the JavaScript SDK's ContainerManagement sample reads it so)
    assertThat(
            c
                .queryItems(
                    "SELECT c.cp_lower FROM c WHERE c.id = 'd1'",
                    new CosmosQueryRequestOptions(),
                    ObjectNode.class)
                .stream()
                .map(ObjectNode::toString)
                .toList())
        .containsExactly("{\"cp_lower\":\"beta\"}");

    List<Integer> grouped =
        c
            .queryItems(
                "SELECT VALUE COUNT(1) FROM c GROUP BY c.cp_lower",
                new CosmosQueryRequestOptions(),
                Integer.class)
            .stream()
            .toList();
    assertThat(grouped).containsOnly(10);

    ObjectNode star =
        c
            .queryItems(
                "SELECT * FROM c WHERE c.id = 'd1'",
                new CosmosQueryRequestOptions(),
                ObjectNode.class)
            .stream()
            .findFirst()
            .orElseThrow();
    assertThat(star.has("cp_lower")).isFalse();
    assertThat(star.get("name").asText()).isEqualTo("BETA");
  }

  /**
   * A computed property is indexed only when the indexing policy names it (the wildcard does not
   * include it, as the service documents): then a filter on it reads only its matches; otherwise
   * the filter scans, the index metrics name the index that would serve it, and ORDER BY on it is
   * refused.
   */
  @org.junit.jupiter.api.Test
  void aComputedProperty_isIndexedOnlyWhenThePolicyNamesIt() {
    CosmosContainer named = computedContainer("cpindexed", true);
    CosmosContainer wildcard = computedContainer("cpwildcard", false);
    String query = "SELECT c.id FROM c WHERE c.cp_lower = 'beta'";
    // 40 documents, 10 of them 'BETA'
    assertThat(QueryProbe.metrics(named, query)).containsExactly(10L, 10L, 10L);
    assertThat(QueryProbe.metrics(wildcard, query)).containsExactly(10L, 40L, 10L);
    assertThat(QueryProbe.indexUse(wildcard, query))
        .containsExactly("potential /cp_lower/? (ROOT.cp_lower = \"beta\")");
    assertThat(QueryProbe.indexUse(named, query))
        .containsExactly("utilized /cp_lower/? (ROOT.cp_lower = \"beta\")");
    assertThat(countOrderedByComputed(named)).isEqualTo(40);
    assertThatThrownBy(() -> countOrderedByComputed(wildcard))
        .hasStackTraceContaining("requires a range index"); // one 400 per partition
  }

  private static long countOrderedByComputed(CosmosContainer c) {
    return c
        .queryItems(
            "SELECT VALUE c.id FROM c ORDER BY c.cp_lower",
            new CosmosQueryRequestOptions(),
            String.class)
        .stream()
        .count();
  }

  private static CosmosContainer computedContainer(String id, boolean named) {
    CosmosContainerProperties props = new CosmosContainerProperties(id, "/pk");
    props.setComputedProperties(
        List.of(new ComputedProperty("cp_lower", "SELECT VALUE LOWER(c.name) FROM c")));
    IndexingPolicy policy = new IndexingPolicy();
    policy.setIncludedPaths(
        named
            ? List.of(new IncludedPath("/*"), new IncludedPath("/cp_lower/?"))
            : List.of(new IncludedPath("/*")));
    props.setIndexingPolicy(policy);
    CosmosContainer c = create(client, id, 2, props);
    String[] names = {"Alpha", "BETA", "gamma", "Delta"};
    for (int i = 0; i < 40; i++) {
      c.createItem(doc("d" + i, "p" + (i % 10), null).put("name", names[i % 4]));
    }
    return c;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 8})
  void aComputedPropertyTheServiceRefuses_isRefusedWithItsReason(int partitions) {
    String id = "badcomputed" + partitions;
    CosmosContainerProperties props = new CosmosContainerProperties(id, "/pk");
    props.setComputedProperties(
        List.of(new ComputedProperty("cp_now", "SELECT VALUE GetCurrentDateTime() FROM c")));
    client.createDatabaseIfNotExists("props");
    assertThatThrownBy(
            () ->
                client
                    .getDatabase("props")
                    .createContainer(
                        props, ThroughputProperties.createManualThroughput(partitions * 6000)))
        .isInstanceOfSatisfying(
            CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(400))
        .hasMessageContaining("cp_now")
        .hasMessageContaining("GETCURRENTDATETIME");
  }

  /**
   * A container created without a partition key under an old API version (as the gateway creates it
   * for x-ms-version 2018-06-18: GatewayServerContract) has the system key /_partitionKey; the SDK
   * addresses its documents without that property with PartitionKey.NONE, which it sends as the
   * empty key [] for such a container, in every connection mode.
   */
  @org.junit.jupiter.api.Test
  void aContainerWithTheSystemKey_servesPartitionKeyNone_andItsOwnKeyValues(
      io.cosmolab.testkit.CosmosLab lab) {
    client.createDatabaseIfNotExists("props");
    lab.engine()
        .database("props")
        .createContainer(
            io.cosmolab.engine.ContainerSettings.of(
                "legacy", io.cosmolab.engine.partitioning.PartitionKeyDefinition.legacy()));
    CosmosContainer c = client.getDatabase("props").getContainer("legacy");
    assertThat(c.read().getProperties().getPartitionKeyDefinition().getPaths())
        .containsExactly("/_partitionKey");
    // no _partitionKey: the SDK takes PartitionKey.NONE for it
    for (int i = 0; i < 5; i++) {
      c.createItem(doc("none" + i, "x", null));
    }
    ObjectNode keyed = doc("keyed", "x", null).put("_partitionKey", "tenant-1");
    c.createItem(keyed);
    assertThat(
            c.readItem("none3", com.azure.cosmos.models.PartitionKey.NONE, ObjectNode.class)
                .getItem()
                .get("id")
                .asText())
        .isEqualTo("none3");
    assertThat(
            c.readItem(
                    "keyed", new com.azure.cosmos.models.PartitionKey("tenant-1"), ObjectNode.class)
                .getItem()
                .get("_partitionKey")
                .asText())
        .isEqualTo("tenant-1");
    // (the Java SDK 4.81 runs a query whose options name PartitionKey.NONE across partitions, so
    // the documents without the key are found by their missing property)
    String withoutKey = "SELECT VALUE c.id FROM c WHERE NOT IS_DEFINED(c._partitionKey)";
    CosmosQueryRequestOptions options = new CosmosQueryRequestOptions();
    assertThat(c.queryItems(withoutKey, options, String.class).stream().count()).isEqualTo(5);
    assertThat(c.queryItems("SELECT VALUE c.id FROM c", options, String.class).stream().count())
        .isEqualTo(6);
    c.deleteItem("none0", com.azure.cosmos.models.PartitionKey.NONE, null);
    assertThat(c.queryItems(withoutKey, options, String.class).stream().count()).isEqualTo(4);
    // a document with the key is not in the none partition
    assertThatThrownBy(
            () -> c.readItem("keyed", com.azure.cosmos.models.PartitionKey.NONE, ObjectNode.class))
        .isInstanceOf(CosmosException.class)
        .satisfies(e -> assertThat(((CosmosException) e).getStatusCode()).isEqualTo(404));
  }

  /**
   * A key sent without a version is hash V1, as on the service: the Java SDK's emulator tests
   * create {@code new PartitionKeyDefinition()} with a path and no version, and expect V1's ranges
   * at 18,000 RU/s ({@code "" | 05C1D5AB55AB54 | 05C1E5AB55AB54 | FF}). The SDK sends no version
   * unless the application sets one, so the containers most applications create are V1.
   */
  @org.junit.jupiter.api.Test
  void aKeyWithoutAVersion_isHashV1_withTheServicesRanges() {
    com.azure.cosmos.models.PartitionKeyDefinition key =
        new com.azure.cosmos.models.PartitionKeyDefinition();
    key.setPaths(List.of("/mypk"));
    CosmosContainer c =
        create(client, "noversion", 3, new CosmosContainerProperties("noversion", key));
    assertThat(c.read().getProperties().getPartitionKeyDefinition().getVersion())
        .isEqualTo(com.azure.cosmos.models.PartitionKeyDefinitionVersion.V1);
    assertThat(c.getFeedRanges())
        .extracting(Object::toString)
        .extracting(
            b ->
                new String(
                    java.util.Base64.getUrlDecoder().decode(b),
                    java.nio.charset.StandardCharsets.UTF_8))
        .containsExactly(
            "{\"Range\":{\"min\":\"\",\"max\":\"05C1D5AB55AB54\"}}",
            "{\"Range\":{\"min\":\"05C1D5AB55AB54\",\"max\":\"05C1E5AB55AB54\"}}",
            "{\"Range\":{\"min\":\"05C1E5AB55AB54\",\"max\":\"FF\"}}");
    // V1 reads the first 100 bytes of a key and accepts longer ones (the SDK's EPK-based change
    // feed leases have such ids): both are stored, and both read back
    String prefix = "x".repeat(100);
    for (String id : List.of(prefix + "-a", prefix + "-b")) {
      c.createItem(JsonNodeFactory.instance.objectNode().put("id", id).put("mypk", id));
      assertThat(
              c.readItem(id, new PartitionKey(id), ObjectNode.class).getItem().get("id").asText())
          .isEqualTo(id);
    }
  }

  /**
   * Lists of containers, scripts, users and databases come in pages of the size asked, as the Java
   * SDK's ReadFeedCollectionsTest and ReadFeedStoredProceduresTest read them (3 containers in pages
   * of 2: 2 pages; 5 procedures: 3 pages), by read feed and by query alike.
   */
  @org.junit.jupiter.api.Test
  void listsOfContainersScriptsAndUsers_comeInPagesOfTheSizeAsked() {
    client.createDatabaseIfNotExists("paged");
    CosmosDatabase db = client.getDatabase("paged");
    for (String id : List.of("c1", "c2", "c3")) {
      db.createContainerIfNotExists(id, "/pk");
    }
    List<Integer> sizes = new java.util.ArrayList<>();
    List<String> ids = new java.util.ArrayList<>();
    for (var page : db.readAllContainers().iterableByPage(2)) {
      sizes.add(page.getResults().size());
      page.getResults().forEach(p -> ids.add(p.getId()));
    }
    assertThat(sizes).containsExactly(2, 1);
    assertThat(ids).containsExactlyInAnyOrder("c1", "c2", "c3");
    sizes.clear();
    for (var page :
        db.queryContainers("SELECT * FROM root r WHERE r.id != 'c2'").iterableByPage(1)) {
      sizes.add(page.getResults().size());
    }
    assertThat(sizes).containsExactly(1, 1);

    var scripts = db.getContainer("c1").getScripts();
    for (int i = 0; i < 5; i++) {
      scripts.createStoredProcedure(
          new com.azure.cosmos.models.CosmosStoredProcedureProperties(
              "sp" + i, "function () { getContext().getResponse().setBody(1); }"));
    }
    sizes.clear();
    for (var page : scripts.readAllStoredProcedures().iterableByPage(2)) {
      sizes.add(page.getResults().size());
    }
    assertThat(sizes).containsExactly(2, 2, 1);

    for (String id : List.of("u1", "u2", "u3", "u4")) {
      db.createUser(new com.azure.cosmos.models.CosmosUserProperties().setId(id));
    }
    sizes.clear();
    for (var page : db.readAllUsers().iterableByPage(3)) {
      sizes.add(page.getResults().size());
    }
    assertThat(sizes).containsExactly(3, 1);
    // unpaged, a list comes whole
    assertThat(db.readAllUsers().stream().count()).isEqualTo(4);
    // a token this server did not issue
    assertThatThrownBy(() -> db.readAllContainers().iterableByPage("garbage", 2).iterator().next())
        .isInstanceOfSatisfying(
            CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(400))
        .hasMessageContaining("Invalid Continuation Token");
  }

  private static CosmosClient client;

  @org.junit.jupiter.api.BeforeAll
  static void client(CosmosClient c) {
    client = c;
  }
}
