// The JavaScript SDK with resource tokens against a cosmolab server: users and permissions made
// with the master key, then clients built from `permissionFeed` and `resourceTokens` that work
// within their permission and get 403 outside it. Usage: node permissions-test.mjs <endpoint> <key>
// Prints one JSON line of results; exits 1 with the reason when a check fails.
import { CosmosClient, PermissionMode } from "@azure/cosmos";
import { endpoint, agent, client as admin, check, statusOf } from "./lab.mjs";

const results = {};
const { database } = await admin.databases.createIfNotExists({ id: "jsperms" });
const { container: orders } = await database.containers.createIfNotExists({
  id: "orders",
  partitionKey: { paths: ["/tenant"] },
});
await database.containers.createIfNotExists({ id: "secrets", partitionKey: { paths: ["/tenant"] } });
await orders.items.upsert({ id: "o1", tenant: "t1" });
await orders.items.upsert({ id: "o2", tenant: "t2" });

const { user } = await database.users.upsert({ id: "js-user" });
const { resource: all } = await user.permissions.upsert({
  id: "orders-all",
  permissionMode: PermissionMode.All,
  resource: orders.url,
});
check(all._token.startsWith("type=resource"), `a permission's _token: ${all._token}`);
const { resource: t1 } = await user.permissions.upsert({
  id: "orders-t1-read",
  permissionMode: PermissionMode.Read,
  resource: "dbs/jsperms/colls/orders/docs/o1",
});
const listed = await user.permissions.readAll().fetchAll();
check(listed.resources.length === 2, `permissions listed: ${listed.resources.length}`);
results.permissions = "ok";

// a client from the permission feed, as an app gets it from its token broker
const fed = new CosmosClient({ endpoint, permissionFeed: [all], agent });
const fedOrders = fed.database("jsperms").container("orders");
const created = await fedOrders.items.create({ id: "js1", tenant: "t3" });
check(created.statusCode === 201, `create with the permission feed answered ${created.statusCode}`);
const read = await fedOrders.item("o1", "t1").read();
check(read.statusCode === 200, `read with the permission feed answered ${read.statusCode}`);
const rows = await fedOrders.items.query("SELECT * FROM c").fetchAll();
check(rows.resources.length >= 3, `cross-partition query rows: ${rows.resources.length}`);
// the feed has no token for another container: the SDK sends none, and the server answers 401
const noToken = await statusOf(fed.database("jsperms").container("secrets").item("o1", "t1").read());
check(noToken === 401, `another container, without a token, answered ${noToken}`);
results.permissionFeed = "ok";

// the orders token presented for another container, or for a database: 403
const misused = new CosmosClient({
  endpoint,
  resourceTokens: { "dbs/jsperms/colls/secrets": all._token, "dbs/jsperms": all._token },
  agent,
});
const secret = await statusOf(misused.database("jsperms").container("secrets").item("o1", "t1").read());
check(secret === 403, `the token for another container answered ${secret}`);
const dbRead = await statusOf(misused.database("jsperms").read());
check(dbRead === 403, `the token for its database answered ${dbRead}`);
results.outOfScope = "ok";

// a Read token for one document, in resourceTokens
const one = new CosmosClient({ endpoint, resourceTokens: { [t1.resource]: t1._token }, agent });
const oneOrders = one.database("jsperms").container("orders");
const own = await oneOrders.item("o1", "t1").read();
check(own.statusCode === 200, `reading the permitted document answered ${own.statusCode}`);
const write = await statusOf(oneOrders.item("o1", "t1").replace({ id: "o1", tenant: "t1", n: 1 }));
check(write === 403, `a write with a Read token answered ${write}`);
results.readToken = "ok";

// a permission replaced with a new id is renamed (the JS SDK's permission.spec reads it by that id)
{
  const { resource: made } = await user.permissions.upsert({
    id: "to-rename",
    permissionMode: PermissionMode.Read,
    resource: "dbs/jsperms/colls/orders/docs/o2",
  });
  const { resource: renamed } = await user
    .permission("to-rename")
    .replace({ ...made, id: "renamed" });
  check(renamed.id === "renamed" && renamed._rid === made._rid, `renamed: ${renamed.id}`);
  const { resource: again } = await user.permission("renamed").read();
  check(again.id === "renamed", `read by the new id: ${again?.id}`);
  const gone = await statusOf(user.permission("to-rename").read());
  check(gone === 404, `the old id answered ${gone}`);
  await user.permission("renamed").delete();
  results.rename = "ok";
}

console.log(JSON.stringify(results));
