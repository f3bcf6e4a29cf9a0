package io.cosmolab.migrator.internal;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosBulkExecutionOptions;
import com.azure.cosmos.models.CosmosBulkItemResponse;
import com.azure.cosmos.models.CosmosBulkOperationResponse;
import com.azure.cosmos.models.CosmosBulkOperations;
import com.azure.cosmos.models.CosmosItemOperation;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.migrator.MigratorOptions;
import io.cosmolab.migrator.TargetKey;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The target's writes, through the SDK's bulk executor: whole-document upserts and deletes that
 * tolerate 404, so replaying a page after a crash changes nothing.
 *
 * <p>How a step's writes go out ({@link #apply}). They are split by the target's physical partition
 * ({@link TargetRanges}), and each partition is one stream on the writer pool ({@code parallelism}
 * streams at once): the stream takes from the RU cap as many writes as its tokens cover ({@link
 * Sdk#reserve}, at the mean charge of the writes so far), sends them as one call of {@code
 * executeBulkOperations} (the SDK packs them into batch requests of up to 100), charges every
 * response's request charge ({@link Sdk#settle}), and sends again what came back 429 after the
 * longest retry-after of those 429s, or a transient failure after a backoff. The client is built
 * with the SDK's throttle retries off ({@link Clients}), so the bulk executor hands every 429 back
 * instead of retrying it unseen: each is counted, its retry-after waited, and its charge kept
 * against the cap. A partition that the service throttles waits in its own stream; the others go
 * on. {@link #apply} returns when every stream is done, or throws the first failure after all have
 * stopped, so a step is either wholly applied or reported failed, never half-reported.
 *
 * <p>The writes of one call must be to distinct target documents ({@link PageWrites} makes them
 * so): the bulk executor does not keep their order, and need not.
 *
 * <p>Each write passes the test's fault hook ({@code upsert}, {@code delete}) just before its batch
 * is sent. {@link #runAll} runs other independent work (the queries that locate old copies) on the
 * same pool.
 */
public final class Writes implements AutoCloseable {
  private static final int TRANSIENT_RETRIES = 10;

  /** Weight of the newest write in the running mean of a write's charge. */
  private static final double ESTIMATE_WEIGHT = 0.2;

  /** The least estimate of a write's charge: a point write is never charged less than 1 RU. */
  private static final double MIN_ESTIMATE = 1;

  private final CosmosContainer target;
  private final Sdk sdk;
  private final MigratorOptions options;
  private final TargetRanges ranges;
  private final ExecutorService pool;
  private double estimate; // RU of one write, running mean; 0 until a write is charged

  /**
   * The target partitions written since the last {@link #drainTouched}, each with one document
   * upserted into it (empty when only deleted from): what incremental verification reads again.
   */
  private final Map<String, Optional<ObjectNode>> touched = new LinkedHashMap<>();

  /** The partitions written since the last call (by key), with a document written into each. */
  public Map<String, Optional<ObjectNode>> drainTouched() {
    Map<String, Optional<ObjectNode>> out = new LinkedHashMap<>(touched);
    touched.clear();
    return out;
  }

  public Writes(CosmosContainer target, Sdk sdk, MigratorOptions options) {
    this.target = target;
    this.sdk = sdk;
    this.options = options;
    this.ranges = new TargetRanges(target, sdk, options.clock());
    this.pool = Executors.newFixedThreadPool(options.parallelism());
  }

  /**
   * Applies {@code writes} (each to a different target document) and waits; throws the first
   * failure. Called by one thread at a time (the run's), which alone reads {@link TargetRanges}.
   *
   * @throws IllegalArgumentException when two writes are to the same target document
   */
  public void apply(Collection<TargetWrite> writes) {
    if (writes.isEmpty()) {
      return;
    }
    for (TargetWrite w : writes) {
      ObjectNode body = w instanceof TargetWrite.Upsert u ? u.body() : null;
      touched.merge(w.keyText(), Optional.ofNullable(body), (a, b) -> a.isPresent() ? a : b);
    }
    List<Deque<Pending>> streams = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = ranges.partitions(); i > 0; i--) {
      streams.add(new ArrayDeque<>());
    }
    for (TargetWrite w : writes) {
      if (!seen.add(w.document())) {
        throw new IllegalArgumentException(
            "two writes to "
                + w.id()
                + " under "
                + w.keyText()
                + " in one step: their order would be lost (reduce them with PageWrites)");
      }
      streams.get(ranges.partitionOf(w.keyText())).add(new Pending(w, 0));
    }
    List<Runnable> work = new ArrayList<>();
    for (Deque<Pending> s : streams) {
      if (!s.isEmpty()) {
        work.add(() -> stream(s));
      }
    }
    runAll(work);
  }

  /** A write not yet applied, and how many transient failures it has had. */
  private record Pending(TargetWrite write, int transients) {}

  /** One target partition's writes, until all are applied. */
  private void stream(Deque<Pending> queue) {
    while (!queue.isEmpty()) {
      Sdk.Reservation r = sdk.reserve(queue.size(), currentEstimate());
      List<Pending> batch = new ArrayList<>(r.operations());
      for (int i = 0; i < r.operations(); i++) {
        batch.add(queue.removeFirst());
      }
      Outcome o;
      try {
        o = send(batch);
      } catch (RuntimeException e) {
        sdk.settle(r, 0);
        throw e;
      }
      sdk.settle(r, o.charged);
      if (o.charged > 0 && o.done > 0) {
        learn(o.charged / o.done);
      }
      if (o.throttled > 0) {
        sdk.countThrottled(o.throttled);
      }
      if (!o.wait.isZero()) {
        sdk.sleep(o.wait);
      }
      for (int i = o.again.size() - 1; i >= 0; i--) {
        queue.addFirst(o.again.get(i));
      }
    }
  }

  /** What one bulk call did. */
  private static final class Outcome {
    double charged;
    int done;
    int throttled;
    Duration wait = Duration.ZERO;
    final List<Pending> again = new ArrayList<>();

    void waitAtLeast(Duration d) {
      if (d.compareTo(wait) > 0) {
        wait = d;
      }
    }
  }

  private Outcome send(List<Pending> batch) {
    // the operations carry their Pending as context; this set finds the ones not answered
    Set<Pending> unanswered = Collections.newSetFromMap(new IdentityHashMap<>());
    List<CosmosItemOperation> ops = new ArrayList<>(batch.size());
    for (Pending p : batch) {
      options.fault().before(p.write().step());
      ops.add(operationOf(p));
      unanswered.add(p);
    }
    Outcome o = new Outcome();
    try {
      for (CosmosBulkOperationResponse<Pending> resp :
          target.<Pending>executeBulkOperations(ops, new CosmosBulkExecutionOptions())) {
        Pending p = resp.getOperation().getContext();
        if (p == null || !unanswered.remove(p)) {
          throw new IllegalStateException(
              "the bulk executor answered an operation it was not given, or twice: "
                  + resp.getOperation().getId());
        }
        settle(p, resp, o);
      }
    } catch (CosmosException e) {
      // the call as a whole failed (not one operation): every write not answered is sent again
      o.charged += e.getRequestCharge();
      for (Pending p : unanswered) {
        retryOrThrow(p, e.getStatusCode(), e.getSubStatusCode(), e.getRetryAfterDuration(), o, e);
      }
      return o;
    }
    for (Pending p : unanswered) { // not answered: sent again, as after a timeout
      retryOrThrow(p, 408, 0, null, o, null);
    }
    return o;
  }

  /** Accounts for one operation's result. */
  private void settle(Pending p, CosmosBulkOperationResponse<Pending> resp, Outcome o) {
    CosmosBulkItemResponse item = resp.getResponse();
    if (item != null) {
      o.charged += item.getRequestCharge();
      int status = item.getStatusCode();
      if (item.isSuccessStatusCode()
          || (status == 404 && p.write() instanceof TargetWrite.Delete)) {
        o.done++;
        return;
      }
      retryOrThrow(p, status, item.getSubStatusCode(), item.getRetryAfterDuration(), o, null);
      return;
    }
    Exception e = resp.getException();
    if (e instanceof CosmosException ce) {
      o.charged += ce.getRequestCharge();
      if (ce.getStatusCode() == 404 && p.write() instanceof TargetWrite.Delete) {
        o.done++;
        return;
      }
      retryOrThrow(p, ce.getStatusCode(), ce.getSubStatusCode(), ce.getRetryAfterDuration(), o, ce);
      return;
    }
    throw new IllegalStateException(
        "the bulk executor gave no result for " + describe(p.write()) + ": " + e, e);
  }

  /** A 429 is sent again after its retry-after; a transient failure after a backoff; else fails. */
  private static void retryOrThrow(
      Pending p, int status, int subStatus, Duration retryAfter, Outcome o, Exception cause) {
    if (status == 429) {
      o.throttled++;
      o.waitAtLeast(
          retryAfter == null || retryAfter.isZero() ? Duration.ofMillis(100) : retryAfter);
      o.again.add(p);
      return;
    }
    boolean transientStatus = status == 408 || status == 503 || status == 449 || status == 410;
    if (transientStatus && p.transients() < TRANSIENT_RETRIES) {
      o.waitAtLeast(Duration.ofMillis(50L << Math.min(p.transients() + 1, 6)));
      o.again.add(new Pending(p.write(), p.transients() + 1));
      return;
    }
    String message =
        "the target refused to "
            + describe(p.write())
            + ": status "
            + status
            + "/"
            + subStatus
            + (transientStatus ? " after " + TRANSIENT_RETRIES + " retries" : "")
            + (cause == null ? "" : ": " + Sdk.firstLine(cause));
    throw new IllegalStateException(message, cause);
  }

  private static String describe(TargetWrite w) {
    return w.step() + " " + w.id() + " under the key " + w.keyText();
  }

  private static CosmosItemOperation operationOf(Pending p) {
    TargetWrite w = p.write();
    if (w instanceof TargetWrite.Upsert u) {
      return CosmosBulkOperations.getUpsertItemOperation(
          u.body(), TargetKey.sdkKeyOfText(u.keyText()), p);
    }
    return CosmosBulkOperations.getDeleteItemOperation(
        w.id(), TargetKey.sdkKeyOfText(w.keyText()), p);
  }

  private synchronized double currentEstimate() {
    return estimate;
  }

  private synchronized void learn(double perWrite) {
    double e = estimate == 0 ? perWrite : estimate + ESTIMATE_WEIGHT * (perWrite - estimate);
    estimate = Math.max(MIN_ESTIMATE, e);
  }

  /** Runs every piece of {@code work} on the pool and waits; throws the first failure. */
  public void runAll(List<Runnable> work) {
    if (work.size() == 1) {
      work.get(0).run();
      return;
    }
    List<Future<?>> futures = new ArrayList<>();
    for (Runnable r : work) {
      futures.add(pool.submit(r));
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

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
