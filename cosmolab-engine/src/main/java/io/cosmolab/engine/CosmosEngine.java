package io.cosmolab.engine;

import io.cosmolab.engine.cost.CostModel;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.limits.Limits;
import io.cosmolab.engine.store.DocumentStore;
import io.cosmolab.engine.store.InMemoryDocumentStore;
import io.cosmolab.engine.throughput.ThrottlingMode;
import io.cosmolab.engine.throughput.Throughput;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An emulated Cosmos DB account: the root of databases and containers, and the settings every
 * container shares — the clock, the throttling mode, the scale model, burst capacity, the cost
 * model and the storage.
 *
 * <pre>{@code
 * CosmosEngine engine = CosmosEngine.builder().throttling(ThrottlingMode.ENFORCE).build();
 * Container orders = engine.createDatabase("shop")
 *     .createContainer(ContainerSettings.of("orders", PartitionKeyDefinition.hash("/userId"))
 *         .withThroughput(Throughput.manual(12_000)));
 * orders.create(json);                     // placed by the SDKs' own EPK hash
 * orders.partitionStats();                 // per physical partition: RU, 429s, storage
 * }</pre>
 */
public final class CosmosEngine implements AutoCloseable {
  private final InstantSource clock;
  private final Limits limits;
  private final CostModel costs;
  private final boolean burstCapacity;
  private final io.cosmolab.engine.changefeed.Retention changeFeedRetention;
  private final boolean changeFeedPreviousImages;
  private final Integer defaultPhysicalPartitions;
  private final DocumentStore store;
  private volatile ThrottlingMode throttling;
  private final Map<String, Database> databases = new ConcurrentHashMap<>();
  private final AtomicInteger ordinals = new AtomicInteger();
  private final java.util.concurrent.Executor housekeeping;
  private final java.util.concurrent.ExecutorService ownHousekeeping;
  private final io.cosmolab.engine.script.ScriptLimits scriptLimits;
  private final java.time.Duration queryPageTime;
  private final QueryCursors queryCursors;
  private volatile io.cosmolab.engine.script.ScriptRuntime scriptRuntime;
  private volatile boolean scriptRuntimeLooked;
  private volatile String scriptRuntimeFailure;

  private CosmosEngine(Builder b) {
    this.clock = b.clock;
    this.limits = b.limits;
    this.costs = b.costs;
    this.burstCapacity = b.burstCapacity;
    this.changeFeedRetention = b.changeFeedRetention;
    this.changeFeedPreviousImages = b.changeFeedPreviousImages;
    this.defaultPhysicalPartitions = b.defaultPhysicalPartitions;
    this.store = b.store;
    this.throttling = b.throttling;
    this.scriptRuntime = b.scriptRuntime;
    this.scriptRuntimeLooked = b.scriptRuntime != null;
    this.scriptLimits = b.scriptLimits;
    this.queryPageTime = b.queryPageTime;
    this.queryCursors = new QueryCursors(b.clock);
    this.ownHousekeeping = b.housekeeping == null ? housekeepingThread() : null;
    this.housekeeping = b.housekeeping == null ? ownHousekeeping : b.housekeeping;
    String catalog = store.loadCatalog();
    if (catalog != null) {
      Catalog.restore(this, catalog);
    }
  }

  /**
   * One daemon thread that starts when there is work and exits after a second without: an engine
   * that never has housekeeping to do never starts it, and one nobody closes leaks nothing.
   */
  private static java.util.concurrent.ExecutorService housekeepingThread() {
    return new java.util.concurrent.ThreadPoolExecutor(
        0,
        1,
        1,
        java.util.concurrent.TimeUnit.SECONDS,
        new java.util.concurrent.LinkedBlockingQueue<>(),
        r -> {
          Thread t = new Thread(r, "cosmolab-housekeeping");
          t.setDaemon(true);
          return t;
        });
  }

  /** Where deferred work runs (deleting expired documents): see {@link Builder#housekeeping}. */
  java.util.concurrent.Executor housekeeping() {
    return housekeeping;
  }

  /** What one stored procedure or trigger execution may use (5 s by default). */
  public io.cosmolab.engine.script.ScriptLimits scriptLimits() {
    return scriptLimits;
  }

  /** Queries kept open between their pages (QueryRunner). */
  QueryCursors queryCursors() {
    return queryCursors;
  }

  /** How long one query page may run before it ends early (5 s by default): see the builder. */
  public java.time.Duration queryPageTime() {
    return queryPageTime;
  }

  /**
   * The script runtime: the one the builder was given, else the first a {@link
   * java.util.ServiceLoader} finds (the {@code cosmolab-scripts} module on the class or module
   * path), looked for on first use so that an engine that never runs a script never loads one.
   *
   * @throws io.cosmolab.engine.error.CosmosException 501 naming what to add when there is none
   */
  public io.cosmolab.engine.script.ScriptRuntime scriptRuntime(String what) {
    io.cosmolab.engine.script.ScriptRuntime r = scriptRuntime;
    if (r == null && !scriptRuntimeLooked) {
      synchronized (this) {
        if (!scriptRuntimeLooked) {
          try {
            scriptRuntime =
                java.util.ServiceLoader.load(io.cosmolab.engine.script.ScriptRuntime.class)
                    .findFirst()
                    .orElse(null);
          } catch (java.util.ServiceConfigurationError | LinkageError e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            scriptRuntimeFailure =
                "the JavaScript runtime on the class path could not start: " + cause.getMessage();
          }
          scriptRuntimeLooked = true;
        }
        r = scriptRuntime;
      }
    }
    if (r == null && scriptRuntimeFailure != null) {
      throw CosmosError.INTERNAL_SERVER_ERROR.exception(
          "%s failed: %s", what, scriptRuntimeFailure);
    }
    if (r == null) {
      throw CosmosError.NOT_SUPPORTED.exception(
          "%s needs a JavaScript runtime, and this engine has none: add the module"
              + " io.cosmolab:cosmolab-scripts (Java 21+) to the class path, or give one to"
              + " CosmosEngine.builder().scriptRuntime(...). The cosmolab command has it built in.",
          what);
    }
    return r;
  }

  /** Writes the catalog to the store; called after every change of metadata. */
  void catalogChanged() {
    catalogChanged(java.util.List.of());
  }

  /** Writes the catalog and deletes the data of the containers dropped, in one atomic write. */
  synchronized void catalogChanged(java.util.Collection<String> droppedContainers) {
    store.saveCatalog(Catalog.write(this), droppedContainers);
    queryCursors.forget(droppedContainers);
  }

  /** Puts back a database the catalog recorded. */
  Database restoreDatabase(String id, int ordinal, Throughput shared, long createdMillis) {
    Database db = new Database(this, id, ordinal, shared, createdMillis);
    databases.put(id, db);
    reserveOrdinal(ordinal);
    return db;
  }

  /** Keeps new ordinals above the ones restored. */
  void reserveOrdinal(int ordinal) {
    ordinals.accumulateAndGet(ordinal + 1, Math::max);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Creates a database without shared throughput. */
  public Database createDatabase(String id) {
    return createDatabase(id, null);
  }

  /** Creates a database; with {@code sharedThroughput}, its containers share those RU/s. */
  public Database createDatabase(String id, Throughput sharedThroughput) {
    ResourceNames.check("database", id);
    Database db = new Database(this, id, ordinals.getAndIncrement(), sharedThroughput);
    if (databases.putIfAbsent(id, db) != null) {
      throw CosmosError.CONFLICT.exception("database '%s' already exists", id);
    }
    catalogChanged();
    return db;
  }

  /**
   * The database with this id.
   *
   * @throws io.cosmolab.engine.error.CosmosException 404 if there is none
   */
  public Database database(String id) {
    Database db = databases.get(id);
    if (db == null) {
      throw CosmosError.NOT_FOUND.exception("database '%s' does not exist", id);
    }
    return db;
  }

  public Optional<Database> findDatabase(String id) {
    return Optional.ofNullable(databases.get(id));
  }

  public List<Database> databases() {
    return new ArrayList<>(databases.values());
  }

  /** Deletes a database and all its containers. */
  public void deleteDatabase(String id) {
    Database db = databases.remove(id);
    if (db == null) {
      throw CosmosError.NOT_FOUND.exception("database '%s' does not exist", id);
    }
    catalogChanged(db.dropAll());
  }

  /**
   * The permission with this RID, wherever it is: the gateway finds a resource token's permission
   * by it on every request. Empty when it, its user or its database was deleted.
   */
  public Optional<Permission> findPermissionByRid(String rid) {
    byte[] bytes = io.cosmolab.engine.resource.ResourceIds.decode(rid);
    if (bytes == null || bytes.length != 16) {
      return Optional.empty();
    }
    String dbRid =
        io.cosmolab.engine.resource.ResourceIds.encode(java.util.Arrays.copyOf(bytes, 4));
    String userRid =
        io.cosmolab.engine.resource.ResourceIds.encode(java.util.Arrays.copyOf(bytes, 8));
    for (Database db : databases.values()) {
      if (db.rid().equals(dbRid)) {
        for (User u : db.users()) {
          if (u.rid().equals(userRid)) {
            return u.permissions().stream().filter(p -> p.rid().equals(rid)).findFirst();
          }
        }
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  public InstantSource clock() {
    return clock;
  }

  public Limits limits() {
    return limits;
  }

  public CostModel costs() {
    return costs;
  }

  /** How long change logs keep the history of the all-versions-and-deletes feed. */
  public io.cosmolab.engine.changefeed.Retention changeFeedRetention() {
    return changeFeedRetention;
  }

  /**
   * Whether the all-versions-and-deletes feed gives replaces and deletes their {@code previous}
   * image (see {@link Builder#changeFeedPreviousImages}).
   */
  public boolean changeFeedPreviousImages() {
    return changeFeedPreviousImages;
  }

  public boolean burstCapacity() {
    return burstCapacity;
  }

  public ThrottlingMode throttling() {
    return throttling;
  }

  /** Changes the throttling mode for every container, effective for the next operation. */
  public void setThrottling(ThrottlingMode mode) {
    this.throttling = java.util.Objects.requireNonNull(mode, "mode");
  }

  Integer defaultPhysicalPartitions() {
    return defaultPhysicalPartitions;
  }

  DocumentStore store() {
    return store;
  }

  /**
   * Whether a point read of a document ({@code Container.read}) never waits: for a lock another
   * thread holds, or for I/O. True when the store answers from memory: the read then takes the
   * layout, the budget and the metrics without a lock (the budget is lock-free, the metrics'
   * recording never waits) and a server may run it on a network event loop, where a wait would
   * stall every connection on the loop. A store that reads from disk (RocksDB) says false.
   */
  public boolean pointReadsNeverWait() {
    return store.getNeverWaits();
  }

  int nextOrdinal() {
    return ordinals.getAndIncrement();
  }

  @Override
  public void close() {
    queryCursors.clear();
    if (ownHousekeeping != null) {
      ownHousekeeping.shutdown(); // what is queued still runs, before the store closes
      try {
        if (!ownHousekeeping.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS)) {
          ownHousekeeping.shutdownNow();
        }
      } catch (InterruptedException e) {
        ownHousekeeping.shutdownNow();
        Thread.currentThread().interrupt();
      }
    }
    // exact marks, so a clean restart carries on from the last LSN instead of the next block
    for (Database db : databases()) {
      for (Container c : db.containers()) {
        c.saveExactMarks();
      }
    }
    store.close();
  }

  /** The service's bound on one query page's execution. [D] concepts-limits, per-request limits */
  public static final java.time.Duration DEFAULT_QUERY_PAGE_TIME = java.time.Duration.ofSeconds(5);

  /** Settings of an engine; every one has the service's default. */
  public static final class Builder {
    private InstantSource clock = systemClock();

    private Limits limits = Limits.SERVICE;
    private CostModel costs = CostModel.PUBLISHED;
    private boolean burstCapacity;
    private Integer defaultPhysicalPartitions;
    private DocumentStore store;
    private ThrottlingMode throttling = ThrottlingMode.OBSERVE;
    private io.cosmolab.engine.changefeed.Retention changeFeedRetention =
        io.cosmolab.engine.changefeed.Retention.DEFAULT;
    private boolean changeFeedPreviousImages;
    private java.util.concurrent.Executor housekeeping;
    private io.cosmolab.engine.script.ScriptRuntime scriptRuntime;
    private io.cosmolab.engine.script.ScriptLimits scriptLimits =
        io.cosmolab.engine.script.ScriptLimits.DEFAULT;
    private java.time.Duration queryPageTime = DEFAULT_QUERY_PAGE_TIME;

    private Builder() {}

    /**
     * How long one query page may run (wall-clock time; default 5 s, the service's "maximum
     * execution time for a single query page retrieval"). A page that reaches it ends with the rows
     * it has, possibly none, and a continuation, as the service's does; clients keep following
     * continuations. Pages whose next one can resume from a position end early: queries that stream
     * documents in order (no ORDER BY, aggregate, GROUP BY, DISTINCT, TOP or OFFSET) once they have
     * read a document past where they started, ORDER BY queries served from the index once they
     * have a row, and aggregates, GROUP BY and unordered DISTINCT that the service's backend would
     * serve (one partition key, range or physical partition) once they have read a document, with
     * the partial result of what they read, which the SDKs combine. [A] Other shapes (an ORDER BY
     * over a scan, TOP or OFFSET without ORDER BY, these over several partitions without a scope)
     * run to the page's end: the service carries their partial state in its continuation, which
     * ours does not; the query work limit bounds them.
     */
    public Builder queryPageTime(java.time.Duration time) {
      java.util.Objects.requireNonNull(time, "time");
      if (time.isNegative() || time.isZero()) {
        throw new IllegalArgumentException("a query page time must be positive, was " + time);
      }
      this.queryPageTime = time;
      return this;
    }

    /**
     * The runtime that runs stored procedures, triggers and user-defined functions (default: the
     * first one found by {@link java.util.ServiceLoader} when a script first runs, else none, and
     * running a script answers 501 saying what to add).
     */
    public Builder scriptRuntime(io.cosmolab.engine.script.ScriptRuntime runtime) {
      this.scriptRuntime = java.util.Objects.requireNonNull(runtime, "runtime");
      return this;
    }

    /**
     * What one script execution may use (default: {@link
     * io.cosmolab.engine.script.ScriptLimits#DEFAULT}, 5 s).
     */
    public Builder scriptLimits(io.cosmolab.engine.script.ScriptLimits limits) {
      this.scriptLimits = java.util.Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** The clock every budget, TTL, timestamp and metric reads (default: the system clock). */
    public Builder clock(InstantSource clock) {
      this.clock = java.util.Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Shrinks the partitioning limits by {@code factor} (see {@link Limits}); default 1. */
    public Builder scale(double factor) {
      this.limits = Limits.scaledBy(factor);
      return this;
    }

    public Builder costModel(CostModel costs) {
      this.costs = java.util.Objects.requireNonNull(costs, "costs");
      return this;
    }

    /** Account-level burst capacity; off by default, as on the service. */
    public Builder burstCapacity(boolean enabled) {
      this.burstCapacity = enabled;
      return this;
    }

    /** Every new container starts with this many physical partitions, whatever its throughput. */
    public Builder defaultPhysicalPartitions(Integer count) {
      if (count != null && count < 1) {
        throw new IllegalArgumentException("physical partitions must be >= 1, was " + count);
      }
      this.defaultPhysicalPartitions = count;
      return this;
    }

    /** The storage (default: in memory). */
    public Builder store(DocumentStore store) {
      this.store = java.util.Objects.requireNonNull(store, "store");
      return this;
    }

    /** What an exhausted partition budget does (default: observe, as the plain emulator). */
    public Builder throttling(ThrottlingMode mode) {
      this.throttling = java.util.Objects.requireNonNull(mode, "mode");
      return this;
    }

    /**
     * How long change logs keep the history behind the all-versions-and-deletes feed (default: ten
     * minutes, at most 100,000 LSNs, one a write); the latest version of each document is kept
     * regardless.
     */
    public Builder changeFeedRetention(io.cosmolab.engine.changefeed.Retention retention) {
      this.changeFeedRetention = java.util.Objects.requireNonNull(retention, "retention");
      return this;
    }

    /**
     * Whether the all-versions-and-deletes feed gives a replace and a delete the version before it
     * as {@code previous} (default: false, as the service, whose records carry no previous image
     * unless the container opted in to a preview: a delete is then {@code "current": {}} and its
     * metadata's {@code id} and {@code partitionKey}). True answers as such a container does, for
     * every container [A: the service's opt-in is per container, and its wire name is not
     * published].
     */
    public Builder changeFeedPreviousImages(boolean on) {
      this.changeFeedPreviousImages = on;
      return this;
    }

    /**
     * Where the engine runs work no request should wait for: deleting the documents whose time to
     * live has passed (they are invisible from that moment; the deletion frees their storage and
     * writes their change records). Default: one daemon thread of the engine's own, started when
     * there is work. {@code Runnable::run} runs it at once in the thread that noticed it (the next
     * write after the time), which a test or a rehearsal in virtual time wants: it is then
     * deterministic. The engine does not shut down an executor it was given.
     */
    public Builder housekeeping(java.util.concurrent.Executor executor) {
      this.housekeeping = java.util.Objects.requireNonNull(executor, "executor");
      return this;
    }

    @io.cosmolab.engine.internal.SuppressForbidden(
        "the composition root's default: an engine no one gave a clock runs on the system's")
    private static InstantSource systemClock() {
      return InstantSource.system();
    }

    public CosmosEngine build() {
      if (store == null) {
        store = new InMemoryDocumentStore();
      }
      return new CosmosEngine(this);
    }
  }
}
