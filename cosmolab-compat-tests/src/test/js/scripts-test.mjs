// The official JavaScript SDK running server-side scripts on cosmolab: a bulk-import stored
// procedure called again until done (the continuation pattern), one that throws after writing
// (nothing kept), a pre-trigger that stamps and one that rejects, a post-trigger keeping a metadata
// document, and a UDF in WHERE and SELECT. Usage: node scripts-test.mjs <endpoint> <key>
import { client, check } from "./lab.mjs";

const results = {};
const { database } = await client.databases.createIfNotExists({ id: "jsscripts" });
const { container } = await database.containers.createIfNotExists({
  id: "s",
  partitionKey: { paths: ["/pk"] },
});

// bulk import, called again with what is left until everything is written
await container.scripts.storedProcedures.create({
  id: "bulkImport",
  body: `function bulkImport(docs) {
    var collection = getContext().getCollection();
    var count = 0;
    if (!docs.length) { getContext().getResponse().setBody(0); return; }
    tryCreate(docs[count], callback);
    function tryCreate(doc, cb) {
      if (!collection.createDocument(collection.getSelfLink(), doc, cb)) {
        getContext().getResponse().setBody(count);
      }
    }
    function callback(err) {
      if (err) throw err;
      count++;
      if (count >= docs.length) getContext().getResponse().setBody(count);
      else tryCreate(docs[count], callback);
    }
  }`,
});
const docs = [];
for (let i = 0; i < 60; i++) docs.push({ id: `b${i}`, pk: "bulk", n: i });
let done = 0;
let calls = 0;
while (done < docs.length && calls < 20) {
  const { resource } = await container.scripts
    .storedProcedure("bulkImport")
    .execute("bulk", [docs.slice(done)]);
  done += resource;
  calls++;
}
results.bulkImported = done;
results.bulkCalls = calls;
check(done === 60, `bulk import wrote ${done} of 60`);

// a procedure that throws after writing: nothing is kept
await container.scripts.storedProcedures.create({
  id: "halfway",
  body: `function halfway() {
    var c = getContext().getCollection();
    c.createDocument(c.getSelfLink(), { id: 'h1', pk: 'bulk' }, function (err) {
      if (err) throw err;
      throw new Error('stopped halfway');
    });
  }`,
});
let threw = null;
try {
  await container.scripts.storedProcedure("halfway").execute("bulk", []);
} catch (e) {
  threw = e;
}
check(threw && threw.code === 400, `the throwing procedure answered ${threw && threw.code}`);
check(String(threw.message).includes("stopped halfway"), "the script's message is returned");
const h1 = await container.item("h1", "bulk").read();
check(h1.statusCode === 404, "the procedure's write was rolled back");
results.rolledBack = true;

// triggers
await container.scripts.triggers.create({
  id: "stamp",
  triggerType: "Pre",
  triggerOperation: "Create",
  body: `function () { var r = getContext().getRequest(); var d = r.getBody();
    d.stamped = 'yes'; r.setBody(d); }`,
});
await container.scripts.triggers.create({
  id: "reject",
  triggerType: "Pre",
  triggerOperation: "All",
  body: `function () { if (!getContext().getRequest().getBody().name)
    throw new Error('Document must include a name'); }`,
});
await container.scripts.triggers.create({
  id: "meta",
  triggerType: "Post",
  triggerOperation: "Create",
  body: `function () {
    var coll = getContext().getCollection();
    var created = getContext().getResponse().getBody();
    coll.queryDocuments(coll.getSelfLink(), "SELECT * FROM c WHERE c.id = '_meta'",
      function (err, found) {
        if (err) throw err;
        var meta = found.length ? found[0] : { id: '_meta', pk: created.pk, n: 0 };
        meta.n += 1;
        coll.upsertDocument(coll.getSelfLink(), meta);
      });
  }`,
});
const stamped = await container.items.create({ id: "t1", pk: "t" }, { preTriggerInclude: ["stamp"] });
check(stamped.resource.stamped === "yes", "the pre-trigger stamped the document");
let rejected = null;
try {
  await container.items.create({ id: "t2", pk: "t" }, { preTriggerInclude: ["reject"] });
} catch (e) {
  rejected = e;
}
check(rejected && rejected.code === 400, "the rejecting pre-trigger answered 400");
await container.items.create({ id: "t3", pk: "t" }, { postTriggerInclude: ["meta"] });
await container.items.create({ id: "t4", pk: "t" }, { postTriggerInclude: ["meta"] });
const meta = await container.item("_meta", "t").read();
check(meta.resource && meta.resource.n === 2, `the metadata document counts ${meta.resource && meta.resource.n}`);
results.triggers = "ok";

// a UDF in WHERE and SELECT
await container.scripts.userDefinedFunctions.create({
  id: "double",
  body: "function (x) { return 2 * x; }",
});
const { resources: udfRows } = await container.items
  .query("SELECT VALUE udf.double(c.n) FROM c WHERE udf.double(c.n) >= 110 ORDER BY c.n")
  .fetchAll();
results.udfRows = udfRows;
check(JSON.stringify(udfRows) === "[110,112,114,116,118]", `UDF rows ${JSON.stringify(udfRows)}`);

console.log(JSON.stringify(results));
