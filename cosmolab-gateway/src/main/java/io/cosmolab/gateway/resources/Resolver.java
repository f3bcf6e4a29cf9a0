package io.cosmolab.gateway.resources;

import io.cosmolab.engine.Container;
import io.cosmolab.engine.CosmosEngine;
import io.cosmolab.engine.Database;
import io.cosmolab.engine.error.CosmosError;
import io.cosmolab.gateway.wire.ResourcePath;
import java.util.Optional;

/**
 * Finds the database and container a path names. Every segment may be a name or a RID ({@code
 * gateway-protocol.md} §3.1): the Java SDK addresses partition key ranges by RID. Names are tried
 * first, as ids are what users write.
 */
final class Resolver {
  private final CosmosEngine engine;

  Resolver(CosmosEngine engine) {
    this.engine = engine;
  }

  Optional<Database> findDatabase(String nameOrRid) {
    Optional<Database> byName = engine.findDatabase(nameOrRid);
    if (byName.isPresent()) {
      return byName;
    }
    return databaseByRid(nameOrRid);
  }

  private Optional<Database> databaseByRid(String rid) {
    return engine.databases().stream().filter(d -> d.rid().equals(rid)).findFirst();
  }

  private static Optional<Container> containerByRid(Database db, String rid) {
    return db.containers().stream().filter(c -> c.rid().equals(rid)).findFirst();
  }

  Database database(ResourcePath path) {
    String ref = path.segment(1);
    return findDatabase(ref)
        .orElseThrow(
            () ->
                (path.size() > 2 ? CosmosError.OWNER_NOT_FOUND : CosmosError.NOT_FOUND)
                    .exception(
                        "Resource Not Found. Entity with the specified id does not exist in the"
                            + " system: database '%s'",
                        ref));
  }

  Optional<Container> findContainer(Database db, String nameOrRid) {
    Optional<Container> byName = db.findContainer(nameOrRid);
    if (byName.isPresent()) {
      return byName;
    }
    return containerByRid(db, nameOrRid);
  }

  Container container(ResourcePath path) {
    Database db = database(path);
    String ref = path.segment(3);
    return findContainer(db, ref)
        .orElseThrow(
            () ->
                (path.size() > 4 ? CosmosError.OWNER_NOT_FOUND : CosmosError.NOT_FOUND)
                    .exception(
                        "Resource Not Found. Entity with the specified id does not exist in the"
                            + " system: container '%s' in database '%s'",
                        ref, db.id()));
  }

  /**
   * True when the path names its database, and its container if it has one, by RID rather than by
   * name, so that the link it is signed over is the lower-cased RID of the last of them. Names win,
   * as in {@link #findDatabase}: a segment that is a database's name is never read as a RID. A
   * resource below a container (a stored procedure by its self link, as the Java SDK replaces it)
   * is RID-addressed when its database and container are; its handler then finds it by that RID or
   * answers 404.
   */
  boolean isRidAddressed(ResourcePath path) {
    if (path.size() < 2 || !"dbs".equals(path.segment(0))) {
      return false;
    }
    String dbRef = path.segment(1);
    if (engine.findDatabase(dbRef).isPresent()) {
      return false;
    }
    Optional<Database> db = databaseByRid(dbRef);
    if (db.isEmpty()) {
      return false;
    }
    int linkSegments = path.isFeed() ? path.size() - 1 : path.size();
    if (linkSegments == 2) {
      return true;
    }
    if ((linkSegments == 4 || linkSegments == 6) && "users".equals(path.segment(2))) {
      String userRef = path.segment(3);
      java.util.List<io.cosmolab.engine.User> users = db.get().users();
      return users.stream().noneMatch(u -> u.id().equals(userRef))
          && users.stream().anyMatch(u -> u.rid().equals(userRef));
    }
    if ((linkSegments != 4 && linkSegments != 6) || !"colls".equals(path.segment(2))) {
      return false;
    }
    String collRef = path.segment(3);
    return db.get().findContainer(collRef).isEmpty()
        && containerByRid(db.get(), collRef).isPresent();
  }
}
