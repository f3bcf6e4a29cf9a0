package io.cosmolab.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.batch.BatchOperation;
import io.cosmolab.engine.batch.BatchResult;
import io.cosmolab.engine.changefeed.ChangeFeedPage;
import io.cosmolab.engine.changefeed.ChangeFeedRequest;
import io.cosmolab.engine.document.DocumentCondition;
import io.cosmolab.engine.document.PatchOperation;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.limits.Limits;
import io.cosmolab.engine.metrics.LogicalPartitionStats;
import io.cosmolab.engine.metrics.PartitionEvent;
import io.cosmolab.engine.metrics.PartitionMetrics;
import io.cosmolab.engine.metrics.PartitionStats;
import io.cosmolab.engine.metrics.RetiredPartition;
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.resource.ResourceIds;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.routing.RoutingMap;
import io.cosmolab.engine.routing.SplitPoints;
import io.cosmolab.engine.store.ContainerStore;
import io.cosmolab.engine.store.StoredDocument;
import io.cosmolab.engine.throughput.PartitionBudget.Admission;
import io.cosmolab.engine.throughput.Throughput;
import io.cosmolab.engine.throughput.ThroughputBuckets;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * A container: documents placed in physical partitions by the EPK of their partition key, every
 * operation charged in request units against the budget of the partition that serves it.
 *
 * <p>Point operations take the partition key (or read it from the document); a document is
 * identified by (partition key, id). Failures are {@link CosmosException}s with the service's
 * status and sub-status; a failed operation writes nothing.
 */
/*
 * The facade over a container's parts, each with one job and its own concurrency note:
 * - PartitionLayout: the routing map, budgets and usage as one immutable Layout, and the splits,
 *   merges and throughput changes that replace it;
 * - WritePath: transactions under per-partition locks, the commit gate (LSNs), time to live;
 * - Throttle: admission and charges against the partition budgets;
 * - ContainerStats: usage and load per partition and logical partition;
 * - ChangeLogRetention, ChangeFeedReader, QueryRunner: the change log kept bounded, read and
 *   queried;
 * - LiveDocuments: what queries read, the live documents and the index's candidates;
 * - WalkMarks: what lets an ORDER BY page keep its walk while its partitions are written;
 * - Recovery: where a reopened container's counters continue.
 * Readers (point reads, queries, the change feed) take no lock: they read one layout and the
 * store, and the change log only up to the committed LSN.
 */
public final class Container {

  private final Database database;
  private final CosmosEngine engine;
  private final String id;
  private final byte[] ridBytes;
  private final String rid;
  private final String selfLink;
  private final PartitionKeyDefinition partitionKey;
  private final ContainerStore store;
  private final long createdMillis;
  private final StoredText.Source texts;
  private final int ordinal;

  private final PartitionMetrics metrics = new PartitionMetrics();
  private final io.cosmolab.engine.metrics.QueryStats queryStats =
      new io.cosmolab.engine.metrics.QueryStats();
  private final LogicalPartitions logical = new LogicalPartitions();
  private final TimeToLive ttl;
  private final io.cosmolab.engine.index.ContainerIndex index;
  private final java.util.List<java.util.List<String>> uniqueKeys;
  private volatile StoredProperties stored;
  private final io.cosmolab.engine.script.Scripts scripts;
  private final PartitionLayout layout;
  private final Throttle throttle;
  private final ChangeLogRetention retention;
  private final WritePath writes;
  private final HighWaterMarks highWaterMarks;
  private final ContainerScripts scripting;
  private final ContainerStats stats;
  private final LiveDocuments reads;
  private final WalkMarks walkMarks;

  private volatile Throughput throughput; // null: the database's shared throughput
  private volatile Integer changeFeedRetentionMinutes; // null: no change feed policy
  private volatile double maxEverProvisioned;

  /**
   * What the catalog recorded of a container that is being restored: its creation time, partition
   * layout and the highest throughput it ever had. Everything else (LSN, document sequence, usage
   * per partition and logical partition, time-to-live schedule) is rebuilt from its documents and
   * change log.
   */
  record Restored(
      long createdMillis,
      RoutingMap routing,
      double maxEverProvisioned,
      ThroughputBuckets buckets) {}

  Container(
      Database database,
      ContainerSettings settings,
      Throughput throughput,
      int ordinal,
      Restored restored) {
    this.database = database;
    this.engine = database.engine();
    this.id = settings.id();
    this.partitionKey = settings.partitionKey();
    this.ridBytes = ResourceIds.container(database.ridBytes(), ordinal);
    this.rid = ResourceIds.encode(ridBytes);
    this.selfLink = "dbs/" + database.rid() + "/colls/" + rid + "/";
    this.store = engine.store().open(rid);
    this.createdMillis = restored != null ? restored.createdMillis() : engine.clock().millis();
    this.texts = new StoredText.Source(ridBytes, selfLink, ordinal); // the ordinal salts etags
    this.ordinal = ordinal;
    this.throughput = throughput;
    double everProvisioned = throughput == null ? 0 : throughput.maxRuPerSecond();
    this.ttl = new TimeToLive(settings.defaultTimeToLive(), store);
    this.index = new io.cosmolab.engine.index.ContainerIndex(settings.indexingPolicy());
    this.uniqueKeys = settings.uniqueKeys();
    this.stored = StoredProperties.of(settings.storedProperties());
    this.index.setComputed(stored.computed());
    this.scripts =
        new io.cosmolab.engine.script.Scripts(
            ridBytes, selfLink, engine.clock(), engine::catalogChanged);
    Recovery recovered = Recovery.NEW;
    if (restored != null) {
      everProvisioned = Math.max(everProvisioned, restored.maxEverProvisioned());
      recovered = Recovery.of(store, logical, ttl);
    }
    this.maxEverProvisioned = everProvisioned;
    RoutingMap routing =
        restored != null
            ? restored.routing()
            : RoutingMap.of(
                SplitPoints.evenBoundaries(partitionKey, initialPartitions(settings, throughput)));
    this.highWaterMarks =
        new HighWaterMarks(
            store,
            recovered.lsn(),
            recovered.documentSequence(),
            recovered.rangeLsns(),
            this::retentionHorizon,
            this::retentionStragglers);
    this.layout =
        new PartitionLayout(
            engine,
            partitionKey,
            logical,
            metrics,
            routing,
            throughput,
            highWaterMarks,
            recovered::startLsn);
    this.throttle =
        new Throttle(
            engine,
            database,
            partitionKey.version() == 1,
            metrics,
            layout,
            () -> this.throughput != null,
            restored != null ? restored.buckets() : ThroughputBuckets.NONE);
    this.changeFeedRetentionMinutes = settings.changeFeedRetentionMinutes();
    this.retention =
        new ChangeLogRetention(
            store,
            retentionFor(settings.changeFeedRetentionMinutes()),
            recovered.retentionHorizon(),
            recovered.stragglersFrom());
    this.writes =
        new WritePath(
            this,
            engine,
            store,
            ttl,
            index,
            logical,
            layout,
            throttle,
            retention,
            () -> this.throughput,
            highWaterMarks,
            recovered.lsn(),
            recovered.documentSequence());
    this.scripting = new ContainerScripts(this, engine, writes);
    this.stats = new ContainerStats(engine, metrics, logical, layout, throttle);
    this.reads = new LiveDocuments(store, ttl, index, writes, engine.clock());
    this.walkMarks = new WalkMarks(layout, store, retention, this::lsn, writes::lastTakenLsn);
  }

  private long retentionHorizon() {
    return retention.horizon();
  }

  private long retentionStragglers() {
    return retention.stragglersFrom();
  }

  int ordinal() {
    return ordinal;
  }

  /** At a clean close, with no write in flight: the marks become the last values used. */
  void saveExactMarks() {
    writes.saveExactMarks();
  }

  double maxEverProvisioned() {
    return maxEverProvisioned;
  }

  /**
   * The highest dedicated RU/s this container has had, across replaces and restarts (its offer's
   * {@code maxThroughputEverProvisioned}, which bounds how low it may go: a tenth of it).
   */
  public double maxThroughputEverProvisioned() {
    return maxEverProvisioned;
  }

  byte[] ridBytes() {
    return ridBytes;
  }

  private int initialPartitions(ContainerSettings settings, Throughput t) {
    if (settings.physicalPartitions() != null) {
      return settings.physicalPartitions();
    }
    if (engine.defaultPhysicalPartitions() != null) {
      return engine.defaultPhysicalPartitions();
    }
    if (t == null) {
      return Math.max(1, database.sharedSlices());
    }
    return (int) Math.max(1, Math.ceil(t.maxRuPerSecond() / t.creationRuPerPartition(limits())));
  }

  // ------------------------------------------------------------------ identity and settings

  public String id() {
    return id;
  }

  /** The container's RID (8 bytes, Base64). */
  public String rid() {
    return rid;
  }

  /** {@code dbs/{dbRid}/colls/{collRid}/}. */
  public String selfLink() {
    return selfLink;
  }

  public Database database() {
    return database;
  }

  public PartitionKeyDefinition partitionKey() {
    return partitionKey;
  }

  public long createdMillis() {
    return createdMillis;
  }

  /** The dedicated throughput, or empty when the container uses its database's. */
  public Optional<Throughput> throughput() {
    return Optional.ofNullable(throughput);
  }

  /**
   * The lowest dedicated throughput this container may be set to now (RU/s, or maximum RU/s for
   * autoscale): the service's rule over stored bytes and the highest throughput ever provisioned.
   * Empty when the container uses its database's throughput.
   */
  public Optional<Double> minimumThroughput() {
    Throughput t = throughput;
    return t == null
        ? Optional.empty()
        : Optional.of(t.minimum(limits(), storedBytes(), maxEverProvisioned));
  }

  /** The container's stored procedures, triggers and user-defined functions. */
  public io.cosmolab.engine.script.Scripts scripts() {
    return scripts;
  }

  /**
   * The unique keys ({@code uniqueKeyPolicy}): each a list of paths whose values together are
   * unique within a logical partition. Fixed at creation.
   */
  public java.util.List<java.util.List<String>> uniqueKeys() {
    return uniqueKeys;
  }

  /** The properties kept and echoed as sent (a copy). */
  public com.fasterxml.jackson.databind.node.ObjectNode storedProperties() {
    return stored.copy();
  }

  /**
   * Replaces the properties kept and echoed as sent (a container replace may), with the computed
   * properties and search policies they define, at once.
   *
   * @throws io.cosmolab.engine.error.CosmosException 400 for a definition the service refuses
   */
  public void setStoredProperties(com.fasterxml.jackson.databind.node.ObjectNode properties) {
    StoredProperties next = StoredProperties.of(properties);
    stored = next;
    index.setComputed(next.computed());
    engine.catalogChanged();
  }

  /**
   * The computed properties (kept with the stored properties as {@code computedProperties}, and
   * echoed as sent), which queries over this container read as if they were stored.
   */
  public io.cosmolab.query.ComputedProperties computedProperties() {
    return stored.computed();
  }

  /**
   * The vector embedding and full-text policies (kept with the stored properties, and echoed as
   * sent), which VectorDistance and the full-text functions read.
   */
  public io.cosmolab.query.SearchPolicy searchPolicy() {
    return stored.search();
  }

  /**
   * Applies a new indexing policy. The service re-indexes online and reports its progress; here an
   * index holds the values at its path whatever the policy, and queries consult the policy for
   * which paths they may use, so the new policy applies at once (progress 100 %). Documents written
   * before keep the index-term count they were charged for until they are written again [A].
   */
  public void setIndexingPolicy(io.cosmolab.engine.index.IndexingPolicy policy) {
    index.setPolicy(java.util.Objects.requireNonNull(policy, "policy"));
    engine.catalogChanged();
  }

  /** The default time to live: null (off), -1 (on, no default) or seconds. */
  public Integer defaultTimeToLive() {
    return ttl.defaultSeconds();
  }

  /** Changes the default time to live; documents' expiry is re-evaluated at once. */
  public void setDefaultTimeToLive(Integer seconds) {
    ContainerSettings.checkTimeToLive(seconds);
    layout.exclusive(
        () -> {
          ttl.setDefault(seconds);
          engine.catalogChanged();
          return null;
        });
    writes.expireDue(now(), true);
  }

  /**
   * The container's change feed policy: minutes of all-versions history, 0 for the latest-version
   * feed only, null without a policy (the engine's window applies).
   */
  public Integer changeFeedRetentionMinutes() {
    return changeFeedRetentionMinutes;
  }

  /** Changes the change feed policy (a container replace may). */
  public void setChangeFeedRetentionMinutes(Integer minutes) {
    ContainerSettings.checkChangeFeedRetention(minutes);
    changeFeedRetentionMinutes = minutes;
    retention.setRetention(retentionFor(minutes));
    engine.catalogChanged();
  }

  /** The window of a policy; the engine's bound on history LSNs holds whatever the policy. */
  private io.cosmolab.engine.changefeed.Retention retentionFor(Integer minutes) {
    io.cosmolab.engine.changefeed.Retention engineWide = engine.changeFeedRetention();
    if (minutes == null) {
      return engineWide;
    }
    // latest version only: no history is needed, so the shortest window
    java.time.Duration window =
        minutes == 0 ? java.time.Duration.ofMillis(1) : java.time.Duration.ofMinutes(minutes);
    return new io.cosmolab.engine.changefeed.Retention(window, engineWide.maxHistory());
  }

  /** The current partition key range map (an immutable snapshot). */
  public RoutingMap routing() {
    return layout.current().routing();
  }

  /**
   * The partition of {@code map} that a client's request names by its range id, or empty when the
   * id is not in it. A range that a split or a merge of this container replaced is counted as asked
   * for ({@link #goneRangeRequests}): a client that keeps asking for one is not recovering from the
   * layout change. Callers answer the empty case with their 410.
   */
  public java.util.Optional<io.cosmolab.engine.routing.PartitionKeyRange> rangeNamed(
      RoutingMap map, String rangeId) {
    java.util.Optional<io.cosmolab.engine.routing.PartitionKeyRange> r = map.byId(rangeId);
    if (r.isEmpty()) {
      metrics.goneRangeRequests().record(rangeId, engine.clock().millis());
    }
    return r;
  }

  /** {@link #rangeNamed}, or 410/1002 (PartitionKeyRangeGone) when the id is not in {@code map}. */
  public io.cosmolab.engine.routing.PartitionKeyRange requireRangeNamed(
      RoutingMap map, String rangeId) {
    return rangeNamed(map, rangeId).orElseGet(() -> map.require(rangeId));
  }

  /** Requests that named a range a split or a merge replaced, for the alert rules. */
  public io.cosmolab.engine.metrics.GoneRangeRequests goneRangeRequests() {
    return metrics.goneRangeRequests();
  }

  /**
   * The change log's position: the container-wide sequence of the last committed write (every write
   * at or below it has finished). Change-feed continuations are positions. Clients see each
   * physical partition's own LSN instead: {@link #lsn(String)}.
   */
  public long lsn() {
    return writes.committedLsn();
  }

  /**
   * The LSN of a physical partition: the number of the last write it committed, in its own
   * numbering (1, 2, 3…; the children of a split go on from their parent's, a merge from the higher
   * of its parents'), as the service's {@code _lsn}, {@code lsn} header and session tokens carry.
   * For a range id that is gone (split or merged) or null: the highest of the partitions now, which
   * is at or above every LSN that range ever had.
   */
  public long lsn(String rangeId) {
    Layout l = layout.current();
    Layout.Partition p = rangeId == null ? null : l.partition(rangeId);
    if (p != null) {
      return p.lsn();
    }
    long max = 0;
    for (Layout.Partition q : l.partitions().values()) {
      max = Math.max(max, q.lsn());
    }
    return max;
  }

  /** The highest LSN of the partitions that serve these ranges (for a change-feed page). */
  long lsnOver(List<PartitionKeyRange> ranges) {
    long max = 0;
    for (PartitionKeyRange r : ranges) {
      max = Math.max(max, lsn(r.id()));
    }
    return max;
  }

  /** The number of documents stored (expired ones not yet removed included). */
  public long documentCount() {
    return store.documentCount();
  }

  private Limits limits() {
    return engine.limits();
  }

  private long now() {
    return engine.clock().millis();
  }

  // ------------------------------------------------------------------ point operations

  /** Creates a document, taking its partition key from the document. */
  public ItemResponse create(ObjectNode document) {
    return create(null, document);
  }

  /**
   * Creates a document.
   *
   * @param key the partition key the client sent, or null to take it from the document
   * @throws CosmosException 409 if (key, id) exists; 400/1001 if {@code key} does not match the
   *     document; 403/1014 if the logical partition would pass its storage limit; 413 if the
   *     document is over 2 MB; 429 when throttled
   */
  public ItemResponse create(PartitionKeyValue key, ObjectNode document) {
    return create(key, document, ItemOptions.NONE);
  }

  /** Creates a document with options (its triggers and {@link ItemOptions#excludedFromIndex}). */
  public ItemResponse create(PartitionKeyValue key, ObjectNode document, ItemOptions options) {
    Target t = Target.of(partitionKey, key, document);
    if (options.hasTriggers()) {
      return scripting.triggered(
          t,
          "Create",
          document,
          options,
          (tx, tt, doc) -> tx.create(tt, tx.prepared(tt, doc, !options.excludedFromIndex())));
    }
    return writes.write(
        t, document, !options.excludedFromIndex(), (tx, prepared) -> tx.create(t, prepared));
  }

  /** Creates the document, or replaces the one with the same (key, id). 201 or 200. */
  public ItemResponse upsert(PartitionKeyValue key, ObjectNode document, ItemOptions options) {
    Target t = Target.of(partitionKey, key, document);
    if (options.hasTriggers()) {
      return scripting.triggered(
          t,
          "Upsert",
          document,
          options,
          (tx, tt, doc) ->
              tx.upsert(tt, tx.prepared(tt, doc, !options.excludedFromIndex()), options.ifMatch()));
    }
    return writes.write(
        t,
        document,
        !options.excludedFromIndex(),
        (tx, prepared) -> tx.upsert(t, prepared, options.ifMatch()));
  }

  public ItemResponse upsert(ObjectNode document) {
    return upsert(null, document, ItemOptions.NONE);
  }

  /**
   * Reads a document.
   *
   * @throws CosmosException 404 if there is none (or it expired)
   */
  public ItemResponse read(PartitionKeyValue key, String id, ItemOptions options) {
    Target t = Target.of(partitionKey, key, id);
    long now = now();
    Layout.Partition partition = layout.current().partitionFor(t.epk());
    PartitionKeyRange range = partition.range;
    Admission admission = throttle.admit(range, t.epk(), now);
    StoredDocument d = store.get(t.epk(), id);
    long lsn = partition.lsn();
    if (d == null || ttl.isExpired(d, now)) {
      throttle.spend(range, t.epk(), admission, 1.0, now);
      throw CosmosError.NOT_FOUND
          .exception(
              "document '%s' with partition key %s does not exist in container '%s'",
              id, key, this.id)
          .refusedBy(1.0, range.id(), lsn);
    }
    double charge = engine.costs().pointRead(d.sizeBytes(), options.strongRead());
    throttle.spend(range, t.epk(), admission, charge, now);
    if (ItemOptions.unchanged(options.ifNoneMatch(), d.etag())) {
      return new ItemResponse(304, null, charge, d.etag(), lsn, range.id());
    }
    return new ItemResponse(200, d.body(), charge, d.etag(), lsn, range.id(), d);
  }

  public ItemResponse read(PartitionKeyValue key, String id) {
    return read(key, id, ItemOptions.NONE);
  }

  /** Replaces a document; the body's id must be {@code id} and its key must be {@code key}. */
  public ItemResponse replace(
      PartitionKeyValue key, String id, ObjectNode document, ItemOptions options) {
    Target t = Target.of(partitionKey, key, id);
    t.checkBodyMatches(partitionKey, document);
    if (options.hasTriggers()) {
      return scripting.triggered(
          t,
          "Replace",
          document,
          options,
          (tx, tt, doc) -> {
            tt.checkBodyMatches(partitionKey, doc);
            return tx.replace(
                tt, tx.prepared(tt, doc, !options.excludedFromIndex()), options.ifMatch());
          });
    }
    return writes.write(
        t,
        document,
        !options.excludedFromIndex(),
        (tx, prepared) -> tx.replace(t, prepared, options.ifMatch()));
  }

  public ItemResponse replace(PartitionKeyValue key, String id, ObjectNode document) {
    return replace(key, id, document, ItemOptions.NONE);
  }

  /** Deletes a document. 204. */
  public ItemResponse delete(PartitionKeyValue key, String id, ItemOptions options) {
    Target t = Target.of(partitionKey, key, id);
    if (options.hasTriggers()) {
      return scripting.triggered(
          t, "Delete", null, options, (tx, tt, doc) -> tx.delete(tt, options.ifMatch()));
    }
    return writes.write(t, (tx, none) -> tx.delete(t, options.ifMatch()));
  }

  public ItemResponse delete(PartitionKeyValue key, String id) {
    return delete(key, id, ItemOptions.NONE);
  }

  /**
   * Applies a partial update.
   *
   * @param condition applied to the current document; false answers 412. May be null.
   * @throws CosmosException 400 if an operation cannot apply (naming it), 404, 412
   */
  public ItemResponse patch(
      PartitionKeyValue key,
      String id,
      List<PatchOperation> operations,
      DocumentCondition condition,
      ItemOptions options) {
    Target t = Target.of(partitionKey, key, id);
    checkPatchSize(operations);
    if (options.hasTriggers()) {
      throw CosmosError.NOT_SUPPORTED.exception(
          "triggers %s named on a patch of '%s' are not run by cosmolab (it runs them for create,"
              + " upsert, replace and delete); run the logic in a stored procedure instead",
          ContainerScripts.concat(options.preTriggers(), options.postTriggers()), id);
    }
    return writes.write(
        t,
        (tx, none) ->
            tx.patch(t, operations, condition, options.ifMatch(), !options.excludedFromIndex()));
  }

  public ItemResponse patch(PartitionKeyValue key, String id, List<PatchOperation> operations) {
    return patch(key, id, operations, null, ItemOptions.NONE);
  }

  static void checkPatchSize(List<PatchOperation> operations) {
    if (operations == null || operations.isEmpty()) {
      throw CosmosError.BAD_REQUEST.exception("a patch needs at least one operation");
    }
    if (operations.size() > Limits.MAX_PATCH_OPERATIONS) {
      throw CosmosError.BAD_REQUEST.exception(
          "a patch has %d operations; the limit is %d",
          operations.size(), Limits.MAX_PATCH_OPERATIONS);
    }
  }

  // ------------------------------------------------------------------ server-side scripts

  /**
   * Runs a stored procedure against one logical partition, atomically: its writes commit only if it
   * returns; a throw, an operation error it did not handle, or its time limit rolls all of them
   * back. Charged for its operations and its running time in the partition's budget.
   *
   * @param parameters the JSON array of arguments (null: none)
   * @param logging keep what it writes with {@code console.log} ({@code
   *     x-ms-documentdb-script-enable-logging})
   * @throws CosmosException 404 for an unknown procedure, 400 ({@code SCRIPT_ERROR}) when it
   *     throws, 408 past its time, 429 when throttled, 501 when the engine has no script runtime
   */
  public ScriptResponse executeStoredProcedure(
      PartitionKeyValue key, String procedureId, JsonNode parameters, boolean logging) {
    return executeStoredProcedure(key, procedureId, parameters, logging, java.util.Map.of());
  }

  /**
   * {@link #executeStoredProcedure(PartitionKeyValue, String, JsonNode, boolean)} with the
   * request's headers, which the procedure reads with {@code getRequest().getValue(name)}.
   */
  public ScriptResponse executeStoredProcedure(
      PartitionKeyValue key,
      String procedureId,
      JsonNode parameters,
      boolean logging,
      java.util.Map<String, String> requestHeaders) {
    return scripting.executeStoredProcedure(key, procedureId, parameters, logging, requestHeaders);
  }

  /** The resolver of one query's {@code udf.} calls. */
  ContainerScripts.UdfCalls userFunctions() {
    return scripting.userFunctions();
  }

  java.time.InstantSource engineClock() {
    return engine.clock();
  }

  io.cosmolab.engine.cost.CostModel engineCosts() {
    return engine.costs();
  }

  // ------------------------------------------------------------------ transactional batch

  /**
   * Runs up to 100 operations in one logical partition, all or nothing: readers see all of its
   * writes or none.
   *
   * @throws CosmosException 400 for an empty batch or one over 100 operations; 429 when throttled
   *     (nothing runs)
   */
  public BatchResult executeBatch(PartitionKeyValue key, List<BatchOperation> operations) {
    return executeBatch(key, operations, i -> true);
  }

  /**
   * A transactional batch whose operation {@code i} returns its document in the response only if
   * {@code returnsBody.test(i)} (a write can ask for none, the .NET SDK's {@code
   * minimalReturnPreference}): the response limit counts only what is returned.
   */
  public BatchResult executeBatch(
      PartitionKeyValue key,
      List<BatchOperation> operations,
      java.util.function.IntPredicate returnsBody) {
    if (operations == null || operations.isEmpty()) {
      throw CosmosError.BAD_REQUEST.exception("a batch needs at least one operation");
    }
    if (operations.size() > Limits.MAX_BATCH_OPERATIONS) {
      throw CosmosError.BAD_REQUEST.exception(
          "Batch request has more operations than what is supported: %d operations, the limit is"
              + " %d",
          operations.size(), Limits.MAX_BATCH_OPERATIONS);
    }
    return writes.batch(Target.of(partitionKey, key), operations, returnsBody);
  }

  // ------------------------------------------------------------------ change feed

  /**
   * Reads a page of the change feed.
   *
   * @throws CosmosException 429 when any partition of the range is throttled (enforce mode); 400
   *     for an all-versions-and-deletes continuation older than the log's retention
   */
  public ChangeFeedPage readChangeFeed(ChangeFeedRequest request) {
    return new ChangeFeedReader(this, engine, store, ttl).read(request);
  }

  /** Deletes the documents whose time to live has passed, if any is due. */
  void expireDue(long now) {
    writes.expireDue(now, false);
  }

  /** How long the change log keeps history, and the LSN below which it may be gone. */
  ChangeLogRetention retention() {
    return retention;
  }

  /**
   * The transactions whose change records lie in more than one run of the log (ChangeFeedReader).
   */
  SplitTransactions splitTransactions() {
    return writes.splitTransactions();
  }

  // ------------------------------------------------------------------ layout: splits, merges

  /** Splits a physical partition at its key-space midpoint. */
  public RoutingMap splitPartition(String rangeId) {
    return splitPartition(rangeId, null);
  }

  /**
   * Splits a physical partition in two.
   *
   * @param at the EPK to split at (must lie inside the range), or null for the midpoint
   * @throws CosmosException 410/1002 for an unknown range; 400 if the range cannot be split there
   */
  public RoutingMap splitPartition(String rangeId, String at) {
    return layout.split(rangeId, at, throughput);
  }

  /** Merges two adjacent physical partitions into one. */
  public RoutingMap mergePartitions(String leftId, String rightId) {
    return layout.merge(leftId, rightId, throughput);
  }

  /**
   * Changes the dedicated throughput. Raising it above {@code P × 10,000} RU/s splits partitions
   * (the widest first, each at its midpoint) until {@code P = ceil(RU/s ÷ 10,000)}; lowering it
   * never merges ({@code partitioning-model.md} §1.4). The splits are immediate here; the service
   * takes hours.
   *
   * @throws CosmosException 400 below the minimum or above the maximum, or if the container uses
   *     its database's shared throughput
   */
  public RoutingMap replaceThroughput(Throughput newThroughput) {
    return replaceThroughput(newThroughput, null);
  }

  /**
   * Switches the dedicated throughput to autoscale ({@code toAutoscale}) or to manual, at the value
   * the service's migration would choose ({@link Throughput#migrated}). Migrations run one at a
   * time: of two at once to the same kind, the second finds it done (400), and does not switch it
   * back.
   *
   * @throws CosmosException 400 when the container uses its database's throughput, or its
   *     throughput is of that kind already
   */
  public RoutingMap migrateThroughput(boolean toAutoscale) {
    synchronized (migrations) {
      Throughput t = throughput;
      if (t == null) {
        return replaceThroughput(null, null); // the 400 for a container without its own
      }
      Throughput.checkMigration(t, toAutoscale, "container '" + id + "'");
      return replaceThroughput(t.migrated(limits(), storedBytes(), maxEverProvisioned), null);
    }
  }

  private final Object migrations = new Object();

  /**
   * Changes the dedicated throughput and, unless {@code buckets} is null, its throughput buckets:
   * both or neither (an offer replace).
   *
   * @throws CosmosException as {@link #replaceThroughput(Throughput)} and {@link
   *     #replaceThroughputBuckets}
   */
  public RoutingMap replaceThroughput(Throughput newThroughput, ThroughputBuckets buckets) {
    if (throughput == null) {
      throw CosmosError.BAD_REQUEST.exception(
          "container '%s' uses the shared throughput of database '%s'; change it there",
          id, database.id());
    }
    return layout.exclusive(
        () -> {
          database.checkThroughput(newThroughput, storedBytes(), maxEverProvisioned);
          long now = engine.clock().millis();
          if (buckets != null) {
            throttle.checkConfigurable(buckets, now);
          }
          throughput = newThroughput;
          maxEverProvisioned = Math.max(maxEverProvisioned, newThroughput.maxRuPerSecond());
          RoutingMap map = layout.applyThroughput(newThroughput);
          if (buckets != null && throttle.configure(buckets, now)) {
            engine.catalogChanged();
          }
          return map;
        });
  }

  /** The throughput buckets of the container's dedicated throughput (none by default). */
  public ThroughputBuckets throughputBuckets() {
    return throttle.buckets();
  }

  /**
   * Replaces the throughput buckets; requests name one with {@code x-ms-cosmos-throughput-bucket}.
   *
   * @throws CosmosException 400 if the container uses its database's shared throughput; 429/3213
   *     when they changed less than 10 minutes ago
   */
  public void replaceThroughputBuckets(ThroughputBuckets buckets) {
    if (throughput == null) {
      throw CosmosError.BAD_REQUEST.exception(
          "container '%s' uses the shared throughput of database '%s': throughput buckets divide a"
              + " container's own throughput, and cosmolab does not divide a database's",
          id, database.id());
    }
    if (throttle.configure(buckets, engine.clock().millis())) {
      engine.catalogChanged();
    }
  }

  // ------------------------------------------------------------------ metrics

  /** Every physical partition now, in key order. */
  public List<PartitionStats> partitionStats() {
    return stats.partitions();
  }

  /** The per-second history of one physical partition, {@code [from, to)} in epoch seconds. */
  public List<PartitionMetrics.Second> partitionSeconds(
      String rangeId, long fromEpochSecond, long toEpochSecond) {
    return metrics.seconds(rangeId, fromEpochSecond, toEpochSecond);
  }

  /** Splits, merges and blocked splits, oldest first. */
  public List<PartitionEvent> partitionEvents() {
    return metrics.events();
  }

  /**
   * The physical partitions that splits and merges replaced, oldest first; {@link
   * #partitionSeconds} still answers for them while their seconds are in the window.
   */
  public List<RetiredPartition> retiredPartitions() {
    return metrics.retired();
  }

  /**
   * The logical partitions that consumed the most RU (estimates from a bounded sketch). A key whose
   * documents were all deleted since is reported by its EPK alone (its value is null).
   */
  public List<LogicalPartitionStats> hottestLogicalPartitions(int n) {
    return stats.hottest(n);
  }

  /**
   * The logical partitions that consumed the most RU recently: in the current and the previous
   * five-minute window of the engine's clock (the last 5 to 10 minutes). What live metrics and
   * alerts report; {@link #hottestLogicalPartitions} counts since creation.
   */
  public List<LogicalPartitionStats> recentlyHottestLogicalPartitions(int n) {
    return stats.recentlyHottest(n);
  }

  /** The largest logical partitions by storage (exact), largest first. */
  public List<LogicalPartitionStats> largestLogicalPartitions(int n) {
    return stats.largest(n);
  }

  /** Bytes stored in the logical partition of {@code key}. */
  public long logicalPartitionBytes(PartitionKeyValue key) {
    return logical.bytes(EffectivePartitionKey.of(partitionKey, key));
  }

  /** Total bytes stored. */
  public long storedBytes() {
    return stats.storedBytes();
  }

  /**
   * The bytes the container's physical partitions can hold before they split: each one's storage
   * limit (50 GB, scaled as the lab's limits are) times their number.
   */
  public long storageCapacityBytes() {
    return routing().ranges().size() * limits().physicalPartitionBytes();
  }

  // ------------------------------------------------------------------ scans (for queries)

  /**
   * The live documents whose EPK is in {@code range}, in (EPK, id) order. Expired documents are
   * skipped. Bodies are the stored ones: callers must not modify them.
   */
  public Iterator<StoredDocument> scan(EpkRange range) {
    return reads.scan(range);
  }

  /** What queries read: live documents by range, position and id, and index candidates. */
  LiveDocuments reads() {
    return reads;
  }

  /** Removes every expired document now (it happens anyway on the next write). */
  public int expireNow() {
    return writes.expireDue(now(), true);
  }

  // ------------------------------------------------------------------ queries

  /**
   * Runs a query in the request's scope and returns one page. Across several physical partitions
   * without a scope the answer is complete (ORDER BY, aggregates, GROUP BY, DISTINCT, TOP,
   * OFFSET/LIMIT merged). Within one partition key, range or physical partition it is what the
   * service's backend returns: an aggregate page cut at the page time holds the aggregates of what
   * it read, and a DISTINCT is distinct within each page, so a value may come back on a later page
   * (the SDKs combine and drop them; docs/query.md, "Pages").
   *
   * @throws CosmosException 400 for a query that does not compile (with the service's code and the
   *     position), 410/1002 for a range id that no longer exists, 429 when throttled
   */
  public io.cosmolab.engine.query.QueryPage query(io.cosmolab.engine.query.QueryRequest request) {
    return query(request, () -> false);
  }

  /**
   * A page of a query whose client may go away: {@code abandoned} says it has (a transport's closed
   * connection). The page then stops reading documents, is charged for those it read, and ends with
   * {@link CosmosError#REQUEST_ABANDONED}, so a query nobody waits for does not run on to its
   * page's end (up to the page time, or through a whole container for an aggregate).
   *
   * @param abandoned asked every {@value QueryRunner#ABANDON_CHECK_EVERY} documents read, from the
   *     thread running the query
   * @throws CosmosException 408 once {@code abandoned} says so, and as {@link #query(QueryRequest)}
   */
  public io.cosmolab.engine.query.QueryPage query(
      io.cosmolab.engine.query.QueryRequest request, java.util.function.BooleanSupplier abandoned) {
    io.cosmolab.engine.query.QueryPage page = new QueryRunner(this, engine).run(request, abandoned);
    if (request.continuation() == null) {
      queryStats.record(
          now(),
          request.text(),
          request.partitionKeyRangeId() != null || request.range() != null,
          request.partitionKey() != null,
          routing().ranges().size(),
          page.metrics());
    }
    return page;
  }

  /** The queries this container answered, second by second (for the alert rules). */
  public io.cosmolab.engine.metrics.QueryStats queryStats() {
    return queryStats;
  }

  /**
   * The query plan the SDKs ask for before a cross-partition query ({@code
   * PartitionedQueryExecutionInfo}): how to merge per-partition results, the rewritten query each
   * partition runs, and the EPK ranges the query needs.
   *
   * @throws CosmosException 400 for a query that does not compile or cannot be planned
   */
  public com.fasterxml.jackson.databind.node.ObjectNode queryPlan(
      String text, java.util.Map<String, com.fasterxml.jackson.databind.JsonNode> parameters) {
    return QueryPlans.plan(this, text, parameters);
  }

  /**
   * The physical partitions (ids) that the query ranges of a plan from {@link #queryPlan} reach:
   * the owner of each point range (a full key), every partition each other range overlaps.
   */
  public java.util.List<String> partitionsReachedBy(com.fasterxml.jackson.databind.JsonNode plan) {
    java.util.List<String[]> ranges = new java.util.ArrayList<>();
    for (com.fasterxml.jackson.databind.JsonNode range : plan.path("queryRanges")) {
      ranges.add(new String[] {range.path("min").asText(), range.path("max").asText()});
    }
    return QueryPlans.partitionsReached(routing(), ranges);
  }

  /**
   * A patch condition from its SQL text, {@code FROM c WHERE ...}, evaluated on this engine's
   * clock.
   *
   * @throws CosmosException 400 if the text does not compile
   */
  public DocumentCondition condition(String fromWhere) {
    io.cosmolab.query.CompiledQuery compiled;
    try {
      compiled = io.cosmolab.query.CompiledQuery.condition(fromWhere);
    } catch (io.cosmolab.query.QueryException e) {
      throw QueryRunner.asCosmos(e);
    }
    return DocumentCondition.of(fromWhere, doc -> compiled.test(doc, engine.clock().instant()));
  }

  /** The container's indexing policy. */
  public io.cosmolab.engine.index.IndexingPolicy indexingPolicy() {
    return index.policy();
  }

  /** Spends a query's charge on one of the partitions it ran on. */
  void spendQuery(PartitionKeyRange range, Admission admission, double ru, long now) {
    throttle.spend(range, null, admission, ru, now);
  }

  /** The layout and its lock (for tests that hold them). */
  PartitionLayout partitionLayout() {
    return layout;
  }

  /**
   * Marks an ORDER BY page's partitions before its walk, and tells the writes since (OrderedWalk).
   */
  WalkMarks walkMarks() {
    return walkMarks;
  }

  /** Asks the budget of the partition that serves {@code epk} in {@code range}; 429 if refused. */
  Admission admit(PartitionKeyRange range, String epk, long now) {
    return throttle.admit(range, epk, now);
  }

  /** What this container's stored documents make their {@code _rid}, {@code _self}, etag of. */
  StoredText.Source texts() {
    return texts;
  }
}
