// The JavaScript SDK's operations beyond plain CRUD against a cosmolab server: patch (and a
// conditional patch), optimistic concurrency by etag, a transactional batch that commits and one
// that rolls back, bulk across partitions, a container with a hierarchical partition key (point
// operations by full key, a query by its prefix), and the all-versions-and-deletes change feed.
// Usage: node operations-test.mjs <endpoint> <key>. Prints one JSON line of results; exits 1 with
// the reason when a check fails.
import { ChangeFeedMode, ChangeFeedStartFrom, PartitionKeyKind } from "@azure/cosmos";
import { client, check, statusOf } from "./lab.mjs";

const results = {};
const { database } = await client.databases.createIfNotExists({ id: "jsops" });
const { container } = await database.containers.createIfNotExists({
  id: "c",
  partitionKey: { paths: ["/pk"] },
  throughput: 12000, // two physical partitions
});

// patch: set, incr, add to an array, remove; then a patch whose condition does not hold
{
  await container.items.create({ id: "p1", pk: "a", n: 1, tags: ["x"], gone: true });
  const { resource } = await container.item("p1", "a").patch([
    { op: "set", path: "/name", value: "patched" },
    { op: "incr", path: "/n", value: 5 },
    { op: "add", path: "/tags/-", value: "y" },
    { op: "remove", path: "/gone" },
  ]);
  check(
    resource.name === "patched" &&
      resource.n === 6 &&
      JSON.stringify(resource.tags) === '["x","y"]' &&
      !("gone" in resource),
    `patch gave ${JSON.stringify(resource)}`,
  );
  const refused = await statusOf(
    container.item("p1", "a").patch({
      condition: "FROM c WHERE c.n > 100",
      operations: [{ op: "set", path: "/name", value: "never" }],
    }),
  );
  check(refused === 412, `a patch whose condition fails answered ${refused}, not 412`);
  results.patch = "ok";
}

// optimistic concurrency: a replace with a stale etag is refused, with the current one it goes;
// a read if none match the current etag is 304
{
  const { resource: first } = await container.item("p1", "a").read();
  await container.item("p1", "a").replace({ ...first, n: 7 });
  const stale = await statusOf(
    container.item("p1", "a").replace(
      { ...first, n: 8 },
      { accessCondition: { type: "IfMatch", condition: first._etag } },
    ),
  );
  check(stale === 412, `a replace with a stale etag answered ${stale}, not 412`);
  const { resource: now } = await container.item("p1", "a").read();
  const fresh = await statusOf(
    container.item("p1", "a").replace(
      { ...now, n: 9 },
      { accessCondition: { type: "IfMatch", condition: now._etag } },
    ),
  );
  check(fresh === 200, `a replace with the current etag answered ${fresh}`);
  const { resource: latest } = await container.item("p1", "a").read();
  const unchanged = await statusOf(
    container
      .item("p1", "a")
      .read({ accessCondition: { type: "IfNoneMatch", condition: latest._etag } }),
  );
  check(unchanged === 304, `a read if none match the current etag answered ${unchanged}`);
  results.etag = "ok";
}

// the Exclude indexing directive, as the SDK's IndexManagement sample uses it: the document is
// stored and read by id, and a query that an index serves does not find it
{
  await container.items.create({ id: "unindexed", pk: "p9", foo: "bar" }, { indexingDirective: "exclude" });
  await container.items.create({ id: "indexed", pk: "p9", foo: "bar" }, { indexingDirective: "include" });
  const query = { query: "SELECT * FROM root r WHERE r.foo=@foo", parameters: [{ name: "@foo", value: "bar" }] };
  const { resources } = await container.items.query(query).fetchAll();
  check(
    JSON.stringify(resources.map((r) => r.id)) === '["indexed"]',
    `a query on /foo found ${JSON.stringify(resources.map((r) => r.id))}, not only the indexed one`,
  );
  const { statusCode } = await container.item("unindexed", "p9").read();
  check(statusCode === 200, `the unindexed document read by id answered ${statusCode}`);
  results.indexingDirective = "ok";
}

// a spatial index's boundingBox: required on a Geometry container, refused on a Geography one
{
  const spatial = (id, type, boundingBox) => ({
    id,
    partitionKey: { paths: ["/id"] },
    indexingPolicy: { spatialIndexes: [{ path: "/location/?", types: ["Point"], boundingBox }] },
    geospatialConfig: { type },
  });
  const box = { xmin: 0, ymin: 0, xmax: 100, ymax: 100 };
  const { resource: made } = await database.containers.createIfNotExists(
    spatial("geom-box", "Geometry", box),
  );
  check(made.indexingPolicy.spatialIndexes[0].boundingBox.xmax === 100, "the box was not kept");
  for (const [id, type, bbox] of [
    ["geom-nobox", "Geometry", undefined],
    ["geo-box", "Geography", box],
  ]) {
    let refused = null;
    try {
      await database.containers.create(spatial(id, type, bbox));
    } catch (e) {
      refused = e;
    }
    check(
      refused?.code === 400 &&
        refused.message.includes("boundingBox") &&
        refused.message.includes(type),
      `${type} ${bbox ? "with" : "without"} a boundingBox answered ${refused?.code} ${refused?.message}`,
    );
  }
  results.spatialBoundingBox = "ok";
}

// a full last page still has a continuation, and the page after it is empty, as on the service
// (the SDK's query.spec: 4 items in pages of 2 give 3 pages, 3 items give 2)
{
  const { container: few } = await database.containers.createIfNotExists({
    id: "fullpages",
    partitionKey: { paths: ["/a", "/b"], kind: "MultiHash", version: 2 },
  });
  const pageSizes = async () => {
    const it = few.items.query("SELECT * FROM c", { maxItemCount: 2 });
    const sizes = [];
    while (it.hasMoreResults()) {
      sizes.push((await it.fetchNext()).resources.length);
    }
    return JSON.stringify(sizes);
  };
  await few.items.create({ id: "doc1", a: "a", b: 1 });
  await few.items.create({ id: "doc2", a: "a", b: 1 });
  await few.items.create({ id: "doc3", a: "a", b: 1 });
  const three = await pageSizes();
  check(three === "[2,1]", `3 items in pages of 2 came as ${three}`);
  await few.items.create({ id: "doc4", a: "b", b: 2 });
  const four = await pageSizes();
  check(four === "[2,2,0]", `4 items in pages of 2 came as ${four}`);
  results.fullPages = "ok";
}

// a transactional batch: all of it, or (one operation failing) none of it
{
  const committed = await container.items.batch(
    [
      { operationType: "Create", resourceBody: { id: "b1", pk: "b", n: 1 } },
      { operationType: "Create", resourceBody: { id: "b2", pk: "b", n: 2 } },
      { operationType: "Patch", id: "b1", resourceBody: { operations: [{ op: "incr", path: "/n", value: 10 }] } },
      { operationType: "Read", id: "b2" },
    ],
    "b",
  );
  const codes = committed.result.map((r) => r.statusCode);
  check(JSON.stringify(codes) === "[201,201,200,200]", `the batch answered ${codes}`);
  const rolledBack = await container.items.batch(
    [
      { operationType: "Create", resourceBody: { id: "b3", pk: "b" } },
      { operationType: "Create", resourceBody: { id: "b1", pk: "b" } }, // exists: 409
    ],
    "b",
  );
  const failed = rolledBack.result.map((r) => r.statusCode);
  check(
    JSON.stringify(failed) === "[424,409]",
    `the failing batch answered ${failed}, not [424,409]`,
  );
  // an operation naming another key than the batch's: the service refuses the whole batch
  let mismatch = null;
  try {
    await container.items.batch(
      [
        { operationType: "Create", resourceBody: { id: "b4", pk: "b" } },
        { operationType: "Create", resourceBody: { id: "b5", pk: "a" }, partitionKey: "a" },
      ],
      "b",
    );
  } catch (e) {
    mismatch = e;
  }
  // (the SDK rethrows it as "Batch request error: ..." without the status)
  check(
    mismatch !== null &&
      String(mismatch.message).includes(
        "One or more operations within the batch request have a different partition key value than the request.",
      ),
    `a batch with another key answered ${mismatch?.code} ${mismatch?.message}`,
  );
  check((await statusOf(container.item("b4", "b").read())) === 404, "the refused batch created b4");
  const b3 = await statusOf(container.item("b3", "b").read());
  check(b3 === 404, `the failed batch's first create is there (${b3})`);
  const { resource: b1 } = await container.item("b1", "b").read();
  check(b1.n === 11, `the committed batch's patch gave n=${b1.n}`);
  results.batch = "ok";
}

// bulk across partitions: creates, then upserts, reads and deletes of them
{
  const creates = [];
  for (let i = 0; i < 200; i++) {
    creates.push({
      operationType: "Create",
      partitionKey: `key${i % 17}`, // the SDK's bulk asks for it with every operation
      resourceBody: { id: `k${i}`, pk: `key${i % 17}`, n: i },
    });
  }
  const created = await container.items.executeBulkOperations(creates);
  const bad = created.filter((r) => r.error || r.response.statusCode !== 201);
  check(bad.length === 0, `bulk creates: ${bad.length} failed, e.g. ${JSON.stringify(bad[0])}`);
  const mixed = [];
  for (let i = 0; i < 200; i++) {
    const pk = `key${i % 17}`;
    if (i % 3 === 0) {
      mixed.push({ operationType: "Upsert", partitionKey: pk, resourceBody: { id: `k${i}`, pk, n: -i } });
    } else if (i % 3 === 1) {
      mixed.push({ operationType: "Read", id: `k${i}`, partitionKey: pk });
    } else {
      mixed.push({ operationType: "Delete", id: `k${i}`, partitionKey: pk });
    }
  }
  const done = await container.items.executeBulkOperations(mixed);
  const want = (i) => [200, 200, 204][i % 3];
  const wrong = done.filter((r, i) => r.error || r.response.statusCode !== want(i));
  check(wrong.length === 0, `bulk mix: ${wrong.length} wrong, e.g. ${JSON.stringify(wrong[0])}`);
  const { resources: left } = await container.items
    .query("SELECT VALUE COUNT(1) FROM c WHERE STARTSWITH(c.id, 'k')")
    .fetchAll();
  check(left[0] === 134, `after the deletes ${left[0]} bulk documents are left, not 134`);
  results.bulk = "ok";
}

// a hierarchical partition key: point operations by the full key, a query by its prefix
{
  const { container: h } = await database.containers.createIfNotExists({
    id: "hier",
    partitionKey: { paths: ["/tenant", "/user"], kind: PartitionKeyKind.MultiHash, version: 2 },
    throughput: 12000,
  });
  for (let t = 0; t < 3; t++) {
    for (let u = 0; u < 4; u++) {
      await h.items.create({ id: `h${t}${u}`, tenant: `t${t}`, user: `u${u}`, n: t * 10 + u });
    }
  }
  const { resource } = await h.item("h12", ["t1", "u2"]).read();
  check(resource?.n === 12, `read by the full key gave ${JSON.stringify(resource)}`);
  const { resources: ofTenant } = await h.items
    .query("SELECT VALUE c.n FROM c", { partitionKey: ["t1"] })
    .fetchAll();
  check(
    JSON.stringify([...ofTenant].sort((a, b) => a - b)) === "[10,11,12,13]",
    `a query by the prefix ["t1"] gave ${JSON.stringify(ofTenant)}`,
  );
  await h.item("h12", ["t1", "u2"]).delete();
  const after = await statusOf(h.item("h12", ["t1", "u2"]).read());
  check(after === 404, `after its delete the document answered ${after}`);
  results.hierarchical = "ok";
}

// all versions and deletes: a create, a replace and a delete, each with its operation type
{
  const iterator = container.items.getChangeFeedIterator({
    changeFeedStartFrom: ChangeFeedStartFrom.Now(),
    changeFeedMode: ChangeFeedMode.AllVersionsAndDeletes,
  });
  const first = await iterator.readNext(); // from now: nothing yet, but a continuation
  check(first.statusCode === 304, `the feed from now answered ${first.statusCode}`);
  await container.items.create({ id: "v1", pk: "v", n: 1 });
  await container.item("v1", "v").replace({ id: "v1", pk: "v", n: 2 });
  await container.item("v1", "v").delete();
  const seen = [];
  const records = [];
  for (let i = 0; i < 20 && seen.length < 3; i++) {
    const page = await iterator.readNext();
    if (page.statusCode === 304) continue;
    seen.push(...page.result.map((r) => r.metadata?.operationType));
    records.push(...page.result);
  }
  check(
    JSON.stringify(seen) === '["create","replace","delete"]',
    `the all-versions feed gave ${JSON.stringify(seen)}`,
  );
  // as the service by default: no previous image; a delete names its document in its metadata
  const [, replaced, deleted] = records;
  check(
    replaced.previous === undefined && deleted.previous === undefined,
    `a previous image came: ${JSON.stringify(records)}`,
  );
  check(
    deleted.metadata.id === "v1" && deleted.metadata.partitionKey?.pk === "v",
    `the delete's metadata: ${JSON.stringify(deleted.metadata)}`,
  );
  results.allVersions = seen.length;
}

console.log(JSON.stringify(results));
