// The JavaScript SDK against a cosmolab server whose query pages end early (serve
// --query-page-time, here as short as it goes): pages with few rows or none, each with a
// continuation, as the service's 5 s bound makes them. fetchAll and a fetchNext loop that follows
// hasMoreResults must still give every row once, in order where asked.
// Usage: node paging-test.mjs <endpoint> <key>. Prints one JSON line of results; exits 1 with the
// reason when a check fails.
import { client, check } from "./lab.mjs";

const DOCS = 60;
const results = {};
const { database } = await client.databases.createIfNotExists({ id: "jspaging" });
const { container } = await database.containers.createIfNotExists({
  id: "c",
  partitionKey: { paths: ["/pk"] },
  throughput: 18000, // 3 physical partitions
});
const docs = [];
for (let i = 0; i < DOCS; i++) {
  const d = { id: `d${String(i).padStart(3, "0")}`, pk: `p${i % 7}`, n: (i * 17) % 43 };
  docs.push(d);
  await container.items.create(d);
}

// a filter no index serves: most pages read one document and return nothing
const filter = "SELECT c.id FROM c WHERE c.n % 5 = 1";
const expected = docs.filter((d) => d.n % 5 === 1).map((d) => d.id).sort();
const { resources: all } = await container.items.query(filter).fetchAll();
check(
  JSON.stringify(all.map((r) => r.id).sort()) === JSON.stringify(expected),
  `fetchAll gave ${all.length} rows, not the ${expected.length} expected`,
);
results.fetchAll = all.length;

// fetchNext, following hasMoreResults whatever a page holds
const iterator = container.items.query(filter, { maxItemCount: 100 });
const seen = [];
let pages = 0;
let emptyPages = 0;
while (iterator.hasMoreResults()) {
  const { resources } = await iterator.fetchNext();
  const rows = resources ?? [];
  pages++;
  if (rows.length === 0) emptyPages++;
  seen.push(...rows.map((r) => r.id));
}
check(
  JSON.stringify(seen.sort()) === JSON.stringify(expected),
  `fetchNext gave ${seen.length} rows over ${pages} pages, not the ${expected.length} expected`,
);
results.fetchNext = seen.length;
results.fetchNextPages = pages;
results.emptyPages = emptyPages;

// an ORDER BY the index serves, across partitions
const { resources: ordered } = await container.items
  .query("SELECT c.id, c.n FROM c ORDER BY c.n DESC")
  .fetchAll();
const want = [...docs].sort((a, b) => b.n - a.n || 0).map((d) => d.n);
check(
  JSON.stringify(ordered.map((r) => r.n)) === JSON.stringify(want),
  `ORDER BY gave ${JSON.stringify(ordered.map((r) => r.n))}`,
);
results.orderBy = ordered.length;

// aggregates and groups: each page cut short returns those of the documents it read, and the SDK
// combines the partial pages into one answer
const { resources: count } = await container.items.query("SELECT VALUE COUNT(1) FROM c").fetchAll();
check(count.length === 1 && count[0] === DOCS, `COUNT gave ${JSON.stringify(count)}`);
results.count = count[0];
const { resources: sum } = await container.items.query("SELECT VALUE SUM(c.n) FROM c").fetchAll();
const wantSum = docs.reduce((s, d) => s + d.n, 0);
check(sum.length === 1 && sum[0] === wantSum, `SUM gave ${JSON.stringify(sum)}, not ${wantSum}`);
const { resources: groups } = await container.items
  .query("SELECT c.pk, COUNT(1) AS n FROM c GROUP BY c.pk")
  .fetchAll();
const wantGroups = {};
docs.forEach((d) => (wantGroups[d.pk] = (wantGroups[d.pk] ?? 0) + 1));
const gotGroups = {};
groups.forEach((g) => {
  check(!(g.pk in gotGroups), `GROUP BY returned ${g.pk} twice: ${JSON.stringify(groups)}`);
  gotGroups[g.pk] = g.n;
});
check(
  JSON.stringify(Object.entries(gotGroups).sort()) === JSON.stringify(Object.entries(wantGroups).sort()),
  `GROUP BY gave ${JSON.stringify(groups)}`,
);
results.groups = groups.length;

// DISTINCT: each page cut short is distinct within itself and a later page may repeat a value,
// as the service's; the SDK drops the repeats
const { resources: keys } = await container.items.query("SELECT DISTINCT VALUE c.pk FROM c").fetchAll();
const wantKeys = [...new Set(docs.map((d) => d.pk))].sort();
check(
  JSON.stringify([...keys].sort()) === JSON.stringify(wantKeys),
  `DISTINCT gave ${JSON.stringify(keys)}, not ${JSON.stringify(wantKeys)}`,
);
// in one partition key this SDK sends the query without a plan, so nothing drops the repeats: as
// against the service, whose DISTINCT is distinct within a page (azure-sdk-for-js#24442, "a
// limitation on the SDK"; azure-cosmos-js#307: with pages of one item "the client is responsible
// for doing all the DISTINCT"). Every value comes, some more than once.
const { resources: residues } = await container.items
  .query("SELECT DISTINCT VALUE c.n % 4 FROM c", { partitionKey: "p3" })
  .fetchAll();
const wantResidues = [...new Set(docs.filter((d) => d.pk === "p3").map((d) => d.n % 4))].sort();
check(
  JSON.stringify([...new Set(residues)].sort()) === JSON.stringify(wantResidues),
  `DISTINCT in one partition key gave ${JSON.stringify(residues)}, not ${JSON.stringify(wantResidues)}`,
);
results.distinct = keys.length;
results.distinctRepeatsInOneKey = residues.length - wantResidues.length;

// TOP and OFFSET ... LIMIT without ORDER BY page by position and count on: in one partition key
// (sent without a plan) the server's pages alone must give exactly the bounded rows, in order
const { resources: ofKey } = await container.items
  .query("SELECT VALUE c.id FROM c", { partitionKey: "p2" })
  .fetchAll();
const { resources: offsetInKey } = await container.items
  .query("SELECT VALUE c.id FROM c OFFSET 2 LIMIT 4", { partitionKey: "p2" })
  .fetchAll();
check(
  JSON.stringify(offsetInKey) === JSON.stringify(ofKey.slice(2, 6)),
  `OFFSET 2 LIMIT 4 in one key gave ${JSON.stringify(offsetInKey)}, not ${JSON.stringify(ofKey.slice(2, 6))}`,
);
const { resources: topInKey } = await container.items
  .query("SELECT TOP 3 VALUE c.id FROM c", { partitionKey: "p2" })
  .fetchAll();
check(
  JSON.stringify(topInKey) === JSON.stringify(ofKey.slice(0, 3)),
  `TOP 3 in one key gave ${JSON.stringify(topInKey)}`,
);
// across partitions the SDK's plan applies TOP and OFFSET to the merged rows
const { resources: top } = await container.items.query("SELECT TOP 25 VALUE c.id FROM c").fetchAll();
const ids = new Set(docs.map((d) => d.id));
check(
  top.length === 25 && new Set(top).size === 25 && top.every((id) => ids.has(id)),
  `TOP 25 across partitions gave ${JSON.stringify(top)}`,
);
const { resources: offset } = await container.items
  .query("SELECT VALUE c.id FROM c OFFSET 10 LIMIT 15")
  .fetchAll();
check(
  offset.length === 15 && new Set(offset).size === 15 && offset.every((id) => ids.has(id)),
  `OFFSET 10 LIMIT 15 across partitions gave ${JSON.stringify(offset)}`,
);
results.topInKey = topInKey.length;
results.offsetInKey = offsetInKey.length;
results.top = top.length;
results.offset = offset.length;

// as in Azure, the gateway leaves a pipeline query over several partitions to the SDK's plan
// (400/1004, or 400 for an aggregate without VALUE), and the SDK runs the plan: an aggregate
// without VALUE goes through its GROUP BY pipeline
const { resources: named } = await container.items.query("SELECT COUNT(1) AS n FROM c").fetchAll();
check(
  named.length === 1 && named[0].n === DOCS,
  `a cross-partition aggregate without VALUE gave ${JSON.stringify(named)}`,
);
results.withoutValue = named[0].n;

console.log(JSON.stringify(results));
