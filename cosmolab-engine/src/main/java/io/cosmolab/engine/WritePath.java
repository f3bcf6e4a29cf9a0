package io.cosmolab.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.engine.batch.BatchOperation;
import io.cosmolab.engine.batch.BatchResult;
import io.cosmolab.engine.document.DocumentShape;
import io.cosmolab.engine.document.Patch;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.index.ContainerIndex;
import io.cosmolab.engine.limits.Limits;
import io.cosmolab.engine.partitioning.PartitionKeyComponent;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.resource.ResourceIds;
import io.cosmolab.engine.store.ChangeRecord;
import io.cosmolab.engine.store.ContainerStore;
import io.cosmolab.engine.store.StoredDocument;
import io.cosmolab.engine.throughput.PartitionBudget.Admission;
import io.cosmolab.engine.throughput.Throughput;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The write path of a container: a point write or a batch runs as one transaction in its physical
 * partition, is charged to that partition, and commits its document versions and change records to
 * the store in one commit.
 */
/*
 * Concurrency. A write holds the layout's read side (no split or merge meanwhile) and the write
 * lock of its physical partition, so writes to different partitions run side by side and writes to
 * one partition in order. LSNs come from the commit gate and document RIDs from an atomic sequence;
 * a change-feed reader goes only as far as the gate's committed LSN, so it never skips a write
 * that took a lower LSN and is still committing.
 *
 * Two numberings. Each write takes two numbers under its partition's lock: a position in the
 * container's change log (the commit gate's container-wide sequence, which orders the log, makes
 * etags and change-feed continuations, and drives retention), and an LSN in its physical
 * partition's own numbering (Layout.Partition: 1, 2, 3… per partition, dense, as the service
 * counts), which is what clients see: _lsn, session tokens, the lsn headers. Keeping the log in one
 * container-wide order is the safer design: a continuation is one number that stays valid across
 * splits and merges, and a reader over any EPK range needs no merge of several numberings. The
 * partition's numbers need no gate of their own: one writer at a time holds the lock, so the
 * partition's committed LSN is simply its last, set before the gate lets readers see the write.
 * The gate's shared monitor stays on the write path (issue 13): removing it would need per-partition
 * continuations, which the SDKs' change-feed estimators do not require.
 *
 * Order within a commit: the store first (all or nothing), then — only once it succeeded — the
 * indexes, the usage of logical and physical partitions, and the time-to-live schedule, and last
 * the gate. A store that fails (disk full) leaves nothing behind.
 *
 * Time to live: an expired document is invisible at once. The first write after its time hands the
 * deletion to the engine's housekeeping executor (one sweep at a time, each deletion under its own
 * partition's lock), so no write waits for it; a change-feed read that finds no sweep running, and
 * expireNow(), delete in their own thread.
 */
final class WritePath {
  // the last second written: the documents written in one second share its _ts node (immutable)
  private volatile com.fasterxml.jackson.databind.node.LongNode lastTimestamp =
      com.fasterxml.jackson.databind.node.LongNode.valueOf(0);

  /** {@code _ts} for a write in this second: the node of the write before, if of the same. */
  private com.fasterxml.jackson.databind.node.LongNode timestamp(long seconds) {
    com.fasterxml.jackson.databind.node.LongNode last = lastTimestamp;
    if (last.longValue() != seconds) {
      last = com.fasterxml.jackson.databind.node.LongNode.valueOf(seconds);
      lastTimestamp = last;
    }
    return last;
  }

  /** The system properties a stored version makes when read (StoredDocument.text). */
  private static final java.util.List<String> SYSTEM_TEXT =
      java.util.List.of("_rid", "_self", "_etag");

  /** Every document's {@code _attachments}: one node for all (value nodes are immutable). */
  private static final com.fasterxml.jackson.databind.node.TextNode ATTACHMENTS =
      com.fasterxml.jackson.databind.node.TextNode.valueOf("attachments/");

  private final Container container;
  private final CosmosEngine engine;
  private final PartitionKeyDefinition partitionKey;
  private final ContainerStore store;
  private final TimeToLive ttl;
  private final ContainerIndex index;
  private final LogicalPartitions logical;
  private final PartitionLayout layout;
  private final Throttle throttle;
  private final ChangeLogRetention retention;
  private final SplitTransactions splits;
  private final Supplier<Throughput> throughput;
  private final CommitGate gate;
  private final AtomicLong documentSequence;
  private final HighWaterMarks marks;
  private final ReentrantLock expiring = new ReentrantLock();
  private final java.util.concurrent.atomic.AtomicBoolean sweepQueued =
      new java.util.concurrent.atomic.AtomicBoolean();
  // the system properties' stand-ins, of their final lengths (the same for every document)
  private final String standInRid;
  private final String standInSelf;
  private final String standInEtag;
  // each key path's property when it is a top-level one (/pk), else null: where a body holds its
  // key's text (shareKeyText)
  private final String[] keyProperties;

  WritePath(
      Container container,
      CosmosEngine engine,
      ContainerStore store,
      TimeToLive ttl,
      ContainerIndex index,
      LogicalPartitions logical,
      PartitionLayout layout,
      Throttle throttle,
      ChangeLogRetention retention,
      Supplier<Throughput> throughput,
      HighWaterMarks marks,
      long recoveredLsn,
      long recoveredSequence) {
    this.container = container;
    this.engine = engine;
    this.partitionKey = container.partitionKey();
    this.store = store;
    this.ttl = ttl;
    this.index = index;
    this.logical = logical;
    this.layout = layout;
    this.throttle = throttle;
    this.retention = retention;
    this.splits = new SplitTransactions();
    this.throughput = throughput;
    this.marks = marks;
    this.gate = new CommitGate(recoveredLsn, marks);
    this.documentSequence = new AtomicLong(recoveredSequence);
    this.standInRid = container.texts().rid(0);
    this.standInSelf = container.texts().self(0);
    this.standInEtag = container.texts().etag(0);
    this.keyProperties =
        partitionKey.paths().stream()
            .map(PartitionKeyDefinition::segmentsOf)
            .map(segments -> segments.size() == 1 ? segments.get(0) : null)
            .toArray(String[]::new);
  }

  /** The LSN below which every write has finished. */
  long committedLsn() {
    return gate.committed();
  }

  /** The committed transactions whose records lie in separate runs of the log. */
  SplitTransactions splitTransactions() {
    return splits;
  }

  /** The last LSN taken: every write that has finished wrote at or below it. */
  long lastTakenLsn() {
    return gate.lastTaken();
  }

  interface Body {
    ItemResponse run(Transaction tx, Prepared document);
  }

  /**
   * A new version of a document, made ready before the partition's lock is taken (the copy, the
   * indexed terms and the size are most of a write's work): its system properties hold stand-ins of
   * their final length, which {@link Transaction} fills in under the lock.
   */
  record Prepared(ObjectNode body, int indexedTerms, int sizeBytes, boolean indexed) {}

  /** Copies, strips, counts and measures an indexed document; 400 or 413 if it cannot be stored. */
  Prepared prepare(Target t, ObjectNode input, long now) {
    return prepare(t, input, now, true);
  }

  /**
   * Copies, strips, counts and measures a document; {@code indexed} false (the Exclude indexing
   * directive) counts no indexed terms. 400 or 413 if it cannot be stored.
   */
  Prepared prepare(Target t, ObjectNode input, long now, boolean indexed) {
    ttl.checkItemTtl(input);
    // the copy is kept as long as the document: compact (CompactObjects), with room for the
    // system properties put below
    ObjectNode body =
        io.cosmolab.engine.document.CompactObjects.copyOf(
            input, DocumentShape.SYSTEM_PROPERTIES.size());
    for (String p : DocumentShape.SYSTEM_PROPERTIES) {
      body.remove(p);
    }
    // only what the indexing policy indexes is charged: excluding /* is the standard saving
    int terms = DocumentShape.indexedTermsCheckingDepth(body, index.policy().chargedTerms());
    if (!indexed) {
      terms = 0; // the depth was still checked: an unindexed document is stored all the same
    }
    body.put("_rid", standInRid); // every document RID has this length, and so has every etag
    body.put("_self", standInSelf);
    body.put("_etag", standInEtag);
    body.set("_attachments", ATTACHMENTS);
    body.set("_ts", timestamp(now / 1000));
    int size = DocumentShape.sizeOf(body);
    if (size > Limits.MAX_ITEM_BYTES) {
      throw CosmosError.REQUEST_ENTITY_TOO_LARGE.exception(
          "Request size is too large: document '%s' is %d bytes; the limit is %d bytes (2 MB)",
          t.id(), size, Limits.MAX_ITEM_BYTES);
    }
    return new Prepared(body, terms, size, indexed);
  }

  /** One point write: admitted, run, committed and charged in the document's partition. */
  ItemResponse write(Target t, Body body) {
    return write(t, null, true, body);
  }

  /** One point write of {@code document} (prepared before the lock), or of none if null. */
  ItemResponse write(Target t, ObjectNode document, boolean indexed, Body body) {
    long now = engine.clock().millis();
    scheduleExpiry(now);
    Prepared prepared = document == null ? null : prepare(t, document, now, indexed);
    ItemResponse r =
        layout.shared(
            l -> {
              Layout.Partition p = l.partitionFor(t.epk());
              Admission admission = throttle.admit(p.range, t.epk(), now);
              ItemResponse done;
              try {
                done =
                    inTransaction(
                        p,
                        now,
                        1,
                        tx -> {
                          ItemResponse ran = body.run(tx, prepared);
                          tx.commit();
                          return ran;
                        });
              } catch (CosmosException e) {
                double charge = Math.max(e.requestCharge(), 1.0);
                throttle.spend(p.range, t.epk(), admission, charge, now);
                throw e.refusedBy(charge, p.range.id(), p.lsn());
              }
              throttle.spend(p.range, t.epk(), admission, done.requestCharge(), now);
              return new ItemResponse(
                  done.status(),
                  done.documentView(),
                  done.requestCharge(),
                  done.etag(),
                  Math.max(done.lsn(), p.lsn()),
                  p.range.id());
            });
    afterWrite(now);
    return r;
  }

  /** Up to 100 operations in one logical partition, all or nothing. */
  BatchResult batch(
      Target t, List<BatchOperation> operations, java.util.function.IntPredicate returnsBody) {
    long now = engine.clock().millis();
    scheduleExpiry(now);
    BatchResult result =
        layout.shared(
            l -> {
              Layout.Partition p = l.partitionFor(t.epk());
              Admission admission = throttle.admit(p.range, t.epk(), now);
              BatchResult r =
                  inTransaction(
                      p, now, operations.size(), tx -> runBatch(tx, t, operations, returnsBody));
              throttle.spend(p.range, t.epk(), admission, Math.max(r.requestCharge(), 1.0), now);
              return r;
            });
    afterWrite(now);
    return result;
  }

  /** Work of a script on one transaction, and the RU it has used so far (also when it failed). */
  interface Scripted<R> {
    R run(Transaction tx);

    double charge();
  }

  /** What a scripted transaction returned, and where it ran. */
  record ScriptedResult<R>(R value, double charge, long lsn, String partitionKeyRangeId) {}

  /**
   * A stored procedure or a triggered write: admitted in its partition, run on one transaction
   * under the partition's lock, committed only if the work returns (a throw, a timeout, a failed
   * operation the script did not handle roll everything back), and charged either way.
   */
  <R> ScriptedResult<R> scripted(Target t, Scripted<R> work) {
    long now = engine.clock().millis();
    scheduleExpiry(now);
    ScriptedResult<R> result =
        layout.shared(
            l -> {
              Layout.Partition p = l.partitionFor(t.epk());
              Admission admission = throttle.admit(p.range, t.epk(), now);
              R value;
              long lsn;
              try {
                long[] committed = new long[1];
                value =
                    inTransaction(
                        p,
                        now,
                        LogPositions.UNKNOWN_WRITES,
                        tx -> {
                          R r = work.run(tx);
                          tx.commit();
                          committed[0] = tx.lastLsn();
                          return r;
                        });
                lsn = Math.max(committed[0], p.lsn());
              } catch (CosmosException e) {
                double charge = Math.max(work.charge(), 1.0);
                throttle.spend(p.range, t.epk(), admission, charge, now);
                throw e.refusedBy(charge, p.range.id(), p.lsn());
              }
              double charge = Math.max(work.charge(), 1.0);
              throttle.spend(p.range, t.epk(), admission, charge, now);
              return new ScriptedResult<>(value, charge, lsn, p.range.id());
            });
    afterWrite(now);
    return result;
  }

  /** The operations in order on one transaction: committed if all succeed, else abandoned. */
  private BatchResult runBatch(
      Transaction tx,
      Target t,
      List<BatchOperation> operations,
      java.util.function.IntPredicate returnsBody) {
    List<BatchResult.OperationResult> results = new ArrayList<>(operations.size());
    double charge = 0;
    long responseBytes = 0;
    for (int i = 0; i < operations.size(); i++) {
      try {
        ItemResponse r = tx.apply(t, operations.get(i));
        charge += r.requestCharge();
        if (r.documentView() != null && returnsBody.test(i)) {
          responseBytes +=
              r.stored() != null ? r.stored().sizeBytes() : DocumentShape.sizeOf(r.documentView());
        }
        results.add(
            new BatchResult.OperationResult(
                r.status(), 0, r.requestCharge(), r.etag(), r.document(), null));
      } catch (CosmosException e) {
        tx.abandon();
        return failedBatch(operations.size(), results, i, e, charge, tx.partition.lsn());
      }
    }
    if (responseBytes > Limits.MAX_RESPONSE_BYTES) {
      // the service refuses a batch whose response would pass its limit, naming the last
      // operation and failing the rest (the Java and .NET SDKs' batchServerResponseTooLargeAsync:
      // 10 reads of a 1 MB document, 424 for the first, 413 for the last) [A: where it counts]
      tx.abandon();
      return failedBatch(
          operations.size(),
          results,
          operations.size() - 1,
          CosmosError.REQUEST_ENTITY_TOO_LARGE.exception(
              "the batch's response would hold %d bytes of documents; the limit is %d bytes",
              responseBytes, Limits.MAX_RESPONSE_BYTES),
          charge,
          tx.partition.lsn());
    }
    tx.commit();
    return new BatchResult(200, results, charge, Math.max(tx.lastLsn(), tx.partition.lsn()));
  }

  private static BatchResult failedBatch(
      int size,
      List<BatchResult.OperationResult> results,
      int failed,
      CosmosException failure,
      double charge,
      long lsn) {
    List<BatchResult.OperationResult> out = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      if (i == failed) {
        // an operation that ran and was then refused (the response limit) keeps its charge
        double c = i < results.size() ? results.get(i).requestCharge() : 0;
        out.add(
            new BatchResult.OperationResult(
                failure.status(), failure.subStatus(), c, null, null, failure.getMessage()));
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
    return new BatchResult(207, out, charge, lsn);
  }

  /** At a clean close: saves the last LSNs and sequence used as the marks. */
  void saveExactMarks() {
    Map<String, Long> ranges = new HashMap<>();
    for (Layout.Partition p : layout.current().partitions().values()) {
      ranges.put(p.range.id(), p.lsn());
    }
    marks.closeAt(gate.committed(), documentSequence.get(), ranges);
  }

  private long nextSequence() {
    long n = documentSequence.incrementAndGet();
    marks.coverSequence(n); // saved before the commit that uses it
    return n;
  }

  /**
   * Runs {@code work} on a new transaction under {@code p}'s write lock. The work commits the
   * transaction or not; if it throws, the transaction's LSNs are given back.
   */
  private <T> T inTransaction(
      Layout.Partition p,
      long now,
      int expectedWrites,
      java.util.function.Function<Transaction, T> work) {
    p.writes.lock();
    try {
      Transaction tx = new Transaction(now, p, expectedWrites);
      try {
        return work.apply(tx);
      } catch (RuntimeException | Error e) {
        tx.abandon();
        throw e;
      }
    } finally {
      p.writes.unlock();
    }
  }

  /** What follows a write once it let go of its locks: storage splits, log retention. */
  private void afterWrite(long now) {
    layout.splitOverfull(throughput.get());
    retention.sweep(now, gate::committed);
  }

  /**
   * Deletes the documents whose time to live has passed, each under its partition's lock. Returns
   * at once if another thread is at it, unless {@code wait}.
   */
  int expireDue(long now, boolean wait) {
    if (!ttl.hasDue(now)) {
      return 0;
    }
    if (wait) {
      expiring.lock();
    } else if (!expiring.tryLock()) {
      return 0;
    }
    try {
      List<TimeToLive.Entry> due = ttl.takeDue(now);
      if (due.isEmpty()) {
        return 0;
      }
      return layout.shared(
          l -> {
            int n = 0;
            for (TimeToLive.Entry e : due) {
              boolean expired =
                  inTransaction(
                      l.partitionFor(e.epk()),
                      now,
                      1,
                      tx -> {
                        StoredDocument d = store.get(e.epk(), e.id());
                        if (!ttl.stillDue(e, d, now)) {
                          return false;
                        }
                        tx.remove(d, true);
                        tx.commit();
                        return true;
                      });
              n += expired ? 1 : 0;
            }
            return n;
          });
    } finally {
      expiring.unlock();
    }
  }

  /** Hands a sweep to the housekeeping executor if documents are due and none is queued. */
  private void scheduleExpiry(long now) {
    if (!ttl.hasDue(now) || !sweepQueued.compareAndSet(false, true)) {
      return;
    }
    try {
      engine
          .housekeeping()
          .execute(
              () -> {
                try {
                  expireDue(engine.clock().millis(), true);
                } finally {
                  sweepQueued.set(false);
                }
              });
    } catch (java.util.concurrent.RejectedExecutionException closing) {
      sweepQueued.set(false); // the engine is closing: the documents stay invisible, as before
    }
  }

  /**
   * Builds the index of a path from a scan that takes no lock, so writes go on meanwhile: see
   * ContainerIndex. Runs in the calling query's thread (the service's indexes are always current,
   * so the query that needs one waits for it rather than being charged as a scan).
   */
  void buildIndex(List<String> path) {
    index.build(path, () -> store.scan(io.cosmolab.engine.partitioning.EpkRange.FULL));
  }

  /** A version a write replaced ({@code after} null: deleted), by the write at {@code lsn}. */
  private record Replaced(StoredDocument before, StoredDocument after, long lsn) {}

  /**
   * The writes of one operation or batch, staged and applied in one store commit. Created and used
   * under its partition's write lock.
   */
  final class Transaction {
    private final long now;
    private final Layout.Partition partition;
    private final List<ContainerStore.Write> writes;
    private final StagedWrites staged = new StagedWrites();
    // the versions each write replaced, in order, for the indexes
    private final List<Replaced> versions;
    private final List<Long> superseded = new ArrayList<>();
    private long logicalBytes;
    private long logicalDocuments;
    private String logicalEpk;
    private io.cosmolab.engine.partitioning.PartitionKeyValue logicalKey;
    private final LogPositions positions; // in the change log (the commit gate's)
    private long firstRangeLsn; // LSNs in the partition's own numbering (what clients see)
    private long lastRangeLsn;

    /**
     * @param expectedWrites the writes it will make if it knows (a point write's 1, a batch's
     *     operations), or {@link LogPositions#UNKNOWN_WRITES} (a script's)
     */
    Transaction(long now, Layout.Partition partition, int expectedWrites) {
      this.now = now;
      this.partition = partition;
      this.positions = new LogPositions(gate, splits, expectedWrites);
      // a point write makes two store writes (its document and its change record), one version
      this.writes = new ArrayList<>(expectedWrites == 1 ? 2 : 10);
      this.versions = new ArrayList<>(expectedWrites == 1 ? 1 : 10);
    }

    /** The partition's LSN of this transaction's last write, 0 before its first. */
    long lastLsn() {
      return lastRangeLsn;
    }

    long now() {
      return now;
    }

    /** Copies, strips and measures a document for this transaction (see WritePath#prepare). */
    Prepared prepared(Target t, ObjectNode input) {
      return WritePath.this.prepare(t, input, now);
    }

    /** The same, not indexed when {@code indexed} is false (the Exclude indexing directive). */
    Prepared prepared(Target t, ObjectNode input, boolean indexed) {
      return WritePath.this.prepare(t, input, now, indexed);
    }

    /**
     * The live documents of one logical partition, by id, with this transaction's own writes: what
     * a script's query and readDocuments see.
     */
    List<StoredDocument> logicalPartition(String epk) {
      java.util.TreeMap<String, StoredDocument> out = new java.util.TreeMap<>();
      // every document of a full key has exactly this EPK; "0" sorts after all of them
      java.util.Iterator<StoredDocument> it =
          store.scan(new io.cosmolab.engine.partitioning.EpkRange(epk, epk + "0"));
      while (it.hasNext()) {
        StoredDocument d = it.next();
        if (d.epk().equals(epk)) {
          out.put(d.id(), d);
        }
      }
      for (StoredDocument d : staged.versions()) {
        if (d.epk().equals(epk)) {
          out.put(d.id(), d);
        }
      }
      for (String id : staged.deletedIds(epk)) {
        out.remove(id);
      }
      out.values().removeIf(d -> ttl.isExpired(d, now));
      return new ArrayList<>(out.values());
    }

    /**
     * The next position in the log (LogPositions: in blocks, so that a change-feed page can keep
     * the transaction's records together). The transaction takes one LSN of its partition, at its
     * first write, and every write of it shows that one ({@code _lsn}, the change feed's {@code
     * lsn}): the documents a transaction changed share its LSN, as the service's do, and so a
     * change-feed page can tell a transaction's records (ChangeFeedReader).
     */
    private long nextLsn() {
      boolean firstWrite = !positions.open();
      long lsn = positions.next();
      if (firstWrite) {
        long rangeLsn = partition.takeLsn();
        marks.coverRangeLsn(partition.range.id(), rangeLsn); // saved before any commit uses it
        firstRangeLsn = rangeLsn;
        lastRangeLsn = rangeLsn;
      }
      return lsn;
    }

    /** The live version, seeing this transaction's own writes. */
    StoredDocument current(Target t) {
      StoredDocument d = visible(t);
      return d == null || ttl.isExpired(d, now) ? null : d;
    }

    /** The stored or staged version, expired or not. */
    private StoredDocument visible(Target t) {
      if (staged.isEmpty()) {
        return store.get(t.epk(), t.id());
      }
      if (staged.isDeleted(t.epk(), t.id())) {
        return null;
      }
      StoredDocument d = staged.get(t.epk(), t.id());
      return d != null ? d : store.get(t.epk(), t.id());
    }

    private StoredDocument require(Target t) {
      StoredDocument d = current(t);
      if (d == null) {
        throw CosmosError.NOT_FOUND.exception(
            "document '%s' with partition key %s does not exist in container '%s'",
            t.id(), t.key(), container.id());
      }
      return d;
    }

    private void checkIfMatch(StoredDocument d, String ifMatch) {
      if (ifMatch != null && !ifMatch.equals("*") && !ifMatch.equals(d.etag())) {
        // the service's sentence first (the Java SDK's PatchTest matches it; applications match
        // it to retry an optimistic write), then which etags differed
        throw CosmosError.PRECONDITION_FAILED.exception(
            "One of the specified pre-condition is not met. (The document's etag is %s, not the"
                + " If-Match value %s: it changed since it was read.)",
            d.etag(), ifMatch);
      }
    }

    ItemResponse create(Target t, Prepared document) {
      StoredDocument existing = visible(t);
      if (existing != null && !ttl.isExpired(existing, now)) {
        throw CosmosError.CONFLICT.exception(
            "Entity with the specified id already exists in the system: id '%s', partition key %s",
            t.id(), t.key());
      }
      // an expired version still stored is replaced
      StoredDocument d = put(t, document, existing, ChangeRecord.Operation.CREATE);
      double charge = engine.costs().create(d.sizeBytes(), d.indexedTerms());
      return new ItemResponse(201, d.body(), charge, d.etag(), d.rangeLsn(), null);
    }

    ItemResponse replace(Target t, Prepared document, String ifMatch) {
      StoredDocument old = require(t);
      checkIfMatch(old, ifMatch);
      StoredDocument d = put(t, document, old, ChangeRecord.Operation.REPLACE);
      double charge = engine.costs().replace(d.sizeBytes(), changedTerms(old, d, document));
      return new ItemResponse(200, d.body(), charge, d.etag(), d.rangeLsn(), null);
    }

    /**
     * Index terms a replace changes: those whose value changed; all of the old version's when the
     * new one is not indexed (they are removed); all of the new one's when the old one had none.
     */
    private int changedTerms(StoredDocument old, StoredDocument d, Prepared document) {
      if (!document.indexed()) {
        return old.indexedTerms();
      }
      if (old.indexedTerms() == 0) {
        return d.indexedTerms();
      }
      return DocumentShape.changedTerms(old.body(), d.body(), index.policy().chargedTerms());
    }

    /**
     * A replace, conditional on {@code ifMatch}, of a document that exists; else a create, which
     * ignores it: "ignored ... for upsert requests if the item doesn't exist" (azure-cosmos 4.81,
     * {@code CosmosItemRequestOptions.setIfMatchETag}; azure-cosmos-dotnet-v3#1698). Spring Data
     * Cosmos relies on it: the first save of a {@code @Version} entity sends {@code If-Match:
     * null}.
     */
    ItemResponse upsert(Target t, Prepared document, String ifMatch) {
      StoredDocument old = current(t);
      if (old == null) {
        return create(t, document);
      }
      return replace(t, document, ifMatch);
    }

    ItemResponse delete(Target t, String ifMatch) {
      StoredDocument old = require(t);
      checkIfMatch(old, ifMatch);
      remove(old, false);
      double charge = engine.costs().delete(old.sizeBytes(), old.indexedTerms());
      return new ItemResponse(204, null, charge, null, lastRangeLsn, null);
    }

    ItemResponse patch(
        Target t,
        List<io.cosmolab.engine.document.PatchOperation> ops,
        io.cosmolab.engine.document.DocumentCondition condition,
        String ifMatch) {
      return patch(t, ops, condition, ifMatch, true);
    }

    /** A patch whose new version is indexed unless {@code indexed} is false (Exclude). */
    ItemResponse patch(
        Target t,
        List<io.cosmolab.engine.document.PatchOperation> ops,
        io.cosmolab.engine.document.DocumentCondition condition,
        String ifMatch,
        boolean indexed) {
      StoredDocument old = require(t);
      checkIfMatch(old, ifMatch);
      if (condition != null && !condition.test(old.body())) {
        throw CosmosError.PRECONDITION_FAILED.exception(
            "One of the specified pre-condition is not met. (The patch condition '%s' is false for"
                + " document '%s'.)",
            condition.text(), t.id());
      }
      ObjectNode patched = old.body().deepCopy();
      Patch.apply(patched, ops, partitionKey);
      Prepared prepared = prepare(t, patched, now, indexed);
      StoredDocument d = put(t, prepared, old, ChangeRecord.Operation.REPLACE);
      int changed = changedTerms(old, d, prepared);
      double charge = engine.costs().patch(d.sizeBytes(), changed, ops.size());
      return new ItemResponse(200, d.body(), charge, d.etag(), d.rangeLsn(), null);
    }

    ItemResponse read(Target t, String ifNoneMatch) {
      StoredDocument d = require(t);
      double charge = engine.costs().pointRead(d.sizeBytes(), false);
      if (ItemOptions.unchanged(ifNoneMatch, d.etag())) {
        return new ItemResponse(304, null, charge, d.etag(), 0, null);
      }
      return new ItemResponse(200, d.body(), charge, d.etag(), 0, null, d);
    }

    /** One batch operation against the batch's logical partition. */
    ItemResponse apply(Target batch, BatchOperation op) {
      if (op instanceof BatchOperation.Create c) {
        Target t = inBatch(batch, c.document());
        return create(t, prepare(t, c.document(), now));
      }
      if (op instanceof BatchOperation.Upsert u) {
        Target t = inBatch(batch, u.document());
        return upsert(t, prepare(t, u.document(), now), u.ifMatch());
      }
      if (op instanceof BatchOperation.Replace r) {
        Target t = batch.withId(r.id());
        t.checkBodyMatches(partitionKey, r.document());
        return replace(t, prepare(t, r.document(), now), r.ifMatch());
      }
      if (op instanceof BatchOperation.Read r) {
        return read(batch.withId(r.id()), r.ifNoneMatch());
      }
      if (op instanceof BatchOperation.Delete d) {
        return delete(batch.withId(d.id()), d.ifMatch());
      }
      BatchOperation.Patch p = (BatchOperation.Patch) op;
      Container.checkPatchSize(p.operations());
      return patch(batch.withId(p.id()), p.operations(), p.condition(), p.ifMatch());
    }

    private Target inBatch(Target batch, ObjectNode document) {
      Target t = Target.of(partitionKey, null, document);
      if (!t.key().equals(batch.key())) {
        throw CosmosError.PARTITION_KEY_MISMATCH.exception(
            "the document's partition key %s differs from the batch's %s: a batch works within one"
                + " logical partition",
            t.key(), batch.key());
      }
      return t;
    }

    /**
     * The unique keys: no other live document of the logical partition (this transaction's writes
     * included) has the same values at all of a unique key's paths. A missing value counts as null,
     * so one document only may lack it ([D] "Unique keys": sparse unique keys are not supported).
     * The service answers 409 "Unique index constraint violation." [R]. Checked by reading the
     * logical partition under its lock: a cost only containers with unique keys pay [H].
     */
    private void checkUniqueKeys(Target t, ObjectNode body) {
      List<List<String>> keys = container.uniqueKeys();
      if (keys.isEmpty()) {
        return;
      }
      List<List<JsonNode>> mine = uniqueValues(keys, body);
      Map<String, StoredDocument> others = new java.util.HashMap<>();
      for (java.util.Iterator<StoredDocument> it =
              store.scan(new io.cosmolab.engine.partitioning.EpkRange(t.epk(), t.epk() + "0"));
          it.hasNext(); ) {
        StoredDocument d = it.next();
        others.put(StagedWrites.key(d.epk(), d.id()), d);
      }
      for (StoredDocument d : staged.versions()) {
        if (d.epk().equals(t.epk())) {
          others.put(StagedWrites.key(d.epk(), d.id()), d);
        }
      }
      for (StoredDocument d : others.values()) {
        if (d.id().equals(t.id()) || staged.isDeleted(d.epk(), d.id()) || ttl.isExpired(d, now)) {
          continue;
        }
        List<List<JsonNode>> theirs = uniqueValues(keys, d.body());
        for (int k = 0; k < keys.size(); k++) {
          if (mine.get(k).equals(theirs.get(k))) {
            throw CosmosError.CONFLICT.exception("Unique index constraint violation.");
          }
        }
      }
    }

    /**
     * The logical partition's key value as the body's text, where a top-level key property holds a
     * string equal to it: each document then keeps one string fewer of its own (2 objects, about 50
     * bytes: docs/benchmarks.md, "What a stored document keeps").
     */
    private void shareKeyText(ObjectNode body, PartitionKeyValue key) {
      for (int i = 0; i < keyProperties.length && i < key.size(); i++) {
        if (keyProperties[i] != null
            && key.components().get(i) instanceof PartitionKeyComponent.Str text) {
          io.cosmolab.engine.document.CompactObjects.shareText(
              body, keyProperties[i], text.value());
        }
      }
    }

    /** Stages a new version of a document, replacing {@code previous} (the stored one, or null). */
    private StoredDocument put(
        Target t, Prepared prepared, StoredDocument previous, ChangeRecord.Operation operation) {
      int size = prepared.sizeBytes();
      long oldBytes = previous == null ? 0 : previous.sizeBytes();
      long lpBytes = logical.bytes(t.epk()) + logicalBytes - oldBytes + size;
      if (lpBytes > engine.limits().logicalPartitionBytes()) {
        throw CosmosError.PARTITION_KEY_QUOTA_EXCEEDED.exception(
            "Partition key reached maximum size of %s: logical partition %s would hold %d bytes,"
                + " over its limit of %d bytes. Spread the data over more key values (e.g. a"
                + " hierarchical key or a synthetic key).",
            engine.limits().scaleFactor() == 1
                ? "20 GB"
                : "20 GB / " + engine.limits().scaleFactor(),
            t.key(),
            lpBytes,
            engine.limits().logicalPartitionBytes());
      }
      checkUniqueKeys(t, prepared.body());
      long lsn = nextLsn(); // given back by abandon() if the transaction fails
      // the same lengths as the stand-ins, so the size measured before the lock holds
      ObjectNode body = prepared.body();
      // a new version keeps its document's RID (and so its link); the texts are made when read
      long sequence =
          previous != null
              ? ResourceIds.sequenceOf(ResourceIds.documentPartOf(previous.body()))
              : nextSequence();
      // the EPK and key value this document's logical partition already keeps: its documents
      // then share one of each, instead of each keeping its request's (5 objects, ~130 bytes);
      // in a new logical partition, those of this transaction's first write in it
      Target shared =
          logicalKey != null && t.epk().equals(logicalEpk)
              ? new Target(logicalKey.equals(t.key()) ? logicalKey : t.key(), logicalEpk, t.id())
              : logical.shared(t);
      shareKeyText(body, shared.key());
      StoredDocument d =
          new StoredDocument(
              shared.epk(),
              t.id(),
              shared.key(),
              body,
              size,
              prepared.indexed() ? prepared.indexedTerms() : StoredDocument.NOT_INDEXED,
              lsn,
              now,
              lastRangeLsn,
              container.texts(),
              sequence);
      // the version makes its texts itself (StoredDocument); put before anyone can read the body
      for (String name : SYSTEM_TEXT) {
        io.cosmolab.engine.document.CompactObjects.putSystemText(body, name, d);
      }
      staged.put(d);
      writes.add(new ContainerStore.Write.Put(d));
      writes.add(
          new ContainerStore.Write.Append(
              new ChangeRecord(
                  lsn,
                  now,
                  operation,
                  shared.epk(),
                  t.id(),
                  shared.key(),
                  body,
                  previous == null ? null : previous.body(),
                  previous == null ? 0 : previous.rangeLsn(),
                  size,
                  false,
                  lastRangeLsn)));
      versions.add(new Replaced(previous, d, d.lsn()));
      supersede(previous);
      logicalEpk = shared.epk();
      logicalKey = shared.key();
      logicalBytes += size - oldBytes;
      logicalDocuments += previous == null ? 1 : 0;
      return d;
    }

    /** Stages the removal of a document. */
    void remove(StoredDocument old, boolean expired) {
      long lsn = nextLsn();
      staged.delete(old.epk(), old.id());
      writes.add(new ContainerStore.Write.Delete(old.epk(), old.id()));
      writes.add(
          new ContainerStore.Write.Append(
              new ChangeRecord(
                  lsn,
                  now,
                  ChangeRecord.Operation.DELETE,
                  old.epk(),
                  old.id(),
                  old.partitionKey(),
                  null,
                  old.body(),
                  old.rangeLsn(),
                  old.sizeBytes(),
                  expired,
                  lastRangeLsn)));
      versions.add(new Replaced(old, null, lsn));
      supersede(old);
      logicalEpk = old.epk();
      logicalBytes -= old.sizeBytes();
      logicalDocuments -= 1;
    }

    /** The change record of a version this transaction replaces can go (see ChangeLogRetention). */
    private void supersede(StoredDocument previous) {
      if (previous != null && !retention.dropWith(previous.lsn(), writes)) {
        superseded.add(previous.lsn());
      }
    }

    /** Commits: the store, then what derives from it, then the gate. */
    void commit() {
      if (writes.isEmpty()) {
        abandon();
        return;
      }
      try {
        store.commit(writes);
      } catch (RuntimeException | Error e) {
        abandon(); // nothing was written (a store commit is all or nothing)
        throw e;
      }
      try {
        for (Replaced v : versions) {
          index.onWrite(v.before(), v.after(), v.lsn());
        }
        // one logical partition per transaction: a batch's, or a single document's
        logical.add(logicalEpk, logicalKey, logicalBytes, logicalDocuments);
        partition.addUsage(logicalDocuments, logicalBytes);
        for (StoredDocument d : staged.versions()) {
          ttl.track(d);
        }
      } finally {
        partition.commitLsns(); // before the gate: a reader that sees the write sees its LSN
        positions.commit(); // the gate: the write counts as committed
      }
      if (!superseded.isEmpty()) {
        retention.dropAfter(superseded);
      }
      if (partition.bytes() > engine.limits().physicalPartitionBytes()) {
        layout.flagOverfull();
      }
    }

    /** Gives back the LSNs taken, unused: nothing was written. A no-op once committed. */
    void abandon() {
      if (positions.open()) {
        partition.giveBackLsns(firstRangeLsn);
        positions.abandon();
        lastRangeLsn = 0;
      }
    }
  }

  /** For each unique key, the values at its paths (a missing value as null). */
  private static List<List<JsonNode>> uniqueValues(List<List<String>> keys, JsonNode doc) {
    List<List<JsonNode>> out = new ArrayList<>(keys.size());
    for (List<String> key : keys) {
      List<JsonNode> values = new ArrayList<>(key.size());
      for (String path : key) {
        JsonNode v = doc;
        for (String segment : path.substring(1).split("/", -1)) {
          String name =
              segment.length() >= 2 && segment.startsWith("\"") && segment.endsWith("\"")
                  ? segment.substring(1, segment.length() - 1)
                  : segment;
          v = v == null || !v.isObject() ? null : v.get(name);
        }
        values.add(v == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : v);
      }
      out.add(values);
    }
    return out;
  }
}
