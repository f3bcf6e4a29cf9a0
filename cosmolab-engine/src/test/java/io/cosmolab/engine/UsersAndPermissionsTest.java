package io.cosmolab.engine;

import static io.cosmolab.engine.Json.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.cosmolab.engine.error.CosmosException;
import io.cosmolab.engine.partitioning.PartitionKeyDefinition;
import io.cosmolab.engine.partitioning.PartitionKeyValue;
import io.cosmolab.engine.resource.ResourceIds;
import io.cosmolab.engine.store.InMemoryDocumentStore;
import io.cosmolab.engine.time.ManualClock;
import org.junit.jupiter.api.Test;

/** Users and permissions as the engine keeps them: ids, RIDs, scopes, revisions, the catalog. */
class UsersAndPermissionsTest {
  private final ManualClock clock = ManualClock.startingAtEpoch2026();
  private final InMemoryDocumentStore store = new InMemoryDocumentStore();
  private final CosmosEngine engine = CosmosEngine.builder().clock(clock).store(store).build();
  private final Database db = engine.createDatabase("shop");
  private final Container orders =
      db.createContainer(ContainerSettings.of("orders", PartitionKeyDefinition.hash("/tenant")));

  private static PermissionSettings onOrders(String id, String mode) {
    return new PermissionSettings(id, mode, "dbs/shop/colls/orders", null);
  }

  private static int status(Runnable r) {
    try {
      r.run();
      return 0;
    } catch (CosmosException e) {
      return e.error().status();
    }
  }

  @Test
  void ridsOfUsersAndPermissions_haveTheLayoutTheSdkParsesAsUserAndPermission() {
    User u = db.createUser("alice");
    Permission p = u.createPermission(onOrders("read-orders", "Read"));

    byte[] user = ResourceIds.decode(u.rid());
    byte[] perm = ResourceIds.decode(p.rid());
    assertThat(user).hasSize(8);
    assertThat(user[4] & 0x80).as("bit 0x80 clear: a user, not a container").isZero();
    assertThat(java.util.Arrays.copyOf(user, 4)).isEqualTo(ResourceIds.decode(db.rid()));
    assertThat(perm).hasSize(16);
    assertThat(java.util.Arrays.copyOf(perm, 8)).isEqualTo(user);
    assertThat(p.selfLink())
        .isEqualTo("dbs/" + db.rid() + "/users/" + u.rid() + "/permissions/" + p.rid() + "/");
    assertThat(engine.findPermissionByRid(p.rid())).containsSame(p);
  }

  @Test
  void createUser_duplicateId_is409_andBadIds400() {
    db.createUser("alice");
    assertThat(status(() -> db.createUser("alice"))).isEqualTo(409);
    assertThat(status(() -> db.createUser("a/b"))).isEqualTo(400);
    assertThat(status(() -> db.createUser(""))).isEqualTo(400);
  }

  @Test
  void replaceUser_renamesKeepingRidAndPermissions_andChecksIfMatch() {
    User u = db.createUser("alice");
    u.createPermission(onOrders("p", "All"));
    String etag = u.etag();

    assertThat(status(() -> db.replaceUser("alice", "alicia", "\"stale\""))).isEqualTo(412);
    User renamed = db.replaceUser("alice", "alicia", etag);

    assertThat(renamed.rid()).isEqualTo(u.rid());
    assertThat(renamed.etag()).isNotEqualTo(etag);
    assertThat(db.findUser("alice")).isEmpty();
    assertThat(db.findUser("alicia").orElseThrow().findPermission("p")).isPresent();
    db.createUser("bob");
    assertThat(status(() -> db.replaceUser("alicia", "bob", null))).isEqualTo(409);
  }

  @Test
  void replacePermission_movesItsRevision_andKeepsItsRid() {
    User u = db.createUser("alice");
    Permission first = u.createPermission(onOrders("p", "Read"));
    Permission second = u.replacePermission("p", onOrders("p", "All"), first.etag());

    assertThat(second.rid()).isEqualTo(first.rid());
    assertThat(second.revision()).isEqualTo(first.revision() + 1);
    assertThat(second.mode()).isEqualTo(PermissionMode.ALL);
    assertThat(second.scopeText()).isNotEqualTo(first.scopeText());
    assertThat(status(() -> u.replacePermission("p", onOrders("p", "All"), first.etag())))
        .isEqualTo(412);
  }

  @Test
  void replacePermission_withAnotherId_renamesIt_keepingItsRid() {
    // as the JavaScript SDK's permission tests: replace with a new id, then read it by that id
    User u = db.createUser("alice");
    Permission first = u.createPermission(onOrders("p", "Read"));
    u.createPermission(
        new PermissionSettings("t1-only", "All", "dbs/shop/colls/orders", node("[\"t1\"]")));
    assertThat(status(() -> u.replacePermission("p", onOrders("t1-only", "All"), null)))
        .isEqualTo(409); // another permission's id
    // a new id on another permission's resource and key: 409, and the permission keeps its id
    assertThat(
            status(
                () ->
                    u.replacePermission(
                        "p",
                        new PermissionSettings(
                            "elsewhere", "Read", "dbs/shop/colls/orders", node("[\"t1\"]")),
                        null)))
        .isEqualTo(409);
    assertThat(u.findPermission("p")).isPresent();
    assertThat(u.findPermission("elsewhere")).isEmpty();
    Permission renamed = u.replacePermission("p", onOrders("q", "All"), first.etag());

    assertThat(renamed.id()).isEqualTo("q");
    assertThat(renamed.rid()).isEqualTo(first.rid());
    assertThat(u.findPermission("q").orElseThrow().mode()).isEqualTo(PermissionMode.ALL);
    assertThat(u.findPermission("p")).isEmpty();
    assertThat(u.findPermission(first.rid()).orElseThrow().id()).isEqualTo("q");
  }

  @Test
  void createPermission_validatesModeLinkDatabaseContainerAndPartitionKey() {
    User u = db.createUser("alice");
    assertThat(status(() -> u.createPermission(onOrders("p", "Write")))).isEqualTo(400);
    assertThat(
            status(
                () ->
                    u.createPermission(
                        new PermissionSettings("p", "All", "dbs/shop/colls/missing", null))))
        .isEqualTo(404);
    assertThat(
            status(
                () ->
                    u.createPermission(
                        new PermissionSettings("p", "All", "dbs/other/colls/orders", null))))
        .isEqualTo(400);
    assertThat(
            status(() -> u.createPermission(new PermissionSettings("p", "All", "dbs/shop", null))))
        .isEqualTo(400);
    assertThat(
            status(
                () ->
                    u.createPermission(
                        new PermissionSettings(
                            "p", "All", "dbs/shop/colls/orders", node("[\"a\", \"b\"]")))))
        .isEqualTo(400);
    Permission byRid =
        u.createPermission(
            new PermissionSettings(
                "p",
                "read",
                "/dbs/" + db.rid() + "/colls/" + orders.rid() + "/",
                node("[\"t1\"]")));
    assertThat(byRid.containerRid()).isEqualTo(orders.rid());
    assertThat(byRid.partitionKey()).contains(PartitionKeyValue.of("t1"));
    assertThat(byRid.modeText()).isEqualTo("read");
  }

  @Test
  void aSecondPermissionOnTheSameResourceAndPartition_is409_anotherPartitionIsNot() {
    User u = db.createUser("alice");
    u.createPermission(onOrders("whole", "Read"));
    assertThat(status(() -> u.createPermission(onOrders("again", "All")))).isEqualTo(409);
    assertThat(status(() -> u.createPermission(onOrders("whole", "All")))).isEqualTo(409);
    u.createPermission(
        new PermissionSettings("t1", "All", "dbs/shop/colls/orders", node("[\"t1\"]")));
    u.createPermission(
        new PermissionSettings("t2", "All", "dbs/shop/colls/orders", node("[\"t2\"]")));
    assertThat(u.permissions()).extracting(Permission::id).containsExactly("t1", "t2", "whole");
  }

  @Test
  void deletingAUserOrItsDatabase_deletesItsPermissions() {
    User u = db.createUser("alice");
    Permission p = u.createPermission(onOrders("p", "All"));
    db.deleteUser("alice", null);
    assertThat(engine.findPermissionByRid(p.rid())).isEmpty();
    assertThat(status(() -> u.createPermission(onOrders("q", "All")))).isEqualTo(404);

    Permission again = db.createUser("alice").createPermission(onOrders("p", "All"));
    engine.deleteDatabase("shop");
    assertThat(engine.findPermissionByRid(again.rid())).isEmpty();
  }

  @Test
  void aNewEngineOnTheSameStore_restoresUsersAndPermissionsAsTheyWere() {
    User u = db.createUser("alice");
    Permission p =
        u.createPermission(
            new PermissionSettings("p", "All", "dbs/shop/colls/orders/docs/d1", node("[\"t1\"]")));
    p =
        u.replacePermission(
            "p", new PermissionSettings("p", "Read", p.resource(), node("[\"t1\"]")), null);
    engine.close();

    CosmosEngine after = CosmosEngine.builder().clock(clock).store(store).build();
    Permission restored = after.findPermissionByRid(p.rid()).orElseThrow();
    assertThat(restored.user().id()).isEqualTo("alice");
    assertThat(restored.user().rid()).isEqualTo(u.rid());
    assertThat(restored.scopeText()).isEqualTo(p.scopeText());
    assertThat(restored.revision()).isEqualTo(2);
    assertThat(restored.etag()).isEqualTo(p.etag());
    assertThat(restored.childType()).contains("docs");
    assertThat(restored.childId()).contains("d1");
    // new RIDs do not collide with restored ones
    User bob = after.database("shop").createUser("bob");
    assertThat(bob.rid()).isNotEqualTo(u.rid());
  }
}
