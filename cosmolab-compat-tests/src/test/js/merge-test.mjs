// The JavaScript SDK while its container's partitions merge under it (the checks:
// layout-changes.mjs). The service merges on an operator's command (az cosmosdb sql container
// merge); the lab merges two adjacent ranges on a POST to its explorer API, which the script sends
// itself, after splitting its container into 8. A request for a merged range gets the 410/1002 a
// split gives, and the SDK (4.10.1) must then read the part of the merged range that was the gone
// one, by EPK (x-ms-start-epk, x-ms-end-epk), so every document comes once.
// Usage: node merge-test.mjs <endpoint> <key>. Prints one JSON line of results; exits 1 with the
// reason when a check fails.
import { client, check, explorer } from "./lab.mjs";
import { acrossLayoutChanges, seededContainer } from "./layout-changes.mjs";

const container = await seededContainer("jsmerge");
{
  const { resource: offer } = await container.readOffer();
  offer.content.offerThroughput = 80000; // 8 partitions
  await client.offer(offer.id).replace(offer);
}

/** The container's ranges in key order. */
async function ranges() {
  const { resources } = await container.readPartitionKeyRanges().fetchAll();
  return resources.sort((a, b) => (a.minInclusive < b.minInclusive ? -1 : 1));
}

/** The n-th check's merge: of two adjacent ranges, the first two but for the change feed's. */
async function merge(n) {
  const at = n === 2 ? 1 : 0;
  const before = await ranges();
  const { status } = await explorer("dbs/jsmerge/colls/c/partitions/merge", {
    left: before[at].id,
    right: before[at + 1].id,
  });
  check(status === 200, `merging ranges ${before[at].id} and ${before[at + 1].id}: ${status}`);
  const after = await ranges();
  check(after.length === before.length - 1, `a merge left ${after.length} ranges`);
  return [before[at].id, before[at + 1].id];
}

const results = await acrossLayoutChanges(container, "Merge", merge, 10);
results.partitions = (await ranges()).length;
console.log(JSON.stringify(results));
// a stuck query's fetches would run on: end the process
process.exit(0);
