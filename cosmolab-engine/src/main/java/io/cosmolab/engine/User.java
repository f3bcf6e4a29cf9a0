package io.cosmolab.engine;

import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.resource.ResourceIds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A user of a database: a name under which permissions are granted ({@code
 * /dbs/{db}/users/{user}}). A user holds no data; its permissions say what the holders of their
 * resource tokens may reach.
 *
 * <p>Concurrency: every change to a database's users and their permissions runs under the
 * database's one users lock (they are rare, and a change checks uniqueness across the user's
 * permissions); reads go lock-free to concurrent maps of immutable {@link Permission}s.
 */
public final class User {
  private static final Set<String> CHILD_TYPES = Set.of("docs", "sprocs", "triggers", "udfs");

  private final Database database;
  private final int ordinal;
  private final byte[] ridBytes;
  private final String rid;
  private volatile String id;
  private volatile long revision;
  private volatile long modifiedMillis;
  private final Map<String, Permission> permissions = new ConcurrentSkipListMap<>();

  User(Database database, String id, int ordinal, long revision, long modifiedMillis) {
    this.database = database;
    this.id = id;
    this.ordinal = ordinal;
    this.ridBytes = ResourceIds.user(database.ridBytes(), ordinal);
    this.rid = ResourceIds.encode(ridBytes);
    this.revision = revision;
    this.modifiedMillis = modifiedMillis;
  }

  public Database database() {
    return database;
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

  int ordinal() {
    return ordinal;
  }

  public long revision() {
    return revision;
  }

  public long modifiedMillis() {
    return modifiedMillis;
  }

  public String etag() {
    return Permission.Etags.of(revision, ordinal);
  }

  /** The system link, by RIDs: {@code dbs/{db}/users/{user}/}. */
  public String selfLink() {
    return "dbs/" + database.rid() + "/users/" + rid + "/";
  }

  /** Renames the user; called by {@link Database#replaceUser} under the users lock. */
  @SuppressWarnings("NonAtomicVolatileUpdate") // every writer holds the users lock
  void renamed(String newId) {
    this.id = newId;
    this.revision++;
    this.modifiedMillis = database.engine().clock().millis();
  }

  /** Every permission, in id order. */
  public List<Permission> permissions() {
    return new ArrayList<>(permissions.values());
  }

  /** The permission with this id, or with this RID (the SDKs' self links address by RID). */
  public Optional<Permission> findPermission(String idOrRid) {
    Permission p = permissions.get(idOrRid);
    if (p != null) {
      return Optional.of(p);
    }
    for (Permission q : permissions.values()) {
      if (q.rid().equals(idOrRid)) {
        return Optional.of(q);
      }
    }
    return Optional.empty();
  }

  /**
   * Grants a permission.
   *
   * @throws io.cosmolab.engine.error.CosmosException 400 for invalid settings, 404 when the
   *     container it names does not exist, 409 when the id is taken or the user already has a
   *     permission on the same resource and partition
   */
  public Permission createPermission(PermissionSettings settings) {
    synchronized (database.usersLock()) {
      database.checkLive(this);
      Permission p = build(settings, database.engine().nextOrdinal(), 1);
      if (permissions.containsKey(p.id())) {
        throw idTaken(p.id());
      }
      checkUniqueScope(p);
      permissions.put(p.id(), p);
      database.engine().catalogChanged();
      return p;
    }
  }

  /** Creates the permission, or replaces the one with its id. */
  public Upserted<Permission> upsertPermission(PermissionSettings settings) {
    synchronized (database.usersLock()) {
      Permission old = permissions.get(settings.id());
      if (old == null) {
        return new Upserted<>(createPermission(settings), true);
      }
      return new Upserted<>(replacePermission(settings.id(), settings, null), false);
    }
  }

  /**
   * Replaces a permission: its id (the body's names it, as on the service: the JavaScript SDK's
   * permission tests rename one and then read it by the new id), mode, resource and partition key.
   * Its RID stays; its revision moves on, so every token issued for it before stops working.
   *
   * @param ifMatch the etag the permission must have, or null
   * @throws io.cosmolab.engine.error.CosmosException 404, 412 when {@code ifMatch} does not match,
   *     409 when the new id is another permission's of this user
   */
  public Permission replacePermission(String idOrRid, PermissionSettings settings, String ifMatch) {
    synchronized (database.usersLock()) {
      database.checkLive(this);
      Permission old = permission(idOrRid);
      checkIfMatch(ifMatch, old.etag(), "permission", old.id());
      if (!settings.id().equals(old.id()) && permissions.containsKey(settings.id())) {
        throw idTaken(settings.id());
      }
      Permission p = build(settings, old.ordinal(), old.revision() + 1);
      checkUniqueScope(p);
      // readers take no lock: the new version is there before a renamed one's old id goes
      permissions.put(p.id(), p);
      if (!p.id().equals(old.id())) {
        permissions.remove(old.id());
      }
      database.engine().catalogChanged();
      return p;
    }
  }

  /**
   * Deletes a permission; the tokens issued for it stop working.
   *
   * @throws io.cosmolab.engine.error.CosmosException 404, 412 when {@code ifMatch} does not match
   */
  public void deletePermission(String idOrRid, String ifMatch) {
    synchronized (database.usersLock()) {
      database.checkLive(this);
      Permission old = permission(idOrRid);
      checkIfMatch(ifMatch, old.etag(), "permission", old.id());
      permissions.remove(old.id());
      database.engine().catalogChanged();
    }
  }

  /** Puts back a permission the catalog recorded. */
  void restore(
      String permissionId,
      int permissionOrdinal,
      String modeText,
      String resource,
      Permission.Scope scope,
      long permissionRevision,
      long permissionModified) {
    permissions.put(
        permissionId,
        new Permission(
            this,
            permissionId,
            permissionOrdinal,
            PermissionMode.parse(modeText),
            modeText,
            resource,
            scope,
            permissionRevision,
            permissionModified));
  }

  private Permission permission(String idOrRid) {
    return findPermission(idOrRid)
        .orElseThrow(
            () ->
                CosmosError.NOT_FOUND.exception(
                    "Resource Not Found. Entity with the specified id does not exist in the system:"
                        + " permission '%s' of user '%s'",
                    idOrRid, id));
  }

  private Permission build(PermissionSettings s, int permissionOrdinal, long permissionRevision) {
    ResourceNames.check("permission", s.id());
    PermissionMode mode = PermissionMode.parse(s.mode());
    return new Permission(
        this,
        s.id(),
        permissionOrdinal,
        mode,
        s.mode(),
        s.resource(),
        scopeOf(s),
        permissionRevision,
        database.engine().clock().millis());
  }

  /**
   * The container, child and partition a permission's settings name. The link must be a container's
   * ({@code dbs/{db}/colls/{coll}}) or a child's in it ({@code .../docs/{id}}, {@code sprocs},
   * {@code triggers}, {@code udfs}), by names or RIDs, in this user's database.
   */
  private Permission.Scope scopeOf(PermissionSettings s) {
    String link = s.resource().strip();
    while (link.startsWith("/")) {
      link = link.substring(1);
    }
    while (link.endsWith("/")) {
      link = link.substring(0, link.length() - 1);
    }
    String[] parts = link.split("/", -1);
    boolean shaped =
        (parts.length == 4 || parts.length == 6)
            && parts[0].equals("dbs")
            && parts[2].equals("colls")
            && (parts.length == 4 || CHILD_TYPES.contains(parts[4]));
    for (String part : parts) {
      shaped &= !part.isEmpty();
    }
    if (!shaped) {
      throw CosmosError.BAD_REQUEST.exception(
          "a permission's resource must be the link of a container (dbs/{db}/colls/{coll}) or of"
              + " a document, stored procedure, trigger or user-defined function in one"
              + " (dbs/{db}/colls/{coll}/docs/{id}; attachments are not supported), was '%s'",
          s.resource());
    }
    if (!parts[1].equals(database.id()) && !parts[1].equals(database.rid())) {
      throw CosmosError.BAD_REQUEST.exception(
          "permission '%s' of user '%s' in database '%s' names a resource in database '%s': a"
              + " user's permissions cannot reach beyond its database",
          s.id(), id, database.id(), parts[1]);
    }
    Container c =
        database
            .findContainerByIdOrRid(parts[3])
            .orElseThrow(
                () ->
                    CosmosError.NOT_FOUND.exception(
                        "the resource of permission '%s', %s, names container '%s', which does not"
                            + " exist in database '%s'",
                        s.id(), s.resource(), parts[3], database.id()));
    PartitionKeyValue key = null;
    if (s.resourcePartitionKey() != null) {
      key = PartitionKeyValue.fromJson(s.resourcePartitionKey());
      int paths = c.partitionKey().paths().size();
      if (key.size() != paths) {
        throw CosmosError.BAD_REQUEST.exception(
            "resourcePartitionKey %s has %d component(s); container '%s' is partitioned by %d"
                + " path(s) %s, and a permission names one whole logical partition",
            s.resourcePartitionKey(), key.size(), c.id(), paths, c.partitionKey().paths());
      }
    }
    return parts.length == 4
        ? new Permission.Scope(c.rid(), null, null, key)
        : new Permission.Scope(c.rid(), parts[4], parts[5], key);
  }

  /** 409: another permission of this user has this id. */
  private io.cosmolab.engine.error.CosmosException idTaken(String permissionId) {
    return CosmosError.CONFLICT.exception(
        "Resource with specified id or name already exists: permission '%s' of user '%s'",
        permissionId, id);
  }

  /**
   * One permission per resource and partition for a user, as the service keeps one per resource
   * (409 otherwise); partition-scoped permissions on one container differ by their key [A].
   */
  private void checkUniqueScope(Permission p) {
    for (Permission other : permissions.values()) {
      if (other.ordinal() != p.ordinal() && other.scope().equals(p.scope())) {
        throw CosmosError.CONFLICT.exception(
            "user '%s' already has permission '%s' on %s%s; a user has one permission per"
                + " resource",
            id,
            other.id(),
            other.resource(),
            p.partitionKey().map(k -> " for partition key " + k.toJson()).orElse(""));
      }
    }
  }

  static void checkIfMatch(String ifMatch, String etag, String kind, String resourceId) {
    if (ifMatch != null && !ifMatch.isBlank() && !ifMatch.strip().equals("*")) {
      if (!ifMatch.strip().equals(etag)) {
        throw CosmosError.PRECONDITION_FAILED.exception(
            "Operation cannot be performed because one of the specified precondition is not met:"
                + " %s '%s' has etag %s, the request's If-Match is %s",
            kind, resourceId, etag, ifMatch);
      }
    }
  }
}
