// cosmolab explorer: reads /_explorer/api/* and draws the account, the heat map (SVG), the
// partition map, the query explorer, the documents and the alerts. No library, no CDN: every
// value from the server goes into the page as text (textContent), never as HTML.
"use strict";

const API = "api/";
const SVG = "http://www.w3.org/2000/svg";
const state = { db: null, coll: null, window: [3600, 60], timer: null };

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) {
    if (c == null) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body)
  };
  const r = await fetch(API + path, init);
  const j = await r.json();
  if (!r.ok) throw new Error(serviceWords(j.message) || r.statusText);
  return j;
}

// An error's own words: the service's wrapper ('Message: {"Errors":[...]}\r\nActivityId: ...')
// is for SDKs; the page shows the errors inside it.
function serviceWords(message) {
  const m = /^Message: (\{.*\})\r?\nActivityId/s.exec(message || "");
  if (!m) return message;
  try {
    const errors = JSON.parse(m[1]).Errors;
    return Array.isArray(errors) && errors.length ? errors.join("; ") : message;
  } catch (e) {
    return message;
  }
}

function containerPath(db, coll) {
  return "dbs/" + encodeURIComponent(db) + "/colls/" + encodeURIComponent(coll) + "/";
}

function pct(x) { return (x * 100).toFixed(0) + " %"; }

function bytes(b) {
  const u = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (b >= 1024 && i < u.length - 1) { b /= 1024; i++; }
  return (i === 0 ? b.toFixed(0) : b.toFixed(1)) + " " + u[i];
}

// colour of a normalized RU value: pale green at 0, amber at 0.5, dark red at 1
function heat(v) {
  const stops = [[0, [232, 245, 233]], [0.5, [251, 192, 45]], [0.8, [230, 81, 0]], [1, [183, 28, 28]]];
  v = Math.max(0, Math.min(1, v));
  for (let i = 1; i < stops.length; i++) {
    if (v <= stops[i][0]) {
      const [a, ca] = stops[i - 1], [b, cb] = stops[i];
      const t = (v - a) / (b - a);
      const c = ca.map((x, k) => Math.round(x + (cb[k] - x) * t));
      return "rgb(" + c.join(",") + ")";
    }
  }
  return "rgb(183,28,28)";
}

function bar(v) {
  return el("span", { class: "bar", title: pct(v) },
    Object.assign(el("i"), { style: "width:" + Math.min(100, v * 100).toFixed(1) + "%;background:" + heat(v) }));
}

// ------------------------------------------------------------------ account

async function loadAccount() {
  const a = await api("account");
  document.getElementById("account-meta").textContent =
    "throttling " + a.throttling + " · scale " + a.scale + " · " + a.now +
    (a.metrics ? " · /metrics on" : " · metrics off");
  const box = document.getElementById("account");
  box.replaceChildren();
  if (a.databases.length === 0) box.append(el("p", { class: "muted" }, "No databases yet."));
  for (const d of a.databases) {
    box.append(el("div", { class: "db" }, d.id,
      d.sharedThroughput ? el("small", { class: "muted" }, "  shared " + d.sharedThroughput.ruPerSecond + " RU/s") : null));
    for (const c of d.containers) {
      const item = el("a", {
        class: "coll" + (state.db === d.id && state.coll === c.id ? " selected" : ""),
        "data-db": d.id, "data-coll": c.id,
        onclick: () => select(d.id, c.id)
      }, c.id, el("small", {}, c.physicalPartitions + " partitions · hottest " + pct(c.hottestNormalizedRu || 0)));
      box.append(item);
    }
  }
  if (!state.db && a.databases.length && a.databases[0].containers.length) {
    select(a.databases[0].id, a.databases[0].containers[0].id);
  }
}

function select(db, coll) {
  state.db = db;
  state.coll = coll;
  location.hash = "db=" + encodeURIComponent(db) + "&coll=" + encodeURIComponent(coll);
  document.querySelectorAll("nav .coll").forEach(n =>
    n.classList.toggle("selected", n.dataset.db === db && n.dataset.coll === coll));
  refreshContainer();
  loadDocuments(null);
}

// ------------------------------------------------------------------ container

async function refreshContainer() {
  if (!state.db) return;
  const base = containerPath(state.db, state.coll);
  const [p, h] = await Promise.all([
    api(base + "partitions"),
    api(base + "heatmap?seconds=" + state.window[0] + "&step=" + state.window[1])
  ]);
  drawSummary(p);
  drawHeatmap(h);
  drawPartitions(p);
}

function drawSummary(p) {
  const box = document.getElementById("container-summary");
  box.className = "";
  const key = p.partitionKey;
  const t = p.throughput ? p.throughput.ruPerSecond + " RU/s " + p.throughput.kind : "shared with the database";
  box.replaceChildren(
    el("div", { class: "headline", id: "headline" }, p.database + " / " + p.id + ": " + (p.headline || "")),
    el("div", { class: "facts" },
      el("span", {}, "key ", el("b", {}, key.paths.join(", ")), " (" + key.kind + " v" + key.version + ")"),
      el("span", {}, "throughput ", el("b", {}, t)),
      el("span", {}, "physical partitions ", el("b", {}, p.physicalPartitions)),
      el("span", {}, "documents ", el("b", {}, p.documents)),
      el("span", {}, "storage ", el("b", {}, bytes(p.storageBytes))),
      el("span", {}, "container uses ", el("b", {}, pct(p.containerNormalizedRu)))));
}

function drawHeatmap(h) {
  const box = document.getElementById("heatmap");
  const n = h.partitions.length ? h.partitions[0].nru.length : 0;
  const labelW = 70, rowH = 26, top = 6, bottom = 22;
  const width = Math.max(400, box.clientWidth || 900);
  const cellW = (width - labelW - 6) / Math.max(1, n);
  const height = top + rowH * h.partitions.length + bottom;
  const s = svg("svg", { width: width, height: height, id: "heatmap-svg", role: "img" });
  let hottest = null;
  h.partitions.forEach((p, row) => {
    const y = top + row * rowH;
    const gone = p.retiredAt !== undefined;
    const label = svg("text", { x: 4, y: y + rowH / 2 + 4, "font-size": 12, fill: gone ? "#98a2b3" : "#111",
      class: gone ? "retired-label" : "label", "data-partition": p.id });
    label.textContent = "range " + p.id + (gone ? " ✂" : "");
    const labelTip = svg("title");
    labelTip.textContent = gone ? "range " + p.id + ", replaced at " + new Date(p.retiredAt * 1000).toISOString() : "range " + p.id;
    label.append(labelTip);
    s.append(label);
    let peak = 0;
    for (let i = 0; i < n; i++) {
      const v = p.nru[i];
      const unborn = p.createdAt !== undefined && h.from + (i + 1) * h.step <= p.createdAt;
      if ((gone && h.from + i * h.step > p.retiredAt) || unborn) {
        // before a split or merge made it, or after one replaced it, the range does not exist:
        // a blank, not a cold, cell
        s.append(svg("rect", { x: labelW + i * cellW, y: y + rowH / 2 - 0.5, width: Math.max(1, cellW - 0.5), height: 1,
          fill: "#d0d5dd", class: "retired", "data-partition": p.id }));
        continue;
      }
      peak = Math.max(peak, v);
      const rect = svg("rect", {
        x: labelW + i * cellW, y: y + 1, width: Math.max(1, cellW - 0.5), height: rowH - 2,
        fill: heat(v), class: "cell", "data-partition": p.id, "data-nru": v, "data-t": h.from + i * h.step
      });
      const tip = svg("title");
      tip.textContent = "range " + p.id + " at " + new Date((h.from + i * h.step) * 1000).toISOString() +
        ": " + pct(v) + " of " + p.budget + " RU/s (demand " + pct(p.demand[i]) + "), " +
        p.throttled[i] + " 429s, " + p.wouldThrottle[i] + " would-be";
      rect.append(tip);
      s.append(rect);
      const cx = labelW + (i + 0.5) * cellW, cy = y + rowH / 2;
      if (p.throttled[i] > 0) {
        s.append(svg("circle", { cx: cx, cy: cy, r: Math.min(4, cellW / 2), fill: "#111", class: "throttled", "data-partition": p.id }));
      } else if (p.wouldThrottle[i] > 0) {
        s.append(svg("circle", { cx: cx, cy: cy, r: Math.min(3.5, cellW / 2), fill: "none", stroke: "#111", "stroke-width": 1.5, class: "would-throttle", "data-partition": p.id }));
      }
    }
    if (!hottest || peak > hottest.peak) hottest = { id: p.id, peak: peak };
    const rowRect = svg("rect", { x: labelW, y: y + 1, width: n * cellW, height: rowH - 2, fill: "none",
      class: "row" + (peak >= 0.8 ? " hot" : ""), "data-partition": p.id, "data-peak": peak,
      stroke: peak >= 0.8 ? "#b71c1c" : "none", "stroke-width": 1.5 });
    s.append(rowRect);
  });
  for (const e of h.events) {
    const x = labelW + ((e.t - h.from) / h.step) * cellW;
    s.append(svg("line", { x1: x, y1: top, x2: x, y2: height - bottom, stroke: "#2563eb", "stroke-width": 2, "stroke-dasharray": "3,2", class: "event" }));
    const t = svg("text", { x: x + 3, y: height - 8, "font-size": 11, fill: "#2563eb" });
    t.textContent = e.kind + " " + e.before.join("+") + " → " + e.after.join("+");
    s.append(t);
  }
  const axis = svg("text", { x: labelW, y: height - 8, "font-size": 11, fill: "#667085" });
  axis.textContent = new Date(h.from * 1000).toISOString().slice(11, 19);
  const axis2 = svg("text", { x: width - 60, y: height - 8, "font-size": 11, fill: "#667085" });
  axis2.textContent = new Date(h.to * 1000).toISOString().slice(11, 19);
  s.append(axis, axis2);
  s.dataset.hottest = hottest ? hottest.id : "";
  box.replaceChildren(s);
}

function keyList(keys, unit) {
  if (!keys.length) return el("span", { class: "muted" }, "–");
  const d = el("div", { class: "keys" });
  keys.forEach((k, i) => {
    if (i) d.append(", ");
    d.append(el("code", {}, k.key), " " + (unit === "bytes" ? bytes(k.value) : k.value.toFixed(1) + " RU"));
  });
  return d;
}

function drawPartitions(p) {
  const rows = p.partitions.map((r, i) => {
    const next = p.partitions[i + 1];
    return el("tr", { "data-partition": r.id },
      el("td", {}, el("b", {}, r.id)),
      el("td", {}, el("code", { title: r.minEpk + " … " + r.maxEpk }, (r.minEpk || "\"\"").slice(0, 8) + "… " + r.maxEpk.slice(0, 8))),
      el("td", { class: "num" }, r.documents),
      el("td", { class: "num" }, bytes(r.storageBytes)),
      el("td", { class: "nowrap" }, bar(r.normalizedRu), " " + pct(r.normalizedRu)),
      el("td", { class: "num" }, r.totalRu.toFixed(1)),
      el("td", { class: "num" }, r.throttled + " / " + r.wouldThrottle),
      el("td", {}, keyList(r.topKeysByRu, "ru")),
      el("td", {}, keyList(r.topKeysByStorage, "bytes")),
      el("td", {},
        el("button", { onclick: () => act(containerPath(state.db, state.coll) + "partitions/" + encodeURIComponent(r.id) + "/split", {}) }, "split"),
        next ? el("button", { onclick: () => act(containerPath(state.db, state.coll) + "partitions/merge", { left: r.id, right: next.id }), title: "merge with " + next.id }, "merge ↓") : null));
  });
  const table = el("table", { id: "partition-table" },
    el("tr", {}, ...["range", "EPK", "docs", "storage", "normalized RU", "RU total", "429s / would-be", "top keys by RU (last 5–10 min)", "top keys by storage", ""].map(h => el("th", {}, h))),
    ...rows);
  document.getElementById("partitions").replaceChildren(table);
}

async function act(path, body) {
  try {
    await api(path, body);
    await refreshContainer();
  } catch (e) {
    alert(e.message);
  }
}

// ------------------------------------------------------------------ query explorer

async function runQuery() {
  const out = document.getElementById("query-result");
  const text = document.getElementById("query-text").value;
  const pkText = document.getElementById("query-pk").value.trim();
  const paramsText = document.getElementById("query-params").value.trim();
  out.replaceChildren(el("p", { class: "muted" }, "running…"));
  try {
    const body = { query: text, maxItems: 100 };
    if (pkText) body.partitionKey = parseField("partition key", pkText);
    if (paramsText) body.parameters = parseField("parameters", paramsText);
    const r = await api(containerPath(state.db, state.coll) + "query", body);
    out.replaceChildren(
      el("div", { class: "stats", id: "query-stats" },
        el("div", { class: "stat", id: "query-ru" }, el("b", {}, r.requestCharge.toFixed(2) + " RU"), "request charge"),
        el("div", { class: "stat", id: "query-partitions" }, el("b", {}, r.partitionsVisited.join(", ") || "–"),
          r.partitionsVisited.length + " physical partition(s) visited"),
        el("div", { class: "stat" }, el("b", {}, r.retrievedDocuments + " → " + r.outputDocuments), "retrieved → output documents"),
        el("div", { class: "stat" }, el("b", {}, r.retrievedPerOutput.toFixed(1)), "retrieved per output")),
      el("div", { class: "muted" }, r.rows.length + " row(s)" + (r.truncated ? " (first " + r.rows.length + " shown)" : "")
        + (r.partialAggregatePages > 1 ? "; partial aggregates of " + r.partialAggregatePages
          + " pages cut at the query page time: each covers the documents its page read, and an SDK combines them" : "")
        + (r.repeatedDistinctRows > 0 ? "; " + r.repeatedDistinctRows + " value(s) a later page repeated left out:"
          + " DISTINCT is distinct within a page, as on the service, and the SDKs drop repeats" : "")),
      el("pre", { id: "query-rows" }, JSON.stringify(r.rows, null, 2)),
      el("details", {}, el("summary", {}, "query plan"), el("pre", {}, JSON.stringify(r.plan, null, 2))));
  } catch (e) {
    out.replaceChildren(el("p", { class: "error" }, e.message));
  }
}

function parseField(name, text) {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(name + " is not JSON: " + e.message);
  }
}

// ------------------------------------------------------------------ documents

async function loadDocuments(key) {
  if (!state.db) return;
  const q = key ? "?partitionKey=" + encodeURIComponent(key) : "";
  const d = await api(containerPath(state.db, state.coll) + "documents" + q);
  const list = el("table", {},
    el("tr", {}, el("th", {}, "logical partition"), el("th", {}, "range"), el("th", {}, "documents"), el("th", {}, "storage")),
    ...d.largestLogicalPartitions.map(k => el("tr", {},
      el("td", {}, el("a", { href: "#", onclick: ev => { ev.preventDefault(); loadDocuments(k.key); } }, k.key)),
      el("td", {}, k.partitionKeyRangeId), el("td", { class: "num" }, k.documents), el("td", { class: "num" }, bytes(k.bytes)))));
  const box = document.getElementById("documents");
  box.replaceChildren(el("div", { class: "scroll" }, list));
  if (d.documents) {
    box.append(el("h3", {}, "documents of " + JSON.stringify(d.partitionKey) + (d.more ? " (first 100)" : "")),
      el("pre", {}, JSON.stringify(d.documents, null, 2)));
  }
}

// ------------------------------------------------------------------ alerts

async function loadAlerts() {
  const a = await api("alerts");
  const badge = document.getElementById("alerts-badge");
  badge.textContent = a.active.length ? a.active.length + " active alert(s)" : "no alerts";
  badge.classList.toggle("on", a.active.length > 0);
  const box = document.getElementById("alerts");
  box.replaceChildren();
  if (!a.active.length) box.append(el("p", { class: "muted" }, "No active alerts."));
  for (const x of a.active) {
    box.append(el("div", { class: "alert", "data-rule": x.rule },
      el("span", { class: "rule" }, x.rule), " · " + x.database + "/" + x.container +
      (x.partitionKeyRangeId != null ? " · range " + x.partitionKeyRangeId : "") + " · since " + x.since,
      el("div", {}, x.message),
      x.hottestKeys.length ? el("div", { class: "keys" }, "hottest keys: ", ...x.hottestKeys.map(k => el("code", {}, k + " "))) : null));
  }
  if (a.events.length) {
    box.append(el("details", {}, el("summary", {}, "recent starts and stops (" + a.events.length + ")"),
      el("ul", {}, ...a.events.slice(0, 30).map(e => el("li", {}, e.at + " " + e.kind + " " + e.alert.rule + " " + e.alert.database + "/" + e.alert.container)))));
  }
}

// ------------------------------------------------------------------ start

async function refresh() {
  try {
    await Promise.all([loadAccount(), loadAlerts()]);
    await refreshContainer();
  } catch (e) {
    document.getElementById("account-meta").textContent = "error: " + e.message;
  }
}

document.getElementById("query-run").addEventListener("click", runQuery);
document.querySelectorAll(".tabs button").forEach(b => b.addEventListener("click", () => {
  state.window = b.dataset.window.split(",").map(Number);
  document.querySelectorAll(".tabs button").forEach(x => x.classList.toggle("on", x === b));
  refreshContainer();
}));
const fromHash = new URLSearchParams(location.hash.slice(1));
if (fromHash.get("db") && fromHash.get("coll")) {
  state.db = fromHash.get("db");
  state.coll = fromHash.get("coll");
}
refresh().then(() => { if (state.db) loadDocuments(null); });
state.timer = setInterval(refresh, 2000);
