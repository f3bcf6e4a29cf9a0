// The JavaScript SDK while its container splits under it (the checks: layout-changes.mjs). A raise
// of the throughput above P x 10,000 RU/s splits partitions at once here (the service takes
// hours), so the script splits its own container, doubling its partitions at each check: 1 to 2,
// 2 to 4, 4 to 8 and 8 to 16.
// Usage: node split-test.mjs <endpoint> <key>. Prints one JSON line of results; exits 1 with the
// reason when a check fails.
import { client, check } from "./lab.mjs";
import { acrossLayoutChanges, seededContainer } from "./layout-changes.mjs";

const container = await seededContainer("jssplit");

async function rangeIds() {
  const { resources } = await container.readPartitionKeyRanges().fetchAll();
  return resources.map((r) => r.id);
}

/** Doubles the partitions: the server splits until it has ceil(RU/s / 10,000). */
async function split() {
  const before = await rangeIds();
  const ru = before.length * 2 * 10000;
  const { resource: offer } = await container.readOffer();
  offer.content.offerThroughput = ru;
  await client.offer(offer.id).replace(offer);
  const after = await rangeIds();
  check(after.length === ru / 10000, `${ru} RU/s gave ${after.length} partitions`);
  return before.filter((id) => !after.includes(id));
}

const results = await acrossLayoutChanges(container, "Split", split, 25);
results.partitions = (await rangeIds()).length;
console.log(JSON.stringify(results));
// the stuck query's fetches would run on: end the process
process.exit(0);
