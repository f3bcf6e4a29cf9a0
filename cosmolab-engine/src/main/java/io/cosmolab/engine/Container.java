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
import io.cosmolab.engine.partitioning.EffectivePartitionKey;
import io.cosmolab.engine.partitioning.EpkRange;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.resource.ResourceIds;
import io.cosmolab.engine.routing.PartitionKeyRange;
import io.cosmolab.engine.routing.RoutingMap;
import io.cosmolab.engine.routing.SplitPoints;
import io.cosmolab.engine.store.ChangeRecord;
import io.cosmolab.engine.store.ContainerStore;
import io.cosmolab.engine.store.StoredDocument;
import io.cosmolab.engine.throughput.PartitionBudget;
import io.cosmolab.engine.throughput.PartitionBudget.Admission;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A container: documents placed in physical partitions by the EPK of their partition key, every
 * operation charged in request units against the budget of the partition that serves it.
 *
 * <p>Point operations take the partition key (or read it from the document); a document is
 * identified by (partition key, id). Failures are {@link CosmosException}s with the service's
 * status and sub-status; a failed operation writes nothing.
 */
/*
 * Concurrency. Writes to a container are serialized by one lock: they take the next LSN, commit
 * the document version and its change record to the store atomically, then publish the LSN as
 * committed. Readers take no lock: point reads go to the store, change-feed readers read the log
 * only up to the published committed LSN (so a continuation never skips a write still being
 * committed). The routing map is an immutable snapshot in an atomic reference, swapped under the
 * write lock by splits and merges; a reader holds one snapshot for its whole operation.
 *
 * Throttling. Before an operation runs, the budget of the partition that will serve it is asked
 * (PartitionBudget.admit): in ENFORCE mode a refused operation throws 429/3200 with the
 * retry-after and writes nothing; in OBSERVE mode it runs, is counted as a would-be 429, and does
 * not spend the budget (so the bucket follows what enforce mode would do). The charge is spent
 * after the operation, when it is known.
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
  private final int etagSalt;
  private final int ordinal;

  private final ReentrantLock writeLock = new ReentrantLock();
  private final AtomicReference<RoutingMap> routing;
  private final PartitionMetrics metrics = new PartitionMetrics();
  private final Map<String, PartitionBudget> budgets = new ConcurrentHashMap<>();
  private final Map<String, long[]> rangeUsage = new ConcurrentHashMap<>(); // {docs, bytes}
  private final LogicalPartitions logical = new LogicalPartitions();
  private final TimeToLive ttl;
  private final io.cosmolab.engine.index.ContainerIndex index;

  private volatile Throughput throughput; // null: the database's shared throughput
  private double maxEverProvisioned;
  private final io.cosmolab.engine.script.Scripts scripts;
  private long lsn; // guarded by writeLock
  private volatile long committedLsn;
  private long documentSequence; // guarded by writeLock

  /**
   * What the catalog recorded of a container that is being restored: its creation time, partition
   * layout and the highest throughput it ever had. Everything else (LSN, document sequence, usage
   * per partition and logical partition, time-to-live schedule) is rebuilt from its documents and
   * change log.
   */
  record Restored(long createdMillis, RoutingMap routing, double maxEverProvisioned) {}

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
    this.etagSalt = ordinal;
    this.ordinal = ordinal;
    this.throughput = throughput;
    this.maxEverProvisioned = throughput == null ? 0 : throughput.maxRuPerSecond();
    this.ttl = new TimeToLive(settings.defaultTimeToLive(), store);
    this.index = new io.cosmolab.engine.index.ContainerIndex(settings.indexingPolicy());
    this.scripts =
        new io.cosmolab.engine.script.Scripts(
            ridBytes, selfLink, engine.clock(), engine::catalogChanged);
    int partitions = initialPartitions(settings, throughput);
    this.routing =
        new AtomicReference<>(
            restored != null
                ? restored.routing()
                : RoutingMap.of(SplitPoints.evenBoundaries(partitionKey, partitions)));
    if (restored != null) {
      this.maxEverProvisioned = Math.max(maxEverProvisioned, restored.maxEverProvisioned());
    }
    rebalanceBudgets();
    for (PartitionKeyRange r : routing.get().ranges()) {
      rangeUsage.put(r.id(), new long[2]);
    }
    if (restored != null) {
      recover();
    }
  }

  /**
   * Rebuilds what is derived from the stored documents and change log: the LSN, the document
   * sequence (RIDs keep growing), usage per physical and logical partition, and the time-to-live
   * schedule. One pass over each; a restart of a large container pays for it once.
   */
  private void recover() {
    long maxLsn = 0;
    long maxSequence = 0;
    RoutingMap map = routing.get();
    Iterator<StoredDocument> docs = store.scan(EpkRange.FULL);
    while (docs.hasNext()) {
      StoredDocument d = docs.next();
      logical.add(d.epk(), d.partitionKey(), d.sizeBytes(), 1);
      long[] usage = rangeUsage.computeIfAbsent(map.rangeFor(d.epk()).id(), r -> new long[2]);
      usage[0] += 1;
      usage[1] += d.sizeBytes();
      ttl.track(d);
      maxLsn = Math.max(maxLsn, d.lsn());
      maxSequence = Math.max(maxSequence, sequenceOf(d.body()));
    }
    Iterator<ChangeRecord> changes = store.changesAfter(0);
    while (changes.hasNext()) {
      ChangeRecord c = changes.next();
      maxLsn = Math.max(maxLsn, c.lsn());
      if (c.previous() != null) {
        maxSequence = Math.max(maxSequence, sequenceOf(c.previous()));
      }
    }
    lsn = maxLsn;
    committedLsn = maxLsn;
    documentSequence = maxSequence;
  }

  private static long sequenceOf(com.fasterxml.jackson.databind.JsonNode body) {
    com.fasterxml.jackson.databind.JsonNode rid = body.get("_rid");
    byte[] bytes = rid == null ? null : ResourceIds.decode(rid.textValue());
    return bytes == null || bytes.length != 16 ? 0 : ResourceIds.documentPart(bytes) >>> 8;
  }

  int ordinal() {
    return ordinal;
  }

  double maxEverProvisioned() {
    return maxEverProvisioned;
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

  /** The default time to live: null (off), -1 (on, no default) or seconds. */
  public Integer defaultTimeToLive() {
    return ttl.defaultSeconds();
  }

  /** Changes the default time to live; documents' expiry is re-evaluated at once. */
  public void setDefaultTimeToLive(Integer seconds) {
    ContainerSettings.checkTimeToLive(seconds);
    writeLock.lock();
    try {
      ttl.setDefault(seconds);
      ttl.expireDue(now(), this::expire);
      engine.catalogChanged();
    } finally {
      writeLock.unlock();
    }
  }

  /** The current partition key range map (an immutable snapshot). */
  public RoutingMap routing() {
    return routing.get();
  }

  /** The LSN of the last committed write. */
  public long lsn() {
    return committedLsn;
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
    Target t = targetOf(key, document);
    return write(t, tx -> tx.create(t, document));
  }

  /** Creates the document, or replaces the one with the same (key, id). 201 or 200. */
  public ItemResponse upsert(PartitionKeyValue key, ObjectNode document, ItemOptions options) {
    Target t = targetOf(key, document);
    return write(t, tx -> tx.upsert(t, document, options.ifMatch()));
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
    Target t = targetOf(key, id);
    long now = now();
    RoutingMap map = routing.get();
    PartitionKeyRange range = map.rangeFor(t.epk);
    Admission admission = admit(range, t.epk, now);
    StoredDocument d = store.get(t.epk, id);
    if (d == null || ttl.isExpired(d, now)) {
      spend(range, t, admission, 1.0, now);
      throw CosmosError.NOT_FOUND.exception(
          "document '%s' with partition key %s does not exist in container '%s'", id, key, this.id);
    }
    double charge = engine.costs().pointRead(d.sizeBytes(), options.strongRead());
    spend(range, t, admission, charge, now);
    if (options.ifNoneMatch() != null && options.ifNoneMatch().equals(d.etag())) {
      return new ItemResponse(304, null, charge, d.etag(), committedLsn, range.id());
    }
    return new ItemResponse(200, d.body(), charge, d.etag(), committedLsn, range.id());
  }

  public ItemResponse read(PartitionKeyValue key, String id) {
    return read(key, id, ItemOptions.NONE);
  }

  /** Replaces a document; the body's id must be {@code id} and its key must be {@code key}. */
  public ItemResponse replace(
      PartitionKeyValue key, String id, ObjectNode document, ItemOptions options) {
    Target t = targetOf(key, id);
    checkBodyMatches(t, document);
    return write(t, tx -> tx.replace(t, document, options.ifMatch()));
  }

  public ItemResponse replace(PartitionKeyValue key, String id, ObjectNode document) {
    return replace(key, id, document, ItemOptions.NONE);
  }

  /** Deletes a document. 204. */
  public ItemResponse delete(PartitionKeyValue key, String id, ItemOptions options) {
    Target t = targetOf(key, id);
    return write(t, tx -> tx.delete(t, options.ifMatch()));
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
    Target t = targetOf(key, id);
    checkPatchSize(operations);
    return write(t, tx -> tx.patch(t, operations, condition, options.ifMatch()));
  }

  public ItemResponse patch(PartitionKeyValue key, String id, List<PatchOperation> operations) {
    return patch(key, id, operations, null, ItemOptions.NONE);
  }

  private static void checkPatchSize(List<PatchOperation> operations) {
    if (operations == null || operations.isEmpty()) {
      throw CosmosError.BAD_REQUEST.exception("a patch needs at least one operation");
    }
    if (operations.size() > Limits.MAX_PATCH_OPERATIONS) {
      throw CosmosError.BAD_REQUEST.exception(
          "a patch has %d operations; the limit is %d",
          operations.size(), Limits.MAX_PATCH_OPERATIONS);
    }
  }

  // ------------------------------------------------------------------ transactional batch

  /**
   * Runs up to 100 operations in one logical partition, all or nothing.
   *
   * @throws CosmosException 400 for an empty batch or one over 100 operations; 429 when throttled
   *     (nothing runs)
   */
  public BatchResult executeBatch(PartitionKeyValue key, List<BatchOperation> operations) {
    if (operations == null || operations.isEmpty()) {
      throw CosmosError.BAD_REQUEST.exception("a batch needs at least one operation");
    }
    if (operations.size() > Limits.MAX_BATCH_OPERATIONS) {
      throw CosmosError.BAD_REQUEST.exception(
          "Batch request has more operations than what is supported: %d operations, the limit is"
              + " %d",
          operations.size(), Limits.MAX_BATCH_OPERATIONS);
    }
    Target t = targetOf(key);
    long now = now();
    PartitionKeyRange range = routing.get().rangeFor(t.epk);
    Admission admission = admit(range, t.epk, now);
    List<BatchResult.OperationResult> results = new ArrayList<>(operations.size());
    double charge = 0;
    int failed = -1;
    CosmosException failure = null;
    long resultLsn;
    writeLock.lock();
    try {
      ttl.expireDue(now, this::expire);
      Transaction tx = new Transaction(now);
      for (int i = 0; i < operations.size(); i++) {
        try {
          ItemResponse r = tx.apply(t, operations.get(i));
          charge += r.requestCharge();
          results.add(
              new BatchResult.OperationResult(
                  r.status(), 0, r.requestCharge(), r.etag(), r.document(), null));
        } catch (CosmosException e) {
          failed = i;
          failure = e;
          break;
        }
      }
      if (failed < 0) {
        tx.commit();
      }
      resultLsn = committedLsn;
    } finally {
      writeLock.unlock();
    }
    spend(range, t, admission, Math.max(charge, 1.0), now);
    if (failed < 0) {
      return new BatchResult(200, results, charge, resultLsn);
    }
    List<BatchResult.OperationResult> out = new ArrayList<>(operations.size());
    for (int i = 0; i < operations.size(); i++) {
      if (i == failed) {
        out.add(
            new BatchResult.OperationResult(
                failure.status(), failure.subStatus(), 0, null, null, failure.getMessage()));
      } else {
        double c = i < results.size() ? results.get(i).requestCharge() : 0;
        out.add(
            new BatchResult.OperationResult(
                424,
                0,
                c,
                null,
                null,
                "not run: operation " + failed + " of the batch failed, so nothing was written"));
      }
    }
    return new BatchResult(207, out, charge, resultLsn);
  }

  // ------------------------------------------------------------------ change feed

  /**
   * Reads a page of the change feed.
   *
   * @throws CosmosException 429 when any partition of the range is throttled (enforce mode)
   */
  public ChangeFeedPage readChangeFeed(ChangeFeedRequest request) {
    return new ChangeFeedReader(this, engine, store, ttl).read(request);
  }

  /** Deletes the documents whose time to live has passed, if any is due. */
  void expireDue(long now) {
    if (ttl.hasDue(now)) {
      writeLock.lock();
      try {
        ttl.expireDue(now, this::expire);
      } finally {
        writeLock.unlock();
      }
    }
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
    writeLock.lock();
    try {
      PartitionKeyRange range = routing.get().require(rangeId);
      String point = at != null ? at : SplitPoints.midpoint(range.range(), partitionKey);
      if (point == null) {
        throw CosmosError.BAD_REQUEST.exception(
            "partition %s %s holds a single hash value and cannot be split",
            rangeId, range.range());
      }
      applySplit(range, point, "requested");
      return routing.get();
    } finally {
      writeLock.unlock();
    }
  }

  /** Merges two adjacent physical partitions into one. */
  public RoutingMap mergePartitions(String leftId, String rightId) {
    writeLock.lock();
    try {
      RoutingMap before = routing.get();
      RoutingMap after = before.merge(leftId, rightId);
      PartitionKeyRange merged = after.rangeFor(before.require(leftId).range().min());
      long[] l = rangeUsage.remove(leftId);
      long[] r = rangeUsage.remove(rightId);
      rangeUsage.put(merged.id(), new long[] {l[0] + r[0], l[1] + r[1]});
      routing.set(after);
      rebalanceBudgets();
      engine.catalogChanged();
      metrics.recordEvent(
          new PartitionEvent(
              now(),
              PartitionEvent.Kind.MERGE,
              List.of(leftId, rightId),
              List.of(merged.id()),
              null,
              "requested"));
      return after;
    } finally {
      writeLock.unlock();
    }
  }

  /** Guarded by writeLock. */
  private void applySplit(PartitionKeyRange parent, String at, String reason) {
    RoutingMap after = routing.get().split(parent.id(), at);
    PartitionKeyRange left = after.rangeFor(parent.range().min());
    PartitionKeyRange right = after.rangeFor(at);
    rangeUsage.remove(parent.id());
    rangeUsage.put(left.id(), logical.usage(left.range()));
    rangeUsage.put(right.id(), logical.usage(right.range()));
    routing.set(after);
    rebalanceBudgets();
    engine.catalogChanged();
    metrics.recordEvent(
        new PartitionEvent(
            now(),
            PartitionEvent.Kind.SPLIT,
            List.of(parent.id()),
            List.of(left.id(), right.id()),
            at,
            reason));
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
    if (throughput == null) {
      throw CosmosError.BAD_REQUEST.exception(
          "container '%s' uses the shared throughput of database '%s'; change it there",
          id, database.id());
    }
    writeLock.lock();
    try {
      database.checkThroughput(newThroughput, storedBytes(), maxEverProvisioned);
      throughput = newThroughput;
      maxEverProvisioned = Math.max(maxEverProvisioned, newThroughput.maxRuPerSecond());
      int target =
          (int) Math.ceil(newThroughput.maxRuPerSecond() / limits().physicalPartitionRu() - 1e-9);
      while (routing.get().size() < target) {
        PartitionKeyRange widest = widestSplittable();
        if (widest == null) {
          break;
        }
        applySplit(
            widest,
            SplitPoints.midpoint(widest.range(), partitionKey),
            "throughput " + Database.fmt(newThroughput.maxRuPerSecond()) + " RU/s");
      }
      rebalanceBudgets();
      engine.catalogChanged();
      return routing.get();
    } finally {
      writeLock.unlock();
    }
  }

  private PartitionKeyRange widestSplittable() {
    PartitionKeyRange best = null;
    java.math.BigInteger bestWidth = null;
    for (PartitionKeyRange r : routing.get().ranges()) {
      String mid = SplitPoints.midpoint(r.range(), partitionKey);
      if (mid == null) {
        continue;
      }
      java.math.BigInteger w = SplitPoints.width(r.range());
      if (bestWidth == null || w.compareTo(bestWidth) > 0) {
        best = r;
        bestWidth = w;
      }
    }
    return best;
  }

  /** Guarded by writeLock (or the constructor): every partition gets RU/s ÷ P. */
  private void rebalanceBudgets() {
    RoutingMap map = routing.get();
    long now = now();
    if (throughput == null) {
      budgets.clear();
      return;
    }
    double perPartition = throughput.maxRuPerSecond() / map.size();
    Map<String, PartitionBudget> next = new ConcurrentHashMap<>();
    for (PartitionKeyRange r : map.ranges()) {
      PartitionBudget existing = budgets.get(r.id());
      if (existing != null) {
        existing.setRuPerSecond(perPartition, now);
        next.put(r.id(), existing);
      } else {
        next.put(r.id(), new PartitionBudget(perPartition, engine.burstCapacity(), limits(), now));
      }
    }
    budgets.keySet().retainAll(next.keySet());
    budgets.putAll(next);
  }

  /** Guarded by writeLock: splits partitions that passed their storage limit. */
  private void splitOverfullPartitions(Iterable<String> touchedEpks) {
    long limit = limits().physicalPartitionBytes();
    for (String epk : touchedEpks) {
      for (int guard = 0; guard < 64; guard++) {
        PartitionKeyRange range = routing.get().rangeFor(epk);
        long[] usage = rangeUsage.get(range.id());
        if (usage == null || usage[1] <= limit) {
          break;
        }
        String at = SplitPoints.storageMedian(logical.keyBytes(range.range()), usage[1]);
        if (at == null) {
          if (!logical.blockedReported(range.id())) {
            metrics.recordEvent(
                new PartitionEvent(
                    now(),
                    PartitionEvent.Kind.SPLIT_BLOCKED,
                    List.of(range.id()),
                    List.of(),
                    null,
                    String.format(
                        "storage %d bytes above the %d-byte limit, but one logical partition"
                            + " holds it all and a logical partition cannot be split",
                        usage[1], limit)));
          }
          break;
        }
        applySplit(
            range, at, String.format("storage %d bytes above the %d-byte limit", usage[1], limit));
      }
    }
  }

  // ------------------------------------------------------------------ metrics

  /** Every physical partition now, in key order. */
  public List<PartitionStats> partitionStats() {
    long now = now();
    long second = Math.floorDiv(now, 1000);
    List<PartitionStats> out = new ArrayList<>();
    for (PartitionKeyRange r : routing.get().ranges()) {
      double budget = budgetRate(r);
      long[] usage = rangeUsage.getOrDefault(r.id(), new long[2]);
      // the last 60 seconds, the current (partial) one included, so live load shows at once
      List<PartitionMetrics.Second> minute = metrics.seconds(r.id(), second - 59, second + 1);
      double peak = 0;
      for (PartitionMetrics.Second s : minute) {
        peak = Math.max(peak, budget > 0 ? s.ru() / budget : 0);
      }
      double last = minute.get(minute.size() - 2).ru(); // the last complete second
      double[] totals = metrics.totals(r.id());
      out.add(
          new PartitionStats(
              r.id(),
              r.range(),
              usage[0],
              usage[1],
              budget,
              last,
              Math.min(1.0, peak),
              peak,
              totals[0],
              (long) totals[1],
              (long) totals[2],
              (long) totals[3]));
    }
    return out;
  }

  private double budgetRate(PartitionKeyRange r) {
    if (throughput == null) {
      return database.sharedBudgetFor(r.range().min(), partitionKey.version() == 1).ruPerSecond();
    }
    PartitionBudget b = budgets.get(r.id());
    return b == null ? 0 : b.ruPerSecond();
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
   * The logical partitions that consumed the most RU (estimates from a bounded sketch). A key whose
   * documents were all deleted since is reported by its EPK alone (its value is null).
   */
  public List<LogicalPartitionStats> hottestLogicalPartitions(int n) {
    List<LogicalPartitionStats> out = new ArrayList<>();
    RoutingMap map = routing.get();
    for (PartitionMetrics.HotKey k : metrics.hottestKeysByRu(n)) {
      String epk = k.epk();
      out.add(
          new LogicalPartitionStats(
              logical.key(epk), epk, map.rangeFor(epk).id(), k.ru(), k.errorBound(), 0));
    }
    return out;
  }

  /** The largest logical partitions by storage (exact), largest first. */
  public List<LogicalPartitionStats> largestLogicalPartitions(int n) {
    RoutingMap map = routing.get();
    List<LogicalPartitionStats> out = new ArrayList<>();
    for (LogicalPartitions.Usage u : logical.largest(n)) {
      out.add(
          new LogicalPartitionStats(
              u.key(), u.epk(), map.rangeFor(u.epk()).id(), u.bytes(), 0, u.documents()));
    }
    return out;
  }

  /** Bytes stored in the logical partition of {@code key}. */
  public long logicalPartitionBytes(PartitionKeyValue key) {
    return logical.bytes(EffectivePartitionKey.of(partitionKey, key));
  }

  /** Total bytes stored. */
  public long storedBytes() {
    long total = 0;
    for (long[] u : rangeUsage.values()) {
      total += u[1];
    }
    return total;
  }

  // ------------------------------------------------------------------ scans (for queries)

  /**
   * The live documents whose EPK is in {@code range}, in (EPK, id) order. Expired documents are
   * skipped. Bodies are the stored ones: callers must not modify them.
   */
  public Iterator<StoredDocument> scan(EpkRange range) {
    long now = now();
    Iterator<StoredDocument> it = store.scan(range);
    return new Iterator<>() {
      StoredDocument next = advance();

      private StoredDocument advance() {
        while (it.hasNext()) {
          StoredDocument d = it.next();
          if (!ttl.isExpired(d, now)) {
            return d;
          }
        }
        return null;
      }

      @Override
      public boolean hasNext() {
        return next != null;
      }

      @Override
      public StoredDocument next() {
        if (next == null) {
          throw new java.util.NoSuchElementException();
        }
        StoredDocument d = next;
        next = advance();
        return d;
      }
    };
  }

  /** Removes every expired document now (it happens anyway on the next write). */
  public int expireNow() {
    writeLock.lock();
    try {
      return ttl.expireDue(now(), this::expire);
    } finally {
      writeLock.unlock();
    }
  }

  // ------------------------------------------------------------------ queries

  /**
   * Runs a query in the request's scope and returns one page. Across several physical partitions
   * the answer is complete (ORDER BY, aggregates, GROUP BY, DISTINCT, TOP, OFFSET/LIMIT merged), as
   * for a client that sends the raw query to the gateway.
   *
   * @throws CosmosException 400 for a query that does not compile (with the service's code and the
   *     position), 410/1002 for a range id that no longer exists, 429 when throttled
   */
  public io.cosmolab.engine.query.QueryPage query(io.cosmolab.engine.query.QueryRequest request) {
    return new QueryRunner(this, engine).run(request);
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
    return new QueryRunner(this, engine).plan(text, parameters);
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

  /**
   * The documents an index selects for the first index-servable predicate, building the index of
   * its path if needed; null when no predicate's path is indexed (the query must scan).
   */
  java.util.Set<io.cosmolab.engine.index.ContainerIndex.DocRef> indexCandidates(
      List<io.cosmolab.query.plan.IndexPredicate> predicates) {
    io.cosmolab.query.plan.IndexPredicate p = index.usable(predicates);
    if (p == null) {
      return null;
    }
    if (!index.covers(p.path())) {
      // built once, under the write lock so no write is missed; after that, lookups take none
      writeLock.lock();
      try {
        index.ensure(p.path(), () -> store.scan(EpkRange.FULL));
      } finally {
        writeLock.unlock();
      }
    }
    return index.lookup(p);
  }

  /** A stored, live document by key, for index hits; null if gone or expired. */
  StoredDocument liveDocument(String epk, String id, long now) {
    StoredDocument d = store.get(epk, id);
    return d == null || ttl.isExpired(d, now) ? null : d;
  }

  /** Spends a query's charge on one of the partitions it ran on. */
  void spendQuery(PartitionKeyRange range, Admission admission, double ru, long now) {
    spend(range, null, admission, ru, now);
  }

  // ------------------------------------------------------------------ throttling

  Admission admit(PartitionKeyRange range, String epk, long now) {
    ThrottlingMode mode = engine.throttling();
    if (mode == ThrottlingMode.OFF) {
      return Admission.ADMITTED;
    }
    PartitionBudget budget = budgetFor(range, epk);
    Admission a = budget.admit(now);
    if (a != Admission.THROTTLED) {
      return a;
    }
    if (mode == ThrottlingMode.ENFORCE) {
      metrics.recordThrottle(range.id(), now, true);
      long retryAfter = budget.retryAfterMillis(now);
      throw new CosmosException(
          CosmosError.REQUEST_RATE_TOO_LARGE,
          String.format(
              "Request rate is large: physical partition %s has used its %s RU/s budget. More"
                  + " Request Units may be needed, so no changes were made. Retry after %d ms.",
              range.id(), Database.fmt(budget.ruPerSecond()), retryAfter),
          retryAfter,
          0);
    }
    metrics.recordThrottle(range.id(), now, false);
    return Admission.THROTTLED;
  }

  private PartitionBudget budgetFor(PartitionKeyRange range, String epk) {
    if (throughput == null) {
      return database.sharedBudgetFor(epk, partitionKey.version() == 1);
    }
    PartitionBudget b = budgets.get(range.id());
    if (b == null) {
      // the range was split or merged since the operation took its snapshot
      b = budgets.get(routing.get().rangeFor(epk).id());
    }
    return b;
  }

  private void spend(PartitionKeyRange range, Target t, Admission a, double ru, long now) {
    metrics.recordOperation(range.id(), now, ru);
    if (t != null && t.key != null) {
      metrics.recordKey(t.epk, ru);
    }
    if (engine.throttling() != ThrottlingMode.OFF && a != Admission.THROTTLED) {
      PartitionBudget b = budgetFor(range, t != null ? t.epk : range.range().min());
      if (b != null) {
        b.charge(ru, a, now);
      }
    }
  }

  // ------------------------------------------------------------------ targets and validation

  /** Where an operation goes: the logical partition (key, EPK) and, for point ops, the id. */
  private static final class Target {
    final PartitionKeyValue key;
    final String epk;
    final String id;

    Target(PartitionKeyValue key, String epk, String id) {
      this.key = key;
      this.epk = epk;
      this.id = id;
    }
  }

  private Target targetOf(PartitionKeyValue key) {
    if (key == null) {
      throw CosmosError.PARTITION_KEY_MISMATCH.exception(
          "the operation needs a partition key with %d component(s) for %s",
          partitionKey.paths().size(), partitionKey.paths());
    }
    checkFullKey(key);
    return new Target(key, EffectivePartitionKey.of(partitionKey, key), null);
  }

  private Target targetOf(PartitionKeyValue key, String id) {
    ResourceNames.checkDocumentId(id);
    Target t = targetOf(key);
    return new Target(t.key, t.epk, id);
  }

  private Target targetOf(PartitionKeyValue given, ObjectNode document) {
    if (document == null) {
      throw CosmosError.BAD_REQUEST.exception("the document is missing");
    }
    JsonNode idNode = document.get("id");
    if (idNode == null || !idNode.isTextual()) {
      throw CosmosError.BAD_REQUEST.exception(
          "the document needs an 'id' property holding a string, was %s",
          idNode == null ? "missing" : idNode.getNodeType());
    }
    String docId = idNode.textValue();
    ResourceNames.checkDocumentId(docId);
    PartitionKeyValue fromDocument = partitionKey.extract(document);
    if (given != null) {
      checkFullKey(given);
      if (!given.equals(fromDocument)) {
        throw CosmosError.PARTITION_KEY_MISMATCH.exception(
            "PartitionKeyMismatch: the partition key %s does not match the document's value %s"
                + " at %s",
            given, fromDocument, partitionKey.paths());
      }
    }
    checkFullKey(fromDocument);
    return new Target(fromDocument, EffectivePartitionKey.of(partitionKey, fromDocument), docId);
  }

  private void checkFullKey(PartitionKeyValue key) {
    if (key.size() != partitionKey.paths().size()) {
      throw EffectivePartitionKey.componentCountError(partitionKey, key);
    }
    for (var c : key.components()) {
      int bytes =
          c instanceof io.cosmolab.engine.partitioning.PartitionKeyComponent.Str s
              ? ResourceNames.utf8LengthOver(s.value(), partitionKey.maxKeyBytes())
              : -1;
      if (bytes >= 0) {
        throw CosmosError.BAD_REQUEST.exception(
            "a partition key value is %d bytes long; the limit for hash version %d is %d bytes",
            bytes, partitionKey.version(), partitionKey.maxKeyBytes());
      }
    }
  }

  private void checkBodyMatches(Target t, ObjectNode document) {
    if (document == null) {
      throw CosmosError.BAD_REQUEST.exception("the document is missing");
    }
    JsonNode idNode = document.get("id");
    if (idNode == null || !idNode.isTextual() || !idNode.textValue().equals(t.id)) {
      throw CosmosError.BAD_REQUEST.exception(
          "the document's id %s does not match the id '%s' being replaced", idNode, t.id);
    }
    PartitionKeyValue fromDocument = partitionKey.extract(document);
    if (!fromDocument.equals(t.key)) {
      throw CosmosError.PARTITION_KEY_MISMATCH.exception(
          "PartitionKeyMismatch: the partition key %s does not match the document's value %s at"
              + " %s; a document cannot move to another logical partition by replace",
          t.key, fromDocument, partitionKey.paths());
    }
  }

  // ------------------------------------------------------------------ the write path

  private interface TxBody {
    ItemResponse run(Transaction tx);
  }

  private ItemResponse write(Target t, TxBody body) {
    long now = now();
    PartitionKeyRange range = routing.get().rangeFor(t.epk);
    Admission admission = admit(range, t.epk, now);
    ItemResponse r;
    writeLock.lock();
    try {
      ttl.expireDue(now, this::expire);
      Transaction tx = new Transaction(now);
      try {
        r = body.run(tx);
      } catch (CosmosException e) {
        spend(range, t, admission, Math.max(e.requestCharge(), 1.0), now);
        throw e;
      }
      tx.commit();
      r =
          new ItemResponse(
              r.status(),
              r.documentView(),
              r.requestCharge(),
              r.etag(),
              committedLsn,
              routing.get().rangeFor(t.epk).id());
    } finally {
      writeLock.unlock();
    }
    spend(range, t, admission, r.requestCharge(), now);
    return r;
  }

  /** Guarded by writeLock: removes an expired document, as the service's TTL does. */
  private void expire(StoredDocument d, long now) {
    Transaction tx = new Transaction(now);
    tx.remove(d, true);
    tx.commit();
  }

  /**
   * The writes of one operation or batch, staged and applied in one store commit. Created and used
   * under the write lock.
   */
  private final class Transaction {
    private final long now;
    private final List<ContainerStore.Write> writes = new ArrayList<>();
    private final Map<String, StoredDocument> staged = new java.util.HashMap<>();
    private final Map<String, Boolean> deleted = new java.util.HashMap<>();
    private final Map<String, long[]> logicalDelta = new java.util.HashMap<>();
    private final Map<String, PartitionKeyValue> logicalKeys = new java.util.HashMap<>();
    private long nextLsn = lsn;
    private long nextSequence = documentSequence;

    Transaction(long now) {
      this.now = now;
    }

    private String key(String epk, String docId) {
      return epk + '\u0000' + docId;
    }

    /** The live version, seeing this transaction's own writes. */
    StoredDocument current(Target t) {
      StoredDocument d = visible(t);
      return d == null || ttl.isExpired(d, now) ? null : d;
    }

    /** The stored or staged version, expired or not. */
    private StoredDocument visible(Target t) {
      if (staged.isEmpty() && deleted.isEmpty()) {
        return store.get(t.epk, t.id);
      }
      String k = key(t.epk, t.id);
      if (deleted.containsKey(k)) {
        return null;
      }
      StoredDocument d = staged.get(k);
      return d != null ? d : store.get(t.epk, t.id);
    }

    private StoredDocument require(Target t) {
      StoredDocument d = current(t);
      if (d == null) {
        throw CosmosError.NOT_FOUND.exception(
            "document '%s' with partition key %s does not exist in container '%s'",
            t.id, t.key, id);
      }
      return d;
    }

    private void checkIfMatch(StoredDocument d, String ifMatch) {
      if (ifMatch != null && !ifMatch.equals("*") && !ifMatch.equals(d.etag())) {
        throw CosmosError.PRECONDITION_FAILED.exception(
            "the document's etag is %s, not the If-Match value %s: it changed since it was read",
            d.etag(), ifMatch);
      }
    }

    ItemResponse create(Target t, ObjectNode document) {
      StoredDocument existing = visible(t);
      if (existing != null && !ttl.isExpired(existing, now)) {
        throw CosmosError.CONFLICT.exception(
            "Entity with the specified id already exists in the system: id '%s', partition key %s",
            t.id, t.key);
      }
      StoredDocument previous = existing; // an expired version still stored is replaced
      StoredDocument d = put(t, document, null, ChangeRecord.Operation.CREATE, previous);
      double charge = engine.costs().create(d.sizeBytes(), d.indexedTerms());
      return new ItemResponse(201, d.body(), charge, d.etag(), 0, null);
    }

    ItemResponse replace(Target t, ObjectNode document, String ifMatch) {
      StoredDocument old = require(t);
      checkIfMatch(old, ifMatch);
      StoredDocument d = put(t, document, old, ChangeRecord.Operation.REPLACE, old);
      int changed =
          io.cosmolab.engine.document.DocumentShape.changedTerms(
              old.body(), d.body(), index.policy().chargedTerms());
      double charge = engine.costs().replace(d.sizeBytes(), changed);
      return new ItemResponse(200, d.body(), charge, d.etag(), 0, null);
    }

    ItemResponse upsert(Target t, ObjectNode document, String ifMatch) {
      StoredDocument old = current(t);
      if (old == null) {
        if (ifMatch != null && !ifMatch.equals("*")) {
          throw CosmosError.PRECONDITION_FAILED.exception(
              "upsert with If-Match %s: document '%s' does not exist", ifMatch, t.id);
        }
        return create(t, document);
      }
      return replace(t, document, ifMatch);
    }

    ItemResponse delete(Target t, String ifMatch) {
      StoredDocument old = require(t);
      checkIfMatch(old, ifMatch);
      remove(old, false);
      double charge = engine.costs().delete(old.sizeBytes(), old.indexedTerms());
      return new ItemResponse(204, null, charge, null, 0, null);
    }

    ItemResponse patch(
        Target t, List<PatchOperation> ops, DocumentCondition condition, String ifMatch) {
      StoredDocument old = require(t);
      checkIfMatch(old, ifMatch);
      if (condition != null && !condition.test(old.body())) {
        throw CosmosError.PRECONDITION_FAILED.exception(
            "the patch condition '%s' is false for document '%s'", condition.text(), t.id);
      }
      ObjectNode patched = old.body().deepCopy();
      io.cosmolab.engine.document.Patch.apply(patched, ops, partitionKey);
      StoredDocument d = put(t, patched, old, ChangeRecord.Operation.REPLACE, old);
      int changed =
          io.cosmolab.engine.document.DocumentShape.changedTerms(
              old.body(), d.body(), index.policy().chargedTerms());
      double charge = engine.costs().patch(d.sizeBytes(), changed, ops.size());
      return new ItemResponse(200, d.body(), charge, d.etag(), 0, null);
    }

    ItemResponse read(Target t, String ifNoneMatch) {
      StoredDocument d = require(t);
      double charge = engine.costs().pointRead(d.sizeBytes(), false);
      if (ifNoneMatch != null && ifNoneMatch.equals(d.etag())) {
        return new ItemResponse(304, null, charge, d.etag(), 0, null);
      }
      return new ItemResponse(200, d.body(), charge, d.etag(), 0, null);
    }

    /** One batch operation against the batch's logical partition. */
    ItemResponse apply(Target batch, BatchOperation op) {
      if (op instanceof BatchOperation.Create c) {
        return create(inBatch(batch, c.document()), c.document());
      }
      if (op instanceof BatchOperation.Upsert u) {
        return upsert(inBatch(batch, u.document()), u.document(), u.ifMatch());
      }
      if (op instanceof BatchOperation.Replace r) {
        Target t = withId(batch, r.id());
        checkBodyMatches(t, r.document());
        return replace(t, r.document(), r.ifMatch());
      }
      if (op instanceof BatchOperation.Read r) {
        return read(withId(batch, r.id()), r.ifNoneMatch());
      }
      if (op instanceof BatchOperation.Delete d) {
        return delete(withId(batch, d.id()), d.ifMatch());
      }
      BatchOperation.Patch p = (BatchOperation.Patch) op;
      checkPatchSize(p.operations());
      return patch(withId(batch, p.id()), p.operations(), p.condition(), p.ifMatch());
    }

    private Target withId(Target batch, String docId) {
      ResourceNames.checkDocumentId(docId);
      return new Target(batch.key, batch.epk, docId);
    }

    private Target inBatch(Target batch, ObjectNode document) {
      Target t = targetOf(null, document);
      if (!t.key.equals(batch.key)) {
        throw CosmosError.PARTITION_KEY_MISMATCH.exception(
            "the document's partition key %s differs from the batch's %s: a batch works within one"
                + " logical partition",
            t.key, batch.key);
      }
      return t;
    }

    /** Stages a new version of a document. */
    private StoredDocument put(
        Target t,
        ObjectNode input,
        StoredDocument old,
        ChangeRecord.Operation operation,
        StoredDocument previousVersion) {
      ttl.checkItemTtl(input);
      long newLsn = nextLsn + 1;
      ObjectNode body = input.deepCopy();
      for (String p : io.cosmolab.engine.document.DocumentShape.SYSTEM_PROPERTIES) {
        body.remove(p);
      }
      // only what the indexing policy indexes is charged: excluding /* is the standard saving
      int terms =
          io.cosmolab.engine.document.DocumentShape.indexedTermsCheckingDepth(
              body, index.policy().chargedTerms());
      String docRid =
          old != null
              ? old.body().get("_rid").textValue()
              : ResourceIds.encode(ResourceIds.document(ridBytes, ++nextSequence));
      body.put("_rid", docRid);
      body.put("_self", selfLink + "docs/" + docRid + "/");
      body.put("_etag", etag(newLsn));
      body.put("_attachments", "attachments/");
      body.put("_ts", now / 1000);
      int size = io.cosmolab.engine.document.DocumentShape.sizeOf(body);
      if (size > Limits.MAX_ITEM_BYTES) {
        throw CosmosError.REQUEST_ENTITY_TOO_LARGE.exception(
            "Request size is too large: document '%s' is %d bytes; the limit is %d bytes (2 MB)",
            t.id, size, Limits.MAX_ITEM_BYTES);
      }
      long oldBytes = previousVersion == null ? 0 : previousVersion.sizeBytes();
      long lpBytes = logical.bytes(t.epk) + logicalDelta(t.epk)[0] - oldBytes + size;
      if (lpBytes > limits().logicalPartitionBytes()) {
        throw CosmosError.PARTITION_KEY_QUOTA_EXCEEDED.exception(
            "Partition key reached maximum size of %s: logical partition %s would hold %d bytes,"
                + " over its limit of %d bytes. Spread the data over more key values (e.g. a"
                + " hierarchical key or a synthetic key).",
            limits().scaleFactor() == 1 ? "20 GB" : "20 GB / " + limits().scaleFactor(),
            t.key,
            lpBytes,
            limits().logicalPartitionBytes());
      }
      StoredDocument d = new StoredDocument(t.epk, t.id, t.key, body, size, terms, newLsn, now);
      nextLsn = newLsn;
      String k = key(t.epk, t.id);
      staged.put(k, d);
      deleted.remove(k);
      writes.add(new ContainerStore.Write.Put(d));
      writes.add(
          new ContainerStore.Write.Append(
              new ChangeRecord(
                  newLsn,
                  now,
                  operation,
                  t.epk,
                  t.id,
                  t.key,
                  body,
                  previousVersion == null ? null : previousVersion.body(),
                  previousVersion == null ? 0 : previousVersion.lsn(),
                  size,
                  false)));
      logicalKeys.put(t.epk, t.key);
      long[] delta = logicalDelta(t.epk);
      delta[0] += size - oldBytes;
      delta[1] += previousVersion == null ? 1 : 0;
      return d;
    }

    /** Stages the removal of a document. */
    void remove(StoredDocument old, boolean expired) {
      long newLsn = nextLsn + 1;
      nextLsn = newLsn;
      String k = key(old.epk(), old.id());
      staged.remove(k);
      deleted.put(k, Boolean.TRUE);
      writes.add(new ContainerStore.Write.Delete(old.epk(), old.id()));
      writes.add(
          new ContainerStore.Write.Append(
              new ChangeRecord(
                  newLsn,
                  now,
                  ChangeRecord.Operation.DELETE,
                  old.epk(),
                  old.id(),
                  old.partitionKey(),
                  null,
                  old.body(),
                  old.lsn(),
                  old.sizeBytes(),
                  expired)));
      long[] delta = logicalDelta(old.epk());
      delta[0] -= old.sizeBytes();
      delta[1] -= 1;
    }

    /** Replays the writes in order against the versions they replace, for the indexes. */
    private void maintainIndexes() {
      Map<String, StoredDocument> current = new java.util.HashMap<>();
      for (ContainerStore.Write w : writes) {
        if (w instanceof ContainerStore.Write.Put put) {
          StoredDocument d = put.document();
          String k = key(d.epk(), d.id());
          StoredDocument before =
              current.containsKey(k) ? current.get(k) : store.get(d.epk(), d.id());
          index.onWrite(before, d);
          current.put(k, d);
        } else if (w instanceof ContainerStore.Write.Delete del) {
          String k = key(del.epk(), del.id());
          StoredDocument before =
              current.containsKey(k) ? current.get(k) : store.get(del.epk(), del.id());
          index.onWrite(before, null);
          current.put(k, null);
        }
      }
    }

    private long[] logicalDelta(String epk) {
      return logicalDelta.computeIfAbsent(epk, e -> new long[2]);
    }

    void commit() {
      if (writes.isEmpty()) {
        return;
      }
      if (index.active()) {
        maintainIndexes();
      }
      store.commit(writes);
      lsn = nextLsn;
      documentSequence = nextSequence;
      RoutingMap map = routing.get();
      for (Map.Entry<String, long[]> e : logicalDelta.entrySet()) {
        long[] d = e.getValue();
        // null for a partition that only lost documents: it keeps the key it has
        logical.add(e.getKey(), logicalKeys.get(e.getKey()), d[0], d[1]);
        long[] usage = rangeUsage.computeIfAbsent(map.rangeFor(e.getKey()).id(), r -> new long[2]);
        usage[0] += d[1];
        usage[1] += d[0];
      }
      for (StoredDocument d : staged.values()) {
        ttl.track(d);
      }
      committedLsn = lsn;
      splitOverfullPartitions(logicalDelta.keySet());
    }
  }

  /** {@code "ssssssss-0000-0000-0000-llllllllllll"}: unique per container (salt) and LSN. */
  private String etag(long lsn) {
    char[] out = "\"00000000-0000-0000-0000-000000000000\"".toCharArray();
    writeHex(etagSalt & 0xFFFFFFFFL, out, 1, 8);
    writeHex(lsn, out, 25, 12);
    return new String(out);
  }

  private static void writeHex(long v, char[] out, int at, int digits) {
    for (int i = at + digits - 1; i >= at; i--) {
      out[i] = Character.forDigit((int) (v & 0xF), 16);
      v >>>= 4;
    }
  }
}
