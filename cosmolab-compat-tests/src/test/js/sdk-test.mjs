// The official JavaScript SDK against a cosmolab server: CRUD, a cross-partition ORDER BY query
// with paging, and the change feed. Usage: node sdk-test.mjs <endpoint> <key>
// Prints one JSON line of results; exits 1 with the reason when a check fails.
import { ChangeFeedStartFrom } from "@azure/cosmos";
import { client, check } from "./lab.mjs";

const results = {};
const { database } = await client.databases.createIfNotExists({ id: "js" });
// 48,000 RU/s: eight physical partitions, so the query below really fans out.
const { container } = await database.containers.createIfNotExists({
  id: "orders",
  partitionKey: { paths: ["/pk"] },
  throughput: 48000,
});
const ranges = await container.readPartitionKeyRanges().fetchAll();
results.partitions = ranges.resources.length;
check(results.partitions === 8, `expected 8 partition key ranges, got ${results.partitions}`);

// CRUD
for (let i = 0; i < 100; i++) {
  const r = await container.items.create({ id: `o${i}`, pk: `p${i % 10}`, n: (i * 37) % 100 });
  check(r.statusCode === 201, `create o${i} answered ${r.statusCode}`);
}
const read = await container.item("o1", "p1").read();
check(read.statusCode === 200 && read.resource.n === 37, "read o1");
const replaced = await container.item("o1", "p1").replace({ ...read.resource, n: 1000 });
check(replaced.resource.n === 1000, "replace o1");
// item.patch([...]) sends the bare array of operations; every op type, then the object form
const patched = await container.item("o1", "p1").patch([
  { op: "add", path: "/tag", value: "x" },
  { op: "set", path: "/s", value: "one" },
  { op: "replace", path: "/s", value: "two" },
  { op: "incr", path: "/count", value: 3 },
  { op: "move", from: "/tag", path: "/moved" },
  { op: "remove", path: "/moved" },
]);
check(patched.statusCode === 200, `patch with an array body answered ${patched.statusCode}`);
check(patched.resource.s === "two" && patched.resource.count === 3, "patch applied every op");
check(patched.resource.moved === undefined && patched.resource.n === 1000, "patch left the rest");
const conditional = await container.item("o1", "p1").patch({
  condition: "FROM c WHERE c.count = 3",
  operations: [{ op: "incr", path: "/count", value: 1 }],
});
check(conditional.resource.count === 4, "patch with a condition in the object form");
// bulk with continueOnError: false stops at the first failure; the rest answer 424
const bulkOps = [
  { operationType: "Create", partitionKey: "pb", resourceBody: { id: "b1", pk: "pb" } },
  { operationType: "Create", partitionKey: "pb", resourceBody: { id: "b1", pk: "pb" } },
  { operationType: "Create", partitionKey: "pb", resourceBody: { id: "b2", pk: "pb" } },
];
const stopped = await container.items.bulk(bulkOps, { continueOnError: false });
const codes = stopped.map((r) => r.statusCode).join(",");
check(codes === "201,409,424", `bulk without continuing on error answered ${codes}`);
const b2 = await container.item("b2", "pb").read();
check(b2.statusCode === 404, "the operation after the failure did not run");
await container.item("b1", "pb").delete();
const upserted = await container.items.upsert({ id: "o100", pk: "p0", n: 5 });
check(upserted.statusCode === 201, `upsert of a new item answered ${upserted.statusCode}`);
const deleted = await container.item("o2", "p2").delete();
check(deleted.statusCode === 204, `delete answered ${deleted.statusCode}`);
const gone = await container.item("o2", "p2").read();
check(gone.statusCode === 404, `read after delete answered ${gone.statusCode}`);
results.crud = "ok";

// Cross-partition ORDER BY, seven per page
const query = container.items.query("SELECT c.id, c.n FROM c ORDER BY c.n DESC", {
  maxItemCount: 7,
});
const ordered = [];
let pages = 0;
while (query.hasMoreResults()) {
  const { resources } = await query.fetchNext();
  if (resources.length > 0) {
    pages++;
    ordered.push(...resources);
  }
}
results.queryRows = ordered.length;
results.queryPages = pages;
check(ordered.length === 100, `ORDER BY query returned ${ordered.length} rows, expected 100`);
for (let i = 1; i < ordered.length; i++) {
  check(ordered[i - 1].n >= ordered[i].n, `rows ${i - 1} and ${i} are out of order`);
}
check(ordered[0].n === 1000, "the replaced item sorts first");
check(pages > 1, "the query was paged");

// Plans the SDK merges itself (forceQueryPlan: the plan path, as against the hosted service)
async function planned(text) {
  const { resources } = await container.items
    .query(text, { forceQueryPlan: true, maxItemCount: 5 })
    .fetchAll();
  return resources;
}
const counted = await planned("SELECT VALUE COUNT(1) FROM c ORDER BY c.n");
check(JSON.stringify(counted) === "[100]", `COUNT beside ORDER BY gave ${JSON.stringify(counted)}`);
const keys = await planned("SELECT DISTINCT VALUE c.pk FROM c ORDER BY c.pk OFFSET 1 LIMIT 3");
check(JSON.stringify(keys) === '["p1","p2","p3"]', `DISTINCT ORDER BY OFFSET gave ${JSON.stringify(keys)}`);
const perKey = await planned("SELECT VALUE COUNT(1) FROM c GROUP BY c.pk");
check(perKey.length === 10 && perKey.reduce((a, b) => a + b, 0) === 100,
  `GROUP BY with SELECT VALUE gave ${JSON.stringify(perKey)}`);
const none = await planned("SELECT VALUE SUM(c.missing) FROM c");
check(JSON.stringify(none) === "[0]", `SUM over no values gave ${JSON.stringify(none)}`);
results.plans = "ok";

// Index metrics: the SDK asks for the second format (x-ms-cosmos-populateindexmetrics-V2) and reads
// the header as percent-encoded JSON (decodeURIComponent, JSON.parse), "{}" when it is absent
const withMetrics = await container.items
  .query("SELECT c.id FROM c WHERE c.n > 10", { populateIndexMetrics: true })
  .fetchAll();
const indexMetrics = JSON.parse(withMetrics.indexMetrics);
const utilized = (indexMetrics.Utilized?.SingleIndexes ?? []).map((i) => i.IndexSpec).sort();
check(JSON.stringify(utilized) === '["/n/?"]', `index metrics gave ${withMetrics.indexMetrics}`);
check(Array.isArray(indexMetrics.Potential?.CompositeIndexes), `no potential indexes in ${withMetrics.indexMetrics}`);
results.indexMetrics = "ok";

// The official samples sort families by their first child's grade: an array-index ORDER BY path
const { container: families } = await database.containers.createIfNotExists({
  id: "families",
  partitionKey: { paths: ["/lastName"] },
  throughput: 48000,
});
const grades = { Andersen: [5, 1], Wakefield: [8], Miller: [2], Smith: [7, 3] };
for (const [lastName, childGrades] of Object.entries(grades)) {
  await families.items.create({
    id: lastName,
    lastName,
    Children: childGrades.map((Grade) => ({ Grade })),
  });
}
for (const forceQueryPlan of [false, true]) {
  const { resources: byGrade } = await families.items
    .query("SELECT f.id FROM f ORDER BY f.Children[0].Grade", { forceQueryPlan, maxItemCount: 2 })
    .fetchAll();
  const order = byGrade.map((f) => f.id).join(",");
  check(order === "Miller,Andersen,Smith,Wakefield", `ORDER BY Children[0].Grade gave ${order}`);
}
results.arrayIndexOrderBy = "ok";

// Change feed from the beginning, then only what is new
const feed = container.items.getChangeFeedIterator({
  changeFeedStartFrom: ChangeFeedStartFrom.Beginning(),
  maxItemCount: 20,
});
const seen = new Set();
for (let round = 0; round < 200 && seen.size < 100; round++) {
  const response = await feed.readNext();
  for (const item of response.result) {
    seen.add(item.id);
  }
}
results.changeFeedFirst = seen.size;
check(seen.size === 100, `change feed returned ${seen.size} distinct items, expected 100`);
for (let i = 200; i < 205; i++) {
  await container.items.create({ id: `o${i}`, pk: `p${i % 10}`, n: 1 });
}
const fresh = new Set();
for (let round = 0; round < 100 && fresh.size < 5; round++) {
  const response = await feed.readNext();
  for (const item of response.result) {
    fresh.add(item.id);
  }
}
results.changeFeedNew = fresh.size;
check(fresh.size === 5, `change feed continued with ${fresh.size} new items, expected 5`);

// Throughput buckets: configured in the container's offer (cosmolab's stand-in for Resource
// Manager), echoed, and named per request with the SDK's throughputBucket option; an id outside
// 1-5 is refused by the server by name.
const { resource: offer } = await container.readOffer();
const { resource: withBuckets } = await client.offer(offer.id).replace({
  ...offer,
  content: { ...offer.content, throughputBuckets: [{ id: 2, maxThroughputPercentage: 30 }] },
});
check(
  withBuckets.content.throughputBuckets?.[0]?.maxThroughputPercentage === 30,
  `the offer echoes its buckets: ${JSON.stringify(withBuckets.content)}`,
);
const inBucket = await container.item("o1", "p1").read({ throughputBucket: 2 });
check(inBucket.statusCode === 200, `a read in bucket 2 answered ${inBucket.statusCode}`);
try {
  await container.item("o1", "p1").read({ throughputBucket: 9 });
  check(false, "a read in bucket 9 was not refused");
} catch (e) {
  check(
    e.code === 400 && String(e.message).includes("x-ms-cosmos-throughput-bucket"),
    `a read in bucket 9 answered ${e.code}: ${e.message}`,
  );
}
results.throughputBuckets = "ok";

// Vector, full-text and hybrid search on 4 physical partitions: the SDK's non-streaming ORDER BY
// and its hybrid-search pipeline (global statistics, component queries, RRF, skip and take).
{
  const { container: search } = await database.containers.createIfNotExists({
    id: "search",
    partitionKey: { paths: ["/pk"] },
    throughput: 24000,
    vectorEmbeddingPolicy: {
      vectorEmbeddings: [{ path: "/v", dataType: "float32", distanceFunction: "cosine", dimensions: 2 }],
    },
    fullTextPolicy: { defaultLanguage: "en-US", fullTextPaths: [{ path: "/text", language: "en-US" }] },
    indexingPolicy: { vectorIndexes: [{ path: "/v", type: "flat" }], fullTextIndexes: [{ path: "/text" }] },
  });
  const docs = [];
  for (let i = 0; i < 30; i++) {
    // "lantern" i % 5 times among 6 + i / 5 other words: no two documents score the same
    const text = "lanterns ".repeat(i % 5) + "stone ".repeat(6 + Math.floor(i / 5));
    docs.push({ id: `s${i}`, pk: `p${i % 7}`, text: text.trim(), v: [Math.cos(i), Math.sin(i)] });
  }
  for (const d of docs) {
    await search.items.create(d);
  }
  const ids = async (query) =>
    (await search.items.query(query, { maxItemCount: 4 }).fetchAll()).resources.map((r) => r.id);
  const nearest = docs
    .map((d) => ({ id: d.id, score: d.v[0] }))
    .sort((a, b) => b.score - a.score)
    .slice(0, 5)
    .map((d) => d.id);
  const vector = await ids("SELECT TOP 5 c.id FROM c ORDER BY VectorDistance(c.v, [1, 0])");
  check(JSON.stringify(vector) === JSON.stringify(nearest), `vector search gave ${vector}, not ${nearest}`);
  const ranked = await ids("SELECT TOP 3 c.id FROM c ORDER BY RANK FullTextScore(c.text, 'lantern')");
  check(ranked.length === 3 && ranked[0] === "s4", `full-text ranking gave ${ranked}`);
  const page = await ids(
    "SELECT c.id FROM c ORDER BY RANK FullTextScore(c.text, 'lantern') OFFSET 1 LIMIT 2",
  );
  check(JSON.stringify(page) === JSON.stringify(ranked.slice(1)), `OFFSET 1 LIMIT 2 gave ${page}`);
  const hybrid = await ids(
    "SELECT TOP 3 c.id FROM c ORDER BY RANK RRF(FullTextScore(c.text, 'lantern'), VectorDistance(c.v, [1, 0]))",
  );
  check(hybrid.length === 3 && new Set(hybrid).size === 3, `hybrid search gave ${hybrid}`);
  const filtered = await ids("SELECT c.id FROM c WHERE FullTextContains(c.text, 'lantern') AND c.pk = 'p0'");
  check(filtered.length === docs.filter((d) => d.pk === "p0" && d.text.includes("lantern")).length, `FullTextContains gave ${filtered}`);
}
results.search = "ok";

console.log(JSON.stringify(results));
