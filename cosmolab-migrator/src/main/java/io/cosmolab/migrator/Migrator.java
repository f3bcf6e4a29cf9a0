package io.cosmolab.migrator;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.ChangeFeedPolicy;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.cost.CostModel;
import io.cosmolab.migrator.MigrationState.Phase;
import io.cosmolab.migrator.internal.Canonical;
import io.cosmolab.migrator.internal.Clients;
import io.cosmolab.migrator.internal.Sdk;
import io.cosmolab.migrator.internal.StateStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;

/**
 * Changes a container's partition key online. {@link #plan} reads the source and reports what would
 * stop a migration; {@link #run} creates the target, takes the source's change-feed position,
 * copies a snapshot, then applies the change feed (all versions and deletes) from that position, so
 * every write made while it copied is applied after it, in order, and the target converges on the
 * source. Progress is saved in the state directory after every page, atomically; a run killed at
 * any point and started again replays at most the page it was in, and writes are idempotent
 * (upserts of whole documents, deletes that tolerate 404), so nothing is lost or doubled and a
 * deleted document stays deleted (its delete comes after every earlier version in the feed).
 *
 * <pre>{@code
 * try (Migrator m = Migrator.open(spec, Path.of("state"), MigratorOptions.of(clock))) {
 *   Plan p = m.plan();
 *   MigrationState s = m.run(true, () -> false);
 *   VerifyReport v = m.verify();
 * }
 * }</pre>
 */
public final class Migrator implements AutoCloseable {
  private static final int LISTED = 20;

  /** Documents per page when plan and verify read a whole container. */
  private static final int READ_PAGE = 1000;

  private final MigrationSpec spec;
  private final TargetKey key;
  private final MigratorOptions options;
  private final StateStore store;
  private final CosmosClient sourceClient;
  private final CosmosClient targetClient;
  private final CosmosContainer source;
  private final Sdk sdk;
  private final ExecutorService writers;
  private CosmosContainer target;
  private TargetKey sourceKey;

  private Migrator(MigrationSpec spec, Path stateDir, MigratorOptions options) {
    this.spec = spec;
    this.key = spec.key();
    this.options = options;
    this.store = new StateStore(stateDir);
    this.sourceClient = Clients.connect(spec.source());
    this.targetClient =
        spec.target().equals(spec.source()) ? sourceClient : Clients.connect(spec.target());
    this.source =
        sourceClient
            .getDatabase(spec.sourceContainer().database())
            .getContainer(spec.sourceContainer().container());
    this.sdk = new Sdk(options, spec.maxRu());
    this.writers = Executors.newFixedThreadPool(options.parallelism());
  }

  /** A migrator for {@code spec}, keeping its state in {@code stateDir}. */
  public static Migrator open(MigrationSpec spec, Path stateDir, MigratorOptions options) {
    return new Migrator(spec, stateDir, options);
  }

  /**
   * A migrator for the migration saved in {@code stateDir}, with the accounts' keys (which are
   * never saved).
   */
  public static Migrator resume(
      Path stateDir, String sourceKey, String targetKey, MigratorOptions options) {
    MigrationState s = new StateStore(stateDir).loadOrNull();
    if (s == null) {
      throw new IllegalStateException("no migration in " + stateDir + " (no state.json)");
    }
    return open(specOf(s, sourceKey, targetKey, 0), stateDir, options);
  }

  /** The spec a saved state describes. */
  public static MigrationSpec specOf(
      MigrationState s, String sourceKey, String targetKey, double maxRu) {
    return new MigrationSpec(
        new Endpoint(java.net.URI.create(s.sourceUri()), sourceKey),
        ContainerRef.parse(s.source()),
        new Endpoint(java.net.URI.create(s.targetUri()), targetKey),
        ContainerRef.parse(s.target()),
        s.partitionKey(),
        OnMissing.parse(s.onMissing()),
        maxRu,
        0);
  }

  public MigrationSpec spec() {
    return spec;
  }

  // ---------------------------------------------------------------------------------- plan

  /** Reads every source document and reports the findings (nothing is written). */
  public Plan plan() {
    long documents = 0;
    long bytes = 0;
    long missing = 0;
    List<String> missingIds = new ArrayList<>();
    long overwrites = 0;
    List<String> overwriteIds = new ArrayList<>();
    Map<String, Long> partitionBytes = new HashMap<>();
    Map<String, Integer> perKeyAndId = new HashMap<>();
    double ru = 0;
    String computed = key.computedPropertyOrNull();
    for (ObjectNode doc : readAll(source)) {
      documents++;
      ObjectNode user = Canonical.userContent(doc, null);
      int size = user.toString().getBytes(StandardCharsets.UTF_8).length;
      bytes += size;
      ru +=
          CostModel.PUBLISHED.pointRead(size, false)
              + CostModel.PUBLISHED.create(size, terms(user));
      String id = doc.path("id").asText();
      if (!key.hasAllPaths(doc)) {
        missing++;
        if (missingIds.size() < LISTED) {
          missingIds.add(id);
        }
        if (spec.onMissing().mode() != OnMissing.Mode.DEFAULT) {
          continue;
        }
      }
      ObjectNode t = key.transform(user, writing());
      if (t == null) {
        continue;
      }
      if (computed != null && doc.has(computed) && !doc.get(computed).equals(t.get(computed))) {
        overwrites++;
        if (overwriteIds.size() < LISTED) {
          overwriteIds.add(id);
        }
      }
      String k = key.keyTextOf(t);
      partitionBytes.merge(k, (long) size, Long::sum);
      perKeyAndId.merge(k + "\u0000" + id, 1, Integer::sum);
    }
    List<Plan.Collision> collisions = new ArrayList<>();
    perKeyAndId.forEach(
        (k, n) -> {
          if (n > 1) {
            int cut = k.indexOf('\u0000');
            collisions.add(new Plan.Collision(k.substring(0, cut), k.substring(cut + 1), n));
          }
        });
    collisions.sort(
        java.util.Comparator.comparing(Plan.Collision::key).thenComparing(Plan.Collision::id));
    String largest = null;
    long largestBytes = 0;
    for (Map.Entry<String, Long> e : new TreeMap<>(partitionBytes).entrySet()) {
      if (e.getValue() > largestBytes) {
        largest = e.getKey();
        largestBytes = e.getValue();
      }
    }
    return new Plan(
        spec.sourceContainer().toString(),
        key.text(),
        documents,
        bytes,
        partitionBytes.size(),
        missing,
        missingIds,
        collisions,
        overwrites,
        overwriteIds,
        largest,
        largestBytes,
        ru,
        spec.maxRu(),
        spec.maxRu() > 0 ? ru / spec.maxRu() : 0);
  }

  private static int terms(JsonNode node) {
    if (node.isContainerNode()) {
      int n = 0;
      for (JsonNode child : node) {
        n += terms(child);
      }
      return n;
    }
    return 1;
  }

  // ----------------------------------------------------------------------------------- run

  /**
   * Copies and catches up. Plans first when starting a new migration, and refuses on blocking
   * findings. Returns when {@code untilCaughtUp} and the feed has nothing new (the lag under 2 s),
   * or when {@code stop} says so (checked after every page and every poll).
   *
   * @throws IllegalStateException listing the blocking findings of a new migration
   */
  public MigrationState run(boolean untilCaughtUp, BooleanSupplier stop) {
    MigrationState state = store.loadOrNull();
    if (state == null) {
      Plan plan = plan();
      List<String> blocking = plan.blocking(spec.onMissing());
      if (!blocking.isEmpty()) {
        throw new IllegalStateException(
            "the plan has blocking findings:\n  " + String.join("\n  ", blocking));
      }
      state = start();
    } else {
      checkSame(state);
      target = targetContainer();
    }
    if (sourceKey == null) {
      sourceKey = sourceKeyOf();
    }
    if (state.phase() == Phase.COPYING) {
      state = copy(state, stop);
      if (state.phase() == Phase.COPYING) {
        return state; // stopped
      }
    }
    return catchUp(state, untilCaughtUp, stop);
  }

  private void checkSame(MigrationState s) {
    if (!s.source().equals(spec.sourceContainer().toString())
        || !s.target().equals(spec.targetContainer().toString())
        || !s.partitionKey().equals(key.text())
        || !s.sourceUri().equals(spec.source().uri().toString())
        || !s.targetUri().equals(spec.target().uri().toString())) {
      throw new IllegalStateException(
          "the state directory holds another migration: "
              + s.source()
              + " -> "
              + s.target()
              + " by "
              + s.partitionKey());
    }
  }

  private MigrationState start() {
    target = createTarget();
    // the feed's position before the snapshot: every write the snapshot may miss comes after it
    String token = drainToken();
    MigrationState s =
        new MigrationState(
            MigrationState.FORMAT,
            spec.source().uri().toString(),
            spec.sourceContainer().toString(),
            spec.target().uri().toString(),
            spec.targetContainer().toString(),
            key.text(),
            spec.onMissing().toString(),
            Phase.COPYING,
            token,
            null,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            now());
    save(s);
    return s;
  }

  private String drainToken() {
    CosmosChangeFeedRequestOptions o =
        CosmosChangeFeedRequestOptions.createForProcessingFromNow(FeedRange.forFullRange())
            .allVersionsAndDeletes();
    String token = null;
    try {
      for (FeedResponse<JsonNode> page :
          source.queryChangeFeed(o, JsonNode.class).iterableByPage(options.pageSize())) {
        // changes after "now" but before the snapshot starts are in the snapshot: skipping them
        // is right. Draining to the end gives every feed range a concrete position (an SDK token
        // may otherwise hold "from now" for a range not yet read, resolved only later).
        token = page.getContinuationToken();
      }
    } catch (CosmosException e) {
      if (e.getStatusCode() == 400) {
        throw new IllegalStateException(
            "the source refuses the all-versions-and-deletes change feed (its changeFeedPolicy"
                + " keeps the latest version only?): enable it before migrating, so deletes"
                + " follow. The service says: "
                + firstLine(e),
            e);
      }
      throw e;
    }
    if (token == null) {
      throw new IllegalStateException("the source's change feed gave no continuation");
    }
    return token;
  }

  private static String firstLine(Exception e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  private CosmosContainer targetContainer() {
    return targetClient
        .getDatabase(spec.targetContainer().database())
        .getContainer(spec.targetContainer().container());
  }

  private TargetKey sourceKeyOf() {
    List<String> paths =
        sdk.call(() -> source.read(), r -> r.getRequestCharge())
            .getProperties()
            .getPartitionKeyDefinition()
            .getPaths();
    return TargetKey.parse(String.join(">", paths));
  }

  /**
   * Creates the target with the new key and the source's indexing policy, default TTL, unique keys,
   * computed properties and change-feed policy; its throughput is the source's unless the spec
   * gives one. An existing target with the same key is reused (a run that crashed between creating
   * it and saving its state).
   */
  private CosmosContainer createTarget() {
    CosmosContainerProperties sp =
        sdk.call(() -> source.read(), r -> r.getRequestCharge()).getProperties();
    CosmosContainer t = targetContainer();
    try {
      CosmosContainerProperties existing = t.read().getProperties();
      if (!existing.getPartitionKeyDefinition().getPaths().equals(key.targetPaths())) {
        throw new IllegalStateException(
            "the target "
                + spec.targetContainer()
                + " exists with the key "
                + existing.getPartitionKeyDefinition().getPaths()
                + ", not "
                + key.targetPaths());
      }
      return t;
    } catch (CosmosException e) {
      if (e.getStatusCode() != 404) {
        throw e;
      }
    }
    CosmosContainerProperties tp =
        new CosmosContainerProperties(spec.targetContainer().container(), key.sdkDefinition());
    if (sp.getIndexingPolicy() != null) {
      tp.setIndexingPolicy(sp.getIndexingPolicy());
    }
    if (sp.getDefaultTimeToLiveInSeconds() != null) {
      tp.setDefaultTimeToLiveInSeconds(sp.getDefaultTimeToLiveInSeconds());
    }
    if (sp.getUniqueKeyPolicy() != null && !sp.getUniqueKeyPolicy().getUniqueKeys().isEmpty()) {
      tp.setUniqueKeyPolicy(sp.getUniqueKeyPolicy());
    }
    if (sp.getComputedProperties() != null && !sp.getComputedProperties().isEmpty()) {
      tp.setComputedProperties(sp.getComputedProperties());
    }
    ChangeFeedPolicy feed = sp.getChangeFeedPolicy();
    if (feed != null) {
      tp.setChangeFeedPolicy(feed);
    }
    ThroughputProperties throughput = throughputFor();
    targetClient.createDatabaseIfNotExists(spec.targetContainer().database());
    var db = targetClient.getDatabase(spec.targetContainer().database());
    if (throughput == null) {
      db.createContainer(tp);
    } else {
      db.createContainer(tp, throughput);
    }
    return t;
  }

  private ThroughputProperties throughputFor() {
    if (spec.targetThroughput() > 0) {
      return ThroughputProperties.createManualThroughput(spec.targetThroughput());
    }
    try {
      ThroughputProperties t = source.readThroughput().getProperties();
      if (t.getAutoscaleMaxThroughput() > 0) {
        return ThroughputProperties.createAutoscaledThroughput(t.getAutoscaleMaxThroughput());
      }
      return t.getManualThroughput() == null
          ? null
          : ThroughputProperties.createManualThroughput(t.getManualThroughput());
    } catch (CosmosException e) {
      if (e.getStatusCode() == 400 || e.getStatusCode() == 404) {
        return null; // shared by its database: the target shares its own database's
      }
      throw e;
    }
  }

  private MigrationState copy(MigrationState s, BooleanSupplier stop) {
    String cont = s.copyContinuation();
    while (true) {
      Iterator<FeedResponse<ObjectNode>> pages =
          source
              .queryItems("SELECT * FROM c", new CosmosQueryRequestOptions(), ObjectNode.class)
              .iterableByPage(cont, options.pageSize())
              .iterator();
      try {
        while (true) {
          FeedResponse<ObjectNode> page =
              sdk.page(
                  () -> pages.hasNext() ? pages.next() : null,
                  p -> p == null ? 0 : p.getRequestCharge());
          if (page == null) {
            break;
          }
          long[] counts = copyPage(page.getResults());
          cont = page.getContinuationToken();
          s =
              with(
                  s,
                  cont == null ? Phase.CATCHING_UP : Phase.COPYING,
                  s.feedContinuation(),
                  cont,
                  counts[0],
                  counts[1],
                  0,
                  0,
                  s.lagSeconds(),
                  s.caughtUpAtMillis());
          save(s);
          if (cont == null) {
            return s;
          }
          if (stop.getAsBoolean()) {
            return s;
          }
        }
        s =
            with(
                s,
                Phase.CATCHING_UP,
                s.feedContinuation(),
                null,
                0,
                0,
                0,
                0,
                s.lagSeconds(),
                s.caughtUpAtMillis());
        save(s);
        return s;
      } catch (CosmosException e) {
        if (e.getStatusCode() != 429) {
          throw e;
        }
        // a throttled page inside the SDK's iterator: start again from the last saved page
      }
    }
  }

  /** Upserts a snapshot page in parallel; returns {copied, skipped}. */
  private long[] copyPage(List<ObjectNode> docs) {
    List<Runnable> work = new ArrayList<>();
    long[] counts = new long[2];
    for (ObjectNode doc : docs) {
      ObjectNode t = key.transform(Canonical.userContent(doc, null), writing());
      if (t == null) {
        counts[1]++;
        continue;
      }
      counts[0]++;
      work.add(() -> upsert(t));
    }
    runAll(work);
    return counts;
  }

  private void upsert(ObjectNode t) {
    options.fault().before("upsert");
    com.azure.cosmos.models.PartitionKey pk = key.sdkKeyOf(t);
    sdk.call(
        () -> target.upsertItem(t, pk, new CosmosItemRequestOptions()), r -> r.getRequestCharge());
  }

  private void delete(String id, com.azure.cosmos.models.PartitionKey pk) {
    options.fault().before("delete");
    try {
      sdk.call(
          () -> target.deleteItem(id, pk, new CosmosItemRequestOptions()),
          r -> r.getRequestCharge());
    } catch (CosmosException e) {
      if (e.getStatusCode() != 404) {
        throw e;
      }
    }
  }

  private void runAll(List<Runnable> work) {
    if (work.size() == 1) {
      work.get(0).run();
      return;
    }
    List<Future<?>> futures = new ArrayList<>();
    for (Runnable r : work) {
      futures.add(writers.submit(r));
    }
    RuntimeException failure = null;
    for (Future<?> f : futures) {
      try {
        f.get();
      } catch (ExecutionException e) {
        if (failure == null) {
          failure =
              e.getCause() instanceof RuntimeException re
                  ? re
                  : new IllegalStateException(e.getCause());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private MigrationState catchUp(MigrationState s, boolean untilCaughtUp, BooleanSupplier stop) {
    while (true) {
      Iterator<FeedResponse<JsonNode>> pages =
          source
              .queryChangeFeed(
                  CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(
                      s.feedContinuation()),
                  JsonNode.class)
              .iterableByPage(options.pageSize())
              .iterator();
      boolean stopped = false;
      try {
        while (true) {
          FeedResponse<JsonNode> page =
              sdk.page(
                  () -> pages.hasNext() ? pages.next() : null,
                  p -> p == null ? 0 : p.getRequestCharge());
          if (page == null) {
            break;
          }
          List<JsonNode> records = page.getResults();
          long[] counts = applyPage(records);
          double lag = lagOf(records, s.lagSeconds());
          s =
              with(
                  s,
                  Phase.CATCHING_UP,
                  page.getContinuationToken(),
                  null,
                  0,
                  counts[2],
                  counts[0],
                  counts[1],
                  lag,
                  s.caughtUpAtMillis());
          save(s);
          if (stop.getAsBoolean()) {
            stopped = true;
            break;
          }
        }
      } catch (CosmosException e) {
        if (e.getStatusCode() == 400) {
          throw new IllegalStateException(
              "the source refused the saved change-feed position (older than its change-feed"
                  + " retention?): what happened since is no longer in the feed. Drop the target"
                  + " and the state directory and start again, with a longer changeFeedPolicy"
                  + " retention on the source. The service says: "
                  + firstLine(e),
              e);
        }
        if (e.getStatusCode() != 429) {
          throw e;
        }
        continue; // from the last saved page
      }
      if (!stopped) { // the feed had nothing new
        s = with(s, Phase.CATCHING_UP, s.feedContinuation(), null, 0, 0, 0, 0, 0, now());
        save(s);
        if (untilCaughtUp) {
          return s;
        }
      }
      if (stopped || stop.getAsBoolean()) {
        return s;
      }
      sleep(options.pollInterval());
    }
  }

  private double lagOf(List<JsonNode> records, double previous) {
    long newest = -1;
    for (JsonNode r : records) {
      newest = Math.max(newest, r.path("metadata").path("crts").asLong(-1));
    }
    if (newest < 0) {
      return previous;
    }
    return Math.max(0, now() / 1000.0 - newest);
  }

  /**
   * Applies change-feed records: grouped by id, each group in feed order, the groups in parallel
   * (records of one document never race). Returns {applied, deleted, skipped}.
   */
  private long[] applyPage(List<JsonNode> records) {
    Map<String, List<JsonNode>> byId = new LinkedHashMap<>();
    for (JsonNode r : records) {
      byId.computeIfAbsent(idOf(r), k -> new ArrayList<>()).add(r);
    }
    long[] counts = new long[3];
    List<Runnable> work = new ArrayList<>();
    for (List<JsonNode> group : byId.values()) {
      for (JsonNode r : group) {
        counts[0]++;
        if (isDelete(r)) {
          counts[1]++;
        } else if (writing().mode() == OnMissing.Mode.SKIP
            && r.get("current") instanceof ObjectNode c
            && !key.hasAllPaths(c)) {
          counts[2]++;
        }
      }
      work.add(() -> group.forEach(this::apply));
    }
    runAll(work);
    return counts;
  }

  /**
   * How documents lacking the key are handled once a run has started: {@code fail} stopped a run
   * whose plan found any; a document that arrives later without the key is skipped and counted (a
   * run cannot stop on it without stopping for good, since it would meet it again on resume).
   */
  private OnMissing writing() {
    return spec.onMissing().mode() == OnMissing.Mode.FAIL ? OnMissing.SKIP : spec.onMissing();
  }

  private static String idOf(JsonNode r) {
    JsonNode current = r.path("current");
    if (current.has("id")) {
      return current.get("id").asText();
    }
    if (r.path("previous").has("id")) {
      return r.path("previous").get("id").asText();
    }
    return r.path("metadata").path("id").asText();
  }

  private static boolean isDelete(JsonNode r) {
    return "delete".equalsIgnoreCase(r.path("metadata").path("operationType").asText());
  }

  private void apply(JsonNode r) {
    JsonNode previous = r.get("previous");
    ObjectNode oldTarget =
        previous instanceof ObjectNode p && p.has("id")
            ? key.transform(Canonical.userContent(p, null), writing())
            : null;
    if (isDelete(r)) {
      if (oldTarget != null) {
        delete(oldTarget.get("id").asText(), key.sdkKeyOf(oldTarget));
      } else if (!(previous instanceof ObjectNode p && p.has("id"))) {
        deleteLocated(idOf(r), r.path("metadata").get("partitionKey"), null);
      }
      return;
    }
    ObjectNode current = (ObjectNode) r.get("current");
    ObjectNode t = key.transform(Canonical.userContent(current, null), writing());
    String newKey = t == null ? null : key.keyTextOf(t);
    if (oldTarget != null) {
      if (!key.keyTextOf(oldTarget).equals(newKey)) { // the new key's value changed
        delete(oldTarget.get("id").asText(), key.sdkKeyOf(oldTarget));
      }
    } else if (previous == null
        && "replace".equalsIgnoreCase(r.path("metadata").path("operationType").asText())) {
      // no previous image (the service gives none for replaces): find the old copy by id
      deleteLocated(current.get("id").asText(), sourceKeyJson(current), newKey);
    }
    if (t != null) {
      upsert(t);
    }
  }

  private JsonNode sourceKeyJson(ObjectNode sourceDoc) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper()
          .readTree(sourceKey.keyTextOf(sourceDoc));
    } catch (java.io.IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Deletes the target copies of the source document {@code id} whose source key is {@code
   * sourcePk} (any, when null), except the one under {@code keep}: for a feed without previous
   * images.
   */
  private void deleteLocated(String id, JsonNode sourcePk, String keep) {
    SqlQuerySpec q =
        new SqlQuerySpec("SELECT * FROM c WHERE c.id = @id", List.of(new SqlParameter("@id", id)));
    for (ObjectNode doc : readAll(target, q)) {
      String k = key.keyTextOf(doc);
      if (k.equals(keep)) {
        continue;
      }
      JsonNode theirs = sourceKeyJson(doc);
      if (sourcePk == null || theirs == null || sameKey(theirs, sourcePk)) {
        delete(id, key.sdkKeyOf(doc));
      }
    }
  }

  private static boolean sameKey(JsonNode a, JsonNode b) {
    JsonNode x = a.isArray() ? a : new com.fasterxml.jackson.databind.node.ArrayNode(null).add(a);
    JsonNode y =
        b.isArray()
            ? b
            : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode().add(b);
    return Canonical.text(x).equals(Canonical.text(y));
  }

  private MigrationState with(
      MigrationState s,
      Phase phase,
      String feed,
      String copyCont,
      long copied,
      long skipped,
      long applied,
      long deleted,
      double lag,
      long caughtUp) {
    return new MigrationState(
        s.format(),
        s.sourceUri(),
        s.source(),
        s.targetUri(),
        s.target(),
        s.partitionKey(),
        s.onMissing(),
        phase,
        feed,
        copyCont,
        s.copied() + copied,
        s.skipped() + skipped,
        s.applied() + applied,
        s.deleted() + deleted,
        sdk.throttled() + baseThrottled(s),
        sdk.charged() + baseCharged(s),
        lag,
        caughtUp,
        now());
  }

  // counts of earlier runs, carried into this one's totals
  private Long throttledBase;
  private Double chargedBase;

  private long baseThrottled(MigrationState s) {
    if (throttledBase == null) {
      throttledBase = s.throttled();
    }
    return throttledBase;
  }

  private double baseCharged(MigrationState s) {
    if (chargedBase == null) {
      chargedBase = s.requestUnits();
    }
    return chargedBase;
  }

  private void save(MigrationState s) {
    options.fault().before("save");
    store.save(s);
  }

  private long now() {
    return options.clock().millis();
  }

  private void sleep(Duration d) {
    try {
      options.sleeper().sleep(d);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  // -------------------------------------------------------------------------------- status

  /** The saved state, or null before the first run. */
  public MigrationState status() {
    return store.loadOrNull();
  }

  // -------------------------------------------------------------------------------- verify

  /**
   * Compares source and target per logical partition of the target. Exact when the source is quiet
   * and the feed drained; during catch-up, differences are the writes not yet applied.
   */
  public VerifyReport verify() {
    if (target == null) {
      target = targetContainer();
    }
    String computed = key.computedPropertyOrNull();
    // partition -> id -> hash
    Map<String, Map<String, Long>> expected = new TreeMap<>();
    long sourceDocs = 0;
    for (ObjectNode doc : readAll(source)) {
      ObjectNode t = key.transform(Canonical.userContent(doc, null), writing());
      if (t == null) {
        continue;
      }
      sourceDocs++;
      expected
          .computeIfAbsent(key.keyTextOf(t), k -> new HashMap<>())
          .put(t.path("id").asText(), Canonical.hash(Canonical.userContent(t, computed)));
    }
    Map<String, Map<String, Long>> actual = new TreeMap<>();
    long targetDocs = 0;
    for (ObjectNode doc : readAll(target)) {
      targetDocs++;
      actual
          .computeIfAbsent(key.keyTextOf(doc), k -> new HashMap<>())
          .put(doc.path("id").asText(), Canonical.hash(Canonical.userContent(doc, computed)));
    }
    TreeSet<String> partitions = new TreeSet<>(expected.keySet());
    partitions.addAll(actual.keySet());
    List<VerifyReport.Difference> differences = new ArrayList<>();
    long differing = 0;
    for (String p : partitions) {
      Map<String, Long> e = expected.getOrDefault(p, Map.of());
      Map<String, Long> a = actual.getOrDefault(p, Map.of());
      if (e.size() == a.size() && sum(e) == sum(a)) {
        continue; // count and order-independent hash agree
      }
      differing++;
      TreeSet<String> ids = new TreeSet<>(e.keySet());
      ids.addAll(a.keySet());
      for (String id : ids) {
        Long x = e.get(id);
        Long y = a.get(id);
        if (y == null) {
          differences.add(new VerifyReport.Difference(VerifyReport.Kind.MISSING, p, id));
        } else if (x == null) {
          differences.add(new VerifyReport.Difference(VerifyReport.Kind.EXTRA, p, id));
        } else if (!x.equals(y)) {
          differences.add(new VerifyReport.Difference(VerifyReport.Kind.DIFFERENT, p, id));
        }
      }
    }
    return new VerifyReport(partitions.size(), differing, sourceDocs, targetDocs, differences);
  }

  private static long sum(Map<String, Long> hashes) {
    long s = 0;
    for (long h : hashes.values()) {
      s += h;
    }
    return s;
  }

  // ------------------------------------------------------------------------------- cutover

  /**
   * Waits until the source has been quiet (no change in the feed) for {@code quiet}, drains the
   * feed, verifies and says whether to switch.
   */
  public Cutover cutover(Duration quiet, Duration timeout) {
    long deadline = now() + timeout.toMillis();
    MigrationState s = run(true, () -> false);
    long lastChange = now();
    long applied = s.applied();
    while (now() - lastChange < quiet.toMillis()) {
      if (now() > deadline) {
        return new Cutover(
            false,
            "the source never went quiet for "
                + quiet.toSeconds()
                + " s within "
                + timeout.toSeconds()
                + " s: stop the writers and run cutover again",
            null,
            s);
      }
      sleep(options.pollInterval());
      s = run(true, () -> false);
      if (s.applied() != applied) {
        applied = s.applied();
        lastChange = now();
      }
    }
    VerifyReport v = verify();
    if (v.equal()) {
      return new Cutover(
          true,
          "safe to switch: point the application at "
              + spec.target()
              + " "
              + spec.targetContainer()
              + " (key "
              + key.targetPaths()
              + "); keep the writers stopped until it does",
          v,
          s);
    }
    return new Cutover(
        false,
        v.differences().size()
            + " documents differ: do not switch; run"
            + " `migrate run` again (writes may have resumed) and then cutover",
        v,
        s);
  }

  // --------------------------------------------------------------------------------- reads

  private Iterable<ObjectNode> readAll(CosmosContainer c) {
    return readAll(c, new SqlQuerySpec("SELECT * FROM c"));
  }

  /** Every result of a query, page by page through the RU cap, restarting a throttled page. */
  private Iterable<ObjectNode> readAll(CosmosContainer c, SqlQuerySpec q) {
    return () ->
        new Iterator<>() {
          private String cont;
          private boolean done;
          private Iterator<ObjectNode> page = java.util.Collections.emptyIterator();
          private Iterator<FeedResponse<ObjectNode>> pages;

          @Override
          public boolean hasNext() {
            while (!page.hasNext() && !done) {
              try {
                if (pages == null) {
                  pages =
                      c.queryItems(q, new CosmosQueryRequestOptions(), ObjectNode.class)
                          .iterableByPage(cont, Math.max(READ_PAGE, options.pageSize()))
                          .iterator();
                }
                Iterator<FeedResponse<ObjectNode>> ps = pages;
                FeedResponse<ObjectNode> p =
                    sdk.page(
                        () -> ps.hasNext() ? ps.next() : null,
                        r -> r == null ? 0 : r.getRequestCharge());
                if (p == null) {
                  done = true;
                } else {
                  page = p.getResults().iterator();
                  cont = p.getContinuationToken();
                  done = cont == null;
                }
              } catch (CosmosException e) {
                if (e.getStatusCode() != 429) {
                  throw e;
                }
                pages = null; // again from the last page read
              }
            }
            return page.hasNext();
          }

          @Override
          public ObjectNode next() {
            if (!hasNext()) {
              throw new java.util.NoSuchElementException();
            }
            return page.next();
          }
        };
  }

  @Override
  public void close() {
    writers.shutdownNow();
    if (targetClient != sourceClient) {
      targetClient.close();
    }
    sourceClient.close();
  }
}
