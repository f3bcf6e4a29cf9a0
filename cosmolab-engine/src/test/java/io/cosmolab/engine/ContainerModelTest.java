package io.cosmolab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.batch.BatchOperation;
import io.cosmolab.engine.batch.BatchResult;
import io.cosmolab.engine.changefeed.ChangeFeedMode;
import io.cosmolab.engine.changefeed.ChangeFeedPage;
import io.cosmolab.engine.changefeed.ChangeFeedRequest;
import io.cosmolab.engine.changefeed.ChangeFeedStart;
import io.cosmolab.engine.document.PatchOperation;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.routing.RoutingMap;
import io.cosmolab.engine.store.StoredDocument;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.time.ManualClock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Reporter;

/**
 * The container against a plain map. Random sequences of creates, replaces, upserts, patches,
 * deletes, batches, splits and merges; after every step each document is found by (key, id) in
 * exactly one physical partition whose range holds its EPK, the ranges tile the key space, and at
 * the end replaying either change feed rebuilds the same state. jqwik prints the seed of a failing
 * run; {@code @Property(seed = "...")} replays it.
 */
class ContainerModelTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final int KEYS = 5;
  private static final int IDS = 6;

  enum Kind {
    CREATE,
    REPLACE,
    UPSERT,
    PATCH_SET,
    PATCH_INCR,
    DELETE,
    BATCH,
    SPLIT,
    MERGE
  }

  /** One step: which key and id, a value, and for batches the sub-steps. */
  record Step(Kind kind, int key, int id, int value, List<Step> batch) {
    @Override
    public String toString() {
      return kind
          + "(k"
          + key
          + ",d"
          + id
          + ","
          + value
          + (batch.isEmpty() ? "" : "," + batch)
          + ")";
    }
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<Step> simple =
        Combinators.combine(
                Arbitraries.of(
                    Kind.CREATE,
                    Kind.REPLACE,
                    Kind.UPSERT,
                    Kind.PATCH_SET,
                    Kind.PATCH_INCR,
                    Kind.DELETE),
                Arbitraries.integers().between(0, KEYS - 1),
                Arbitraries.integers().between(0, IDS - 1),
                Arbitraries.integers().between(-5, 100))
            .as((k, key, id, v) -> new Step(k, key, id, v, List.of()));
    Arbitrary<Step> batch =
        Combinators.combine(
                Arbitraries.integers().between(0, KEYS - 1),
                simple.list().ofMinSize(1).ofMaxSize(5))
            .as((key, subs) -> new Step(Kind.BATCH, key, 0, 0, subs));
    Arbitrary<Step> layout =
        Combinators.combine(
                Arbitraries.of(Kind.SPLIT, Kind.MERGE), Arbitraries.integers().between(0, 50))
            .as((k, at) -> new Step(k, 0, 0, at, List.of()));
    return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(12, simple),
            net.jqwik.api.Tuple.of(2, batch),
            net.jqwik.api.Tuple.of(1, layout))
        .list()
        .ofMinSize(1)
        .ofMaxSize(80);
  }

  @Property(tries = 150)
  void containerBehavesLikeAMap(
      @ForAll("steps") List<Step> steps, @ForAll boolean hierarchical, Reporter reporter) {
    PartitionKeyDefinition key =
        hierarchical
            ? PartitionKeyDefinition.hierarchical("/t", "/u")
            : PartitionKeyDefinition.hash("/pk");
    Container c =
        CosmosEngine.builder()
            .clock(ManualClock.startingAtEpoch2026())
            .throttling(ThrottlingMode.OFF)
            .build()
            .createDatabase("db")
            .createContainer(ContainerSettings.of("c", key).withPhysicalPartitions(3));
    Map<String, ObjectNode> oracle = new HashMap<>();
    int i = 0;
    for (Step s : steps) {
      i++;
      try {
        apply(c, oracle, s, hierarchical);
        checkInvariants(c, oracle, hierarchical);
      } catch (AssertionError e) {
        reporter.publishValue("failing step", i + ": " + s);
        throw e;
      }
    }
    checkFeedsRebuildTheState(c, oracle);
  }

  private static PartitionKeyValue keyOf(int k, boolean hierarchical) {
    // hierarchical keys share first levels, so prefixes span documents of several keys
    return hierarchical
        ? PartitionKeyValue.of("t" + (k % 2), "u" + k)
        : PartitionKeyValue.of("k" + k);
  }

  private static ObjectNode document(int k, int id, int value, boolean hierarchical) {
    ObjectNode d = NODES.objectNode();
    d.put("id", "d" + id);
    PartitionKeyValue pk = keyOf(k, hierarchical);
    if (hierarchical) {
      d.set("t", pk.components().get(0).toJson());
      d.set("u", pk.components().get(1).toJson());
    } else {
      d.set("pk", pk.components().get(0).toJson());
    }
    d.put("v", value);
    d.put("n", 0);
    return d;
  }

  private static String oracleKey(int k, int id) {
    return k + "/" + id;
  }

  private void apply(Container c, Map<String, ObjectNode> oracle, Step s, boolean h) {
    switch (s.kind()) {
      case SPLIT -> {
        RoutingMap map = c.routing();
        PartitionKeyRange r = map.ranges().get(s.value() % map.size());
        try {
          c.splitPartition(r.id());
        } catch (CosmosException e) {
          assertThat(e.status()).isEqualTo(400); // a range holding a single hash value
        }
      }
      case MERGE -> {
        RoutingMap map = c.routing();
        if (map.size() > 1) {
          int at = s.value() % (map.size() - 1);
          c.mergePartitions(map.ranges().get(at).id(), map.ranges().get(at + 1).id());
        }
      }
      case BATCH -> applyBatch(c, oracle, s, h);
      default -> {
        Map<String, ObjectNode> expected = new HashMap<>(oracle);
        boolean shouldSucceed = model(expected, s.key(), s, h);
        boolean succeeded;
        try {
          single(c, s.key(), s, h);
          succeeded = true;
        } catch (CosmosException e) {
          assertThat(e.status()).as(e.getMessage()).isIn(404, 409);
          succeeded = false;
        }
        assertThat(succeeded).as("%s succeeded", s).isEqualTo(shouldSucceed);
        oracle.clear();
        oracle.putAll(expected);
      }
    }
  }

  /** Applies a step to the model; false if the service would refuse it (nothing changes). */
  private static boolean model(Map<String, ObjectNode> m, int k, Step s, boolean h) {
    String ok = oracleKey(k, s.id());
    ObjectNode cur = m.get(ok);
    switch (s.kind()) {
      case CREATE -> {
        if (cur != null) {
          return false;
        }
        m.put(ok, document(k, s.id(), s.value(), h));
      }
      case REPLACE -> {
        if (cur == null) {
          return false;
        }
        m.put(ok, document(k, s.id(), s.value(), h));
      }
      case UPSERT -> m.put(ok, document(k, s.id(), s.value(), h));
      case PATCH_SET -> {
        if (cur == null) {
          return false;
        }
        ObjectNode n = cur.deepCopy();
        n.put("v", s.value());
        m.put(ok, n);
      }
      case PATCH_INCR -> {
        if (cur == null) {
          return false;
        }
        ObjectNode n = cur.deepCopy();
        n.put("n", cur.get("n").longValue() + s.value());
        m.put(ok, n);
      }
      case DELETE -> {
        if (cur == null) {
          return false;
        }
        m.remove(ok);
      }
      default -> throw new IllegalStateException(s.toString());
    }
    return true;
  }

  private static void single(Container c, int k, Step s, boolean h) {
    PartitionKeyValue pk = keyOf(k, h);
    String id = "d" + s.id();
    switch (s.kind()) {
      case CREATE -> c.create(pk, document(k, s.id(), s.value(), h));
      case REPLACE -> c.replace(pk, id, document(k, s.id(), s.value(), h));
      case UPSERT -> c.upsert(pk, document(k, s.id(), s.value(), h), ItemOptions.NONE);
      case PATCH_SET ->
          c.patch(pk, id, List.of(PatchOperation.set("/v", NODES.numberNode(s.value()))));
      case PATCH_INCR ->
          c.patch(pk, id, List.of(PatchOperation.increment("/n", NODES.numberNode(s.value()))));
      case DELETE -> c.delete(pk, id);
      default -> throw new IllegalStateException(s.toString());
    }
  }

  private void applyBatch(Container c, Map<String, ObjectNode> oracle, Step s, boolean h) {
    Map<String, ObjectNode> expected = new HashMap<>(oracle);
    boolean allOk = true;
    List<BatchOperation> ops = new ArrayList<>();
    for (Step sub : s.batch()) {
      allOk &= model(expected, s.key(), sub, h);
      String id = "d" + sub.id();
      ObjectNode doc = document(s.key(), sub.id(), sub.value(), h);
      ops.add(
          switch (sub.kind()) {
            case CREATE -> new BatchOperation.Create(doc);
            case REPLACE -> new BatchOperation.Replace(id, doc, null);
            case UPSERT -> new BatchOperation.Upsert(doc, null);
            case PATCH_SET ->
                new BatchOperation.Patch(
                    id,
                    List.of(PatchOperation.set("/v", NODES.numberNode(sub.value()))),
                    null,
                    null);
            case PATCH_INCR ->
                new BatchOperation.Patch(
                    id,
                    List.of(PatchOperation.increment("/n", NODES.numberNode(sub.value()))),
                    null,
                    null);
            case DELETE -> new BatchOperation.Delete(id, null);
            default -> throw new IllegalStateException(sub.toString());
          });
    }
    BatchResult r = c.executeBatch(keyOf(s.key(), h), ops);
    assertThat(r.isSuccess()).as("batch %s", s).isEqualTo(allOk);
    if (allOk) {
      oracle.clear();
      oracle.putAll(expected);
    } else {
      assertThat(r.operations()).filteredOn(o -> o.status() != 424).hasSize(1);
    }
  }

  private static void checkInvariants(Container c, Map<String, ObjectNode> oracle, boolean h) {
    RoutingMap map = c.routing();
    String expectedMin = EpkRange.MIN;
    for (PartitionKeyRange r : map.ranges()) {
      assertThat(r.range().min()).isEqualTo(expectedMin);
      expectedMin = r.range().max();
    }
    assertThat(expectedMin).isEqualTo(EpkRange.MAX);
    Map<String, Integer> seen = new HashMap<>();
    for (PartitionKeyRange r : map.ranges()) {
      Iterator<StoredDocument> it = c.scan(r.range());
      while (it.hasNext()) {
        StoredDocument d = it.next();
        assertThat(r.contains(d.epk())).isTrue();
        assertThat(map.rangeFor(d.epk()).id()).isEqualTo(r.id());
        seen.merge(d.epk() + "|" + d.id(), 1, Integer::sum);
      }
    }
    assertThat(seen.values()).allMatch(n -> n == 1);
    assertThat(seen).hasSize(oracle.size());
    assertThat(c.documentCount()).isEqualTo(oracle.size());
    for (Map.Entry<String, ObjectNode> e : oracle.entrySet()) {
      ObjectNode want = e.getValue();
      int k = Integer.parseInt(e.getKey().split("/", -1)[0]);
      PartitionKeyValue pk = keyOf(k, h);
      ObjectNode got = c.read(pk, want.get("id").textValue()).document();
      assertThat(userFields(got)).isEqualTo(want);
      String epk = EffectivePartitionKey.of(c.partitionKey(), pk);
      assertThat(seen).containsKey(epk + "|" + want.get("id").textValue());
    }
    long stored = c.partitionStats().stream().mapToLong(s -> s.documents()).sum();
    assertThat(stored).isEqualTo(oracle.size());
  }

  private static ObjectNode userFields(ObjectNode stored) {
    ObjectNode d = stored.deepCopy();
    d.remove(io.cosmolab.engine.document.DocumentShape.SYSTEM_PROPERTIES);
    return d;
  }

  private static void checkFeedsRebuildTheState(Container c, Map<String, ObjectNode> oracle) {
    Map<String, ObjectNode> fromAllVersions = new HashMap<>();
    Map<String, ObjectNode> fromLatest = new HashMap<>();
    for (ChangeFeedMode mode : ChangeFeedMode.values()) {
      ChangeFeedRequest r =
          new ChangeFeedRequest(EpkRange.FULL, null, mode, ChangeFeedStart.beginning(), 7);
      for (int guard = 0; guard < 10_000; guard++) {
        ChangeFeedPage page = c.readChangeFeed(r);
        if (page.notModified()) {
          break;
        }
        for (ObjectNode item : page.items()) {
          if (mode == ChangeFeedMode.LATEST_VERSION) {
            fromLatest.put(identity(item), userFields(item));
          } else if (item.get("metadata").get("operationType").textValue().equals("delete")) {
            // no previous image (the service's default): the metadata names what went
            ObjectNode gone = item.get("metadata").get("partitionKey").deepCopy();
            gone.set("id", item.get("metadata").get("id"));
            fromAllVersions.remove(identity(gone));
          } else {
            fromAllVersions.put(
                identity((ObjectNode) item.get("current")),
                userFields((ObjectNode) item.get("current")));
          }
        }
        r = r.withStart(ChangeFeedStart.continuation(page.continuation()));
      }
    }
    Map<String, ObjectNode> want = new HashMap<>();
    for (ObjectNode d : oracle.values()) {
      want.put(identity(d), d);
    }
    assertThat(fromAllVersions).isEqualTo(want);
    assertThat(fromLatest).isEqualTo(want);
  }

  private static String identity(ObjectNode d) {
    String key = d.has("pk") ? d.get("pk").toString() : d.get("t") + "," + d.get("u");
    return key + "|" + d.get("id").textValue();
  }
}
