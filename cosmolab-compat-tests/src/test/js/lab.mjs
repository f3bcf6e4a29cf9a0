// What every JavaScript test here shares: the server named on its command line
// (node <test>.mjs <endpoint> <key>), for an https: endpoint an agent that accepts the lab's
// self-signed certificate (loopback only), a client with the account key, and check.
// An http: endpoint gets no agent: the SDK allows plain HTTP only with its own agents (its
// RequestHandler sets allowInsecureConnection only when it picks the agent), and refuses it with
// one of the application's ("Cannot connect to http://... while allowInsecureConnection is false").
import { CosmosClient } from "@azure/cosmos";
import http from "node:http";
import https from "node:https";

export const [endpoint, key] = process.argv.slice(2);
const secure = new URL(endpoint).protocol === "https:";
export const agent = secure ? new https.Agent({ rejectUnauthorized: false }) : undefined;
export const client = new CosmosClient({ endpoint, key, agent });

// No test runs this long: a hang fails here, with its reason, before the harness's limit.
setTimeout(() => {
  console.error("FAILED: still running after 240 s");
  process.exit(1);
}, 240_000).unref();

/** Ends the test with exit code 1, printing the reason, unless condition holds. */
export function check(condition, message) {
  if (!condition) {
    console.error("FAILED: " + message);
    process.exit(1);
  }
}

/** The status a request answered: its response's, or its error's code. */
export async function statusOf(promise) {
  try {
    const r = await promise;
    return r.statusCode ?? 200;
  } catch (e) {
    return e.code;
  }
}

/**
 * Calls the lab's explorer API (docs/observability.md): path is relative to /_explorer/api/, body
 * (an object) makes it a JSON POST. Resolves to { status, json }.
 */
export function explorer(path, body) {
  const url = new URL("_explorer/api/" + path, endpoint);
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request(
      url,
      body === undefined
        ? { method: "GET", agent }
        : { method: "POST", agent, headers: { "content-type": "application/json" } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => {
          let json = null;
          try {
            json = JSON.parse(text);
          } catch {
            // not JSON: the status says what went wrong
          }
          resolve({ status: response.statusCode, json });
        });
      },
    );
    request.on("error", reject);
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/**
 * Whether a gone-range-requests alert names one of the ranges rangeIds within the next seconds
 * (the server evaluates its rules once a second): polls the explorer's alerts.
 */
export async function goneRangeAlerted(rangeIds, seconds) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const { status, json } = await explorer("alerts");
    check(status === 200, `GET /_explorer/api/alerts answered ${status}`);
    const named = json.active
      .filter((a) => a.rule === "gone-range-requests")
      .map((a) => a.partitionKeyRangeId);
    if (named.some((id) => rangeIds.includes(id))) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
