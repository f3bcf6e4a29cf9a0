package io.cosmolab.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosBatch;
import com.azure.cosmos.models.CosmosBatchResponse;
import com.azure.cosmos.models.CosmosBulkOperationResponse;
import com.azure.cosmos.models.CosmosBulkOperations;
import com.azure.cosmos.models.CosmosItemIdentity;
import com.azure.cosmos.models.CosmosItemOperation;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.CosmosPatchItemRequestOptions;
import com.azure.cosmos.models.CosmosPatchOperations;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyBuilder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.testkit.CosmosLabExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every point operation of the Java SDK against the server, on Hash and 3-level MultiHash
 * containers with 1 and 8 physical partitions.
 */
@ExtendWith(CosmosLabExtension.class)
class PointOperationsCompatTest {

  /** A container shape: its key paths and its partition count. */
  record Layout(String name, int partitions, List<String> keyPaths) {
    Layout(String name, int partitions, String... paths) {
      this(name, partitions, List.of(paths));
    }

    String[] paths() {
      return keyPaths.toArray(String[]::new);
    }

    boolean hierarchical() {
      return keyPaths.size() > 1;
    }

    @Override
    public String toString() {
      return name + " x" + partitions;
    }
  }

  static Stream<Layout> layouts() {
    return Stream.of(
        new Layout("hash", 1, "/pk"),
        new Layout("hash", 8, "/pk"),
        new Layout("multihash", 1, "/tenant", "/user", "/session"),
        new Layout("multihash", 8, "/tenant", "/user", "/session"));
  }

  private static CosmosDatabase db;

  @BeforeAll
  static void setUp(CosmosClient client) {
    client.createDatabaseIfNotExists("points");
    db = client.getDatabase("points");
    layouts()
        .forEach(
            l -> Fixtures.container(db, l.toString().replace(' ', '-'), l.partitions(), l.paths()));
  }

  private static CosmosContainer container(Layout l) {
    return db.getContainer(l.toString().replace(' ', '-'));
  }

  private static PartitionKey keyOf(Layout l, ObjectNode doc) {
    if (!l.hierarchical()) {
      return new PartitionKey(doc.get("pk").asText());
    }
    return new PartitionKeyBuilder()
        .add(doc.get("tenant").asText())
        .add(doc.get("user").asText())
        .add(doc.get("session").asText())
        .build();
  }

  private static ObjectNode doc(String id, int i) {
    ObjectNode d = Fixtures.documents(1, i).get(0);
    d.put("id", id);
    d.put("pk", "p" + (i % 5));
    d.put("tenant", "t" + (i % 2));
    d.put("user", "u" + (i % 3));
    d.put("session", "s" + i);
    return d;
  }

  @org.junit.jupiter.api.Test
  void indexingPolicies_getTheServicesDefaultEtagExclusion_andTheRootFormIsAccepted() {
    var onlyIncluded = new com.azure.cosmos.models.IndexingPolicy();
    onlyIncluded.setIncludedPaths(List.of(new com.azure.cosmos.models.IncludedPath("/name/?")));
    onlyIncluded.setExcludedPaths(List.of(new com.azure.cosmos.models.ExcludedPath("/*")));
    var root = new com.azure.cosmos.models.IndexingPolicy();
    root.setIncludedPaths(List.of(new com.azure.cosmos.models.IncludedPath("/")));
    int n = 0;
    for (var policy : List.of(new com.azure.cosmos.models.IndexingPolicy(), onlyIncluded, root)) {
      var props = new com.azure.cosmos.models.CosmosContainerProperties("policy-" + n++, "/pk");
      props.setIndexingPolicy(policy);
      db.createContainer(props);
      var read = db.getContainer(props.getId()).read().getProperties().getIndexingPolicy();
      assertThat(read.getExcludedPaths())
          .extracting(com.azure.cosmos.models.ExcludedPath::getPath)
          .contains("/\"_etag\"/?");
      db.getContainer(props.getId()).delete();
    }
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void conflicts_readAndQueried_areAnEmptyFeedOnASingleRegionAccount(
      Layout l, com.azure.cosmos.CosmosAsyncClient async) {
    com.azure.cosmos.CosmosAsyncContainer c =
        async.getDatabase("points").getContainer(l.toString().replace(' ', '-'));
    var options = new com.azure.cosmos.models.CosmosQueryRequestOptions();
    assertThat(c.readAllConflicts(options).collectList().block()).isEmpty();
    assertThat(c.queryConflicts("SELECT * FROM c", options).collectList().block()).isEmpty();
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void deleteAllItemsByPartitionKey_removesThatLogicalPartitionAndNothingElse(Layout l) {
    CosmosContainer c = container(l);
    List<ObjectNode> docs = new java.util.ArrayList<>();
    for (int i = 0; i < 10; i++) {
      ObjectNode d = doc("pkd-" + i, i);
      docs.add(d);
      c.createItem(d, keyOf(l, d), null);
    }
    PartitionKey doomed = keyOf(l, docs.get(0));
    var response =
        c.deleteAllItemsByPartitionKey(
            doomed, new com.azure.cosmos.models.CosmosItemRequestOptions());
    assertThat(response.getStatusCode()).isEqualTo(200);
    assertThat(response.getRequestCharge()).isPositive();
    for (ObjectNode d : docs) {
      PartitionKey key = keyOf(l, d);
      boolean gone = key.equals(doomed);
      if (gone) {
        assertThatThrownBy(() -> c.readItem(d.get("id").asText(), key, ObjectNode.class))
            .isInstanceOfSatisfying(
                com.azure.cosmos.CosmosException.class,
                e -> assertThat(e.getStatusCode()).isEqualTo(404));
      } else {
        assertThat(c.readItem(d.get("id").asText(), key, ObjectNode.class).getStatusCode())
            .isEqualTo(200);
        c.deleteItem(d.get("id").asText(), key, null);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void indexingDirectiveExclude_chargesTheCreateAsUnindexed_andTheItemStaysReadable(Layout l) {
    CosmosContainer c = container(l);
    ObjectNode indexed = doc("indexed", 3);
    ObjectNode excluded = doc("excluded", 3);
    double withIndex =
        c.createItem(indexed, keyOf(l, indexed), new CosmosItemRequestOptions()).getRequestCharge();
    CosmosItemRequestOptions exclude =
        new CosmosItemRequestOptions()
            .setIndexingDirective(com.azure.cosmos.models.IndexingDirective.EXCLUDE);
    double without = c.createItem(excluded, keyOf(l, excluded), exclude).getRequestCharge();
    // the same body but its id: the difference is the indexed terms (0.2 RU each)
    assertThat(withIndex - without).isGreaterThan(1.0);
    assertThat(c.readItem("excluded", keyOf(l, excluded), ObjectNode.class).getStatusCode())
        .isEqualTo(200);
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void createReadReplaceUpsertDelete_answerAsTheService(Layout l) {
    CosmosContainer c = container(l);
    ObjectNode d = doc("crud", 1);
    PartitionKey key = keyOf(l, d);

    CosmosItemResponse<ObjectNode> created = c.createItem(d, key, new CosmosItemRequestOptions());
    assertThat(created.getStatusCode()).isEqualTo(201);
    assertThat(created.getRequestCharge()).isGreaterThan(0);
    assertThat(created.getETag()).isEqualTo(created.getItem().get("_etag").asText());

    assertThatThrownBy(() -> c.createItem(d, key, new CosmosItemRequestOptions()))
        .isInstanceOfSatisfying(CosmosException.class, e -> refusedByItsPartition(e, 409));

    ObjectNode read = c.readItem("crud", key, ObjectNode.class).getItem();
    assertThat(read.get("n")).isEqualTo(d.get("n"));
    // If-None-Match: * is met by any version (the .NET SDK's CosmosItemConditionalTests)
    assertThat(
            c.readItem(
                    "crud",
                    key,
                    new CosmosItemRequestOptions().setIfNoneMatchETag("*"),
                    ObjectNode.class)
                .getStatusCode())
        .isEqualTo(304);

    d.put("n", 999);
    CosmosItemResponse<ObjectNode> replaced =
        c.replaceItem(d, "crud", key, new CosmosItemRequestOptions());
    assertThat(replaced.getStatusCode()).isEqualTo(200);
    assertThat(replaced.getItem().get("n").asInt()).isEqualTo(999);

    ObjectNode fresh = doc("crud-upsert", 2);
    assertThat(c.upsertItem(fresh, keyOf(l, fresh), new CosmosItemRequestOptions()).getStatusCode())
        .isEqualTo(201);
    fresh.put("n", 5);
    assertThat(c.upsertItem(fresh, keyOf(l, fresh), new CosmosItemRequestOptions()).getStatusCode())
        .isEqualTo(200);

    assertThat(c.deleteItem("crud", key, new CosmosItemRequestOptions()).getStatusCode())
        .isEqualTo(204);
    assertThatThrownBy(() -> c.readItem("crud", key, ObjectNode.class))
        .isInstanceOfSatisfying(CosmosException.class, e -> refusedByItsPartition(e, 404));
  }

  /**
   * A point operation's refusal as the service sends it: charged (the .NET SDK's emulator tests
   * assert a 412's charge above 0) and with its partition's session token, which the SDKs keep
   * (CosmosItemSessionTokenTests: "Session token should be captured for NotFound").
   */
  private static void refusedByItsPartition(CosmosException e, int status) {
    assertThat(e.getStatusCode()).isEqualTo(status);
    assertThat(e.getRequestCharge()).isGreaterThanOrEqualTo(1.0);
    assertThat(e.getResponseHeaders().get("x-ms-session-token")).matches("\\d+:-1#\\d+");
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void staleIfMatch_isRefusedWith412(Layout l) {
    CosmosContainer c = container(l);
    ObjectNode d = doc("etag", 3);
    PartitionKey key = keyOf(l, d);
    String first = c.createItem(d, key, new CosmosItemRequestOptions()).getETag();
    d.put("n", 1);
    c.replaceItem(d, "etag", key, new CosmosItemRequestOptions().setIfMatchETag(first));
    d.put("n", 2);
    assertThatThrownBy(
            () ->
                c.replaceItem(d, "etag", key, new CosmosItemRequestOptions().setIfMatchETag(first)))
        .isInstanceOfSatisfying(CosmosException.class, e -> refusedByItsPartition(e, 412));
    assertThatThrownBy(
            () -> c.deleteItem("etag", key, new CosmosItemRequestOptions().setIfMatchETag(first)))
        .isInstanceOfSatisfying(CosmosException.class, e -> refusedByItsPartition(e, 412));
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void patch_appliesEveryOperationAndHonoursItsCondition(Layout l) {
    CosmosContainer c = container(l);
    ObjectNode d = doc("patch", 4);
    d.put("count", 1);
    d.putArray("list").add(1);
    d.put("old", "x");
    PartitionKey key = keyOf(l, d);
    c.createItem(d, key, new CosmosItemRequestOptions());

    CosmosPatchOperations ops =
        CosmosPatchOperations.create()
            .set("/status", "shipped")
            .add("/list/-", 2)
            .increment("/count", 41)
            .replace("/old", "y")
            .move("/old", "/renamed")
            .remove("/price");
    ObjectNode patched = c.patchItem("patch", key, ops, ObjectNode.class).getItem();
    assertThat(patched.get("status").asText()).isEqualTo("shipped");
    assertThat(patched.get("count").asInt()).isEqualTo(42);
    assertThat(patched.get("list")).hasSize(2);
    assertThat(patched.get("renamed").asText()).isEqualTo("y");
    assertThat(patched.has("old")).isFalse();
    assertThat(patched.has("price")).isFalse();

    CosmosPatchItemRequestOptions unless = new CosmosPatchItemRequestOptions();
    unless.setFilterPredicate("FROM c WHERE c.count = 0");
    assertThatThrownBy(
            () ->
                c.patchItem(
                    "patch",
                    key,
                    CosmosPatchOperations.create().set("/x", 1),
                    unless,
                    ObjectNode.class))
        .isInstanceOfSatisfying(
            CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(412));
    CosmosPatchItemRequestOptions when = new CosmosPatchItemRequestOptions();
    when.setFilterPredicate("FROM c WHERE c.count = 42");
    assertThat(
            c.patchItem(
                    "patch",
                    key,
                    CosmosPatchOperations.create().set("/x", 1),
                    when,
                    ObjectNode.class)
                .getItem()
                .get("x")
                .asInt())
        .isEqualTo(1);
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void transactionalBatch_commitsAllOrNothing(Layout l) {
    CosmosContainer c = container(l);
    ObjectNode a = doc("batch-a", 7);
    PartitionKey key = keyOf(l, a);
    ObjectNode b = a.deepCopy().put("id", "batch-b");
    CosmosBatch ok = CosmosBatch.createCosmosBatch(key);
    ok.createItemOperation(a);
    ok.upsertItemOperation(b);
    ok.readItemOperation("batch-a");
    ok.patchItemOperation("batch-b", CosmosPatchOperations.create().set("/flag", true));
    CosmosBatchResponse done = c.executeCosmosBatch(ok);
    assertThat(done.isSuccessStatusCode()).isTrue();
    assertThat(done.getResults()).hasSize(4);
    assertThat(done.getResults().get(0).getStatusCode()).isEqualTo(201);
    assertThat(done.getResults().get(2).getItem(ObjectNode.class).get("id").asText())
        .isEqualTo("batch-a");

    ObjectNode c1 = a.deepCopy().put("id", "batch-c");
    CosmosBatch failing = CosmosBatch.createCosmosBatch(key);
    failing.createItemOperation(c1);
    failing.createItemOperation(a); // exists: 409
    failing.deleteItemOperation("batch-b");
    CosmosBatchResponse rolledBack = c.executeCosmosBatch(failing);
    assertThat(rolledBack.isSuccessStatusCode()).isFalse();
    assertThat(rolledBack.getStatusCode()).isEqualTo(409);
    assertThat(rolledBack.getResults())
        .extracting(r -> r.getStatusCode())
        .containsExactly(424, 409, 424);
    assertThatThrownBy(() -> c.readItem("batch-c", key, ObjectNode.class))
        .isInstanceOfSatisfying(
            CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(404));
    assertThat(c.readItem("batch-b", key, ObjectNode.class).getItem().get("flag").asBoolean())
        .isTrue();
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void batchWhoseResponseWouldPassTheLimit_failsWhole_namingItsLastOperation(Layout l) {
    // the Java SDK's own batchServerResponseTooLargeAsync: 10 reads of a 1 MB document
    CosmosContainer c = container(l);
    ObjectNode big = doc("big", 9).put("payload", "x".repeat(1024 * 1024));
    PartitionKey key = keyOf(l, big);
    c.createItem(big, key, new CosmosItemRequestOptions());
    CosmosBatch reads = CosmosBatch.createCosmosBatch(key);
    ObjectNode small = big.deepCopy().put("id", "never");
    small.remove("payload");
    reads.createItemOperation(small); // rolled back with the rest
    for (int i = 0; i < 10; i++) {
      reads.readItemOperation("big");
    }
    CosmosBatchResponse r = c.executeCosmosBatch(reads);
    assertThat(r.getStatusCode()).isEqualTo(413);
    assertThat(r.getResults().get(0).getStatusCode()).isEqualTo(424);
    assertThat(r.getResults().get(10).getStatusCode()).isEqualTo(413);
    assertThatThrownBy(() -> c.readItem("never", key, ObjectNode.class))
        .isInstanceOfSatisfying(
            CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(404));
  }

  @ParameterizedTest
  @MethodSource("layouts")
  void bulkAndReadMany_reachEveryPartition(Layout l) {
    CosmosContainer c = container(l);
    List<CosmosItemOperation> ops = new ArrayList<>();
    List<CosmosItemIdentity> ids = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      ObjectNode d = doc("bulk-" + i, 100 + i);
      ops.add(CosmosBulkOperations.getCreateItemOperation(d, keyOf(l, d)));
      if (i % 6 == 0) {
        ids.add(new CosmosItemIdentity(keyOf(l, d), d.get("id").asText()));
      }
    }
    List<Integer> statuses = new ArrayList<>();
    for (CosmosBulkOperationResponse<Object> r : c.executeBulkOperations(ops)) {
      statuses.add(r.getResponse().getStatusCode());
      // each result keeps its partition's session token (the .NET SDK's CosmosItemBulkTests)
      assertThat(r.getResponse().getSessionToken()).matches("\\d+:-1#\\d+");
    }
    assertThat(statuses).hasSize(120).containsOnly(201);

    FeedResponse<ObjectNode> many = c.readMany(ids, ObjectNode.class);
    assertThat(many.getResults())
        .extracting(n -> n.get("id").asText())
        .containsExactlyInAnyOrderElementsOf(ids.stream().map(CosmosItemIdentity::getId).toList());
  }
}
