// Draws the lanes of an AG-UI stream from the JSON block #data (written by
// agui-view). Only the visible window is drawn: the events in the visible
// index range and the lanes in the visible rows; when several events fall on
// one pixel column of a lane, one mark stands for them. Runs in a few
// milliseconds per frame at 100,000 events.
"use strict";

// Name tables: the codes of agui-view's page.rs index these.
const CATS = ["run", "lifecycle", "text", "tool", "reasoning", "step", "state", "activity", "messages", "custom", "invalid"];
const CAT_COLOURS = ["#0f172a", "#475569", "#2563eb", "#d97706", "#7c3aed", "#0d9488", "#16a34a", "#0891b2", "#64748b", "#94a3b8", "#be123c"];
const BAR_KINDS = ["text message", "tool call", "reasoning span", "reasoning message", "step"];
const BAR_COLOURS = ["#2563eb", "#d97706", "#a78bfa", "#7c3aed", "#0d9488"];
const STARTS = ["started", "unannounced"];
const ENDS = ["finished", "suspended", "errored", "abandoned", "open"];
const RUN_ENDS = ["finished", "errored", "open"];
const RED = "#dc2626";

// Geometry (CSS pixels).
const LABEL_W = 230, PAD = 7, BAR_H = 11, BAR_GAP = 3, MARK_H = 10, MAX_PPE = 80, AXIS_H = 34;

function reportError(message) {
  document.documentElement.setAttribute("data-error", String(message));
  let banner = document.getElementById("error-banner");
  if (!banner) {
    banner = document.createElement("div");
    banner.id = "error-banner";
    document.body.prepend(banner);
  }
  banner.textContent = "This page failed to draw: " + message;
}
window.addEventListener("error", (e) => reportError(e.message));

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

function ownerName(lane) {
  return lane[0] === null ? "parent" : JSON.stringify(lane[0]).slice(1, -1) || '""';
}

// ---- data -------------------------------------------------------------
const T_SCRIPT = performance.now();
const D = JSON.parse(document.getElementById("data").textContent);
const T_PARSED = performance.now();
const N = D.lane.length;
const COLS = N + 1; // column N holds end-of-input violations
const laneCount = D.lanes.length;
const eventsIn = new Array(laneCount).fill(0);
for (let i = 0; i < N; i++) eventsIn[D.lane[i]]++;
const barsOf = Array.from({ length: laneCount }, () => []);
D.bars.forEach((b, k) => barsOf[b[0]].push(k));
const livesOf = Array.from({ length: laneCount }, () => []);
D.lives.forEach((l) => livesOf[l[0]].push(l));
const flagsAt = new Map();
D.flags.forEach((f, k) => {
  if (!flagsAt.has(f[0])) flagsAt.set(f[0], []);
  flagsAt.get(f[0]).push(k);
});
const flagIndexes = [...flagsAt.keys()].sort((a, b) => a - b);

function laneHeight(l) { return PAD + D.lanes[l][4] * (BAR_H + BAR_GAP) + MARK_H + PAD; }

// ---- view state -------------------------------------------------------
const view = { x0: 0, ppe: 1, hidden: new Set(), selected: -1, entity: null, hover: -1, rows: [], total: 0 };
const $ = (id) => document.getElementById(id);
const scroller = $("scroller"), stage = $("stage"), canvas = $("lanes-canvas");

/** Lays out the rows of the lanes not filtered out. */
function layoutRows() {
  view.rows = [];
  let top = 0;
  for (let l = 0; l < laneCount; l++) {
    if (view.hidden.has(l)) continue;
    const h = laneHeight(l);
    view.rows.push({ lane: l, top, h });
    top += h;
  }
  view.total = top;
  view.rowOf = new Map(view.rows.map((r) => [r.lane, r]));
}

function plotWidth() { return Math.max(50, stage.clientWidth - LABEL_W); }
function fitPpe() { return plotWidth() / COLS; }
function xOf(i) { return LABEL_W + (i - view.x0) * view.ppe; }
function clampView() {
  view.ppe = Math.min(MAX_PPE, Math.max(fitPpe(), view.ppe));
  const span = plotWidth() / view.ppe;
  view.x0 = Math.min(Math.max(0, view.x0), Math.max(0, COLS - span));
}

function sizeCanvas(c, w, h) {
  const dpr = window.devicePixelRatio || 1;
  if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
    c.width = Math.round(w * dpr);
    c.height = Math.round(h * dpr);
    c.style.width = w + "px";
    c.style.height = h + "px";
  }
  const ctx = c.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return ctx;
}

// ---- drawing ----------------------------------------------------------
function visibleRows() {
  const y0 = scroller.scrollTop, y1 = y0 + stage.clientHeight;
  return view.rows.filter((r) => r.top + r.h > y0 && r.top < y1);
}

function drawLanes() {
  const w = stage.clientWidth, h = stage.clientHeight;
  const ctx = sizeCanvas(canvas, w, h);
  ctx.clearRect(0, 0, w, h);
  const y0 = scroller.scrollTop;
  const rows = visibleRows();
  const first = Math.max(0, Math.floor(view.x0) - 1);
  const last = Math.min(N - 1, Math.ceil(view.x0 + plotWidth() / view.ppe) + 1);
  ctx.save();
  ctx.beginPath();
  ctx.rect(LABEL_W, 0, w - LABEL_W, h);
  ctx.clip();
  // Runs: shading of every other run, a rule at each start (not closer
  // than 6 px to the last one: many short runs would grey everything).
  let lastRule = -1e9;
  D.runs.forEach((r, k) => {
    const a = xOf(r[0]), b = xOf(r[1] + 1);
    if (b < LABEL_W || a > w || a - lastRule < 6) return;
    lastRule = a;
    if (k % 2 === 1) { ctx.fillStyle = "#f8fafc"; ctx.fillRect(a, 0, b - a, h); }
    ctx.fillStyle = "#94a3b8";
    ctx.fillRect(Math.round(a), 0, 1, h);
  });
  for (const row of rows) drawRow(ctx, row, row.top - y0, first, last);
  drawMarks(ctx, rows, y0, first, last);
  ctx.restore();
  drawLabels(rows, y0);
  drawFlags(rows, y0, first, last);
  let marks = 0;
  for (const r of rows) marks += r.drawn || 0;
  stage.dataset.drawnMarks = String(marks);
}

function drawRow(ctx, row, top, first, last) {
  const l = row.lane;
  ctx.fillStyle = "#e2e8f0";
  ctx.fillRect(LABEL_W, top + row.h - 1, stage.clientWidth, 1);
  // Lifecycle stretches: a band, a start glyph and an end glyph.
  for (const [, from, to, start, end] of livesOf[l]) {
    const a = xOf(from), b = xOf(to + 1);
    if (b < LABEL_W || a > stage.clientWidth) continue;
    ctx.fillStyle = start === 1 ? "rgba(250,204,21,.10)" : "rgba(100,116,139,.08)";
    ctx.fillRect(a, top + 1, b - a, row.h - 3);
    if (start === 1) {
      ctx.setLineDash([3, 3]);
      ctx.strokeStyle = "#ca8a04";
      ctx.strokeRect(a + 0.5, top + 1.5, Math.max(1, b - a - 1), row.h - 4);
      ctx.setLineDash([]);
    } else {
      ctx.fillStyle = "#16a34a";
      ctx.beginPath();
      ctx.moveTo(a, top + 2); ctx.lineTo(a + 6, top + 6); ctx.lineTo(a, top + 10);
      ctx.fill();
    }
    drawEnd(ctx, b, top, row.h, end);
  }
  // Entity bars.
  const barTop = top + PAD;
  for (const k of barsOf[l]) {
    const [, kind, from, to, closed, chunk, track, id] = D.bars[k];
    if (to < first - 1 || from > last + 1) continue;
    const a = xOf(from), b = Math.max(a + 2, xOf(to + 1));
    const y = barTop + track * (BAR_H + BAR_GAP);
    ctx.globalAlpha = chunk ? 0.55 : 0.85;
    ctx.fillStyle = BAR_COLOURS[kind];
    ctx.fillRect(a, y, b - a, BAR_H);
    ctx.globalAlpha = 1;
    if (!closed) {
      // Open where it stops: a ragged end.
      ctx.fillStyle = "#fff";
      for (let s = 0; s < BAR_H; s += 4) ctx.fillRect(b - 3, y + s, 3, 2);
    }
    if (id === view.entity) {
      // The entity of the selected event, wherever its bar is.
      ctx.strokeStyle = "#0f172a";
      ctx.lineWidth = 2;
      ctx.strokeRect(a - 1, y - 1, b - a + 2, BAR_H + 2);
      ctx.lineWidth = 1;
    }
    if (b - a > 60) {
      ctx.fillStyle = "#fff";
      ctx.font = "10px system-ui, sans-serif";
      ctx.fillText(id, Math.max(a, LABEL_W) + 4, y + BAR_H - 2, b - Math.max(a, LABEL_W) - 8);
    }
  }
}

function drawEnd(ctx, x, top, h, end) {
  const y = top + 2;
  ctx.lineWidth = 2;
  if (end === 0) { // finished: a check mark
    ctx.strokeStyle = "#16a34a";
    ctx.beginPath(); ctx.moveTo(x - 9, y + 4); ctx.lineTo(x - 6, y + 7); ctx.lineTo(x - 1, y + 1); ctx.stroke();
  } else if (end === 1) { // suspended: pause bars
    ctx.fillStyle = "#d97706";
    ctx.fillRect(x - 8, y, 2, 8); ctx.fillRect(x - 4, y, 2, 8);
  } else if (end === 2 || end === 3) { // errored / abandoned: a cross
    ctx.strokeStyle = end === 2 ? RED : "#7f1d1d";
    ctx.beginPath(); ctx.moveTo(x - 8, y); ctx.lineTo(x - 1, y + 7); ctx.moveTo(x - 1, y); ctx.lineTo(x - 8, y + 7); ctx.stroke();
    if (end === 3) { ctx.fillStyle = "#7f1d1d"; ctx.fillRect(x - 1, top + 1, 1, h - 3); }
  }
  ctx.lineWidth = 1;
}

/** One pass over the visible events; one mark per lane and pixel column. */
function drawMarks(ctx, rows, y0, first, last) {
  const lastCol = new Map();
  for (const r of rows) { r.drawn = 0; lastCol.set(r.lane, -1e9); }
  const wide = view.ppe >= 3;
  const mw = wide ? Math.min(12, Math.max(2, view.ppe * 0.55)) : 1;
  for (let i = first; i <= last; i++) {
    const l = D.lane[i];
    const row = view.rowOf.get(l);
    if (!row || !lastCol.has(l)) continue;
    const x = xOf(i + 0.5);
    const col = Math.floor(x);
    if (col === lastCol.get(l)) continue;
    lastCol.set(l, col);
    const y = row.top - y0 + row.h - PAD - MARK_H;
    ctx.fillStyle = CAT_COLOURS[D.cat[i]];
    if (wide) ctx.fillRect(x - mw / 2, y, mw, MARK_H);
    else ctx.fillRect(col, y, 1, MARK_H);
    if (wide && flagsAt.has(i)) {
      ctx.strokeStyle = RED;
      ctx.lineWidth = 2;
      ctx.strokeRect(x - mw / 2 - 1, y - 1, mw + 2, MARK_H + 2);
      ctx.lineWidth = 1;
    }
    if (i === view.selected || i === view.hover) {
      ctx.strokeStyle = i === view.selected ? "#0f172a" : "#2563eb";
      ctx.lineWidth = 2;
      ctx.strokeRect(x - mw / 2 - 3, y - 3, mw + 6, MARK_H + 6);
      ctx.lineWidth = 1;
    }
    row.drawn++;
  }
}

const STATUS = { 0: "finished", 1: "suspended", 2: "errored", 3: "abandoned", 4: "open" };
function laneStatus(l) {
  const lives = livesOf[l];
  if (l === 0 || lives.length === 0) return null;
  const lastLife = lives[lives.length - 1];
  if (lastLife[3] === 1 && lastLife[4] === 4) return "unannounced";
  return STATUS[lastLife[4]] === "open" ? "running" : STATUS[lastLife[4]];
}

function drawLabels(rows, y0) {
  const box = $("labels");
  box.replaceChildren(...rows.map((r) => {
    const lane = D.lanes[r.lane];
    const label = el("div", { class: "lane-label", "data-lane": String(r.lane), style: `top:${r.top - y0}px;height:${r.h - 1}px;width:${LABEL_W}px;padding-left:${10 + lane[3] * 14}px` });
    if (lane[3] > 0) label.append(el("span", { class: "tree" }, "└"));
    label.append(el("span", { class: "owner" }, ownerName(lane)));
    if (lane[1]) label.append(el("span", { class: "name" }, lane[1]));
    const status = laneStatus(r.lane);
    if (status) label.append(el("span", { class: "status " + status }, status));
    return label;
  }));
}

/** Violations as DOM markers (so they can be read and clicked): one per
 * lane and pixel column, at most 400. */
function drawFlags(rows, y0, first, last) {
  const layer = $("flag-layer");
  const out = [], seen = new Set();
  const visible = new Set(rows.map((r) => r.lane));
  for (const at of flagIndexes) {
    if (at < first || at > last + 1 || out.length >= 400) continue;
    for (const k of flagsAt.get(at)) {
      const [, lane, rule] = D.flags[k];
      const x = Math.round(xOf(at + 0.5));
      const key = lane + ":" + x;
      if (!visible.has(lane) || seen.has(key) || x < LABEL_W) continue;
      seen.add(key);
      const row = view.rowOf.get(lane);
      const f = el("div", { class: "flag", "data-rule": rule, "data-index": String(at), style: `left:${x}px;top:${row.top - y0}px;height:${row.h - 1}px` });
      if (view.ppe >= 6 || flagIndexes.length < 30) f.append(el("span", { class: "rule" }, rule));
      f.addEventListener("click", () => select(at, true));
      out.push(f);
    }
  }
  // Pins (a report's expected and answered indexes) cross every lane.
  for (const [at, label, kind] of D.pins || []) {
    const x = Math.round(xOf(at + 0.5));
    if (at < first || at > last + 1 || x < LABEL_W) continue;
    const p = el("div", { class: "pin pin-" + kind, "data-pin": kind, "data-index": String(at), style: `left:${x}px;top:0;height:${Math.max(0, view.total - y0)}px` },
      el("span", { class: "label" }, label));
    p.addEventListener("click", () => select(at, true));
    out.push(p);
  }
  layer.replaceChildren(...out);
}

function drawAxis() {
  const c = $("axis-canvas"), w = c.parentElement.clientWidth, h = AXIS_H;
  const ctx = sizeCanvas(c, w, h);
  ctx.clearRect(0, 0, w, h);
  ctx.font = "11px system-ui, sans-serif";
  ctx.fillStyle = "#64748b";
  ctx.fillText("event index", 10, 28);
  const raw = 90 / view.ppe;
  const pow = Math.pow(10, Math.floor(Math.log10(Math.max(1, raw))));
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw) || pow * 10;
  const start = Math.ceil(view.x0 / step) * step;
  for (let i = start; i < view.x0 + plotWidth() / view.ppe; i += step) {
    const x = xOf(i + 0.5);
    ctx.fillStyle = "#cbd5e1"; ctx.fillRect(Math.round(x), 22, 1, 12);
    ctx.fillStyle = "#64748b"; ctx.fillText(String(i), x + 3, 31);
  }
  ctx.font = "600 11px system-ui, sans-serif";
  for (const [from, to, runId, end] of D.runs) {
    const a = Math.max(LABEL_W, xOf(from)), b = xOf(to + 1);
    if (b < LABEL_W || a > w || b - a < 30) continue;
    ctx.fillStyle = end === 1 ? RED : "#0f172a";
    ctx.fillText(`run ${runId ?? "?"} · ${RUN_ENDS[end]}`, a + 4, 13, b - a - 8);
  }
}

function drawOverview() {
  const c = $("overview-canvas"), w = c.parentElement.clientWidth, h = 34;
  const ctx = sizeCanvas(c, w, h);
  ctx.clearRect(0, 0, w, h);
  const pw = w - LABEL_W, scale = pw / COLS;
  const density = new Float32Array(Math.ceil(pw) + 1);
  for (let i = 0; i < N; i++) if (!view.hidden.has(D.lane[i])) density[Math.floor(i * scale)]++;
  let max = 1;
  for (const d of density) max = Math.max(max, d);
  ctx.fillStyle = "#94a3b8";
  density.forEach((d, x) => { if (d) { const bh = 3 + (h - 12) * d / max; ctx.fillRect(LABEL_W + x, h - bh - 2, 1, bh); } });
  ctx.fillStyle = "#0f172a";
  if (D.runs.length < pw / 6) for (const r of D.runs) ctx.fillRect(LABEL_W + Math.floor(r[0] * scale), 0, 1, h);
  ctx.fillStyle = RED;
  for (const at of flagIndexes) ctx.fillRect(LABEL_W + Math.floor(at * scale), 0, 2, 8);
  ctx.font = "11px system-ui, sans-serif";
  ctx.fillStyle = "#64748b";
  ctx.fillText("whole stream", 10, 21);
  const brush = $("brush");
  brush.style.left = LABEL_W + view.x0 * scale + "px";
  brush.style.width = Math.max(3, (plotWidth() / view.ppe) * scale) + "px";
}

let pending = false;
function redraw() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => { pending = false; drawAll(); });
}
function drawAll() {
  clampView();
  drawLanes();
  drawAxis();
  drawOverview();
}

// ---- details ----------------------------------------------------------
function typeOf(i) {
  const e = D.events[i];
  return e && typeof e === "object" && typeof e.type === "string" ? e.type : "(not an event)";
}

function violationNodes(at) {
  return (flagsAt.get(at) || []).map((k) => {
    const [, , rule, message] = D.flags[k];
    const [statement, severity, obligation] = D.rules[rule] || ["", "", ""];
    return el("div", { class: "violation", "data-rule": rule },
      el("a", { href: D.rulesHref + "#" + rule, target: "_blank", rel: "noopener" }, rule),
      el("span", { class: "sev" }, `${severity} · consumer ${obligation}`),
      el("div", {}, message),
      el("div", { class: "statement" }, statement));
  });
}

/** The event with `type` and `subagentRunId` first (the data block's keys
 * are sorted). */
function typeFirst(e) {
  if (!e || typeof e !== "object" || Array.isArray(e)) return e;
  const { type, subagentRunId, ...rest } = e;
  const out = {};
  if (type !== undefined) out.type = type;
  if (subagentRunId !== undefined) out.subagentRunId = subagentRunId;
  return Object.assign(out, rest);
}

function showDetail(i) {
  const body = $("detail-body");
  if (i < 0) return;
  const head = el("div", { class: "head" }, `#${i} ${i < N ? typeOf(i) : "end of input"} `);
  if (i < N) head.append(el("code", {}, `in lane ${ownerName(D.lanes[D.lane[i]])}`));
  const nodes = [head, ...violationNodes(i)];
  if (i < N) nodes.push(el("pre", { id: "event-json" }, JSON.stringify(typeFirst(D.events[i]), null, 2)));
  body.replaceChildren(...nodes);
  body.dataset.index = String(i);
}

/** The id of the entity an event opens, continues or closes. */
function entityOf(i) {
  const e = D.events[i];
  if (!e || typeof e !== "object") return null;
  return e.messageId ?? e.toolCallId ?? e.stepName ?? e.entityId ?? null;
}

function select(i, centre) {
  view.selected = i;
  view.entity = i < N ? entityOf(i) : null;
  showDetail(i);
  for (const item of document.querySelectorAll("#flag-list .item")) item.classList.toggle("selected", item.dataset.index === String(i));
  if (centre) {
    const span = plotWidth() / view.ppe;
    if (i < view.x0 || i > view.x0 + span - 1) view.x0 = i - span / 2;
    const row = i < N && view.rowOf.get(D.lane[i]);
    if (row && (row.top < scroller.scrollTop || row.top + row.h > scroller.scrollTop + stage.clientHeight)) {
      scroller.scrollTop = row.top - stage.clientHeight / 3;
    }
  }
  redraw();
}

function buildFlagList() {
  const list = $("flag-list");
  const left = D.leftOut ? D.leftOut.flags : 0;
  if (D.flags.length === 0) {
    list.append(el("p", { class: "none" }, left ? `No violation on this page; ${left} left out (see above).` : "No violations: the stream is accepted."));
    return;
  }
  const shown = D.flags.slice(0, 1000).map(([at, lane, rule, message]) => {
    const item = el("div", { class: "item", "data-index": String(at), "data-rule": rule },
      el("span", { class: "at" }, "#" + at),
      el("a", { href: D.rulesHref + "#" + rule, target: "_blank", rel: "noopener" }, rule),
      el("span", { class: "msg" }, `${ownerName(D.lanes[lane])}: ${message}`));
    item.addEventListener("click", (e) => { if (e.target.tagName !== "A") select(at, true); });
    return item;
  });
  list.append(...shown);
  if (D.flags.length > 1000) list.append(el("p", { class: "hint" }, `… ${D.flags.length - 1000} more; step through them with “violation ▶”.`));
}

/** What a page drawn within a byte budget left out (agui-view's picture.rs). */
function leftOutText(o) {
  const parts = [];
  if (o.drawn < o.total) {
    parts.push(`events #${o.drawn.toLocaleString("en")}–#${(o.total - 1).toLocaleString("en")} of ${o.total.toLocaleString("en")} (${o.bytes.toLocaleString("en")} bytes of JSON) are not drawn`);
  }
  if (o.shortened) parts.push(`${o.shortened} large event${o.shortened === 1 ? " is" : "s are"} shown shortened`);
  if (o.flags) parts.push(`${o.flags} violation${o.flags === 1 ? " is" : "s are"} not on the page`);
  return `This page keeps within ${o.budget.toLocaleString("en")} bytes (--html-max-bytes): ${parts.join("; ")}. The report lists every violation.`;
}

function buildSummary() {
  const errors = D.flags.filter((f) => (D.rules[f[2]] || [])[1] === "error").length;
  const verdict = D.verdict || (errors ? "reject" : "accept");
  $("summary").append(
    el("span", { class: "verdict-" + verdict }, verdict), ` · ${N.toLocaleString("en")} events · ${D.runs.length} run${D.runs.length === 1 ? "" : "s"} · ${laneCount} lane${laneCount === 1 ? "" : "s"} · ${D.flags.length} violation${D.flags.length === 1 ? "" : "s"}`);
  if (D.leftOut) $("top").append(el("p", { id: "left-out" }, leftOutText(D.leftOut)));
  const legend = $("legend");
  [["text", 2], ["tool call", 3], ["reasoning", 4], ["step", 5], ["state", 6], ["activity", 7], ["lifecycle", 1], ["run", 0]].forEach(([name, c]) =>
    legend.append(el("span", {}, el("i", { style: "background:" + CAT_COLOURS[c] }), name)));
  legend.append(el("span", {}, el("i", { style: "background:" + RED }), "violation"));
}

/** Built when first opened: a stream can have tens of thousands of lanes. */
function buildOwnerList() {
  const list = $("owner-list");
  if (list.childElementCount) return;
  const all = el("button", { type: "button" }, "all"), none = el("button", { type: "button" }, "none");
  list.append(el("div", { class: "bulk" }, all, none));
  const boxes = D.lanes.map((lane, l) => {
    const box = el("input", { type: "checkbox", "data-lane": String(l) });
    box.checked = !view.hidden.has(l);
    box.addEventListener("change", () => { if (box.checked) view.hidden.delete(l); else view.hidden.add(l); refilter(); });
    list.append(el("label", { style: `padding-left:${lane[3] * 14}px` }, box, " " + ownerName(lane) + (lane[1] ? " " + lane[1] : ""), el("span", { class: "count" }, String(eventsIn[l]))));
    return box;
  });
  const setAll = (on) => { boxes.forEach((b, l) => { b.checked = on; if (on) view.hidden.delete(l); else view.hidden.add(l); }); refilter(); };
  all.addEventListener("click", () => setAll(true));
  none.addEventListener("click", () => setAll(false));
}

function refilter() {
  layoutRows();
  $("spacer").style.height = Math.max(0, view.total - stage.clientHeight) + "px";
  redraw();
}

// ---- interaction ------------------------------------------------------
function hit(mx, my) {
  const y = my + scroller.scrollTop;
  const row = view.rows.find((r) => y >= r.top && y < r.top + r.h);
  if (!row || mx < LABEL_W) return -1;
  const at = view.x0 + (mx - LABEL_W) / view.ppe;
  const reach = Math.max(1, Math.ceil(5 / view.ppe));
  const centre = Math.floor(at);
  for (let d = 0; d <= reach; d++) {
    for (const i of [centre - d, centre + d]) if (i >= 0 && i < N && D.lane[i] === row.lane) return i;
  }
  return -1;
}

function showTip(i, mx, my) {
  const tip = $("tip");
  if (i < 0) { tip.hidden = true; return; }
  const json = JSON.stringify(typeFirst(D.events[i]));
  tip.replaceChildren(el("b", {}, `#${i} ${typeOf(i)}`), ` · ${ownerName(D.lanes[D.lane[i]])}`,
    ...(flagsAt.get(i) || []).map((k) => el("div", { class: "v" }, "✖ " + D.flags[k][2])),
    el("pre", {}, json.length > 400 ? json.slice(0, 400) + "…" : json));
  tip.hidden = false;
  const left = Math.min(mx + 14, stage.clientWidth - 470);
  tip.style.left = Math.max(LABEL_W, left) + "px";
  tip.style.top = Math.min(my + 14, stage.clientHeight - 120) + "px";
}

function zoomAt(factor, mx) {
  const at = view.x0 + (mx - LABEL_W) / view.ppe;
  view.ppe *= factor;
  clampView();
  view.x0 = at - (mx - LABEL_W) / view.ppe;
  redraw();
}

function wire() {
  let drag = null;
  canvas.addEventListener("mousedown", (e) => { drag = { x: e.clientX, x0: view.x0, moved: false }; });
  window.addEventListener("mouseup", (e) => {
    if (drag && !drag.moved) {
      const r = canvas.getBoundingClientRect();
      const i = hit(e.clientX - r.left, e.clientY - r.top);
      if (i >= 0) select(i, false);
    }
    drag = null;
  });
  canvas.addEventListener("mousemove", (e) => {
    const r = canvas.getBoundingClientRect();
    const mx = e.clientX - r.left, my = e.clientY - r.top;
    if (drag) {
      const dx = e.clientX - drag.x;
      if (Math.abs(dx) > 3) drag.moved = true;
      if (drag.moved) { view.x0 = drag.x0 - dx / view.ppe; showTip(-1); redraw(); return; }
    }
    const i = hit(mx, my);
    if (i !== view.hover) { view.hover = i; if (view.selected < 0 && i >= 0) showDetail(i); redraw(); }
    showTip(i, mx, my);
  });
  canvas.addEventListener("mouseleave", () => { view.hover = -1; showTip(-1); redraw(); });
  scroller.addEventListener("wheel", (e) => {
    const r = canvas.getBoundingClientRect();
    if (e.ctrlKey || e.metaKey) { e.preventDefault(); zoomAt(e.deltaY < 0 ? 1.25 : 0.8, e.clientX - r.left); }
    else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
      e.preventDefault();
      view.x0 += (e.shiftKey ? e.deltaY : e.deltaX) / view.ppe;
      redraw();
    }
  }, { passive: false });
  scroller.addEventListener("scroll", redraw);
  window.addEventListener("resize", () => { sizeStage(); redraw(); });
  const overview = $("overview");
  const jump = (e) => {
    const r = overview.getBoundingClientRect();
    const at = (e.clientX - r.left - LABEL_W) / ((r.width - LABEL_W) / COLS);
    view.x0 = at - plotWidth() / view.ppe / 2;
    redraw();
  };
  overview.addEventListener("mousedown", (e) => { jump(e); const move = (m) => jump(m); window.addEventListener("mousemove", move); window.addEventListener("mouseup", () => window.removeEventListener("mousemove", move), { once: true }); });
  const centreX = () => LABEL_W + plotWidth() / 2;
  $("zoom-in").addEventListener("click", () => zoomAt(2, centreX()));
  $("zoom-out").addEventListener("click", () => zoomAt(0.5, centreX()));
  $("zoom-fit").addEventListener("click", () => { view.ppe = 0; view.x0 = 0; redraw(); });
  const step = (dir) => {
    const from = view.selected;
    const next = dir > 0 ? flagIndexes.find((a) => a > from) : [...flagIndexes].reverse().find((a) => a < from);
    if (next !== undefined) select(next, true);
  };
  $("next-flag").addEventListener("click", () => step(1));
  $("prev-flag").addEventListener("click", () => step(-1));
  window.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT") return;
    const keys = { "+": () => zoomAt(2, centreX()), "=": () => zoomAt(2, centreX()), "-": () => zoomAt(0.5, centreX()), "0": () => $("zoom-fit").click(), n: () => step(1), p: () => step(-1),
      ArrowLeft: () => { view.x0 -= plotWidth() / view.ppe / 4; redraw(); }, ArrowRight: () => { view.x0 += plotWidth() / view.ppe / 4; redraw(); } };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
}

function sizeStage() {
  stage.style.height = scroller.clientHeight + "px";
  $("spacer").style.height = Math.max(0, view.total - scroller.clientHeight) + "px";
}

// ---- start ------------------------------------------------------------
function start() {
  buildSummary();
  $("owners").addEventListener("toggle", buildOwnerList);
  // `#owners=a,b` shows only those lanes (`parent` is the parent agent).
  const only = /owners=([^&]*)/.exec(location.hash);
  if (only) {
    const keep = new Set(only[1].split(",").map(decodeURIComponent));
    D.lanes.forEach((lane, l) => { if (!keep.has(ownerName(lane))) view.hidden.add(l); });
  }
  buildFlagList();
  layoutRows();
  sizeStage();
  wire();
  // Opening zoom: the whole stream, but no wider than 28 px an event.
  view.ppe = Math.min(28, fitPpe());
  const m = /event=(\d+)/.exec(location.hash);
  if (m) select(Number(m[1]), true);
  else if (flagIndexes.length) select(flagIndexes[0], true);
  else if ((D.pins || []).length) select(D.pins[0][0], true);
  drawAll();
  // Read by the browser test and the render-time measurement.
  document.body.dataset.firstDrawMs = performance.now().toFixed(1);
  document.body.dataset.scriptStartMs = T_SCRIPT.toFixed(1);
  document.body.dataset.parseMs = (T_PARSED - T_SCRIPT).toFixed(1);
  document.body.dataset.ready = "true";
}

try { start(); } catch (e) { reportError(e && e.stack ? e.stack : e); }
