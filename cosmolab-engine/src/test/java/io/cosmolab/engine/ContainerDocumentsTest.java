package io.cosmolab.engine;

import static io.cosmolab.engine.Json.obj;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.PartitionKeyComponent;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.resource.ResourceIds;
import io.cosmolab.engine.time.ManualClock;
import java.time.Duration;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class ContainerDocumentsTest {
  private final ManualClock clock = ManualClock.startingAtEpoch2026();
  private final Container c = Engines.container(clock, 4);

  static void assertCosmosError(ThrowingCallable call, CosmosError error, String... fragments) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            CosmosException.class,
            (Consumer<CosmosException>)
                e -> {
                  assertThat(e.error()).as(e.getMessage()).isEqualTo(error);
                  for (String f : fragments) {
                    assertThat(e.getMessage()).contains(f);
                  }
                });
  }

  @Test
  void create_addsSystemPropertiesAndPlacesByEpk() {
    ItemResponse r = c.create(obj("{'id':'a','pk':'tenant-1','n':1}"));
    assertThat(r.status()).isEqualTo(201);
    assertThat(r.document().get("_rid").textValue()).isNotEmpty();
    assertThat(r.document().get("_self").textValue())
        .startsWith(c.selfLink() + "docs/")
        .endsWith("/");
    assertThat(r.document().get("_etag").textValue()).startsWith("\"").endsWith("\"");
    assertThat(r.document().get("_ts").longValue()).isEqualTo(clock.millis() / 1000);
    assertThat(r.etag()).isEqualTo(r.document().get("_etag").textValue());
    String epk = EffectivePartitionKey.hashV2(PartitionKeyValue.of("tenant-1").components());
    assertThat(r.partitionKeyRangeId()).isEqualTo(c.routing().rangeFor(epk).id());
    assertThat(r.requestCharge()).isGreaterThan(4.9);
    byte[] rid = ResourceIds.decode(r.document().get("_rid").textValue());
    assertThat(rid).hasSize(16);
    assertThat(rid[15] & 0xF0).isZero();
    assertThat(rid[8] & 0x80).isZero();
  }

  @Test
  void read_returnsTheDocument_andChargesAboutOneRuPerKb() {
    c.create(obj("{'id':'a','pk':'p','n':1}"));
    ItemResponse r = c.read(PartitionKeyValue.of("p"), "a");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.document().get("n").intValue()).isEqualTo(1);
    assertThat(r.requestCharge()).isEqualTo(1.0);
    assertThat(c.read(PartitionKeyValue.of("p"), "a", ItemOptions.NONE.strong()).requestCharge())
        .isEqualTo(2.0);
  }

  @Test
  void identity_isPartitionKeyAndId() {
    c.create(obj("{'id':'same','pk':'a'}"));
    c.create(obj("{'id':'same','pk':'b'}"));
    assertThat(c.read(PartitionKeyValue.of("a"), "same").document().get("pk").textValue())
        .isEqualTo("a");
    assertCosmosError(
        () -> c.create(obj("{'id':'same','pk':'a'}")), CosmosError.CONFLICT, "same", "[\"a\"]");
    assertCosmosError(
        () -> c.read(PartitionKeyValue.of("c"), "same"), CosmosError.NOT_FOUND, "same");
  }

  @Test
  void create_withMismatchedKey_returns400With1001_andWritesNothing() {
    assertCosmosError(
        () -> c.create(PartitionKeyValue.of("x"), obj("{'id':'a','pk':'y'}")),
        CosmosError.PARTITION_KEY_MISMATCH,
        "[\"x\"]",
        "[\"y\"]");
    assertThat(c.documentCount()).isZero();
    assertThat(c.lsn()).isZero();
  }

  @Test
  void pointOperation_withWrongComponentCount_returns400With1001() {
    assertCosmosError(
        () -> c.read(PartitionKeyValue.of("a", "b"), "x"),
        CosmosError.PARTITION_KEY_MISMATCH,
        "2 component(s)",
        "[/pk]");
  }

  @Test
  void ids_withSlashOrBackslashOrTooLong_areRejected() {
    assertCosmosError(() -> c.create(obj("{'id':'a/b','pk':'p'}")), CosmosError.BAD_REQUEST, "'/'");
    assertCosmosError(
        () -> c.create(obj("{'id':'a\\\\b','pk':'p'}")), CosmosError.BAD_REQUEST, "'\\'");
    assertCosmosError(
        () -> c.create(obj("{'id':'" + "x".repeat(1024) + "','pk':'p'}")),
        CosmosError.BAD_REQUEST,
        "1024 bytes",
        "1023");
    assertCosmosError(() -> c.create(obj("{'pk':'p'}")), CosmosError.BAD_REQUEST, "'id'");
    assertCosmosError(() -> c.create(obj("{'id':7,'pk':'p'}")), CosmosError.BAD_REQUEST, "'id'");
    c.create(obj("{'id':'" + "x".repeat(1023) + "','pk':'p'}"));
    // '#' and '?' are allowed, as on the service (single-table ids such as ORDER#17)
    c.create(obj("{'id':'ORDER#17?x=1','pk':'p'}"));
    assertThat(c.read(PartitionKeyValue.of("p"), "ORDER#17?x=1").status()).isEqualTo(200);
  }

  @Test
  void documentOver2Mb_returns413_andWritesNothing() {
    String big = "x".repeat(2 * 1024 * 1024);
    assertCosmosError(
        () -> c.create(obj("{'id':'big','pk':'p','s':'" + big + "'}")),
        CosmosError.REQUEST_ENTITY_TOO_LARGE,
        "2097152");
    assertThat(c.documentCount()).isZero();
  }

  @Test
  void partitionKey_atNestedPath_andMissingPath_isUndefined() {
    Container nested =
        Engines.onClock(clock, io.cosmolab.engine.throughput.ThrottlingMode.OFF)
            .createDatabase("d2")
            .createContainer(
                ContainerSettings.of("n", PartitionKeyDefinition.hash("/address/city")));
    nested.create(obj("{'id':'1','address':{'city':'Oslo'}}"));
    nested.create(obj("{'id':'2'}"));
    assertThat(nested.read(PartitionKeyValue.of("Oslo"), "1").status()).isEqualTo(200);
    assertThat(nested.read(PartitionKeyValue.of(PartitionKeyComponent.UNDEFINED), "2").status())
        .isEqualTo(200);
    // an array or object at the key's path is no key value: filed under undefined, as the
    // service files it
    nested.create(obj("{'id':'3','address':{'city':['a']}}"));
    nested.create(obj("{'id':'4','address':{'city':{'name':'Oslo'}}}"));
    for (String id : new String[] {"3", "4"}) {
      assertThat(nested.read(PartitionKeyValue.of(PartitionKeyComponent.UNDEFINED), id).status())
          .isEqualTo(200);
    }
  }

  @Test
  void aMultiHashKeyOfOnePath_isAccepted_asTheServiceAcceptsIt() {
    PartitionKeyDefinition one =
        PartitionKeyDefinition.fromJson(
            Json.node("{'paths':['/tenant'],'kind':'MultiHash','version':2}"));
    assertThat(one.isHierarchical()).isTrue();
    Container c1 =
        Engines.onClock(clock, io.cosmolab.engine.throughput.ThrottlingMode.OFF)
            .createDatabase("d3")
            .createContainer(ContainerSettings.of("m", one));
    c1.create(obj("{'id':'1','tenant':'acme'}"));
    assertThat(c1.read(PartitionKeyValue.of("acme"), "1").status()).isEqualTo(200);
  }

  @Test
  void replace_keepsRid_changesEtag_andHonoursIfMatch() {
    ItemResponse created = c.create(obj("{'id':'a','pk':'p','n':1}"));
    ItemResponse replaced =
        c.replace(PartitionKeyValue.of("p"), "a", obj("{'id':'a','pk':'p','n':2}"));
    assertThat(replaced.document().get("_rid")).isEqualTo(created.document().get("_rid"));
    assertThat(replaced.etag()).isNotEqualTo(created.etag());
    assertCosmosError(
        () ->
            c.replace(
                PartitionKeyValue.of("p"),
                "a",
                obj("{'id':'a','pk':'p','n':3}"),
                ItemOptions.ifMatch(created.etag())),
        CosmosError.PRECONDITION_FAILED,
        "One of the specified pre-condition is not met.", // the service's, which apps match
        created.etag());
    assertThat(c.read(PartitionKeyValue.of("p"), "a").document().get("n").intValue()).isEqualTo(2);
    c.replace(
        PartitionKeyValue.of("p"),
        "a",
        obj("{'id':'a','pk':'p','n':3}"),
        ItemOptions.ifMatch(replaced.etag()));
    assertThat(c.read(PartitionKeyValue.of("p"), "a").document().get("n").intValue()).isEqualTo(3);
  }

  @Test
  void replace_thatWouldMoveTheDocument_isRejected() {
    c.create(obj("{'id':'a','pk':'p'}"));
    assertCosmosError(
        () -> c.replace(PartitionKeyValue.of("p"), "a", obj("{'id':'a','pk':'q'}")),
        CosmosError.PARTITION_KEY_MISMATCH,
        "cannot move");
    assertCosmosError(
        () -> c.replace(PartitionKeyValue.of("p"), "a", obj("{'id':'b','pk':'p'}")),
        CosmosError.BAD_REQUEST,
        "does not match the id");
    assertCosmosError(
        () -> c.replace(PartitionKeyValue.of("p"), "zz", obj("{'id':'zz','pk':'p'}")),
        CosmosError.NOT_FOUND);
  }

  @Test
  void read_withMatchingIfNoneMatch_returns304WithoutBody() {
    ItemResponse created = c.create(obj("{'id':'a','pk':'p'}"));
    ItemResponse r =
        c.read(PartitionKeyValue.of("p"), "a", ItemOptions.ifNoneMatch(created.etag()));
    assertThat(r.status()).isEqualTo(304);
    assertThat(r.document()).isNull();
  }

  @Test
  void upsert_creates201ThenReplaces200() {
    assertThat(c.upsert(obj("{'id':'a','pk':'p','v':1}")).status()).isEqualTo(201);
    assertThat(c.upsert(obj("{'id':'a','pk':'p','v':2}")).status()).isEqualTo(200);
    assertThat(c.documentCount()).isEqualTo(1);
  }

  @Test
  void upsertWithIfMatch_createsADocumentThatDoesNotExist_andIsConditionalOnOneThatDoes() {
    // "ignored ... for upsert requests if the item doesn't exist" (CosmosItemRequestOptions):
    // Spring Data Cosmos saves a new @Version entity with If-Match: null
    PartitionKeyValue p = PartitionKeyValue.of("p");
    ItemResponse created =
        c.upsert(p, obj("{'id':'a','pk':'p','v':1}"), ItemOptions.ifMatch("null"));
    assertThat(created.status()).isEqualTo(201);
    assertCosmosError(
        () -> c.upsert(p, obj("{'id':'a','pk':'p','v':2}"), ItemOptions.ifMatch("\"stale\"")),
        CosmosError.PRECONDITION_FAILED);
    assertThat(
            c.upsert(p, obj("{'id':'a','pk':'p','v':3}"), ItemOptions.ifMatch(created.etag()))
                .status())
        .isEqualTo(200);
    assertThat(c.read(p, "a").document().get("v").intValue()).isEqualTo(3);
  }

  @Test
  void delete_returns204_thenTheDocumentIsGone() {
    c.create(obj("{'id':'a','pk':'p'}"));
    ItemResponse r = c.delete(PartitionKeyValue.of("p"), "a");
    assertThat(r.status()).isEqualTo(204);
    assertThat(r.document()).isNull();
    assertCosmosError(() -> c.read(PartitionKeyValue.of("p"), "a"), CosmosError.NOT_FOUND);
    assertCosmosError(() -> c.delete(PartitionKeyValue.of("p"), "a"), CosmosError.NOT_FOUND);
  }

  @Test
  void everyWrite_advancesTheContainerLsn() {
    c.create(obj("{'id':'a','pk':'p'}"));
    c.create(obj("{'id':'b','pk':'q'}"));
    c.upsert(obj("{'id':'a','pk':'p','x':1}"));
    c.delete(PartitionKeyValue.of("q"), "b");
    assertThat(c.lsn()).isEqualTo(4);
  }

  @Test
  void timestamps_followTheInjectedClock() {
    c.create(obj("{'id':'a','pk':'p'}"));
    clock.advance(Duration.ofHours(1));
    ItemResponse r = c.upsert(obj("{'id':'a','pk':'p','x':1}"));
    assertThat(r.document().get("_ts").longValue()).isEqualTo(clock.millis() / 1000);
  }

  @Test
  void hierarchicalKey_placesByFullKey_andPrefixRangeCoversItsDocuments() {
    Container h =
        Engines.onClock(clock, io.cosmolab.engine.throughput.ThrottlingMode.OFF)
            .createDatabase("h")
            .createContainer(
                ContainerSettings.of("h", PartitionKeyDefinition.hierarchical("/t", "/u", "/s"))
                    .withPhysicalPartitions(8));
    h.create(obj("{'id':'1','t':'acme','u':'u1','s':'s1'}"));
    assertThat(h.read(PartitionKeyValue.of("acme", "u1", "s1"), "1").status()).isEqualTo(200);
    assertCosmosError(
        () -> h.read(PartitionKeyValue.of("acme", "u1"), "1"),
        CosmosError.PARTITION_KEY_MISMATCH,
        "2 component(s)",
        "3 path(s)");
    var range =
        EffectivePartitionKey.prefixRange(h.partitionKey(), PartitionKeyValue.of("acme", "u1"));
    assertThat(h.scan(range)).toIterable().extracting(d -> d.id()).containsExactly("1");
  }

  @Test
  void partitionKeyValue_over2048Bytes_isRejected() {
    String longKey = "k".repeat(2049);
    assertCosmosError(
        () -> c.create(obj("{'id':'a','pk':'" + longKey + "'}")),
        CosmosError.BAD_REQUEST,
        "2049 bytes",
        "2048");
  }

  @Test
  void hashV1_acceptsKeysPast101Bytes_andKeysSharingTheirFirst100BytesShareALogicalPartition() {
    // the service's V1 reads the first 100 bytes and accepts the rest (large-partition-keys doc);
    // the Java SDK's EPK-based leases have ids past 101 bytes in V1 lease containers
    Container v1 =
        Engines.onClock(clock, io.cosmolab.engine.throughput.ThrottlingMode.OFF)
            .createDatabase("v1")
            .createContainer(
                ContainerSettings.of(
                    "leases",
                    PartitionKeyDefinition.fromJson(Json.node("{'paths':['/id'],'kind':'Hash'}"))));
    String prefix = "p".repeat(100);
    String a = prefix + "-lease-a";
    String b = prefix + "-lease-b";
    assertThat(v1.create(obj("{'id':'" + a + "'}")).status()).isEqualTo(201);
    assertThat(v1.create(obj("{'id':'" + b + "'}")).status()).isEqualTo(201);
    assertThat(v1.read(PartitionKeyValue.of(a), a).document().get("id").asText()).isEqualTo(a);
    assertThat(v1.read(PartitionKeyValue.of(b), b).document().get("id").asText()).isEqualTo(b);
    assertThat(v1.partitionKey().version()).isEqualTo(1);
    assertThat(
            io.cosmolab.engine.partitioning.EffectivePartitionKey.of(
                v1.partitionKey(), PartitionKeyValue.of(a)))
        .isEqualTo(
            io.cosmolab.engine.partitioning.EffectivePartitionKey.of(
                v1.partitionKey(), PartitionKeyValue.of(b)));
  }

  @Test
  void unknownContainerAndDatabase_return404NamingThem() {
    CosmosEngine engine = CosmosEngine.builder().build();
    assertCosmosError(() -> engine.database("nope"), CosmosError.NOT_FOUND, "'nope'");
    Database db = engine.createDatabase("db");
    assertCosmosError(() -> db.container("nope"), CosmosError.NOT_FOUND, "'nope'", "'db'");
    assertCosmosError(() -> engine.createDatabase("db"), CosmosError.CONFLICT, "'db'");
  }

  @Test
  void containerSettings_withInvalidKeyPaths_areRejected() {
    assertCosmosError(
        () -> PartitionKeyDefinition.hash("tenant"), CosmosError.BAD_REQUEST, "start with '/'");
    assertCosmosError(
        () -> PartitionKeyDefinition.hash("/a//b"), CosmosError.BAD_REQUEST, "empty segments");
    assertCosmosError(
        () -> PartitionKeyDefinition.hierarchical("/a", "/b", "/c", "/d"),
        CosmosError.BAD_REQUEST,
        "1 to 3 paths");
    assertCosmosError(
        () ->
            PartitionKeyDefinition.fromJson(
                Json.node("{'paths':['/a','/b'],'kind':'Hash','version':2}")),
        CosmosError.BAD_REQUEST,
        "exactly one path");
    // without a version a Hash key is V1, as on the service (the SDKs send none unless asked)
    assertThat(
            PartitionKeyDefinition.fromJson(Json.node("{'paths':['/a'],'kind':'Hash'}")).version())
        .isEqualTo(1);
    assertThat(
            PartitionKeyDefinition.fromJson(Json.node("{'paths':['/a','/b'],'kind':'MultiHash'}"))
                .version())
        .isEqualTo(2);
    assertThat(
            PartitionKeyDefinition.fromJson(
                    Json.node("{'paths':['/a'],'kind':'Hash','version':'V1'}"))
                .version())
        .isEqualTo(1);
  }
}
