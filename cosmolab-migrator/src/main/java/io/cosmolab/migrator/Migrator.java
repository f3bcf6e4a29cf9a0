package io.cosmolab.migrator;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.migrator.MigrationState.Phase;
import io.cosmolab.migrator.internal.Canonical;
import io.cosmolab.migrator.internal.Changes;
import io.cosmolab.migrator.internal.Clients;
import io.cosmolab.migrator.internal.FeedStart;
import io.cosmolab.migrator.internal.IncrementalVerifier;
import io.cosmolab.migrator.internal.PageWrites;
import io.cosmolab.migrator.internal.Planner;
import io.cosmolab.migrator.internal.Rates;
import io.cosmolab.migrator.internal.Reads;
import io.cosmolab.migrator.internal.Reconciler;
import io.cosmolab.migrator.internal.Sdk;
import io.cosmolab.migrator.internal.SourceRanges;
import io.cosmolab.migrator.internal.StateStore;
import io.cosmolab.migrator.internal.TargetSetup;
import io.cosmolab.migrator.internal.Verifier;
import io.cosmolab.migrator.internal.Writes;
import io.cosmolab.migrator.report.MigrationReport;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * Changes a container's partition key online. {@link #plan} reads the source and reports what would
 * stop a migration; {@link #run} creates the target, takes the source's change-feed position,
 * copies a snapshot, then applies the change feed from that position, so every write made while it
 * copied is applied after it, in order, and the target converges on the source. Progress is saved
 * in the state directory after every page, atomically; a run killed at any point and started again
 * replays at most the page it was in, and writes are idempotent (upserts of whole documents,
 * deletes that tolerate 404), so nothing is lost or doubled and a deleted document stays deleted
 * (its delete comes after every earlier version in the feed).
 *
 * <p>This class is the run's sequence and its state; the steps are in {@code internal}: {@link
 * Planner} (preflight), {@link TargetSetup} and {@link FeedStart} (the start), {@link Writes} (the
 * target's idempotent writes, through the SDK's bulk executor, one stream per target partition),
 * {@link PageWrites} (a step's writes, the last per target document), {@link Changes} (applying
 * feed pages), {@link Reconciler} (deletes under a latest-version feed), {@link Verifier}, {@link
 * Reads} and {@link Sdk} (every call through the RU cap and the retry-after).
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
  /** Documents per page when plan, verify and reconciliation read a whole container. */
  private static final int READ_PAGE = 1000;

  /** The window of the rates the state reports. */
  private static final long RATE_WINDOW_MILLIS = 10_000;

  private final MigrationSpec spec;
  private final TargetKey key;
  private final MigratorOptions options;
  private final StateStore store;
  private final CosmosClient sourceClient;
  private final CosmosClient targetClient;
  private final CosmosContainer source;
  private final CosmosContainer target;
  private final Sdk sdk;
  private final Reads reads;
  private final Writes writes;
  private final Rates rates = new Rates(RATE_WINDOW_MILLIS);
  private final SourceRanges sourceRanges;
  private final IncrementalVerifier incremental;
  private VerifyReport lastPass;
  private boolean verifyWhileTailing = true;
  private double lastPassRequestUnits;
  private Changes changes;

  // counts of earlier runs, carried into this one's totals
  private long throttledBase = -1;
  private double chargedBase;

  private Migrator(MigrationSpec spec, Path stateDir, MigratorOptions options) {
    this.spec = spec;
    this.key = spec.key();
    this.options = options;
    this.store = new StateStore(stateDir);
    this.sourceClient = Clients.connect(spec.source(), options.direct());
    this.targetClient =
        spec.target().equals(spec.source())
            ? sourceClient
            : Clients.connect(spec.target(), options.direct());
    this.source =
        sourceClient
            .getDatabase(spec.sourceContainer().database())
            .getContainer(spec.sourceContainer().container());
    this.target =
        targetClient
            .getDatabase(spec.targetContainer().database())
            .getContainer(spec.targetContainer().container());
    this.sdk = new Sdk(options, spec.maxRu());
    this.reads = new Reads(sdk, Math.max(READ_PAGE, options.pageSize()));
    this.writes = new Writes(target, sdk, options);
    this.sourceRanges = new SourceRanges(source, sdk);
    this.incremental = new IncrementalVerifier(key, spec.onMissing(), reads, source, target, store);
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
        new Endpoint(URI.create(s.sourceUri()), sourceKey),
        ContainerRef.parse(s.source()),
        new Endpoint(URI.create(s.targetUri()), targetKey),
        ContainerRef.parse(s.target()),
        s.partitionKey(),
        OnMissing.parse(s.onMissing()),
        maxRu,
        0);
  }

  public MigrationSpec spec() {
    return spec;
  }

  /**
   * Reads every source document and reports the findings, with the advisor's judgement of the new
   * key at the target's throughput (nothing is written).
   */
  public Plan plan() {
    return plan(null);
  }

  /**
   * {@link #plan()}, and with a {@code workload} the advisor also weighs the new key at the
   * workload's peak: at the target's throughput when the spec names one, else at the least
   * throughput that serves the peak (the throughput to give the target).
   */
  public Plan plan(PlanWorkload workload) {
    return Planner.plan(spec, reads.all(source), targetThroughput(), workload);
  }

  /** The target's throughput as the engine models it, or null under a database's shared one. */
  private io.cosmolab.engine.throughput.Throughput targetThroughput() {
    com.azure.cosmos.models.ThroughputProperties t = TargetSetup.throughputFor(spec, source);
    if (t == null) {
      return null;
    }
    return t.getAutoscaleMaxThroughput() > 0
        ? io.cosmolab.engine.throughput.Throughput.autoscale(t.getAutoscaleMaxThroughput())
        : io.cosmolab.engine.throughput.Throughput.manual(t.getManualThroughput());
  }

  // ----------------------------------------------------------------------------------- run

  /**
   * Copies and catches up. Plans first when starting a new migration, and refuses on blocking
   * findings. Returns when {@code untilCaughtUp} and the feed has nothing new (the lag under 2 s;
   * with a latest-version feed, after a reconciliation pass), or when {@code stop} says so (checked
   * after every page and every poll).
   *
   * @throws IllegalStateException listing the blocking findings of a new migration
   */
  public MigrationState run(boolean untilCaughtUp, BooleanSupplier stop) {
    return run(untilCaughtUp, untilCaughtUp, stop);
  }

  private MigrationState run(boolean untilCaughtUp, boolean reconcile, BooleanSupplier stop) {
    MigrationState state = store.loadOrNull();
    if (state == null) {
      // the preflight alone: a run needs the blocking findings, not the advisor's judgement
      Plan plan = Planner.plan(spec, reads.all(source), null);
      List<String> blocking = plan.blocking(spec.onMissing());
      if (!blocking.isEmpty()) {
        throw new IllegalStateException(
            "the plan has blocking findings:\n  " + String.join("\n  ", blocking));
      }
      state = start(plan.documents());
    } else {
      checkSame(state);
    }
    if (state.phase() == Phase.COPYING) {
      state = copy(state, stop);
      if (state.phase() == Phase.COPYING) {
        return state; // stopped
      }
    }
    return catchUp(state, untilCaughtUp, reconcile, stop);
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

  private MigrationState start(long sourceDocuments) {
    TargetSetup.create(spec, sdk, source, targetClient, target);
    FeedStart feed = FeedStart.take(source, options.changeFeed(), options.pageSize());
    long now = now();
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
            feed.continuation(),
            null,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            now,
            feed.mode().toString(),
            sourceDocuments,
            0,
            now,
            0,
            0,
            0,
            SourceRanges.align(List.of(), feed.continuation()),
            -1,
            false,
            Map.of(),
            0,
            0,
            0,
            0);
    save(s);
    return s;
  }

  /** The feed's applier, for the mode the state saved. */
  private Changes changes(MigrationState s) {
    if (changes == null) {
      List<String> paths =
          sdk.call(() -> source.read(), r -> r.getRequestCharge())
              .getProperties()
              .getPartitionKeyDefinition()
              .getPaths();
      TargetKey sourceKey = TargetKey.parse(String.join(">", paths));
      changes =
          new Changes(key, sourceKey, spec.onMissing(), s.changeFeedMode(), writes, reads, target);
    }
    return changes;
  }

  private MigrationState copy(MigrationState s, BooleanSupplier stop) {
    OnMissing writing = spec.onMissing().onceRunning();
    while (true) {
      Iterator<FeedResponse<ObjectNode>> pages =
          source
              .queryItems("SELECT * FROM c", new CosmosQueryRequestOptions(), ObjectNode.class)
              .iterableByPage(s.copyContinuation(), options.pageSize())
              .iterator();
      try {
        while (true) {
          FeedResponse<ObjectNode> page = sdk.nextPage(pages);
          if (page == null) {
            break;
          }
          PageWrites work = new PageWrites(key);
          long skipped = 0;
          List<ObjectNode> written = new ArrayList<>();
          for (ObjectNode doc : page.getResults()) {
            ObjectNode t = key.transform(Canonical.userContent(doc, null), writing);
            if (t == null) {
              skipped++;
            } else {
              work.upsert(t);
              written.add(doc);
            }
          }
          writes.apply(work.writes());
          String cont = page.getContinuationToken();
          List<RangeProgress> ranges =
              sourceRanges.count(
                  SourceRanges.align(s.ranges(), s.feedContinuation()), written, true);
          s =
              advance(
                  s,
                  cont == null ? Phase.CATCHING_UP : Phase.COPYING,
                  s.feedContinuation(),
                  cont,
                  new Delta(work.added(), skipped, 0, 0, 0),
                  s.lagSeconds(),
                  s.caughtUpAtMillis(),
                  ranges);
          save(s);
          if (cont == null || stop.getAsBoolean()) {
            return s;
          }
        }
        s =
            advance(
                s,
                Phase.CATCHING_UP,
                s.feedContinuation(),
                null,
                Delta.NONE,
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

  private MigrationState catchUp(
      MigrationState s, boolean untilCaughtUp, boolean reconcile, BooleanSupplier stop) {
    Changes applier = changes(s);
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
          FeedResponse<JsonNode> page = sdk.nextPage(pages);
          if (page == null) {
            break;
          }
          List<JsonNode> records = page.getResults();
          Changes.Applied a = applier.applyPage(records);
          boolean latest = s.changeFeedMode() == ChangeFeedMode.LATEST_VERSION;
          List<JsonNode> about = new ArrayList<>(records.size());
          for (JsonNode r : records) {
            about.add(sourceRanges.sourceDocumentOf(r, latest));
          }
          List<RangeProgress> ranges = SourceRanges.align(s.ranges(), page.getContinuationToken());
          ranges =
              sourceRanges.lag(
                  sourceRanges.count(ranges, about, false),
                  records,
                  page.getSessionToken(),
                  latest);
          s =
              advance(
                  s,
                  Phase.CATCHING_UP,
                  page.getContinuationToken(),
                  null,
                  new Delta(0, a.skipped(), a.applied(), a.deleted(), 0),
                  lagOf(applier.newestSeconds(records), s.lagSeconds()),
                  s.caughtUpAtMillis(),
                  ranges);
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
                  + Sdk.firstLine(e),
              e);
        }
        if (e.getStatusCode() != 429) {
          throw e;
        }
        continue; // from the last saved page
      }
      if (!stopped) { // the feed had nothing new
        s =
            advance(
                s,
                Phase.CATCHING_UP,
                s.feedContinuation(),
                null,
                Delta.NONE,
                0,
                now(),
                SourceRanges.drained(s.ranges()));
        if (s.changeFeedMode() == ChangeFeedMode.LATEST_VERSION
            && (reconcile
                || now() - s.reconciledAtMillis() >= options.reconcileInterval().toMillis())) {
          s = reconciled(s);
        }
        save(s);
        if (verifyWhileTailing
            && !options.verifyInterval().isNegative()
            && now() - s.verifiedAtMillis() >= options.verifyInterval().toMillis()
            && IncrementalVerifier.due(s, now(), options.settleInterval().toMillis())) {
          s = verifyPass(s, false);
        }
        if (untilCaughtUp) {
          return s;
        }
      }
      if (stopped || stop.getAsBoolean()) {
        return s;
      }
      sdk.sleep(options.pollInterval());
    }
  }

  /** A reconciliation pass, with the feed drained (latest-version feed: deletes follow here). */
  private MigrationState reconciled(MigrationState s) {
    long removed = new Reconciler(key, changes(s), writes, reads).reconcile(source, target);
    return advance(
        s,
        s.phase(),
        s.feedContinuation(),
        s.copyContinuation(),
        new Delta(0, 0, 0, 0, removed),
        s.lagSeconds(),
        s.caughtUpAtMillis(),
        now(),
        s.ranges());
  }

  private double lagOf(long newestSeconds, double previous) {
    return newestSeconds < 0 ? previous : Math.max(0, now() / 1000.0 - newestSeconds);
  }

  // ---------------------------------------------------------------------------------- state

  /** What a step added to the counts. */
  private record Delta(long copied, long skipped, long applied, long deleted, long removed) {
    static final Delta NONE = new Delta(0, 0, 0, 0, 0);
  }

  private MigrationState advance(
      MigrationState s,
      Phase phase,
      String feed,
      String copyContinuation,
      Delta d,
      double lag,
      long caughtUp) {
    return advance(s, phase, feed, copyContinuation, d, lag, caughtUp, s.ranges());
  }

  private MigrationState advance(
      MigrationState s,
      Phase phase,
      String feed,
      String copyContinuation,
      Delta d,
      double lag,
      long caughtUp,
      List<RangeProgress> ranges) {
    return advance(
        s, phase, feed, copyContinuation, d, lag, caughtUp, s.reconciledAtMillis(), ranges);
  }

  private MigrationState advance(
      MigrationState s,
      Phase phase,
      String feed,
      String copyContinuation,
      Delta d,
      double lag,
      long caughtUp,
      long reconciledAt,
      List<RangeProgress> ranges) {
    if (throttledBase < 0) {
      throttledBase = s.throttled();
      chargedBase = s.requestUnits();
    }
    long now = now();
    double charged = sdk.charged() + chargedBase;
    long copied = s.copied() + d.copied();
    long applied = s.applied() + d.applied();
    rates.sample(now, charged, copied + applied);
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
        copyContinuation,
        copied,
        s.skipped() + d.skipped(),
        applied,
        s.deleted() + d.deleted(),
        sdk.throttled() + throttledBase,
        charged,
        lag,
        caughtUp,
        now,
        s.changeFeedMode().toString(),
        s.sourceDocuments(),
        s.removed() + d.removed(),
        s.startedAtMillis(),
        rates.requestUnitsPerSecond(),
        rates.documentsPerSecond(),
        reconciledAt,
        ranges,
        SourceRanges.lagDocuments(ranges),
        s.fullyVerified(),
        marked(s, now),
        s.verifiedAtMillis(),
        s.verifiedPartitions(),
        s.differingPartitions(),
        s.differences());
  }

  /**
   * {@code s}'s marks of changed target partitions, with those the writes since touched (at {@code
   * now}); the copy's writes mark nothing (the first pass reads everything).
   */
  private Map<String, MigrationState.Changed> marked(MigrationState s, long now) {
    Map<String, java.util.Optional<ObjectNode>> touched = writes.drainTouched();
    if (s.phase() == Phase.COPYING || touched.isEmpty()) {
      return s.changed();
    }
    Map<String, MigrationState.Changed> out = new TreeMap<>(s.changed());
    touched.forEach(
        (p, doc) -> {
          String values = null;
          if (key.computedPropertyOrNull() != null) {
            values =
                doc.map(d -> key.sourceValuesOf(d).toString())
                    .orElse(out.containsKey(p) ? out.get(p).sourceValues() : null);
          }
          out.put(p, new MigrationState.Changed(now, values));
        });
    return out;
  }

  /** {@code s} after a verification pass. */
  private MigrationState verified(MigrationState s, IncrementalVerifier.Pass pass) {
    VerifyReport r = pass.report();
    return new MigrationState(
        s.format(),
        s.sourceUri(),
        s.source(),
        s.targetUri(),
        s.target(),
        s.partitionKey(),
        s.onMissing(),
        s.phase(),
        s.feedContinuation(),
        s.copyContinuation(),
        s.copied(),
        s.skipped(),
        s.applied(),
        s.deleted(),
        throttledBase < 0 ? s.throttled() : sdk.throttled() + throttledBase,
        throttledBase < 0 ? s.requestUnits() : sdk.charged() + chargedBase, // the pass's RU too
        s.lagSeconds(),
        s.caughtUpAtMillis(),
        s.updatedAtMillis(),
        s.changeFeed(),
        s.sourceDocuments(),
        s.removed(),
        s.startedAtMillis(),
        s.ruPerSecond(),
        s.documentsPerSecond(),
        s.reconciledAtMillis(),
        s.ranges(),
        s.lagDocuments(),
        true,
        pass.changed(),
        now(),
        r.partitions(),
        r.differingPartitions(),
        r.differences().size());
  }

  /**
   * An incremental verification pass, with the feed drained ({@code last}: at cutover, every
   * partition changed since it was verified, settled or not, and those that differed).
   */
  private MigrationState verifyPass(MigrationState s, boolean last) {
    double before = sdk.charged();
    IncrementalVerifier.Pass pass =
        incremental.pass(s, now(), options.settleInterval().toMillis(), last);
    lastPass = pass.report();
    lastPassRequestUnits = sdk.charged() - before;
    s = verified(s, pass);
    save(s);
    return s;
  }

  private void save(MigrationState s) {
    options.fault().before("save");
    store.save(s);
  }

  private long now() {
    return options.clock().millis();
  }

  /** The saved state, or null before the first run. */
  public MigrationState status() {
    return store.loadOrNull();
  }

  /**
   * Compares source and target per logical partition of the target. Exact when the source is quiet
   * and the feed drained (and, with a latest-version feed, reconciled); during catch-up,
   * differences are the writes not yet applied.
   */
  public VerifyReport verify() {
    return Verifier.verify(key, spec.onMissing(), reads.all(source), reads.all(target));
  }

  // ------------------------------------------------------------------------------- cutover

  /**
   * The comparison the incremental passes keep: every partition verified so far and its
   * differences, with what the last pass of this migrator read (0 when it made none).
   */
  public VerifyReport lastVerify() {
    VerifyReport kept =
        IncrementalVerifier.report(
            store.loadLedger().partitions(),
            0,
            0,
            status() == null ? 0 : status().changed().size());
    if (lastPass == null) {
      return kept;
    }
    return new VerifyReport(
        kept.partitions(),
        kept.differingPartitions(),
        kept.sourceDocuments(),
        kept.targetDocuments(),
        kept.differences(),
        lastPass.partitionsRead(),
        lastPass.documentsRead(),
        kept.pending());
  }

  /** Request units the last verification pass of this migrator spent, both sides. */
  public double lastVerifyRequestUnits() {
    return lastPassRequestUnits;
  }

  /**
   * Waits until the source has been quiet (no change in the feed) for {@code quiet}, drains the
   * feed (with a latest-version feed, reconciles), verifies what changed since it was last verified
   * (every partition the first time) and says whether to switch.
   */
  public Cutover cutover(Duration quiet, Duration timeout) {
    return cutover(quiet, timeout, false);
  }

  /**
   * {@link #cutover(Duration, Duration)}, verifying every partition of both containers when {@code
   * fullVerify}, not only those changed since they were last verified.
   */
  public Cutover cutover(Duration quiet, Duration timeout, boolean fullVerify) {
    verifyWhileTailing = false;
    long deadline = now() + timeout.toMillis();
    MigrationState s = run(true, false, () -> false);
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
      sdk.sleep(options.pollInterval());
      s = run(true, false, () -> false);
      if (s.applied() != applied) {
        applied = s.applied();
        lastChange = now();
      }
    }
    s = run(true, true, () -> false);
    VerifyReport v;
    if (fullVerify) {
      double before = sdk.charged();
      v = verify();
      lastPassRequestUnits = sdk.charged() - before;
    } else {
      s = verifyPass(s, true);
      v = lastPass;
    }
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

  /** The final report of a cutover: the verdict, what to switch, the counts and the comparison. */
  public MigrationReport report(Cutover c) {
    MigrationReport.Switch to =
        c.safe()
            ? new MigrationReport.Switch(
                spec.target().uri().toString(),
                spec.targetContainer().toString(),
                key.targetPaths(),
                key.computedPropertyOrNull())
            : null;
    return new MigrationReport(
        MigrationReport.SCHEMA,
        "cutover",
        c.safe(),
        c.verdict(),
        to,
        c.state(),
        c.verify(),
        lastPassRequestUnits,
        now());
  }

  /**
   * The report of a comparison made by {@link #verify} (its request units measured here), with the
   * saved state.
   */
  public MigrationReport report(VerifyReport v, double requestUnits) {
    MigrationState s = status();
    if (s == null) {
      throw new IllegalStateException("no migration in the state directory: run it first");
    }
    return new MigrationReport(
        MigrationReport.SCHEMA,
        "verify",
        v.equal(),
        v.equal()
            ? "the target holds exactly the source's documents, as the migrator writes them"
            : v.differences().size()
                + " documents differ: during catch-up, writes not applied yet; with the source"
                + " quiet and the feed drained, a problem to look at (the ids are listed)",
        null,
        s,
        v,
        requestUnits,
        now());
  }

  /** {@link #verify}, with the request units it spent: a full comparison and its report. */
  public MigrationReport verifyReport() {
    double before = sdk.charged();
    VerifyReport v = verify();
    return report(v, sdk.charged() - before);
  }

  @Override
  public void close() {
    writes.close();
    if (targetClient != sourceClient) {
      targetClient.close();
    }
    sourceClient.close();
  }
}
