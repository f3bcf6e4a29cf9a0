// The JavaScript SDK while its container splits under it. A raise of the throughput above
// P x 10,000 RU/s splits partitions at once here (the service takes hours), so the script splits
// its own container: under a paged query, between a query's page and its resumption from the
// continuation token, under a change feed, and under a cross-partition ORDER BY. The first three
// must give every document once after the split; the last meets a fault of the SDK (below).
// Usage: node split-test.mjs <endpoint> <key>. Prints one JSON line of results; exits 1 with the
// reason when a check fails.
import { ChangeFeedStartFrom } from "@azure/cosmos";
import { client, check, goneRangeAlerted } from "./lab.mjs";

const DOCS = 200;
const results = {};
const { database } = await client.databases.createIfNotExists({ id: "jssplit" });
const { container } = await database.containers.createIfNotExists({
  id: "c",
  partitionKey: { paths: ["/pk"] },
  throughput: 6000, // one physical partition (a new container gets one per 6,000 RU/s)
});
const docs = [];
for (let i = 0; i < DOCS; i++) {
  // n is distinct, so ORDER BY c.n has one right order
  const d = { id: `d${String(i).padStart(3, "0")}`, pk: `p${i % 23}`, n: (i * 37) % DOCS };
  docs.push(d);
  await container.items.create(d);
}
const allIds = docs.map((d) => d.id).sort();

async function rangeIds() {
  const { resources } = await container.readPartitionKeyRanges().fetchAll();
  return resources.map((r) => r.id);
}

async function physicalPartitions() {
  return (await rangeIds()).length;
}

/** Raises the throughput to ru; the server splits until it has ceil(ru / 10,000) partitions. */
async function raiseTo(ru) {
  const { resource: offer } = await container.readOffer();
  offer.content.offerThroughput = ru;
  await client.offer(offer.id).replace(offer);
  const partitions = await physicalPartitions();
  check(partitions === ru / 10000, `${ru} RU/s gave ${partitions} partitions`);
}

function sameIds(seen, what) {
  const sorted = [...seen].sort();
  check(
    new Set(seen).size === seen.length,
    `${what}: ${seen.length - new Set(seen).size} documents came twice`,
  );
  check(
    JSON.stringify(sorted) === JSON.stringify(allIds),
    `${what}: ${seen.length} documents, not the ${allIds.length} stored`,
  );
}

// 1. a paged query, its one partition split in two after its second page
{
  const iterator = container.items.query("SELECT c.id FROM c", { maxItemCount: 25 });
  const seen = [];
  let pages = 0;
  while (iterator.hasMoreResults()) {
    const { resources } = await iterator.fetchNext();
    seen.push(...(resources ?? []).map((r) => r.id));
    if (++pages === 2) await raiseTo(20000);
  }
  sameIds(seen, "a paged query across a split");
  results.query = seen.length;
}

// 2. a continuation token taken before a split (2 partitions into 4), given to a new query
{
  const text = "SELECT c.id FROM c";
  const first = await container.items.query(text, { maxItemCount: 25 }).fetchNext();
  const seen = first.resources.map((r) => r.id);
  check(first.continuationToken, "the first page had no continuation token");
  await raiseTo(40000);
  const iterator = container.items.query(text, {
    maxItemCount: 25,
    continuationToken: first.continuationToken,
  });
  while (iterator.hasMoreResults()) {
    const { resources } = await iterator.fetchNext();
    seen.push(...(resources ?? []).map((r) => r.id));
  }
  sameIds(seen, "a query resumed from a token taken before a split");
  results.resumed = seen.length;
}

// 3. the change feed from the beginning, 4 partitions split into 8 after its first page, 100 more
//    documents written after the split
{
  const iterator = container.items.getChangeFeedIterator({
    changeFeedStartFrom: ChangeFeedStartFrom.Beginning(),
    maxItemCount: 30,
  });
  const seen = [];
  async function drain() {
    for (;;) {
      const response = await iterator.readNext();
      if (response.statusCode === 304) return;
      seen.push(...response.result.map((d) => d.id));
    }
  }
  const firstPage = await iterator.readNext();
  seen.push(...firstPage.result.map((d) => d.id));
  await raiseTo(80000);
  for (let i = DOCS; i < DOCS + 100; i++) {
    const d = { id: `d${String(i).padStart(3, "0")}`, pk: `p${i % 23}`, n: i };
    docs.push(d);
    allIds.push(d.id);
    await container.items.create(d);
  }
  allIds.sort();
  await drain();
  sameIds(seen, "the change feed across a split");
  results.changeFeed = seen.length;
}

// 4. a cross-partition ORDER BY, 8 partitions split into 16 after its second page. A known fault
//    of the SDK (4.5.1 to 4.10.1, read in its sources): a range's producer whose next fetch meets
//    the 410/1002 keeps the error in its buffer (DocumentProducer.bufferMore) and, with nothing
//    else buffered, is put back to fetch again, so it asks the gone range forever: 4.5.1's
//    fetchNext never returns, 4.9.3's returns empty pages with hasMoreResults() true. The service
//    answers a gone range so too, so its clients meet the same (docs/engine.md).
//    Pinned here: "stuck" until an SDK recovers ("ok", when this test must be updated).
{
  const iterator = container.items.query("SELECT c.id, c.n FROM c ORDER BY c.n", {
    maxItemCount: 25,
  });
  const rows = [];
  let splitDone;
  const split = new Promise((resolve) => (splitDone = resolve));
  const pages = async () => {
    let page = 0;
    while (iterator.hasMoreResults()) {
      const { resources } = await iterator.fetchNext();
      rows.push(...(resources ?? []));
      if (++page === 2) {
        const before = await rangeIds();
        await raiseTo(160000);
        const after = await rangeIds();
        splitDone(before.filter((id) => !after.includes(id)));
      }
    }
    return "ok";
  };
  const running = pages();
  const replaced = await Promise.race([split, running]);
  // from the split on, 3 s for the rest of the query
  const stuck = new Promise((resolve) => setTimeout(() => resolve("stuck"), 3000));
  results.orderByAcrossSplit = await Promise.race([running, stuck]);
  // the lab's alert rule for a client that keeps asking for a gone range names one the split
  // replaced (the Java test starts the lab with it firing at once, not 30 s after the split)
  results.goneRangeAlert =
    results.orderByAcrossSplit === "stuck" && (await goneRangeAlerted(replaced, 10));
  if (results.orderByAcrossSplit === "ok") {
    check(
      rows.length === allIds.length && rows.every((r, i) => i === 0 || rows[i - 1].n <= r.n),
      `ORDER BY across a split gave ${JSON.stringify(rows.map((r) => r.n))}`,
    );
  }
}

results.partitions = await physicalPartitions();
console.log(JSON.stringify(results));
// the stuck query's fetches would run on: end the process
process.exit(0);
