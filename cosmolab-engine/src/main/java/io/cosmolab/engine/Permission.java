package io.cosmolab.engine;

import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.resource.ResourceIds;
import java.util.Locale;
import java.util.Optional;

/**
 * A user's permission: {@link PermissionMode#READ} or {@link PermissionMode#ALL} on one container,
 * or on one document, stored procedure, trigger or user-defined function in it, optionally only
 * within one logical partition. A client proves it holds one with the permission's resource token,
 * which the gateway issues and checks; this class is the grant the token stands for.
 *
 * <p>The resource is the link the client gave, kept as given ({@code resource} on the wire), and
 * the container it names, resolved to its RID when the permission was created or replaced: a
 * container deleted and created again under the same name is another container, which the
 * permission does not reach [A]. A child resource (a document, a script) is named by its id and not
 * resolved: it need not exist yet.
 *
 * <p>Immutable: a replace makes a new value with the next {@link #revision()}, which the tokens
 * issued before it no longer match.
 */
public final class Permission {
  private final User user;
  private final String id;
  private final int ordinal;
  private final String rid;
  private final PermissionMode mode;
  private final String modeText;
  private final String resource;
  private final String containerRid;
  private final String childType;
  private final String childId;
  private final PartitionKeyValue partitionKey;
  private final long revision;
  private final long modifiedMillis;

  Permission(
      User user,
      String id,
      int ordinal,
      PermissionMode mode,
      String modeText,
      String resource,
      Scope scope,
      long revision,
      long modifiedMillis) {
    this.user = user;
    this.id = id;
    this.ordinal = ordinal;
    this.rid = ResourceIds.encode(ResourceIds.permission(user.ridBytes(), ordinal));
    this.mode = mode;
    this.modeText = modeText;
    this.resource = resource;
    this.containerRid = scope.containerRid();
    this.childType = scope.childType();
    this.childId = scope.childId();
    this.partitionKey = scope.partitionKey();
    this.revision = revision;
    this.modifiedMillis = modifiedMillis;
  }

  /**
   * What a permission reaches: a container by RID, a child of it by type segment ({@code docs},
   * {@code sprocs}, {@code triggers}, {@code udfs}) and id (both null for the whole container), and
   * a logical partition (null for all).
   */
  record Scope(
      String containerRid, String childType, String childId, PartitionKeyValue partitionKey) {}

  public User user() {
    return user;
  }

  public String id() {
    return id;
  }

  public String rid() {
    return rid;
  }

  int ordinal() {
    return ordinal;
  }

  public PermissionMode mode() {
    return mode;
  }

  /** The mode as the client wrote it ({@code Read}, {@code read}, ...), echoed on the wire. */
  public String modeText() {
    return modeText;
  }

  /** The resource link as the client gave it. */
  public String resource() {
    return resource;
  }

  /** The RID of the container the permission is on (or that holds its resource). */
  public String containerRid() {
    return containerRid;
  }

  /** The type segment of the child resource it is limited to, if any ({@code docs}, ...). */
  public Optional<String> childType() {
    return Optional.ofNullable(childType);
  }

  /** The id of the child resource it is limited to, if any. */
  public Optional<String> childId() {
    return Optional.ofNullable(childId);
  }

  /** The logical partition it is limited to, if any ({@code resourcePartitionKey}). */
  public Optional<PartitionKeyValue> partitionKey() {
    return Optional.ofNullable(partitionKey);
  }

  /** 1 when created; one more with each replace. Tokens are bound to it. */
  public long revision() {
    return revision;
  }

  public long modifiedMillis() {
    return modifiedMillis;
  }

  /** An etag that changes with every replace. */
  public String etag() {
    return Etags.of(revision, ordinal);
  }

  /** The system link, by RIDs: {@code dbs/{db}/users/{user}/permissions/{perm}/}. */
  public String selfLink() {
    return user.selfLink() + "permissions/" + rid + "/";
  }

  /**
   * The grant in one canonical line, which a resource token's signature covers: mode, container,
   * child and partition key, so a token can never stand for more than the permission gave.
   */
  public String scopeText() {
    return mode.name()
        + "|"
        + containerRid
        + "|"
        + (childType == null ? "" : childType + "/" + childId)
        + "|"
        + (partitionKey == null
            ? ""
            : new String(
                io.cosmolab.engine.document.JsonTrees.write(partitionKey.toJson()),
                java.nio.charset.StandardCharsets.UTF_8));
  }

  Scope scope() {
    return new Scope(containerRid, childType, childId, partitionKey);
  }

  /** Etags of users and permissions: a quoted, GUID-shaped text of the revision and the RID. */
  static final class Etags {
    private Etags() {}

    static String of(long revision, int ordinal) {
      return String.format(
          Locale.ROOT, "\"%08x-0000-0000-0000-%012x\"", revision, ordinal & 0xFFFFFFFFL);
    }
  }
}
