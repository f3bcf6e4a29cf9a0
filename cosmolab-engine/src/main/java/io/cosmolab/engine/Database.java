package io.cosmolab.engine;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.limits.Limits;
import io.cosmolab.engine.resource.ResourceIds;
import io.cosmolab.engine.throughput.PartitionBudget;
import io.cosmolab.engine.throughput.Throughput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A database: a namespace of containers, optionally with throughput its containers share.
 *
 * <p>Shared throughput model [H]: the service co-locates the containers of a shared database on the
 * database's physical partitions and splits the RU/s evenly across them. We model the database as
 * {@code ceil(RU/s ÷ 10,000)} budget slices over the hash space; an operation of any shared
 * container spends from the slice its EPK falls in. One hot key therefore throttles its slice for
 * every container in the database, as it does on the service.
 */
public final class Database {
  private final CosmosEngine engine;
  private final String id;
  private final byte[] ridBytes;
  private final String rid;
  private final Map<String, Container> containers = new ConcurrentHashMap<>();
  private final Map<String, User> users = new java.util.concurrent.ConcurrentSkipListMap<>();
  private final Object usersLock = new Object();
  private volatile Throughput sharedThroughput;
  // the highest shared RU/s this database ever had (not kept across restarts [A])
  private volatile double maxSharedEverProvisioned;
  private volatile PartitionBudget[] sharedBudgets;
  private final long createdMillis;
  private final int ordinal;

  Database(CosmosEngine engine, String id, int ordinal, Throughput sharedThroughput) {
    this(engine, id, ordinal, sharedThroughput, engine.clock().millis());
  }

  /** A database as the catalog recorded it (same RID and creation time). */
  Database(
      CosmosEngine engine,
      String id,
      int ordinal,
      Throughput sharedThroughput,
      long createdMillis) {
    this.engine = engine;
    this.id = id;
    this.ordinal = ordinal;
    this.ridBytes = ResourceIds.database(ordinal);
    this.rid = ResourceIds.encode(ridBytes);
    this.createdMillis = createdMillis;
    if (sharedThroughput != null) {
      checkThroughput(sharedThroughput, 0, 0);
      this.sharedThroughput = sharedThroughput;
      this.maxSharedEverProvisioned = sharedThroughput.maxRuPerSecond();
      this.sharedBudgets = budgets(sharedThroughput);
    }
  }

  public String id() {
    return id;
  }

  public String rid() {
    return rid;
  }

  byte[] ridBytes() {
    return ridBytes;
  }

  public long createdMillis() {
    return createdMillis;
  }

  public CosmosEngine engine() {
    return engine;
  }

  /** The shared throughput, if the database has one. */
  public Optional<Throughput> sharedThroughput() {
    return Optional.ofNullable(sharedThroughput);
  }

  /**
   * Creates a container.
   *
   * @throws io.cosmolab.engine.error.CosmosException 409 if one with this id exists, 400 for
   *     invalid settings
   */
  public Container createContainer(ContainerSettings settings) {
    Throughput t = settings.throughput();
    if (t == null && sharedThroughput == null) {
      t = Throughput.manual(engine.limits().minManualRu());
    }
    if (t != null) {
      checkThroughput(t, 0, 0);
    }
    Container c = new Container(this, settings, t, engine.nextOrdinal(), null);
    if (containers.putIfAbsent(settings.id(), c) != null) {
      throw CosmosError.CONFLICT.exception(
          "container '%s' already exists in database '%s'", settings.id(), id);
    }
    engine.catalogChanged();
    return c;
  }

  /**
   * The container with this id.
   *
   * @throws io.cosmolab.engine.error.CosmosException 404 if there is none
   */
  public Container container(String containerId) {
    Container c = containers.get(containerId);
    if (c == null) {
      throw CosmosError.NOT_FOUND.exception(
          "container '%s' does not exist in database '%s'", containerId, id);
    }
    return c;
  }

  public Optional<Container> findContainer(String containerId) {
    return Optional.ofNullable(containers.get(containerId));
  }

  public List<Container> containers() {
    return new ArrayList<>(containers.values());
  }

  /** Deletes a container and its data. */
  public void deleteContainer(String containerId) {
    Container c = containers.remove(containerId);
    if (c == null) {
      throw CosmosError.NOT_FOUND.exception(
          "container '%s' does not exist in database '%s'", containerId, id);
    }
    engine.catalogChanged(List.of(c.rid()));
  }

  int ordinal() {
    return ordinal;
  }

  /** The container with this id, or with this RID. */
  public Optional<Container> findContainerByIdOrRid(String idOrRid) {
    Container c = containers.get(idOrRid);
    if (c != null) {
      return Optional.of(c);
    }
    return containers.values().stream().filter(x -> x.rid().equals(idOrRid)).findFirst();
  }

  // ---- users (see User for the locking)

  Object usersLock() {
    return usersLock;
  }

  /**
   * Creates a user.
   *
   * @throws io.cosmolab.engine.error.CosmosException 400 for an invalid id, 409 if it exists
   */
  public User createUser(String userId) {
    ResourceNames.check("user", userId);
    synchronized (usersLock) {
      if (users.containsKey(userId)) {
        throw CosmosError.CONFLICT.exception(
            "Resource with specified id or name already exists: user '%s' in database '%s'",
            userId, id);
      }
      User u = new User(this, userId, engine.nextOrdinal(), 1, engine.clock().millis());
      users.put(userId, u);
      engine.catalogChanged();
      return u;
    }
  }

  /** Creates the user, or (a user having no other property) replaces it with itself. */
  public Upserted<User> upsertUser(String userId) {
    synchronized (usersLock) {
      User u = users.get(userId);
      if (u == null) {
        return new Upserted<>(createUser(userId), true);
      }
      return new Upserted<>(replaceUser(userId, userId, null), false);
    }
  }

  /**
   * Replaces a user: its id, the one property a user has. Its RID and permissions stay.
   *
   * @param ifMatch the etag the user must have, or null
   * @throws io.cosmolab.engine.error.CosmosException 404, 409 when the new id is taken, 412
   */
  public User replaceUser(String idOrRid, String newId, String ifMatch) {
    ResourceNames.check("user", newId);
    synchronized (usersLock) {
      User u = user(idOrRid);
      User.checkIfMatch(ifMatch, u.etag(), "user", u.id());
      if (!newId.equals(u.id())) {
        if (users.containsKey(newId)) {
          throw CosmosError.CONFLICT.exception(
              "Resource with specified id or name already exists: user '%s' in database '%s'",
              newId, id);
        }
        users.remove(u.id());
        users.put(newId, u);
      }
      u.renamed(newId);
      engine.catalogChanged();
      return u;
    }
  }

  /**
   * Deletes a user and its permissions: every token issued for them stops working.
   *
   * @throws io.cosmolab.engine.error.CosmosException 404, 412
   */
  public void deleteUser(String idOrRid, String ifMatch) {
    synchronized (usersLock) {
      User u = user(idOrRid);
      User.checkIfMatch(ifMatch, u.etag(), "user", u.id());
      users.remove(u.id());
      engine.catalogChanged();
    }
  }

  /** The user with this id, or with this RID. */
  public Optional<User> findUser(String idOrRid) {
    User u = users.get(idOrRid);
    if (u != null) {
      return Optional.of(u);
    }
    return users.values().stream().filter(x -> x.rid().equals(idOrRid)).findFirst();
  }

  /** Every user, in id order. */
  public List<User> users() {
    return new ArrayList<>(users.values());
  }

  private User user(String idOrRid) {
    return findUser(idOrRid)
        .orElseThrow(
            () ->
                CosmosError.NOT_FOUND.exception(
                    "Resource Not Found. Entity with the specified id does not exist in the system:"
                        + " user '%s' in database '%s'",
                    idOrRid, id));
  }

  /** 404 when the user was deleted while a caller held it. */
  void checkLive(User u) {
    if (users.get(u.id()) != u) {
      throw CosmosError.NOT_FOUND.exception(
          "Resource Not Found. Entity with the specified id does not exist in the system: user"
              + " '%s' in database '%s'",
          u.id(), id);
    }
  }

  /** Puts back a user the catalog recorded (its permissions follow, through the user). */
  User restoreUser(String userId, int userOrdinal, long revision, long modifiedMillis) {
    User u = new User(this, userId, userOrdinal, revision, modifiedMillis);
    users.put(userId, u);
    return u;
  }

  /** Puts back a container the catalog recorded, with its layout and its documents' state. */
  Container restoreContainer(
      ContainerSettings settings, Throughput t, int ordinal, Container.Restored restored) {
    Container c = new Container(this, settings, t, ordinal, restored);
    containers.put(settings.id(), c);
    return c;
  }

  /** Forgets every container; returns their RIDs, for the catalog save that drops their data. */
  List<String> dropAll() {
    List<String> rids = new ArrayList<>();
    for (Container c : containers.values()) {
      rids.add(c.rid());
    }
    containers.clear();
    return rids;
  }

  /** The lowest shared throughput this database may be set to now; empty without one. */
  public Optional<Double> minimumSharedThroughput() {
    Throughput t = sharedThroughput;
    if (t == null) {
      return Optional.empty();
    }
    long stored = 0;
    for (Container c : containers.values()) {
      stored += c.storedBytes();
    }
    return Optional.of(t.minimum(engine.limits(), stored, t.maxRuPerSecond()));
  }

  /**
   * Switches the shared throughput to autoscale ({@code toAutoscale}) or to manual, at the value
   * the service's migration would choose ({@link Throughput#migrated}); one migration at a time, as
   * {@link Container#migrateThroughput}.
   *
   * @throws CosmosException 400 without shared throughput, or when it is of that kind already
   */
  public void migrateSharedThroughput(boolean toAutoscale) {
    synchronized (migrations) {
      Throughput t = sharedThroughput;
      if (t == null) {
        replaceSharedThroughput(null); // its 400: no shared throughput
        return;
      }
      Throughput.checkMigration(t, toAutoscale, "database '" + id + "'");
      long stored = 0;
      for (Container c : containers.values()) {
        stored += c.storedBytes();
      }
      replaceSharedThroughput(t.migrated(engine.limits(), stored, maxSharedEverProvisioned));
    }
  }

  private final Object migrations = new Object();

  /** Changes the shared throughput. */
  public void replaceSharedThroughput(Throughput throughput) {
    if (sharedThroughput == null) {
      throw CosmosError.BAD_REQUEST.exception(
          "database '%s' has no shared throughput; set throughput on its containers instead", id);
    }
    checkThroughput(throughput, 0, maxSharedEverProvisioned);
    sharedThroughput = throughput;
    maxSharedEverProvisioned = Math.max(maxSharedEverProvisioned, throughput.maxRuPerSecond());
    sharedBudgets = budgets(throughput);
    engine.catalogChanged();
  }

  /**
   * The highest shared RU/s this database has had (its offer's {@code
   * maxThroughputEverProvisioned}), or 0 without shared throughput.
   */
  public double maxSharedThroughputEverProvisioned() {
    return maxSharedEverProvisioned;
  }

  private PartitionBudget[] budgets(Throughput t) {
    Limits limits = engine.limits();
    int slices =
        (int) Math.max(1, Math.ceil(t.maxRuPerSecond() / limits.creationRuPerPartitionAutoscale()));
    PartitionBudget[] out = new PartitionBudget[slices];
    for (int i = 0; i < slices; i++) {
      out[i] =
          new PartitionBudget(
              t.maxRuPerSecond() / slices, engine.burstCapacity(), limits, engine.clock().millis());
    }
    return out;
  }

  /** The shared budget slice an EPK spends from. */
  PartitionBudget sharedBudgetFor(String epk, boolean v1) {
    PartitionBudget[] b = sharedBudgets;
    if (b.length == 1) {
      return b[0];
    }
    if (v1 || epk.length() < 8) {
      return b[Math.floorMod(epk.hashCode(), b.length)];
    }
    long top = Long.parseLong(epk.substring(0, 8), 16); // < 0x40000000 for V2 hashes
    return b[(int) Math.min(b.length - 1, top * b.length / 0x40000000L)];
  }

  /** The number of shared budget slices. */
  public int sharedSlices() {
    PartitionBudget[] b = sharedBudgets;
    return b == null ? 0 : b.length;
  }

  void checkThroughput(Throughput t, long storedBytes, double maxEver) {
    Limits limits = engine.limits();
    double min = t.minimum(limits, storedBytes, maxEver);
    if (t.maxRuPerSecond() < min - 1e-9) {
      throw CosmosError.BAD_REQUEST.exception(
          "%s throughput of %s RU/s is below the minimum of %s RU/s for this resource",
          t.kind(), Throughput.format(t.maxRuPerSecond()), Throughput.format(min));
    }
    if (t.maxRuPerSecond() > limits.maxRu() + 1e-9) {
      throw CosmosError.BAD_REQUEST.exception(
          "throughput of %s RU/s is above the maximum of %s RU/s",
          Throughput.format(t.maxRuPerSecond()), Throughput.format(limits.maxRu()));
    }
  }
}
