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
    return engine.databases().stream().filter(d -> d.rid().equals(nameOrRid)).findFirst();
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
    return db.containers().stream().filter(c -> c.rid().equals(nameOrRid)).findFirst();
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
}
